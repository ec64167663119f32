"""Ticket to Ride images read on a phone: clean layout at 2-4 players in en, ja and de, and the table's findings fixed."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable

import pytest

import render
from render import kit
from render import ttr_cards as ttr_render
from rules.engine import GameState, play_out
from rules.ttr_cards import DEFINITION
from rules.ttr_cards.ai import GreedyAI
from tests.render.layout_check import board_and_hand, layout_findings, recorded, report

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def _with_scorings(state: GameState, names: list[str]) -> list[tuple[str, Callable[[], bytes]]]:
    images = board_and_hand(state, names)
    public = state.view(None)
    if any(record["kind"] == "intermediate" for record in public["scorings"]):
        images.append(("intermediate scoring", lambda: ttr_render.intermediate_scoring(public, names)))
    return images


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_table_hand_and_scoring_images_have_a_clean_layout(seats: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # German is drawn from its catalog whether or not locales/LINGUAS lists it yet.
    monkeypatch.setattr(render, "LANGUAGES", tuple(dict.fromkeys((*render.LANGUAGES, "de"))))
    found = layout_findings("ttr_cards", seats, ("en", "ja", "de"), images=_with_scorings)
    assert not found, report(found)


def _state(seats: int = 3, moves: int = 30, seed: int = 8) -> GameState:
    state = DEFINITION.new_game(seats, {}, seed)
    play_out(state, {s: GreedyAI() for s in range(seats)}, max_moves=moves)
    return state


def _texts(view: dict, names: list[str] = NAMES) -> list[kit.TextBox]:
    return recorded(lambda: ttr_render.board(view, names[: view["num_seats"]]))[0]


def test_display_cards_carry_the_colour_blind_mark() -> None:
    view = _state().view(None)
    boxes = _texts(view)
    marks = [b for b in boxes if b.kind == "symbol" and b.text == "card mark"]
    glyphs = {b.text for b in boxes if b.kind == "glyph"}
    names = [b for b in boxes if b.text in view["display"] and b.kind == "panel"]
    assert len(names) >= len(view["display"]) == 5
    for name in names[:5]:  # each display card's name plate has a mark disc above it, on the same card
        assert any(abs(m.box[0] - name.box[0]) < 120 and 0 < name.box[1] - m.box[1] < 100 for m in marks), name
    assert {ttr_render.MARKS[kind] for kind in view["display"]} <= glyphs


def test_take_labels_only_while_drawing_is_open() -> None:
    state = _state()
    view = state.view(None)
    assert view["phase"] == "turn" and view["deck_count"] > 0
    assert {f"take {n}" for n in range(1, 6)} <= {b.text.split(" (")[0] for b in _texts(view)}
    closed = dict(view, deck_count=0)
    assert not any(b.text.startswith("take ") for b in _texts(closed))
    finished = DEFINITION.new_game(2, {}, 4)
    play_out(finished, {s: GreedyAI() for s in range(2)})
    assert finished.is_over()
    assert not any(b.text.startswith("take ") for b in _texts(finished.view(None)))


def test_discard_pile_shows_its_colours() -> None:
    view = _state().view(None)
    view = dict(view, discard=dict.fromkeys(view["discard"], 0) | {"black": 2, "loco": 1, "red": 3})
    texts = {b.text for b in _texts(view)}
    assert "Discard: 6 cards" in texts
    assert {"black 2", "loco 1", "red 3"} <= texts


def test_big_city_table_names_every_seat() -> None:
    view = _state(4).view(None)
    boxes = _texts(view)
    title = next(b for b in boxes if b.text.startswith("Big-city bonuses"))
    header = [b.text for b in boxes if b.kind == "panel" and 0 < b.box[1] - title.box[1] < 60]
    assert all(name in header for name in NAMES)


def test_counts_of_one_are_singular() -> None:
    state = _state(3, 60)
    for view in (state.view(None), state.view(0)):
        view = copy.deepcopy(view) | {"deck_count": 1, "ticket_deck_count": 1}
        view["seats"][0].update(hand_count=1, tickets_count=1, track_count=1)
        with kit.recording() as boxes:
            (ttr_render.board if view["seat"] is None else ttr_render.hand)(view, NAMES[:3])
        texts = " | ".join(b.text for b in boxes)
        assert "1 card" in texts and "1 ticket" in texts
        assert not re.search(r"(?<![\d.])1 (cards|tickets|pts)\b", texts), texts
