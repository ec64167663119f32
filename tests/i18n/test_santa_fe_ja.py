"""Santa Fe in Japanese: every engine message, refusal and image label a Japanese player meets is translated
from the catalogs (locales/ja/LC_MESSAGES/santa_fe.po), and reads as it did before messages existed."""

from __future__ import annotations

import os

import pytest

import locales
import render
from rules.engine import IllegalMove
from rules.santa_fe import DEFINITION
from rules.santa_fe.board import BOARD, RAILROADS
from rules.santa_fe.notation import PHASE_NAMES
from rules.santa_fe.state import ENDINGS, RESULT_LABELS
from rules.words import Msg, Seat, Term
from tests.i18n import support
from tests.i18n.messages import message_of, missing, played_messages

# Seeded games per seat count and option set (16 combinations): 4 meet every kind of line, the
# forced-move tag, the three ways a game ends and the tile-buying phase; raise it for a longer hunt.
GAMES = int(os.environ.get("JUNCTION_I18N_GAMES", "4"))
SEATS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
# Proper names stay Latin: cities (names and the ids moves use), railroads (names, codes and keys).
NAMES = [
    *(city.name for city in BOARD.cities.values()),
    *BOARD.cities,
    *(railroad.name for railroad in BOARD.railroads.values()),
    *(rr.upper() for rr in RAILROADS),
    *RAILROADS,
]
ALLOWED_LABEL_WORDS = {"Santa", "Fe"}  # the game's title (and a city)
OPTION_SETS = ({}, {"advanced": True}, {"tile_buying": True}, {"advanced": True, "tile_buying": True})
TRIES = ("", "fly away", "lay zz 1 denver", "lay sf 1 s", "play double", "draw engineer", "draw city",
         "draw double", "draw branch sf", "buy tile sf", "buy engineer", "pass", "exchange denver",
         "play denver", "play denver branch up", "lay sf 9 denver", "branch sf denver reno",
         "lay sf 1 seattle", "lay up 1 omaha")


def ja(msg, names=SEATS) -> str:
    return locales.say(msg, "ja", names, "santa_fe")


@pytest.fixture(scope="module")
def played() -> tuple[list, list]:
    """Messages and states of seeded games: 2 to 5 seats, basic and advanced, with and without tile buying."""
    messages, states = played_messages("santa_fe", games=GAMES, seats=(2, 3, 4, 5), options=OPTION_SETS)
    return messages, states


def refusals() -> list:
    """Real refusals: unreadable text, ambiguous cities and lines, moves of another step, rule breaks."""
    reasons = []
    for options in OPTION_SETS:
        state = DEFINITION.new_game(3, options, seed=7)
        for step in range(50):
            for text in TRIES:  # a refused move leaves no trace; one that is legal is simply played
                if state.is_over():
                    break
                try:
                    state.apply(min(state.to_act()), text)
                except IllegalMove as refusal:
                    reasons.append(refusal.reason)
            if state.is_over():
                break
            seat = min(state.to_act())
            legal = state.legal_moves(seat)
            state.apply(seat, legal[step % len(legal)])
    return reasons


def test_every_step_has_its_japanese_name() -> None:
    for step in PHASE_NAMES.values():
        japanese = locales.gettext("ja", step, "santa_fe")
        assert japanese != step
        line = ja(Msg("That move is not allowed now (step: {step}).", step=Term(step)))
        assert line.endswith(f"（現在のステップ：{japanese}）。")


def test_played_games_are_translated(played) -> None:
    messages, _ = played
    assert any("(automatic)" in str(msg) for msg in messages)  # the forced-move tag was met
    assert any("reveal" in str(msg) for msg in messages)
    assert missing(messages, "ja", "santa_fe") == set()
    left = {str(msg): words for msg in messages if (words := support.english_left(ja(msg), [*NAMES, *SEATS]))}
    assert left == {}


def test_refusals_met_in_play_are_translated() -> None:
    reasons = refusals()
    assert len({str(r) for r in reasons}) >= 15
    assert all(isinstance(reason, Msg) for reason in reasons)
    assert missing(reasons, "ja", "santa_fe") == set()
    left = {str(r): words for r in reasons if (words := support.english_left(ja(r), NAMES))}
    assert left == {}


def test_options_results_and_rules_are_translated(played) -> None:
    _, states = played
    assert any(s.is_over() for s in states)
    words = [option.description for option in DEFINITION.options] + [DEFINITION.summary]
    words += [*ENDINGS.values(), *RESULT_LABELS.values(), "money"]
    assert {s.result().ended_by for s in states if s.is_over()} <= set(ENDINGS.values())
    for word in words:
        japanese = locales.gettext("ja", word, "santa_fe")
        assert japanese != word and support.english_left(japanese, NAMES) == [], word


def test_images_draw_every_word_in_japanese(played) -> None:
    _, states = played
    # Fresh tables too: the advanced game opens with the engineer step, before round 1.
    fresh = [DEFINITION.new_game(n, options, seed=1) for options in OPTION_SETS for n in (2, 5)]
    sample = [*fresh, *states[:: max(1, len(states) // 12)]]
    missed = support.missed_labels("santa_fe", sample)
    left = {label: words for label in missed
            if (words := set(support.english_left(label, [*NAMES, *SEATS])) - ALLOWED_LABEL_WORDS)}
    assert left == {}


def test_alt_text_is_translated(played) -> None:
    _, states = played
    fresh = [DEFINITION.new_game(3, {"advanced": True}, seed=1)]
    english = {render.describe(state.view(None), SEATS[: state.num_seats]) for state in [*fresh, *states]}
    assert any("before round 1" in line for line in english) and any("game over" in line for line in english)
    lines = {render.in_language("ja", "santa_fe", render.describe, state.view(None), SEATS[: state.num_seats])
             for state in [*fresh, *states]}
    left = {line: words for line in lines if (words := set(support.english_left(line, [*NAMES, *SEATS]))
                                              - ALLOWED_LABEL_WORDS)}
    assert left == {}


def test_a_player_named_like_a_catalog_word_keeps_the_name() -> None:
    names = ["Deck", "Round", "Score", "Easy", "Players", "Black", "draw", "nobody", "money", "advanced"]
    state = DEFINITION.new_game(5, {"advanced": True}, seed=2)
    said = [ja(event.msg, names) for event in state.opening_events()]
    for seat in range(5):
        said += [ja(event.msg, names) for event in state.apply(seat, "decline engineer")]
    assert "技術者カードを買ったプレイヤー：なし。" in said
    line = ja(Msg("{who} has decided about the engineer.", who=Seat(6)), [*names[:5], "nobody", "draw"])
    assert line == "draw が技術者カードを買うか決めた。"
    for seat, name in enumerate(names[:5]):
        assert ja(Msg("{who} passes.", who=Seat(seat)), names) == f"{name} がパスした。"
    assert any(line.startswith(names[state.first]) or names[state.first] in line for line in said)


def test_worked_examples() -> None:
    state = DEFINITION.new_game(3, {}, seed=1)
    lay = Msg("{line} (automatic)", line=Msg(
        "{who} lays {rr} {line} toward {city} ({section} {done}/{spaces}).", who=Seat(1), rr="SF", line=2,
        city="Houston", section="Dallas–Houston", done=2, spaces=2))
    assert str(lay) == "{s1} lays SF 2 toward Houston (Dallas–Houston 2/2). (automatic)"
    assert ja(lay) == "Bob が SF の路線 2 を Houston 方面へ延ばした（Dallas–Houston 2/2）。（自動）"
    reveal = state.view(None)
    assert reveal["log"] and all(isinstance(entry, dict) for entry in reveal["log"])
    assert ja(message_of(reveal["log"][0]), SEATS) in (
        "Ann がファーストプレイヤー。", "Bob がファーストプレイヤー。", "Cid がファーストプレイヤー。")
    refused = None
    try:
        state.apply(min(state.to_act()), "lay sf 1 denver")
    except IllegalMove as error:
        refused = error.reason
    assert ja(refused) == "今はその手は指せません（現在のステップ：カードの選択）。"
    view = DEFINITION.new_game(2, {}, seed=3).view(None)
    assert render.in_language("ja", "santa_fe", render.describe, view, ["Ann", "ボブ"]) == (
        "サンタフェ、ラウンド 1：カードの選択。手番：Ann, ボブ。得点：Ann 2, ボブ 2。"
        "残りの線路タイル：SF 32, SP 30, GN 25, UP 24, KP 17。直前：ラウンド 1 開始。ファーストプレイヤーは Ann。"
    )
