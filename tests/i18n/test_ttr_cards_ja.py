"""Ticket to Ride: The Card Game in Japanese: every engine text, option, result word, image label and alt text."""

from __future__ import annotations

import os

import pytest

from bot import i18n, texts
from bot.tables import result_lines
from render import catalog as render_catalog
from render import describe
from rules import registry
from rules.engine import name_seats
from rules.ttr_cards.cards import BIG_CITIES, TICKETS
from tests.i18n.support import (
    english_left,
    missed_labels,
    played_texts,
    refusal_reasons,
    result_words,
    source_texts,
    untranslated,
)

GAMES = int(os.environ.get("JUNCTION_I18N_GAMES", "8"))  # per seat count and option set: ~6 s in all
SEATS = (2, 3, 4)
# Both options change texts: open stacks name the cards moved, "choose" adds the picking step.
OPTIONS = ({}, {"open_track_stack": True, "completion": "choose"})
PLAYERS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
# Proper names that stay Latin: the cities on the tickets, and the sample placeholders.
CITIES = sorted({t.origin for t in TICKETS.values()} | {t.destination for t in TICKETS.values()} | set(BIG_CITIES))
NAMES = CITIES + [f"X{i}" for i in range(1, 10)]

DEFINITION = registry.get("ttr_cards")


def _notation(label: str) -> bool:
    """Labels the images draw as they are in every language: `take N` (the move to type) and "x N" counts."""
    head, _, number = label.partition(" ")
    return head in ("take", "x") and number.isdigit()


@pytest.fixture(scope="module")
def played() -> tuple[set[str], list]:
    return played_texts("ttr_cards", games=GAMES, seats=SEATS, options=OPTIONS)


def test_every_engine_source_text_is_translated() -> None:
    samples = source_texts("ttr_cards")
    assert len(samples) >= 50  # the scan found the engine's texts
    assert untranslated(samples, NAMES) == {}


def test_played_games_are_all_japanese(played: tuple[set[str], list]) -> None:
    texts, states = played
    assert any("robbing" in text for text in texts)
    assert any("to the track stack (now" in text and "):" in text for text in texts)  # open stacks
    assert any(text.startswith("Choosing completed tickets") for text in texts)  # completion choose
    assert any(text.startswith("Intermediate scoring") for text in texts)  # 4 players, deck 2
    assert any(text.startswith("Game over") for text in texts)
    assert untranslated(texts, NAMES) == {}
    # what the result shows: breakdown categories, detail keys, how the game ended
    words = result_words(states)
    assert {"tickets_failed", "big_city_cards", "deck"} <= words
    assert untranslated(words, NAMES) == {}


def test_end_of_game_lines_are_japanese(played: tuple[set[str], list]) -> None:
    """The bot's standings (with the breakdown), what each seat's result reveals, and the breakdown lines of
    the end-of-game file (as bot.texts.final_report writes them, without their indent)."""
    _, states = played
    lines = []
    for state in states:
        result = state.result()
        if result is not None:
            names = PLAYERS[: state.num_seats]
            word = lambda english: i18n.localize("ja", english)  # noqa: E731  (as the bot draws them)
            lines += result_lines(result, names, word) + texts.revealed_lines(result.to_json(), names, word=word)
            lines += [f"{category}: {points}" for line in result.seats for category, points in line.breakdown.items()]
    assert any("未達成の目的地カードの番号" in line for line in lines)  # the revealed details came up
    assert untranslated(lines, NAMES + PLAYERS) == {}


def test_refusals_are_japanese(played: tuple[set[str], list]) -> None:
    """Every reason the engine gives for refusing a move, found by trying moves in played positions."""
    _, states = played
    tries = ["", "fly", "take 9", "take loco", "take red", "draw 0", "draw deck", "tickets", "keep", "keep 99",
             "keep none", "keep 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20", "complete 1", "undo",
             "done", "yard", "yard red", "yard 3", "yard 2 2 red", "yard mauve", "yard 300 red",
             "yard red blue", "yard red blue green", "yard red red", "yard red red red red red red",
             "yard red loco", "yard loco loco", "yard black blue green", "yard white yellow orange"]
    reasons = refusal_reasons([DEFINITION.new_game(3, {}, 1), _rows_to_beat(), *states[::2]], tries)
    assert len(reasons) >= 20
    assert any("must be larger than" in reason for reason in reasons)
    assert untranslated(reasons, NAMES + ["fly", "mauve"]) == {}  # the player's own words come back as typed


def _rows_to_beat() -> object:
    """Seat 0 to play with red, blue and green in hand while seat 1 has a red row of 3 and a green row of 1:
    the refusals about other players' rows."""
    state = DEFINITION.new_game(2, {}, 1)
    for seat in range(2):
        state.apply(seat, "keep all")
    state.hands[0].update(red=2, blue=1, green=1)
    state.yards[1].update(red=[0, 3], green=[0, 1])
    return state


def test_options_are_japanese() -> None:
    descriptions = [option.description for option in DEFINITION.options]
    assert untranslated(descriptions, NAMES) == {}


def _kinds_of_board(states: list) -> list:
    """One state per kind of image (phase, step, final round, two decks, a robbed row, open stacks...):
    drawing every played state would take far longer and show nothing new."""
    picked: dict[tuple, object] = {}
    for state in states:
        view = state.view(None)
        last = view["last_action"] or {}
        kind = (view["phase"], view["step"], bool(view["final_round"]), view["decks_total"],
                view["options"]["open_track_stack"] and view["phase"] == "turn", bool(last.get("robbed")))
        picked.setdefault(kind, state)
    return [DEFINITION.new_game(4, {}, 1), *picked.values()]


def test_image_labels_are_japanese(played: tuple[set[str], list]) -> None:
    states = _kinds_of_board(played[1])
    phases = {state.view(None)["phase"] for state in states}
    assert {"keep_setup", "turn", "choose", "over"} <= phases
    # the intermediate scoring (an interlude) is drawn too: for a state in deck 2 (its last scoring)
    assert any((state.view(None)["scorings"] or [{}])[-1].get("kind") == "intermediate" for state in states)
    missed = missed_labels("ttr_cards", states)
    left = {label for label in missed if not _notation(label) and english_left(label, NAMES + PLAYERS)}
    assert left == set()


def test_alt_text_is_japanese(played: tuple[set[str], list]) -> None:
    _, states = played
    alts = {describe(state.view(None), PLAYERS[: state.num_seats]) for state in _kinds_of_board(states)}
    assert any("robbing" in alt for alt in alts) and any("Game over" in alt for alt in alts)
    assert untranslated(alts, NAMES + PLAYERS) == {}


def test_worked_examples() -> None:
    """A few lines as a Japanese player reads them, word for word."""

    def ja(text: str) -> str:
        return name_seats(i18n.localize("ja", text), PLAYERS)

    assert ja("{s0} plays red red loco to the rail yard, robbing {s1}'s red row (2 red + 1 loco).") == (
        "Ann がレールヤードに赤 2 枚＋機関車 1 枚を置き、Bob の赤の列を電車強奪した（赤 2 枚＋機関車 1 枚）。")
    assert ja("{s2} plays black blue orange to the rail yard.") == "Cid がレールヤードに黒・青・オレンジ 各 1 枚を置いた。"
    assert ja("{s1} moves 3 cards to the track stack (now 7): black 1, white 1, loco 1.") == (
        "Bob がトラックスタックにカードを 3 枚移した（計 7 枚）：黒 1、白 1、機関車 1。")
    assert ja("{s0} keeps 1 ticket.") == "Ann が目的地カードを 1 枚残した。"
    assert ja("Final scoring. Track stacks: {s0}: blue 2, loco 1; {s1}: nothing.") == (
        "最終得点計算。トラックスタック：Ann：青 2、機関車 1／Bob：なし。")
    assert ja("{s1} completes nothing for 0 points.") == "Bob は目的地カードを達成できなかった：0 点。"
    assert ja("Game over: 1. {s2} 61, 2. {s0} 47, 2. {s1} 47.") == "ゲーム終了：1. Cid 61、2. Ann 47、2. Bob 47。"
    assert ja("New York bonus (15): {s0}, {s2}.") == "New York のビッグシティボーナス（15 点）：Ann、Cid。"
    # a refusal keeps the card names a move may use as notation
    assert ja("unknown card 'pinkk': use black, blue, green, orange, purple, red, white, yellow, loco") == (
        "'pinkk' というカードはありません。使えるカード："
        "`black`、`blue`、`green`、`orange`、`purple`、`red`、`white`、`yellow`、`loco`")
    labels = render_catalog("ttr_cards", "ja")
    assert labels is not None
    assert labels.line("Last: {s1} took loco (slot 3)") == "直前：{s1} が機関車を取った（3 番目）"
    assert labels.line("Last: {s0} plays green green") == "直前：{s0} がレールヤードに緑 2 枚を置いた"
    assert labels.line("Hand: 7 cards   Tickets: 1 ticket") == "手札 7 枚   目的地カード 1 枚"
    assert labels.line("drawing 4") == "4 枚を検討中"
    assert labels.line("1st: 57 points  (tickets 20, failed -9, cities 12)") == (
        "1 位：57 点（達成 20、未達成 -9、ビッグシティ 12）")
    assert labels.line("Ann plays red") == "Ann plays red"  # no bare "{who} plays {cards}" pattern
    alt = ("Ticket to Ride: The Card Game, public table. Ann: second card. Last: Ann took red (slot 2). "
           "Display: red, blue, loco, white, white. Deck 40, tickets 30. "
           "Ann: 0 pts, hand 9, tickets 3, track 2, completed 0. Ann's yard: green 2 + 1 loco, red 3. "
           "Bob: 0 pts, hand 6, tickets 4, track 0, completed 0. Bob's yard: empty.")
    assert i18n.localize("ja", alt) == (
        "チケット・トゥ・ライド カードゲーム（公開の卓）。Ann：2 枚目のカードを引く。直前：Ann が赤を取った（2 番目）。"
        "表向きのカード：赤、青、機関車、白、白。山札 40 枚、目的地カード 30 枚。"
        "Ann：0 点、手札 9 枚、目的地カード 3 枚、トラックスタック 2 枚、達成 0 枚。Ann のレールヤード：緑 2＋機関車 1、赤 3。"
        "Bob：0 点、手札 6 枚、目的地カード 4 枚、トラックスタック 0 枚、達成 0 枚。Bob のレールヤード：空。")


def test_english_is_unchanged() -> None:
    """The catalogs are only read for Japanese: English readers keep the engine's words."""
    line = "{s0} plays red red loco to the rail yard."
    assert i18n.localize("en", line) == line
