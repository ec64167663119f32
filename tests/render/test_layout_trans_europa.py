"""Trans Europa images read on a phone: no text on text or on a token, every text big enough, every player's
name legible at 400 px wide, at 2-6 players, in English, Japanese and German."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

import render
from render import trans_europa as te_render
from rules.engine import GameState
from tests.i18n.vocabulary import speaking
from tests.render.layout_check import (
    NAMES,
    board_and_hand,
    layout_findings,
    name_findings,
    positions,
    recorded,
    report,
)

LANGS = ("en", "ja", "de")


def _with_round_end(state: GameState, names: list[str]) -> list[tuple[str, Callable[[], bytes]]]:
    images = board_and_hand(state, names)
    public = state.view(None)
    if public.get("last_round"):
        images.append(("round end", lambda: te_render.round_end(public, names)))
    return images


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_board_hand_and_round_end_images_have_a_clean_layout(seats: int) -> None:
    with speaking("de"):
        found = layout_findings("trans_europa", seats, LANGS, images=_with_round_end)
    assert not found, report(found)


@pytest.mark.parametrize("seats", [3, 6])
def test_coloured_track_variant_has_a_clean_layout(seats: int) -> None:
    with speaking("de"):
        found = layout_findings("trans_europa", seats, LANGS, images=_with_round_end, options={"vexation": True},
                                seed=5, stops=(40, None))
    assert not found, report(found)


def _shared_win(view: dict[str, Any]) -> dict[str, Any]:
    """The finished game's view with the first two seats sharing the win (a tie the AIs seldom play)."""
    view = copy.deepcopy(view)
    seats = view["result"]["seats"]
    best = max(entry["score"] for entry in seats)
    for entry in seats:
        if entry["seat"] in (0, 1):
            entry["rank"], entry["score"] = 1, best
        else:
            entry["rank"] = 3
    return view


# The long names of the layout corpus, and every seat with a long name (the cells are narrowest at 6).
NAME_SETS = {"mixed": None, "all long": ["Bartholomew Featherstonehaugh-Worthington", "長谷川まりこ・スミス＝ウィリアムズ"]}


@pytest.mark.parametrize("names_kind", list(NAME_SETS))
@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_every_name_reads_at_400_px(seats: int, names_kind: str) -> None:
    """Issue #25: a channel image lost a player's name on a phone preview. Every seat's name reads in the
    turn card, and a shared win names every winner in the headline, in every language and player count."""
    pair = NAME_SETS[names_kind]
    names = list(NAMES[:seats]) if pair is None else [pair[seat % 2] for seat in range(seats)]
    found: list[str] = []
    views: list[tuple[str, dict[str, Any], list[int]]] = []
    for label, state in positions("trans_europa", seats, stops=(4, None)):
        view = state.view(None)
        winners = [e["seat"] for e in (view.get("result") or {}).get("seats", []) if e["rank"] == 1]
        views.append((label, view, winners))
    views.append(("a shared win", _shared_win(views[-1][1]), [0, 1]))
    with speaking("de"):
        for label, view, winners in views:
            for lang in LANGS:
                draws = [("board", lambda view=view, lang=lang: render.board_png(view, names, lang))]
                if view.get("last_round"):
                    draws.append(("round end", lambda view=view, lang=lang: render.interlude_pngs(
                        {"history": view["history"][:-1]}, view, names, lang)[0]))
                for what, draw in draws:
                    boxes, (width, _) = recorded(draw)
                    found += [f"{label}, {what} ({lang}): {finding}"
                              for finding in name_findings(boxes, names, width, winners)]
    assert not found, report(found)
