"""Trans Europa images read on a phone: no text on text or on a token, every text big enough, at 2-6 players, en and ja."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from render import trans_europa as te_render
from rules.engine import GameState
from tests.render.layout_check import board_and_hand, layout_findings, report


def _with_round_end(state: GameState, names: list[str]) -> list[tuple[str, Callable[[], bytes]]]:
    images = board_and_hand(state, names)
    public = state.view(None)
    if public.get("last_round"):
        images.append(("round end", lambda: te_render.round_end(public, names)))
    return images


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_board_hand_and_round_end_images_have_a_clean_layout(seats: int) -> None:
    found = layout_findings("trans_europa", seats, images=_with_round_end)
    assert not found, report(found)


@pytest.mark.parametrize("seats", [3, 6])
def test_coloured_track_variant_has_a_clean_layout(seats: int) -> None:
    found = layout_findings("trans_europa", seats, images=_with_round_end, options={"vexation": True}, seed=5,
                            stops=(40, None))
    assert not found, report(found)
