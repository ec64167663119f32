"""Great Western Railway in Japanese: every event, refusal and image label a Japanese player meets."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

import render
from bot import i18n, texts
from render import catalog as render_catalog
from render import great_western as gw_render
from render import kit
from rules.engine import IllegalMove, ai_move, name_seats
from rules.great_western import DEFINITION
from rules.great_western import ja as engine_ja
from rules.great_western.board import CITIES
from rules.great_western.state import GreatWesternState
from tests.i18n.support import (
    english_left,
    missed_labels,
    played_texts,
    result_words,
    source_texts,
    untranslated,
)

SEAT_NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
# Proper names stay Latin: the cities (also what `connect` reads), and the samples' X1.. placeholders.
NAMES = [city.name for city in CITIES.values()] + [f"X{n}" for n in range(1, 10)]
# Options that change what the engine writes: a round limit ends the game by rounds, not by cities.
OPTIONS = ({}, {"round_limit": 2})
GAMES = int(os.environ.get("JUNCTION_I18N_GAMES", "10"))  # per seat count and option set


def ja(text: str) -> str:
    return i18n.localize("ja", text)


def test_catalogs_are_full() -> None:  # their placeholders: tests/i18n/test_catalogs_ja.py
    assert len(engine_ja.JA) > 60 and len(gw_render.JA) > len(engine_ja.JA)


def test_every_text_in_the_engine_source_is_translated() -> None:
    samples = source_texts("great_western")
    assert len(samples) > 25  # the scan found the engine's texts
    assert untranslated(samples, NAMES) == {}


def _refusals() -> set[str]:
    """The reasons a player meets when a move is refused: turn, auction, reading, connecting."""
    reasons: set[str] = set()

    def refused(state: GreatWesternState, seat: int, move: str) -> None:
        with pytest.raises(IllegalMove) as caught:
            state.apply(seat, move)
        reasons.add(caught.value.reason)

    state = DEFINITION.new_game(3, {}, 1)
    bidder = state.bidder
    other = (bidder + 1) % 3
    for move in ("", "bid", "bid t9 2", "connect", "connect zz", "connect b", "xyzzy", "bid t4 1",
                 "bid t1 0", "bid t1 99", "connect oxford", "done"):
        refused(state, bidder, move)
    refused(state, other, "bid t1 1")
    refused(state, other, "done")
    state.apply(bidder, "bid t1 3")
    refused(state, state.bidder, "bid t1 2")
    # Build: every reason a city cannot be connected now, as `connect` refuses it and the hand lists it.
    players = {s: DEFINITION.ai() for s in range(3)}
    while state.phase != "build" or state.round < 3 or not state.to_act():  # some cities taken by then
        seat = min(state.to_act())
        state.apply(seat, ai_move(state, seat, players[seat]))
    builder = state.builder()
    assert builder is not None
    refused(state, (builder + 1) % 3, "bid t1 5")
    refused(state, (builder + 1) % 3, "connect reading")
    # Every later build decision too: which problems come up depends on how the AIs played.
    while state.to_act():
        builder = state.builder() if state.phase == "build" else None
        if builder is not None:
            for city in CITIES:
                problem = state.connect_problem(builder, city, state.routes(builder).get(city))
                if problem is not None:
                    reasons.add(problem)
        seat = min(state.to_act())
        state.apply(seat, ai_move(state, seat, players[seat]))
    return reasons


def test_every_refusal_reason_is_translated() -> None:
    reasons = _refusals()
    kinds = ("London cannot", "already has a cube", "No route to", "needs", "route costs", "could be",
             "no city called", "Cannot read", "Empty move", "not in play", "already has a bid", "You have only")
    for kind in kinds:  # each way to refuse came up, or the check below would prove little
        assert any(kind in reason for reason in reasons), kind
    assert untranslated(reasons, NAMES + ["xyzzy", "zz"]) == {}  # the player's own input is quoted back


# Lines the engine builds from pieces (so the source scan cannot see them) that played games seldom show.
COMPOSED = [
    "{s0} is done.",
    "{s1} is done; 1 cube from t2 returns to available.",
    "{s2} has one legal bid: 1 on t3.",
    "{s2} has one legal bid: 2 on t3; {s0}'s 1 cube returns.",
    "{s0} bids 4 on t1; {s3}'s 3 cubes return.",
    "{s0} cannot afford any city (done).",
    "Auction: t1 {s0} 1, t2 {s1} 3.",
    "Build order: t2, t1.",
    "Income: {s0} +2, {s1} +3.",
    "Income lost for lack of unavailable cubes: {s1} 2.",
    "{s0}'s 1 unreplaced black cube is lost.",
    "t2 rolls 1 1 1: nothing.",
    "You have only 1 available cube.",
    "     city gold: 27",  # the end-of-game file's breakdown under a name
]


def test_composed_lines_are_translated() -> None:
    assert untranslated(COMPOSED, NAMES) == {}


@pytest.fixture(scope="module")
def played() -> tuple[set[str], list[GreatWesternState]]:
    texts, states = played_texts("great_western", games=GAMES, seats=(2, 3, 4), options=OPTIONS)
    return texts, states  # type: ignore[return-value]


def test_every_line_of_played_games_is_translated(played: tuple[set[str], list[GreatWesternState]]) -> None:
    texts, _ = played
    # the games went through every kind of moment, or this test would prove little
    for start in ("Every city is connected", "Round 2 was the last round", "Final: ", "Auction: ", "Income: "):
        assert any(text.startswith(start) for text in texts), start
    assert any(" via " in text for text in texts) and any("cannot afford" in text for text in texts)
    assert untranslated(texts, NAMES) == {}


def test_result_words_and_option_are_translated(played: tuple[set[str], list[GreatWesternState]]) -> None:
    _, states = played
    words = result_words(states)  # of every finished game, not only the first
    assert words
    words |= {option.description for option in DEFINITION.options}
    assert untranslated(words, NAMES) == {}


def test_the_revealed_result_is_translated(played: tuple[set[str], list[GreatWesternState]]) -> None:
    _, states = played
    result = next(state.result() for state in states if state.result() is not None)
    assert result is not None
    lines = texts.revealed_lines(result.to_json(), SEAT_NAMES)
    assert len(lines) > 1
    # the details name cities by their ids (what `connect` reads), as the engine stores them; a long line
    # is clipped, maybe inside an id ("taunt…"): that piece of a name is left out
    lines = [line.rsplit(" ", 1)[0] if line.endswith("…") else line for line in lines]
    assert untranslated(lines, NAMES + SEAT_NAMES + list(CITIES)) == {}


def _special_states() -> list[GreatWesternState]:
    """Moments the sampled states may miss: a builder with cities it cannot pay for, a round-limit end,
    no round limit, a builder who stops early."""
    states = []
    for seats, options in ((3, {}), (2, {"round_limit": 1}), (4, {})):
        state = DEFINITION.new_game(seats, options, 5)
        brain = DEFINITION.ai()
        while state.to_act():
            seat = min(state.to_act())
            if state.phase == "build" and state.round >= 2 and state.view(seat)["unaffordable"]:
                states.append(state.copy())
                break
            state.apply(seat, ai_move(state, seat, brain))
        states.append(state)
    # No round limit (other status words), and a builder who stops while it could still connect.
    state = DEFINITION.new_game(2, {"round_limit": 0}, 9)
    states.append(state.copy())
    brain = DEFINITION.ai()
    while state.phase != "build" or len(state.legal_moves(min(state.to_act()))) < 2:
        seat = min(state.to_act())
        state.apply(seat, ai_move(state, seat, brain))
    state.apply(min(state.to_act()), "done")
    states.append(state)
    return states


@contextmanager
def labels_drawn() -> Iterator[dict[str, str]]:
    """Every label the images look up, with what the Japanese catalog made of it."""
    drawn: dict[str, str] = {}
    lookup = kit.tr

    def spy(s: str) -> str:
        drawn[s] = lookup(s)
        return drawn[s]

    kit.tr = spy  # type: ignore[assignment]
    try:
        yield drawn
    finally:
        kit.tr = lookup  # type: ignore[assignment]


def test_every_image_label_is_translated(played: tuple[set[str], list[GreatWesternState]]) -> None:
    _, states = played
    # the states along the first games and each game's end: every phase and player count
    sample = states[:: max(1, len(states) // 12)] + _special_states()
    # A pattern can match and still leave a captured part in English ("Not now: <reason>"): look at
    # what each label became, not only whether it changed.
    with labels_drawn() as drawn:
        assert missed_labels("great_western", sample) == set()
    assert any(label.startswith("Not now: ") for label in drawn)
    left = {label: english_left(out, NAMES + SEAT_NAMES) for label, out in drawn.items()}
    assert {label: words for label, words in left.items() if words} == {}


def test_alt_text_is_translated(played: tuple[set[str], list[GreatWesternState]]) -> None:
    _, states = played
    names = SEAT_NAMES[:4]
    texts_ = {render.describe(state.view(None), names[: state.num_seats]) for state in states + _special_states()}
    for start in ("Great Western Railway, round 1: auction", "Great Western Railway, round 2: build",
                  "game over (every city connected)", "game over (round limit)", "Last: nothing yet"):
        assert any(start in text for text in texts_), start
    assert untranslated(texts_, NAMES + SEAT_NAMES) == {}
    state = DEFINITION.new_game(2, {}, 3)
    assert ja(render.describe(state.view(None), ["Ann", "Bob"])) == (
        f"グレート・ウェスタン鉄道、ラウンド 1：競売、{['Ann', 'Bob'][state.bidder]} の入札。金貨：Ann 0, Bob 0。"
        "都市数（London を除く）：Ann 0, Bob 0。直前：まだなし。"
    )


def test_worked_examples() -> None:
    line = "{s1} connects Southampton from Reading via Newbury, Winchester: links 4, fees 2, people 3 " \
           "(3 passengers, 1 freight, 5 available)."
    assert name_seats(ja(line), SEAT_NAMES) == (
        "Bob が Reading から Newbury, Winchester 経由で Southampton に接続：路線 4、通過料 2、人口 3"
        "（客車 3、貨車 1、利用可能 5）。"
    )
    assert ja("Round 3 — t1 rolls 4 3 3: car 3 (F) ×2, car 4 (P).") == \
        "ラウンド 3 — t1 のダイス 4 3 3：貨車3 ×2、客車4。"
    assert ja("{s0} bids 3 on t2; {s2}'s 2 cubes return.") == \
        "{s0} が t2 に 3 個で入札。{s2} のキューブ 2 個が戻る。"
    labels = render_catalog("great_western", "ja")
    assert labels is not None
    assert labels.line("Round 4 of at most 40 - build: {s1} builds with t2 (P3 F0)") == \
        "ラウンド 4（最大 40）- 建設：{s1} が t2 で建設（客車 3・貨車 0）"
    assert labels.line("Game over (round limit): {s0} and {s2} share the win") == \
        "ゲーム終了（ラウンド上限）：{s0} と {s2} が同点で勝ち"
    assert labels.line("Not now: Bath needs 2 passengers; your train carries 1.") == \
        "今は不可：Bath には客車のキューブが 2 個必要ですが、あなたの列車には 1 個しかありません。"


def test_names_are_never_looked_up(played: tuple[set[str], list[GreatWesternState]]) -> None:
    """A player called like a word of the catalog keeps the name on the images ("bid" stays "bid")."""
    _, states = played
    state = states[-1]
    names = ["bid", "Gold", "City", "nothing"][: state.num_seats]
    with labels_drawn() as drawn, kit.language("ja", render_catalog("great_western", "ja")):
        gw_render.board(state.view(None), names)
    assert not set(names) & set(drawn)
