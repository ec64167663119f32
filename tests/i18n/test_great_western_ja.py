"""Great Western Railway in Japanese: every event, refusal and image label a Japanese player meets, from the
game's gettext catalog (locales/ja/LC_MESSAGES/great_western.po), with the wording Japanese players had."""

from __future__ import annotations

import os

import pytest

import locales
import render
from bot import texts
from render import great_western as gw_render
from render import kit
from rules.engine import IllegalMove, ai_move
from rules.great_western import DEFINITION
from rules.great_western.board import CITIES
from rules.great_western.scoring import RESULT_LABELS
from rules.great_western.state import GreatWesternState, connected
from rules.words import Msg, Plural, Seat
from tests.i18n.support import english_left, played_texts
from tests.i18n.vocabulary import catalog_gaps, drawn_texts, images, line_problems

KEY = "great_western"
SEAT_NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
# Proper names stay Latin: the cities (also what `connect` reads).
NAMES = [city.name for city in CITIES.values()]
# Options that change what the engine writes: a round limit ends the game by rounds, not by cities.
OPTIONS = ({}, {"round_limit": 2})
GAMES = int(os.environ.get("JUNCTION_I18N_GAMES", "10"))  # per seat count and option set


def ja(msg: Msg | str, names: list[str] = SEAT_NAMES) -> str:
    return locales.say(msg, "ja", names, KEY)


def japanese_problems(messages: set[Msg], extra_names: tuple[str, ...] = ()) -> dict[str, list[str]]:
    """{English line: what is wrong with its Japanese} for lines with an id the catalog lacks or English left."""
    return line_problems(messages, "ja", KEY, SEAT_NAMES + NAMES + list(extra_names))


def test_the_catalog_is_complete_and_current() -> None:
    assert catalog_gaps("ja", KEY) == []
    assert len(locales.entries("ja", KEY)) > 100


def _refusals() -> set[Msg]:
    """The reasons a player meets when a move is refused: turn, auction, reading, connecting."""
    reasons: set[Msg] = set()

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
        assert any(kind in str(reason) for reason in reasons), kind
    assert japanese_problems(reasons, ("xyzzy", "zz")) == {}  # the player's own input is quoted back


@pytest.fixture(scope="module")
def played() -> tuple[set[Msg], list[GreatWesternState]]:
    lines, states = played_texts(KEY, games=GAMES, seats=(2, 3, 4), options=OPTIONS)
    assert all(isinstance(line, Msg) for line in lines)  # the engine says messages, not sentences
    return lines, states  # type: ignore[return-value]


def test_every_line_of_played_games_is_translated(played: tuple[set[Msg], list[GreatWesternState]]) -> None:
    lines, _ = played
    english = {str(line) for line in lines}
    # the games went through every kind of moment, or this test would prove little
    for start in ("Every city is connected", "Round 2 was the last round", "Final: ", "Auction: ", "Income: "):
        assert any(text.startswith(start) for text in english), start
    assert any(" via " in text for text in english) and any("cannot afford" in text for text in english)
    assert japanese_problems(lines) == {}


def test_title_option_summary_and_result_words_are_translated() -> None:
    words = [DEFINITION.title, DEFINITION.summary, "city gold", *RESULT_LABELS.values(),
             *(option.description for option in DEFINITION.options)]
    for word in words:
        assert english_left(locales.gettext("ja", word, KEY), NAMES) == [], word


def test_the_revealed_result_is_translated(played: tuple[set[Msg], list[GreatWesternState]]) -> None:
    """The bot's end-of-game lines about this game read in Japanese (composed by bot/texts)."""
    _, states = played
    result = next(state.result() for state in states if state.result() is not None)
    assert result is not None
    lines = texts.revealed_lines(result.to_json(), SEAT_NAMES, locale="ja", game=KEY)
    assert len(lines) > 1
    # the details name cities by their ids (what `connect` reads), as the engine stores them; a long line
    # is clipped, maybe inside an id ("taunt…"): that piece of a name is left out
    lines = [line.rsplit(" ", 1)[0] if line.endswith("…") else line for line in lines]
    left = {line: english_left(line, NAMES + SEAT_NAMES + list(CITIES)) for line in lines}
    assert {line: words for line, words in left.items() if words} == {}


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


def sample_states(states: list[GreatWesternState]) -> list[GreatWesternState]:
    """The states along the first games and each game's end (every phase and player count), and the
    moments sampling may miss."""
    return states[:: max(1, len(states) // 12)] + _special_states()


def test_every_image_label_is_translated(played: tuple[set[Msg], list[GreatWesternState]]) -> None:
    _, states = played
    left: dict[str, list[str]] = {}
    kit.clear_static_layers()
    for state in sample_states(states):
        names = SEAT_NAMES[: state.num_seats]
        for text in images(state, names, "ja"):
            words = english_left(text, NAMES + names)
            if words:
                left[text] = words
    assert left == {}


def test_alt_text_is_translated(played: tuple[set[Msg], list[GreatWesternState]]) -> None:
    _, states = played
    names = SEAT_NAMES[:4]
    for state in states + _special_states():
        text = render.in_language("ja", KEY, gw_render.describe, state.view(None), names[: state.num_seats])
        assert english_left(text, NAMES + names) == [], text
    state = DEFINITION.new_game(2, {}, 3)
    assert render.in_language("ja", KEY, gw_render.describe, state.view(None), ["Ann", "Bob"]) == (
        f"グレート・ウェスタン鉄道、ラウンド 1：競売、{['Ann', 'Bob'][state.bidder]} の入札。金貨：Ann 0、Bob 0。"
        "都市数（London を除く）：Ann 0、Bob 0。直前：まだなし。"
    )


def test_worked_examples() -> None:
    """The lines read as they did for Japanese players before the catalogs became gettext files."""
    pay = {"passengers": 3, "freight": 1, "available": 5}
    line = connected(1, "southampton", ("reading", "newbury", "winchester", "southampton"), 4, 2, pay)
    assert str(line) == ("{s1} connects Southampton from Reading via Newbury, Winchester: links 4, fees 2, "
                         "people 3 (3 passengers, 1 freight, 5 available).")
    assert ja(line) == (
        "Bob が Reading から Newbury、Winchester 経由で Southampton に接続：路線 4、通過料 2、人口 3"
        "（客車 3、貨車 1、利用可能 5）。"
    )
    state = DEFINITION.new_game(2, {}, 1)
    state.round = 3
    rolled = state._load({1: [4, 3, 3], 2: [1, 1, 1]})
    assert str(rolled[0].text) == "Round 3 — t1 rolls 4 3 3: car 3 (F) ×2, car 4 (P)."
    assert ja(rolled[0].msg) == "ラウンド 3 — t1 のダイス 4 3 3：貨車3 ×2、客車4。"
    assert ja(rolled[1].msg) == "t2 のダイス 1 1 1：なし。"
    state = DEFINITION.new_game(3, {}, 1)
    first = state.bidder
    state.apply(first, "bid t2 2")
    outbid = state.apply(state.bidder, "bid t2 3")[0]
    assert ja(outbid.msg) == f"{SEAT_NAMES[(first + 1) % 3]} が t2 に 3 個で入札。{SEAT_NAMES[first]} のキューブ 2 個が戻る。"
    view = {"phase": "build", "round": 4, "round_limit": 40, "builder": 1,
            "trains": [{"id": 2, "building": True, "passengers": 3, "freight": 0}]}
    assert ja(gw_render._status_line(view)) == "ラウンド 4（最大 40）- 建設：Bob が t2 で建設（客車 3・貨車 0）"
    over = {"phase": "over", "over": True, "result": {"ended_by": "round limit",
                                                        "seats": [{"seat": 0, "rank": 1}, {"seat": 2, "rank": 1}]}}
    assert ja(gw_render._status_line(over)) == "ゲーム終了（ラウンド上限）：Ann、Cid が同点で勝ち"
    reason = Plural("{city} needs {n} passenger; your train carries {p}.",
                    "{city} needs {n} passengers; your train carries {p}.", city="Bath", n=2, p=1)
    assert ja(Msg("Not now: {reason}", reason=reason)) == \
        "今は不可：Bath には客車のキューブが 2 個必要ですが、あなたの列車には 1 個しかありません。"
    assert ja(Msg("It is {who}'s turn to bid.", who=Seat(3))) == "Dee の入札の番です。"


def test_names_are_never_looked_up() -> None:
    """A player called like a word of the catalog keeps the name on the images ("bid" stays "bid")."""
    state = DEFINITION.new_game(4, {}, 2)
    names = ["bid", "Gold", "City", "nothing"]
    texts_ = drawn_texts(lambda: render.board_png(state.view(None), names, "ja"))
    for name in names:
        assert any(text == name for text in texts_), name  # each name's turn-card cell, as typed
