"""Replay GIFs: sampled states rebuilt from the log, small frames, capped count, any game."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from render.replay import FRAME_WIDTH, MAX_FRAMES, gif, replay_views, sample_points
from rules.engine import play_out
from rules.registry import GAMES


@settings(deadline=None, max_examples=200)
@given(st.integers(0, 5000), st.integers(2, 40))
def test_sample_points_cover_start_and_end_within_the_cap(total, cap):
    points = sample_points(total, cap)
    assert points == sorted(set(points)) and points[0] == 0 and points[-1] == total
    assert len(points) <= cap and all(0 <= p <= total for p in points)


def _played(key, seats=3, seed=5):
    definition = GAMES[key]
    state = definition.new_game(seats, {}, seed)
    log = play_out(state, {s: definition.ai("random") for s in range(seats)})
    return definition, state, log


def test_replay_views_end_on_the_final_public_view_and_hold_no_private_key():
    definition, state, log = _played("trans_europa")
    views = replay_views(definition, 3, state.options, state.seed, log)
    assert len(views) == MAX_FRAMES and views[-1] == state.view(None) and views[0]["moves_applied"] == 0
    assert all(v["seat"] is None and "hand" not in v for v in views)


def _flat(view, names):
    """A cheap stand-in renderer: a wide image whose colour follows the move count."""
    image = Image.new("RGB", (1200, 600), (view["moves_applied"] * 7 % 256, 80, 160))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def test_gif_is_downscaled_capped_and_loops():
    definition, state, log = _played("trans_europa", seed=8)
    views = replay_views(definition, 3, state.options, state.seed, log, max_frames=60)
    data = gif(views, ["A", "B", "C"], _flat)
    image = Image.open(io.BytesIO(data))
    assert data.startswith(b"GIF8") and image.width == FRAME_WIDTH and image.height == 240
    assert 1 < image.n_frames <= MAX_FRAMES and image.info.get("loop") == 0


def test_real_boards_of_each_game_animate():
    for key in ("trans_europa",):
        definition, state, log = _played(key, seed=2)
        views = replay_views(definition, 3, state.options, state.seed, log, max_frames=3)
        image = Image.open(io.BytesIO(gif(views, ["A", "B", "C"])))
        assert image.n_frames == 3 and image.width <= FRAME_WIDTH


def test_every_game_draws_its_board_before_encoding_as_its_png():
    """render.board_image is the board render.board_png encodes, in any language: what a strip
    scales down is the board the channel shows."""
    import render
    from render import kit

    for key in GAMES:
        _, state, _ = _played(key, seed=3)
        names = ["P0", "P1", "P2"]
        for lang in (None, "ja"):
            view = state.view(None)
            assert kit.encode(render.board_image(view, names, lang)) == render.board_png(view, names, lang), key


def test_a_strip_of_drawn_boards_encodes_one_png_and_looks_as_one_of_pngs(monkeypatch):
    """A "since your last turn" strip of drawn boards (render.board_image) makes one PNG, the strip,
    not one per board as a strip of board PNGs did; and it looks the same (each board was reduced to
    256 colours before being scaled down, now it is scaled from the drawing)."""
    import render
    from render import kit, replay

    definition, state, log = _played("trans_europa", seed=2)
    views = replay_views(definition, 3, state.options, state.seed, log, max_frames=4)
    names = ["A", "B", "C"]
    from_pngs = Image.open(io.BytesIO(replay.strip([render.board_png(view, names) for view in views]))).convert("RGB")
    encoded = []
    encode = kit.encode
    monkeypatch.setattr(kit, "encode", lambda image, exact=False: encoded.append(image.size) or encode(image, exact))
    data = replay.strip(render.board_image(view, names) for view in views)
    assert encoded == [Image.open(io.BytesIO(data)).size]
    drawn = Image.open(io.BytesIO(data)).convert("RGB")
    assert drawn.size == from_pngs.size and drawn.height == replay.STRIP_HEIGHT
    differences = [max(abs(a - b) for a, b in zip(p, q, strict=True))
                   for p, q in zip(drawn.get_flattened_data(), from_pngs.get_flattened_data(), strict=True)]
    assert sum(d > 48 for d in differences) < len(differences) / 1000
