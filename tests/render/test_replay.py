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
