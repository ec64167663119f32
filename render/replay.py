"""A game's replay as a small animated GIF: replay the move log with the engine, draw sampled boards.

Generic over games: `replay_views` needs only the engine contract (a game definition, the table's
seats, options and seed, and the (seat, notation) log), `gif` only a board renderer
(`view, names -> PNG`). Kept small for a chat post: at most `MAX_FRAMES` frames, each downscaled
to `FRAME_WIDTH` and reduced to an adaptive palette.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from PIL import Image

from render import kit
from rules.engine import GameDefinition

MAX_FRAMES = 24
FRAME_WIDTH = 480
FRAME_MS = 700
LAST_FRAME_MS = 3000  # linger on the final board before the loop starts over
COLOURS = 128
STRIP_HEIGHT = 120  # pixels of each board in a "since your last turn" strip

BoardRenderer = Callable[[dict[str, Any], list[str]], bytes]


def sample_points(total_moves: int, max_frames: int = MAX_FRAMES) -> list[int]:
    """Move counts to draw (0 = the deal, total = the end), evenly spread, at most max_frames."""
    if max_frames < 2 or total_moves <= 0:
        return [total_moves] if total_moves > 0 else [0]
    if total_moves + 1 <= max_frames:
        return list(range(total_moves + 1))
    step = total_moves / (max_frames - 1)
    return sorted({round(i * step) for i in range(max_frames)})


def replay_views(
    definition: GameDefinition,
    num_seats: int,
    options: Mapping[str, Any],
    seed: int,
    moves: Iterable[tuple[int, str]],
    max_frames: int = MAX_FRAMES,
) -> list[dict[str, Any]]:
    """The public views after the sampled move counts, rebuilt from the log (never a seat's view)."""
    log = list(moves)
    points = set(sample_points(len(log), max_frames))
    state = definition.new_game(num_seats, options, seed)
    views = [state.view(None)] if 0 in points else []
    for done, (seat, text) in enumerate(log, start=1):
        state.apply(seat, text)
        if done in points:
            views.append(state.view(None))
    return views


def _frame(png: bytes, width: int) -> Image.Image:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    if image.width > width:
        image = image.resize((width, max(1, round(image.height * width / image.width))), Image.Resampling.LANCZOS)
    return image


def gif(views: list[dict[str, Any]], names: list[str], board: BoardRenderer | None = None,
        width: int = FRAME_WIDTH) -> bytes:
    """An animated GIF of the given public views (one frame each), looping, last frame held longer."""
    if not views:
        raise ValueError("no views to animate")
    if board is None:
        import render

        board = render.board_png
    frames = [_frame(board(view, list(names)), width) for view in views[:MAX_FRAMES]]
    # Every frame must share one size for a clean animation (a board may grow a row mid-game).
    size = (max(f.width for f in frames), max(f.height for f in frames))
    canvas = []
    for frame in frames:
        if frame.size != size:
            padded = Image.new("RGB", size, "white")
            padded.paste(frame, (0, 0))
            frame = padded
        canvas.append(frame.quantize(COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE))
    durations = [FRAME_MS] * (len(canvas) - 1) + [LAST_FRAME_MS]
    out = io.BytesIO()
    canvas[0].save(out, "GIF", save_all=True, append_images=canvas[1:], duration=durations, loop=0,
                   disposal=1)
    return out.getvalue()


def replay_gif(views: list[dict[str, Any]], names: list[str], board: BoardRenderer | None = None) -> bytes:
    """Top-level entry for the render pool (picklable): the GIF of already sampled views."""
    return gif(views, names, board)


def strip(boards: Iterable[bytes | Image.Image], height: int = STRIP_HEIGHT) -> bytes:
    """Board images side by side, each scaled to `height` pixels, as one small PNG.

    A board is PNG bytes or a drawn image not yet encoded (render.board_image: no PNG is made only to
    be scaled down, issue 29). Each is scaled as it comes, so a generator of drawings holds one
    full-size board at a time."""
    scaled = [_thumbnail(board, height) for board in boards]
    gap = 6
    strip = Image.new("RGB", (sum(im.width for im in scaled) + gap * (len(scaled) - 1), height), "white")
    x = 0
    for im in scaled:
        strip.paste(im, (x, 0))
        x += im.width + gap
    return kit.encode(strip)


def _thumbnail(board: bytes | Image.Image, height: int) -> Image.Image:
    image = Image.open(io.BytesIO(board)) if isinstance(board, bytes) else board
    image = image.convert("RGB")
    # reducing_gap: a box reduction first, then the filter on 3x the target size; the same to the eye,
    # in a fifth of the time of the filter over every pixel of a 2-million-pixel board.
    return image.resize((max(1, round(image.width * height / image.height)), height), reducing_gap=3.0)
