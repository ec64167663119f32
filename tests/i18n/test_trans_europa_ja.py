"""Trans Europa in Japanese: every engine line, refusal, option, result word, image label and the alt text,
from the game's gettext catalog (locales/ja/LC_MESSAGES/trans_europa.po), worded as Japanese players had it."""

from __future__ import annotations

import os
from typing import Any

import pytest

import locales
import render
from bot.words import result_label
from render import trans_europa as te_render
from rules import registry
from rules.trans_europa import board
from rules.trans_europa.scoring import RESULT_LABELS, final_result
from rules.words import Items, Msg, Seat
from tests.i18n.support import english_left, played_texts, refusal_reasons
from tests.i18n.vocabulary import catalog_gaps, drawn_texts, images, line_problems

KEY = "trans_europa"
GAMES = int(os.environ.get("JUNCTION_I18N_GAMES", "2"))  # per seat count and option set: ~5 s
SEATS = (2, 3, 4, 5, 6)
# Every text the options can change: coloured tracks (both refills); a low start score ends games
# sooner (several rounds, several players at 0 or below).
OPTIONS = ({"start_score": 5}, {"vexation": True, "start_score": 5},
           {"vexation": True, "vexation_refill": "round", "start_score": 6})
PLAYERS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
# Proper names that stay Latin: cities (as printed, in the map's letters and as typed).
NAMES = [city.name for city in board.CITIES] + [city.id for city in board.CITIES] + [
    te_render._label(city) for city in board.CITIES]
# Labels the images draw as they are in every language: row letters, region letters on city discs.
ALLOWED_LABELS = set(board.ROW_LETTERS) | {"R", "O", "Y", "G", "B"}

DEFINITION = registry.get(KEY)


def ja(msg: Msg | str, names: list[str] = PLAYERS) -> str:
    return locales.say(msg, "ja", names, KEY)


def japanese_problems(messages: set[Any], extra: tuple[str, ...] = ()) -> dict[str, list[str]]:
    return line_problems(messages, "ja", KEY, PLAYERS + NAMES + list(extra))


def test_the_catalog_is_complete_and_current() -> None:
    assert catalog_gaps("ja", KEY) == []


@pytest.fixture(scope="module")
def played() -> tuple[set[Msg], list]:
    lines, states = played_texts(KEY, games=GAMES, seats=SEATS, options=OPTIONS)
    assert all(isinstance(line, Msg) for line in lines)  # the engine says messages, not sentences
    return lines, states


def test_played_games_are_all_japanese(played: tuple[set[Msg], list]) -> None:
    lines, states = played
    english = {str(line) for line in lines}
    assert any("coloured track" in text for text in english)  # the variant was played
    assert any(text.startswith("The game is over") for text in english)
    assert japanese_problems(lines) == {}
    # what the result shows: breakdown categories ("round 3"), detail labels, how the game ended: each key's
    # label is a message of the engine (Result.labels), said as any other
    results = [state.result().to_json() for state in states if state.result() is not None]
    keys = {(index, key) for index, data in enumerate(results) for key in
            [data["ended_by"], *(k for line in data["seats"] for k in [*line["breakdown"], *line["details"]])]}
    assert {"start score", "penalties", "round 1"} <= {key for _, key in keys}
    for index, key in keys:
        said = ja(result_label(results[index], key))
        assert english_left(said, NAMES + PLAYERS) == [], (key, said)
    for word in RESULT_LABELS.values():
        assert english_left(locales.gettext("ja", word, KEY), NAMES + PLAYERS) == [], word


def test_refusals_are_japanese(played: tuple[set[Msg], list]) -> None:
    """Every reason the engine gives for refusing a move, found by trying moves in played positions."""
    _, states = played
    tries = ["", "fly to paris", "start nowhere", "lay a1 a5", "end", "pass"]
    tries += [f"lay {board.LINE_NOTATION[e]}" for e in range(0, len(board.EDGES), 7)]
    tries += [f"vex {board.LINE_NOTATION[e]}" for e in range(0, len(board.EDGES), 7)]
    tries += [f"start {board.token(v)}" for v in range(0, len(board.JUNCTIONS), 40)]
    reasons = {reason for reason in refusal_reasons(states[::3], tries) if isinstance(reason, Msg)}
    assert len(reasons) >= 8
    assert japanese_problems(reasons, ("fly", "nowhere")) == {}  # the player's own input is quoted back


def test_title_summary_and_options_are_japanese() -> None:
    for text in [DEFINITION.title, DEFINITION.summary, *(option.description for option in DEFINITION.options)]:
        assert english_left(locales.gettext("ja", text, KEY), NAMES) == [], text


def kinds_of_board(states: list) -> list:
    """One state per kind of image (deck size, variant, phase, step, someone connected, game over), plus a
    fresh game in its marker phase: drawing every played state would take far longer and show nothing new."""
    picked: dict[tuple, object] = {}
    for state in states:
        view = state.view(None)
        kind = (state.num_seats <= 3, bool(view["options"].get("vexation")), view["phase"],
                bool(view["completed"]), view["step"], bool(view["last_round"]))
        picked.setdefault(kind, state)
    fresh = [DEFINITION.new_game(num, {"vexation": True}, 1) for num in (2, 6)]
    return fresh + list(picked.values())


def round_end_texts(state: Any, names: list[str], lang: str) -> list[str]:
    view = state.view(None)
    if not view.get("last_round"):
        return []
    return drawn_texts(lambda: render.in_language(lang, KEY, te_render.round_end, view, names))


def test_image_labels_are_japanese(played: tuple[set[Msg], list]) -> None:
    states = kinds_of_board(played[1])
    assert any(state.view(None)["phase"] == "markers" for state in states)
    assert any(state.view(None)["completed"] and not state.is_over() for state in states)
    assert any(state.view(None)["last_round"] for state in states)  # the round-end image is drawn too
    left: dict[str, list[str]] = {}
    for state in states:
        names = PLAYERS[: state.num_seats]
        for text in images(state, names, "ja") + round_end_texts(state, names, "ja"):
            words = english_left(text, NAMES + names)
            if words and text not in ALLOWED_LABELS:
                left[text] = words
    assert left == {}


def test_alt_text_is_japanese(played: tuple[set[Msg], list]) -> None:
    _, states = played
    english = {render.describe(state.view(None), PLAYERS[: state.num_seats]) for state in states}
    assert any("Newest" in alt for alt in english) and any("Game over" in alt for alt in english)
    for state in states:
        alt = render.in_language("ja", KEY, te_render.describe, state.view(None), PLAYERS[: state.num_seats])
        assert english_left(alt, NAMES + PLAYERS) == [], alt


def test_worked_examples() -> None:
    """A few lines as a Japanese player reads them, word for word, as before the gettext catalogs."""
    assert ja(Msg("{who} lays a double line {line}; {n} black tracks left.", who=Seat(1), line="Wien–i19",
                  n=40)) == "Bob が二本線の路線 Wien–i19 に線路を引いた（黒い線路 残り 40 本）。"
    state = DEFINITION.new_game(3, {}, 1)
    assert ja(state.opening_events()[0].msg).startswith("第 1 ラウンド：都市カードを配った。スタートプレイヤーは ")
    win = Msg("The game is over: {who} win with {score}.", who=Items([Seat(0), Seat(2)], "and", english=" and "),
              score=7)
    assert str(win) == "The game is over: {s0} and {s2} win with 7."
    assert ja(win) == "ゲーム終了：Ann、Cid が 7 点で勝利。"
    assert ja(Msg("{who} has only one legal move: {move}.", who=Seat(2), move="lay g13 g14")) == \
        "Cid に可能な手は `lay g13 g14` だけ。"
    ended = final_result([5, -1, 3, 0], [], 4)
    assert ended.ended_by == "After round 4: {s1} at -1, {s3} at 0 points."
    assert ja(ended.labels[ended.ended_by]) == "第 4 ラウンド終了時：Bob -1 点、Dee 0 点。"
    view = {"phase": "building", "active_seat": 1, "step": 2, "round": 2, "tracks": [{"a": "g7", "b": "paris"}],
            "last_tracks": [{"a": "g7", "b": "paris"}], "scores": {"0": 13, "1": 12}}
    assert render.in_language("ja", KEY, te_render.describe, view, ["Ann", "Bob"]) == (
        "トランス・ヨーロッパ 第 2 ラウンド：地図上の線路 1 本。最新の線路 1 本。得点：Ann 13、Bob 12。"
        "Bob の手番：2 本中 1 本を引いた。")
