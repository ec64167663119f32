"""Trans Europa in Japanese: every engine text, option, result word, image label and alt text is translated."""

from __future__ import annotations

import os

import pytest

from bot import i18n
from render import catalog as render_catalog
from render import describe
from rules import registry
from rules.engine import name_seats
from rules.trans_europa import board
from tests.i18n.support import (
    english_left,
    missed_labels,
    played_texts,
    refusal_reasons,
    result_words,
    source_texts,
    untranslated,
)

GAMES = int(os.environ.get("JUNCTION_I18N_GAMES", "2"))  # per seat count and option set: ~5 s
SEATS = (2, 3, 4, 5, 6)
# Every text the options can change: coloured tracks (both refills); a low start score ends games
# sooner (several rounds, several players at 0 or below).
OPTIONS = ({"start_score": 5}, {"vexation": True, "start_score": 5},
           {"vexation": True, "vexation_refill": "round", "start_score": 6})
PLAYERS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
# Proper names that stay Latin: cities (as printed and as typed), the sample placeholders.
NAMES = [city.name for city in board.CITIES] + [city.id for city in board.CITIES] + [f"X{i}" for i in range(1, 10)]
# Labels the images draw as they are in every language: row letters, region letters on city discs.
ALLOWED_LABELS = set(board.ROW_LETTERS) | {"R", "O", "Y", "G", "B"}

DEFINITION = registry.get("trans_europa")


@pytest.fixture(scope="module")
def played() -> tuple[set[str], list]:
    return played_texts("trans_europa", games=GAMES, seats=SEATS, options=OPTIONS)


def test_every_engine_source_text_is_translated() -> None:
    samples = source_texts("trans_europa")
    assert len(samples) >= 25  # the scan found the engine's texts
    assert untranslated(samples, NAMES) == {}


def test_played_games_are_all_japanese(played: tuple[set[str], list]) -> None:
    texts, states = played
    assert any("coloured track" in text for text in texts)  # the variant was played
    assert any(text.startswith("The game is over") for text in texts)
    assert untranslated(texts, NAMES) == {}
    # what the result shows: breakdown categories, detail keys, how the game ended
    words = result_words(states)
    assert "start score" in words and "penalties" in words
    assert untranslated(words, NAMES) == {}


def test_refusals_are_japanese(played: tuple[set[str], list]) -> None:
    """Every reason the engine gives for refusing a move, found by trying moves in played positions."""
    _, states = played
    tries = ["", "fly to paris", "start nowhere", "lay a1 a5", "end", "pass"]
    tries += [f"lay {board.LINE_NOTATION[e]}" for e in range(0, len(board.EDGES), 7)]
    tries += [f"vex {board.LINE_NOTATION[e]}" for e in range(0, len(board.EDGES), 7)]
    tries += [f"start {board.token(v)}" for v in range(0, len(board.JUNCTIONS), 40)]
    reasons = refusal_reasons(states[::3], tries)
    assert len(reasons) >= 8
    assert untranslated(reasons, NAMES) == {}


def test_options_are_japanese() -> None:
    descriptions = [option.description for option in DEFINITION.options]
    assert untranslated(descriptions, NAMES) == {}


def _kinds_of_board(states: list) -> list:
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


def test_image_labels_are_japanese(played: tuple[set[str], list]) -> None:
    states = _kinds_of_board(played[1])
    assert any(state.view(None)["phase"] == "markers" for state in states)
    assert any(state.view(None)["completed"] and not state.is_over() for state in states)
    assert any(state.view(None)["last_round"] for state in states)  # the round-end image is drawn too
    missed = missed_labels("trans_europa", states)
    left = {label for label in missed if label not in ALLOWED_LABELS and english_left(label, NAMES + PLAYERS)}
    assert left == set()


def test_alt_text_is_japanese(played: tuple[set[str], list]) -> None:
    _, states = played
    alts = {describe(state.view(None), PLAYERS[: state.num_seats]) for state in states}
    assert any("Newest" in alt for alt in alts) and any("Game over" in alt for alt in alts)
    assert untranslated(alts, NAMES + PLAYERS) == {}


def test_worked_examples() -> None:
    """A few lines as a Japanese player reads them, word for word."""

    def ja(text: str) -> str:
        return name_seats(i18n.localize("ja", text), PLAYERS)

    assert ja("{s1} lays a double line Wien–i19; 40 black tracks left.") == (
        "Bob が二本線の路線 Wien–i19 に線路を引いた（黒い線路 残り 40 本）。")
    assert ja("{s0} needs 3 tracks: 13 − 3 = 10.") == "Ann は線路があと 3 本必要：13 − 3 = 10。"
    assert ja("The game is over: {s0} and {s2} win with 7.") == "ゲーム終了：Ann、Cid が 7 点で勝利。"
    assert ja("Round 4: {s1} at -1, {s3} at 0") == "第 4 ラウンド：Bob -1 点、Dee 0 点"  # a result stored earlier
    assert ja("After round 4: {s1} at -1, {s3} at 0 points.") == "第 4 ラウンド終了時：Bob -1 点、Dee 0 点。"
    assert ja("{s2} has only one legal move: lay g13 g14.") == "Cid に可能な手は `lay g13 g14` だけ。"
    labels = render_catalog("trans_europa", "ja")
    assert labels is not None
    assert labels.line("Black tracks left: 12 of 83") == "黒い線路 残り 12 本（全 83 本）"
    assert labels.line("Ann and Bob and Cid") == "Ann and Bob and Cid"  # no bare "{a} and {b}" pattern
    assert labels.line("Game over: Ann and Bob win with 7") == "ゲーム終了：Ann、Bob が 7 点で勝利"
    assert labels.line("You still need 1 track") == "線路があと 1 本必要"
    assert labels.line("needs 1 track: loses 1: 5 -> 4. Paris, Roma") == "線路 1 本不足で −1 点：5 → 4。Paris, Roma"
    alt = "Trans Europa, round 2: 1 track on the map. Newest: 1 track. Scores: Ann 13, Bob 12. Bob to play: 1 of 2 laid."
    assert i18n.localize("ja", alt) == (
        "トランス・ヨーロッパ 第 2 ラウンド：地図上の線路 1 本。最新の線路 1 本。得点：Ann 13, Bob 12。"
        "Bob の手番：2 本中 1 本を引いた。")


def test_english_is_unchanged() -> None:
    """The catalogs are only read for Japanese: English readers keep the engine's words."""
    assert i18n.localize("en", "{s0} needs 1 track: 13 − 1 = 12.") == "{s0} needs 1 track: 13 − 1 = 12."
