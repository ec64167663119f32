"""Great Western Railway in German: every event, refusal, image label and the alt text, from the game's
German catalog (locales/de/LC_MESSAGES/great_western.po); and players named like catalog words keep
their names in every language."""

from __future__ import annotations

import pytest

import locales
import render
from render import great_western as gw_render
from rules.engine import RandomAI, ai_move
from rules.great_western import DEFINITION
from rules.great_western.board import CITIES
from rules.great_western.scoring import RESULT_LABELS
from rules.great_western.state import GreatWesternState, connected
from rules.words import Msg, Seat
from tests.i18n.support import played_texts
from tests.i18n.test_great_western_ja import _refusals, _special_states, sample_states
from tests.i18n.vocabulary import (
    WORDLIKE_NAMES,
    assert_names_kept,
    catalog_gaps,
    drawn_texts,
    english_only,
    images,
    leftovers,
    line_problems,
    speaking,
)

KEY = "great_western"
SEAT_NAMES = ["Ann", "Bob", "Cid", "Dee"]
NAMES = [city.name for city in CITIES.values()]


def de(msg: Msg | str, names: list[str] = SEAT_NAMES) -> str:
    return locales.say(msg, "de", names, KEY)


@pytest.fixture(scope="module")
def english() -> set[str]:
    """The English words of this game's catalog that German never uses: left in a German text, they are
    a missing translation."""
    words = english_only("de", KEY)
    assert {"auction", "passengers", "available", "Round", "Players"} <= words
    return words


def german_problems(messages: set[Msg], english: set[str]) -> dict[str, list[str]]:
    return line_problems(messages, "de", KEY, SEAT_NAMES + NAMES, english)


def test_the_catalog_is_complete_and_current() -> None:
    assert catalog_gaps("de", KEY) == []


@pytest.fixture(scope="module")
def played() -> tuple[set[Msg], list[GreatWesternState]]:
    lines, states = played_texts(KEY, games=4, seats=(2, 3, 4), options=({}, {"round_limit": 2}))
    return lines, states  # type: ignore[return-value]


def test_every_line_and_refusal_is_german(played: tuple[set[Msg], list[GreatWesternState]],
                                          english: set[str]) -> None:
    lines, _ = played
    assert any(" via " in str(line) for line in lines)
    assert german_problems(lines, english) == {}
    assert german_problems(_refusals(), english) == {}


def test_title_option_summary_and_result_words_are_german(english: set[str]) -> None:
    words = [DEFINITION.summary, "city gold", *RESULT_LABELS.values(),
             *(option.description for option in DEFINITION.options)]
    for word in words:
        german = locales.gettext("de", word, KEY)
        assert german != word and leftovers(german, english, NAMES) == [], word


def test_every_image_label_is_german(played: tuple[set[Msg], list[GreatWesternState]], english: set[str]) -> None:
    _, states = played
    left: dict[str, list[str]] = {}
    with speaking("de"):
        for state in sample_states(states):
            names = SEAT_NAMES[: state.num_seats]
            texts = images(state, names, "de")
            texts.append(render.in_language("de", KEY, gw_render.describe, state.view(None), names))
            for text in texts:
                words = leftovers(text, english, NAMES + names)
                if words:
                    left[text] = words
    assert left == {}


def test_worked_examples_in_german() -> None:
    pay = {"passengers": 3, "freight": 1, "available": 5}
    line = connected(1, "southampton", ("reading", "newbury", "winchester", "southampton"), 4, 2, pay)
    assert de(line) == ("Bob schließt Southampton von Reading über Newbury, Winchester an: Strecken 4, Gebühren 2, "
                        "Einwohner 3 (3 Fahrgäste, 1 Fracht, 5 verfügbar).")
    state = DEFINITION.new_game(2, {}, 1)
    state.round = 3
    rolled = state._load({1: [4, 3, 3], 2: [1, 1, 1]})
    assert de(rolled[0].msg) == "Runde 3 — t1 würfelt 4 3 3: Wagen 3 (G) ×2 und Wagen 4 (P)."
    assert de(rolled[1].msg) == "t2 würfelt 1 1 1: nichts."
    assert de(Msg("It is {who}'s turn to bid.", who=Seat(2))) == "Cid ist mit Bieten dran."
    over = {"phase": "over", "over": True, "result": {"ended_by": "all cities connected",
                                                        "seats": [{"seat": 0, "rank": 1}, {"seat": 2, "rank": 1}]}}
    assert de(gw_render._status_line(over)) == "Spielende (alle Städte angeschlossen): Ann und Cid teilen sich den Sieg"
    finished = next(s for s in _special_states() if s.result() is not None)
    final = finished._final_events()[0]
    assert de(final.msg).startswith("Endstand: 1. ") and "Gold (" in de(final.msg)


# ------------------------------------------------------------------ names that are catalog words

GAME_WORDS = ("Gold", "City", "bid", "nothing", "nobody", "Income", "Route", "train")


@pytest.mark.parametrize("lang", ["ja", "de"])
def test_players_named_like_catalog_words_keep_their_names(lang: str) -> None:
    """Issue #25: a player called "Deck" or "Round" was renamed in translated lines; a message fills its
    seats in after the translation, so every line names each of its seats exactly as the player is called."""
    for names in (list(WORDLIKE_NAMES[:4]), [*WORDLIKE_NAMES[4:], *GAME_WORDS[:2]], list(GAME_WORDS[2:6]),
                  list(GAME_WORDS[6:]) + ["Easy", "Score"]):
        seats = len(names)
        state = DEFINITION.new_game(seats, {"round_limit": 3}, 11)
        lines = [event.msg for event in state.opening_events()]
        brains = {s: RandomAI() if s % 2 else DEFINITION.ai() for s in range(seats)}
        while state.to_act():
            seat = min(state.to_act())
            lines += [event.msg for event in state.apply(seat, ai_move(state, seat, brains[seat]))]
        named = [line for line in lines if line.seats()]
        assert len(named) > 10
        assert_names_kept(named, names, lang, KEY)
        with speaking(lang):
            board = drawn_texts(lambda state=state, names=names: render.board_png(state.view(None), names, lang))
        for name in names:
            assert name in board, name
