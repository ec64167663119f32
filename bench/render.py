"""Board image bench: per game, image size, bytes and render + encode time, and PNG against lossless WebP.

    python bench/render.py [--games ttr_cards,trans_europa] [--seats 4] [--positions 8] [--repeat 3]
    python bench/render.py --images docs/images     # also write the README's board images (mid-game, seed 1)

Positions come from greedy AI games (seeds 1, 2) at `--seats` players (clamped to each game's
range), spread over the whole game. Times are CPU time of this process (time.process_time, the
median over positions of the best of `--repeat` runs), so other load on the machine inflates them
less than wall time; render + encode is one `render.board_png` call, as the bot makes it.
The encoder table re-encodes the same drawn images (captured before `kit.encode`) with each candidate.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image  # noqa: E402

import render  # noqa: E402
from render import kit  # noqa: E402
from rules import registry  # noqa: E402
from rules.engine import play_out  # noqa: E402

NAMES = ["Bartholomew Featherstonehaugh", "山田太郎", "Ann", "長谷川まりこ", "Zoë", "李"]


def _views(game_key: str, seats: int, count: int) -> list[dict[str, Any]]:
    """`count` public views spread over two greedy games (seeds 1 and 2)."""
    definition = registry.get(game_key)
    seats = max(definition.min_players, min(definition.max_players, seats))
    views: list[dict[str, Any]] = []
    for seed in (1, 2):
        state = definition.new_game(seats, {}, seed)
        players = {seat: definition.ai("greedy") for seat in range(seats)}
        snapshots: list[dict[str, Any]] = []
        play_out(state, players, on_move=lambda *_, state=state, snapshots=snapshots: snapshots.append(state.view(None)))
        step = max(1, len(snapshots) // (count // 2))
        views.extend(snapshots[step - 1::step][: count // 2])
    return views


def _best(function: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()
        out = function()
        best = min(best, time.process_time() - start)
    return best, out


def _png(level: int, octree: bool = False) -> Callable[[Image.Image], bytes]:
    def encode(image: Image.Image) -> bytes:
        quantized = image.quantize(256, method=Image.Quantize.FASTOCTREE) if octree else kit.quantize(image)
        out = io.BytesIO()
        quantized.save(out, format="PNG", compress_level=level)
        return out.getvalue()
    return encode


def _webp(quality: int, method: int, palette: bool = True) -> Callable[[Image.Image], bytes]:
    def encode(image: Image.Image) -> bytes:
        source = kit.quantize(image) if palette else image
        out = io.BytesIO()
        source.save(out, format="WEBP", lossless=True, quality=quality, method=method)
        return out.getvalue()
    return encode


ENCODERS: dict[str, Callable[[Image.Image], bytes]] = {
    "kit.encode (current)": kit.encode,
    "PNG octree of every pixel, level 1": _png(1, octree=True),
    "PNG 256 colours, level 1": _png(1),
    "PNG 256 colours, level 2": _png(2),
    "PNG 256 colours, level 3": _png(3),
    "PNG 256 colours, level 4": _png(4),
    "PNG 256 colours, level 6": _png(6),
    "WebP lossless 256 colours, m0": _webp(0, 0),
    "WebP lossless 256 colours, q25 m1": _webp(25, 1),
    "WebP lossless RGB, q25 m1": _webp(25, 1, palette=False),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(registry.GAMES))
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--lang", default="en")
    parser.add_argument("--images", type=Path, help="write <game>.png there: the board halfway through game seed 1")
    args = parser.parse_args()
    captured: list[Image.Image] = []
    encode = kit.encode

    def capture(image: Image.Image, exact: bool = False) -> bytes:
        captured.append(image)
        return encode(image, exact)

    print(f"{'game':<15}{'image px':>12}{'bytes median':>14}{'bytes max':>11}{'render+encode ms':>18}{'encode ms':>11}")
    by_encoder: dict[str, dict[str, list[tuple[int, float]]]] = {name: {} for name in ENCODERS}
    for game_key in args.games.split(","):
        views = _views(game_key, args.seats, args.positions)
        if args.images is not None:
            args.images.mkdir(parents=True, exist_ok=True)
            (args.images / f"{game_key}.png").write_bytes(render.board_png(views[len(views) // 4], NAMES, args.lang))
        sizes, times, encodes, shapes = [], [], [], set()
        for view in views:
            render.board_png(view, NAMES, args.lang)  # warm the static layers of this language
            elapsed, data = _best(lambda view=view: render.board_png(view, NAMES, args.lang), args.repeat)
            times.append(elapsed)
            sizes.append(len(data))
            with Image.open(io.BytesIO(data)) as image:
                shapes.add(f"{image.width}x{image.height}")
            kit.encode = capture  # type: ignore[assignment]
            try:
                captured.clear()
                render.board_png(view, NAMES, args.lang)
            finally:
                kit.encode = encode  # type: ignore[assignment]
            drawn = captured[-1]
            encodes.append(_best(lambda drawn=drawn: encode(drawn), args.repeat)[0])
            for name, encoder in ENCODERS.items():
                seconds, out = _best(lambda encoder=encoder, drawn=drawn: encoder(drawn), 1 if "RGB" in name else args.repeat)
                by_encoder[name].setdefault(game_key, []).append((len(out), seconds))
        heights = sorted(int(s.split("x")[1]) for s in shapes)
        shape = f"{sorted(shapes)[0].split('x')[0]}x{heights[0]}" + (f"-{heights[-1]}" if len(heights) > 1 else "")
        print(f"{game_key:<15}{shape:>12}{statistics.median(sizes) / 1024:>12.0f} KB{max(sizes) / 1024:>8.0f} KB"
              f"{statistics.median(times) * 1000:>18.1f}{statistics.median(encodes) * 1000:>11.1f}")
    print()
    print("encoders on the same drawn boards (median per game: KB / encode ms)")
    games = args.games.split(",")
    print(f"{'encoder':<36}" + "".join(f"{g:>20}" for g in games))
    for name, per_game in by_encoder.items():
        cells = []
        for game_key in games:
            rows = per_game[game_key]
            cells.append(f"{statistics.median(b for b, _ in rows) / 1024:.0f} KB / "
                         f"{statistics.median(s for _, s in rows) * 1000:.0f} ms")
        print(f"{name:<36}" + "".join(f"{c:>20}" for c in cells))


if __name__ == "__main__":
    main()
