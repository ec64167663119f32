"""Ticket to Ride: The Card Game in Japanese: every engine message, option, result word, image label and alt
text is translated from the catalogs (locales/ja/LC_MESSAGES/ttr_cards.po) and reads as it did before
messages existed (card lists, seat lists and yard sets are now message parameters, not generated entries)."""

from __future__ import annotations

import os
import re

import pytest

import locales
import render
from bot import texts, words
from bot.tables import result_msgs
from rules import registry
from rules.engine import IllegalMove
from rules.ttr_cards.cards import BIG_CITIES, TICKETS, cards_played, describe
from rules.ttr_cards.scoring import RESULT_LABELS
from rules.words import Items, Msg, Plural, Seat, Term
from tests.i18n.messages import missing, played_messages
from tests.i18n.support import english_left, missed_labels, refusal_reasons, untranslated

GAMES = int(os.environ.get("JUNCTION_I18N_GAMES", "8"))  # per seat count and option set: ~6 s in all
SEATS = (2, 3, 4)
# Both options change texts: open stacks name the cards moved, "choose" adds the picking step.
OPTIONS = ({}, {"open_track_stack": True, "completion": "choose"})
PLAYERS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
# Proper names that stay Latin: the cities on the tickets, and the card names a move may use.
CITIES = sorted({t.origin for t in TICKETS.values()} | {t.destination for t in TICKETS.values()} | set(BIG_CITIES))
CARD_NAMES = ["black", "blue", "green", "orange", "purple", "red", "white", "yellow", "loco"]
NAMES = CITIES + PLAYERS
TRIES = ["", "fly", "take 9", "take loco", "take red", "draw 0", "draw deck", "tickets", "keep", "keep 99",
         "keep none", "keep 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20", "complete 1", "undo",
         "done", "yard", "yard red", "yard 3", "yard 2 2 red", "yard mauve", "yard 300 red",
         "yard red blue", "yard red blue green", "yard red red", "yard red red red red red red",
         "yard red loco", "yard loco loco", "yard black blue green", "yard white yellow orange"]

DEFINITION = registry.get("ttr_cards")


def ja(msg, names=PLAYERS) -> str:
    return locales.say(msg, "ja", names, "ttr_cards")


def _notation(label: str) -> bool:
    """Labels the images draw as they are in every language: `take N` (the move to type) and "x N" counts."""
    head, _, number = label.partition(" ")
    return head in ("take", "x") and number.isdigit()


@pytest.fixture(scope="module")
def played() -> tuple[list, list]:
    return played_messages("ttr_cards", games=GAMES, seats=SEATS, options=OPTIONS)


def refusals(states: list) -> list:
    """Every reason the engine gives for refusing a move, found by trying moves in played positions."""
    return list(refusal_reasons([DEFINITION.new_game(3, {}, 1), _rows_to_beat(), *states], TRIES))


def _rows_to_beat() -> object:
    """Seat 0 to play with red, blue and green in hand while seat 1 has a red row of 3 and a green row of 1:
    the refusals about other players' rows."""
    state = DEFINITION.new_game(2, {}, 1)
    for seat in range(2):
        state.apply(seat, "keep all")
    state.hands[0].update(red=2, blue=1, green=1)
    state.yards[1].update(red=[0, 3], green=[0, 1])
    return state


def test_played_games_are_all_japanese(played) -> None:
    messages, _ = played
    english = [str(msg) for msg in messages]
    assert any("robbing" in text for text in english)
    assert any("to the track stack (now" in text and "):" in text for text in english)  # open stacks
    assert any(text.startswith("Choosing completed tickets") for text in english)  # completion choose
    assert any(text.startswith("Intermediate scoring") for text in english)  # 4 players, deck 2
    assert any(text.startswith("Game over") for text in english)
    assert missing(messages, "ja", "ttr_cards") == set()
    left = {str(msg): words for msg in messages if (words := english_left(ja(msg), NAMES))}
    assert left == {}


def test_ticket_numbers_are_listed_the_japanese_way(played) -> None:
    """Lists of ticket numbers are lists (Items) the reader's language joins: the engine joined them with
    ", " into one parameter, so a Japanese line read "目的地カード 9, 21, 24 を達成"."""
    messages, _ = played
    lists = [ja(msg) for msg in messages if any(key in msg.params for key in ("ids", "hands"))]
    several = [line for line in lists if re.search(r"\d、\d", line)]
    assert len(several) >= 3, lists[:5]  # the games dealt, kept and completed several tickets at once
    assert [line for line in lists if re.search(r"\d, \d", line)] == []


def test_result_words_and_options_are_japanese(played) -> None:
    _, states = played
    over = [state.result() for state in states if state.is_over()]
    assert over and {result.ended_by for result in over} == {"deck"}
    words = [*RESULT_LABELS.values(), *(option.description for option in DEFINITION.options), DEFINITION.summary]
    for word in words:
        japanese = locales.gettext("ja", word, "ttr_cards")
        assert japanese != word and english_left(japanese, NAMES) == [], word


def test_end_of_game_lines_are_japanese(played) -> None:
    """The bot's standings (with the breakdown) and what each seat's result reveals, in the engine's words
    for players (Result.labels) translated."""
    _, states = played
    lines = []
    for state in states:
        result = state.result()
        if result is not None:
            names = PLAYERS[: state.num_seats]
            # The standings as the bot posts them (messages said where they are sent), the revealed details
            # with the bot's words for a result key.
            lines += [words.say(msg, "ja", names, "ttr_cards") for msg in result_msgs(result)]
            lines += texts.revealed_lines(result.to_json(), names, locale="ja", game="ttr_cards")
    assert any("未達成の目的地カードの番号" in line for line in lines)  # the revealed details came up
    assert untranslated(lines, NAMES) == {}


def test_refusals_are_japanese(played) -> None:
    _, states = played
    reasons = refusals(states[::2])
    assert len({str(r) for r in reasons}) >= 20
    assert any("must be larger than" in str(reason) for reason in reasons)
    assert all(isinstance(reason, Msg) for reason in reasons)
    assert missing(reasons, "ja", "ttr_cards") == set()
    # the player's own words come back as typed, and the card names a move may use stay notation
    left = {str(r): words for r in reasons if (words := english_left(ja(r), [*NAMES, *CARD_NAMES, "fly", "mauve"]))}
    assert left == {}


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


def test_image_labels_are_japanese(played) -> None:
    states = _kinds_of_board(played[1])
    phases = {state.view(None)["phase"] for state in states}
    assert {"keep_setup", "turn", "choose", "over"} <= phases
    # the intermediate scoring (an interlude) is drawn too: for a state in deck 2 (its last scoring)
    assert any((state.view(None)["scorings"] or [{}])[-1].get("kind") == "intermediate" for state in states)
    missed = missed_labels("ttr_cards", states)
    left = {label for label in missed if not _notation(label) and english_left(label, NAMES)}
    assert left == set()


def test_alt_text_is_japanese(played) -> None:
    _, states = played
    sample = _kinds_of_board(states)
    english = {render.describe(state.view(None), PLAYERS[: state.num_seats]) for state in sample}
    assert any("robbing" in alt for alt in english) and any("Game over" in alt for alt in english)
    alts = {render.in_language("ja", "ttr_cards", render.describe, state.view(None), PLAYERS[: state.num_seats])
            for state in sample}
    left = {alt: words for alt in alts if (words := english_left(alt, NAMES))}
    assert left == {}


def test_a_player_named_like_a_catalog_word_keeps_the_name() -> None:
    names = ["Deck", "Final", "red", "Score"]
    state = DEFINITION.new_game(4, {}, 1)
    said = []
    for seat in range(4):
        said += [ja(event.msg, names) for event in state.apply(seat, "keep all")]
    assert any(line.startswith("全員が選び終えた。残した目的地カードの枚数：Deck ") for line in said)
    for seat, name in enumerate(names):
        assert ja(Msg("{who} has chosen their tickets.", who=Seat(seat)), names) == f"{name} が目的地カードを選んだ。"
        assert ja(Msg("Game over: {who}.", who=Items([Msg("{rank}. {who} {score}", rank=1, who=Seat(seat), score=9)],
                                                    "comma")), names) == f"ゲーム終了：1. {name} 9。"


def test_worked_examples() -> None:
    """A few lines as a Japanese player reads them, word for word."""
    rob = Msg("{who} plays {cards} to the rail yard, robbing {victim}'s {colour} row ({n} {colour} + {m} loco).",
              who=Seat(0), cards=cards_played(("red", "red", "loco")), victim=Seat(1), colour=Term("red"), n=2, m=1)
    assert str(rob) == "{s0} plays red red loco to the rail yard, robbing {s1}'s red row (2 red + 1 loco)."
    assert ja(rob) == "Ann がレールヤードに赤、赤、機関車を置き、Bob の赤の列を電車強奪した（赤 2 枚＋機関車 1 枚）。"
    moved = Plural("{who} moves {n} card to the track stack (now {total}): {moved}.",
                   "{who} moves {n} cards to the track stack (now {total}): {moved}.", n=3, who=Seat(1), total=7,
                   moved=describe({"black": 1, "white": 1, "loco": 1}))
    assert str(moved) == "{s1} moves 3 cards to the track stack (now 7): black 1, white 1, loco 1."
    assert ja(moved) == "Bob がトラックスタックにカードを 3 枚移した（計 7 枚）：黒 1、白 1、機関車 1。"
    keeps = Plural("{who} keeps {n} ticket.", "{who} keeps {n} tickets.", n=1, who=Seat(0))
    assert str(keeps) == "{s0} keeps 1 ticket." and ja(keeps) == "Ann が目的地カードを 1 枚残した。"
    state = DEFINITION.new_game(2, {}, 1)
    for seat in range(2):
        state.apply(seat, "keep all")
    with pytest.raises(IllegalMove) as refused:
        state.apply(state.active, "yard mauve")
    assert ja(refused.value.reason) == ("'mauve' というカードはありません。使えるカード："
                                        "black、blue、green、orange、purple、red、white、yellow、loco")
    view = state.view(None)
    with_last = render.in_language("ja", "ttr_cards", render.describe, view, ["Ann", "Bob"])
    assert with_last.startswith("チケット・トゥ・ライド カードゲーム（公開の卓）。")
    assert "直前：Bob が選択済み。" in with_last and "Bob のレールヤード：空。" in with_last
