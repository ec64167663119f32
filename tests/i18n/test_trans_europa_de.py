"""Trans Europa in German (locales/de/LC_MESSAGES/trans_europa.po): every engine line, refusal, option, image
label and the alt text; and players named like words of the catalogs keep their names in every language."""

from __future__ import annotations

import pytest

import locales
import render
from render import trans_europa as te_render
from rules import registry
from rules.engine import RandomAI, ai_move
from rules.trans_europa import board
from rules.trans_europa.scoring import RESULT_LABELS
from rules.words import Msg, Seat
from tests.i18n.support import played_texts, refusal_reasons
from tests.i18n.test_trans_europa_ja import NAMES, OPTIONS, kinds_of_board, round_end_texts
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

KEY = "trans_europa"
PLAYERS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
DEFINITION = registry.get(KEY)


def de(msg: Msg | str, names: list[str] = PLAYERS) -> str:
    return locales.say(msg, "de", names, KEY)


@pytest.fixture(scope="module")
def english() -> set[str]:
    """The English words of this game's catalog that German never uses: left in a German text, they are
    a missing translation."""
    words = english_only("de", KEY)
    assert {"tracks", "start", "marker", "Round", "connected", "laid"} <= words
    return words


def german_problems(messages: set[Msg], english: set[str]) -> dict[str, list[str]]:
    return line_problems(messages, "de", KEY, PLAYERS + NAMES, english)


def test_the_catalog_is_complete_and_current() -> None:
    assert catalog_gaps("de", KEY) == []


@pytest.fixture(scope="module")
def played() -> tuple[set[Msg], list]:
    return played_texts(KEY, games=1, seats=(2, 3, 4, 5, 6), options=OPTIONS)


def test_every_line_and_refusal_is_german(played: tuple[set[Msg], list], english: set[str]) -> None:
    lines, states = played
    assert any("coloured track" in str(line) for line in lines)
    assert german_problems(lines, english) == {}
    tries = ["", "fly to paris", "start nowhere", "lay a1 a5", "end", "pass"]
    tries += [f"lay {board.LINE_NOTATION[e]}" for e in range(0, len(board.EDGES), 7)]
    tries += [f"vex {board.LINE_NOTATION[e]}" for e in range(0, len(board.EDGES), 7)]
    reasons = {reason for reason in refusal_reasons(states[::3], tries) if isinstance(reason, Msg)}
    assert len(reasons) >= 8
    assert german_problems(reasons, english) == {}


def test_title_summary_options_and_result_words_are_german(english: set[str]) -> None:
    texts = [DEFINITION.summary, "start score", *RESULT_LABELS.values(),
             *(option.description for option in DEFINITION.options)]
    for text in texts:
        german = locales.gettext("de", text, KEY)
        assert german != text and leftovers(german, english, NAMES) == [], text


def test_every_image_label_and_the_alt_text_are_german(played: tuple[set[Msg], list], english: set[str]) -> None:
    states = kinds_of_board(played[1])
    assert any(state.view(None)["last_round"] for state in states)
    left: dict[str, list[str]] = {}
    with speaking("de"):
        for state in states:
            names = PLAYERS[: state.num_seats]
            texts = images(state, names, "de") + round_end_texts(state, names, "de")
            texts.append(render.in_language("de", KEY, te_render.describe, state.view(None), names))
            for text in texts:
                words = leftovers(text, english, NAMES + names)
                if words:
                    left[text] = words
    assert left == {}


def test_worked_examples_in_german() -> None:
    assert de(Msg("{who} lays a double line {line}; {n} black tracks left.", who=Seat(1), line="Wien–i19",
                  n=40)) == "Bob legt eine Doppelstrecke Wien–i19; 40 schwarze Schienen übrig."
    state = DEFINITION.new_game(2, {"first_player": "seat0"}, 4)
    assert de(state.opening_events()[0].msg) == "Runde 1: Städte verteilt; Ann beginnt."
    hand = next(event for event in state.opening_events() if event.seats == frozenset({0}))
    assert de(hand.msg).startswith("Deine Städte in Runde 1: ")
    view = {"phase": "markers", "active_seat": 0, "round": 1, "tracks": [], "scores": {"0": 13, "1": 13}}
    with speaking("de"):
        alt = render.in_language("de", KEY, te_render.describe, view, ["Ann", "Bob"])
    assert alt == (
        "Trans Europa, Runde 1: 0 Schienen auf dem Plan. Punkte: Ann 13, Bob 13. Ann setzt einen Startmarker.")


# ------------------------------------------------------------------ names that are catalog words

GAME_WORDS = ("Trans Europa", "connected", "Newest", "Regions:", "Game over", "Paris")


def _played_with(names: list[str]) -> tuple[list[Msg], object]:
    seats = len(names)
    state = DEFINITION.new_game(seats, {"vexation": True, "start_score": 5}, 3)
    lines = [event.msg for event in state.opening_events()]
    brains = {s: RandomAI() if s % 2 else DEFINITION.ai() for s in range(seats)}
    while state.to_act():
        seat = min(state.to_act())
        lines += [event.msg for event in state.apply(seat, ai_move(state, seat, brains[seat]))]
    return lines, state


def test_the_issue_example_keeps_deck() -> None:
    """Issue #25's reproduction: the old pattern catalog read "Deck" in a composed line as the word 山札."""
    line = Msg("{who} places the start marker on {junction}.", who=Seat(0), junction="paris")
    assert str(line) == "{s0} places the start marker on paris."
    assert locales.say(line, "ja", ["Deck", "Round"], KEY) == "Deck がスタートマーカーを paris に置いた。"
    assert locales.say(line, "de", ["Deck", "Round"], KEY) == "Deck setzt den Startmarker auf paris."


@pytest.mark.parametrize("lang", ["ja", "de"])
def test_players_named_like_catalog_words_keep_their_names(lang: str) -> None:
    """Every line of whole games (posts, DMs, the move log say these messages) names each seat exactly as the
    player is called, and so do the board image and its alt text."""
    for names in (list(WORDLIKE_NAMES), list(GAME_WORDS)):
        lines, state = _played_with(names)
        named = [line for line in lines if line.seats()]
        assert len(named) > 20
        assert_names_kept(named, names, lang, KEY)
        with speaking(lang):
            board_texts = drawn_texts(lambda state=state, names=names: render.board_png(state.view(None), names, lang))
            alt = render.in_language(lang, KEY, te_render.describe, state.view(None), names)
        for name in names:
            assert name in board_texts, name  # its turn-card cell
            assert name in alt, (name, alt)
