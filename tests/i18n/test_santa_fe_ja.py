"""Santa Fe in Japanese: every engine text, refusal and image label a Japanese player meets is translated."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

import render
from bot import i18n
from render import santa_fe as sf_render
from rules.engine import Catalog, IllegalMove, name_seats
from rules.santa_fe import DEFINITION
from rules.santa_fe.board import BOARD, RAILROADS
from rules.santa_fe.ja import JA, PHASES_JA
from rules.santa_fe.notation import PHASE_NAMES
from rules.santa_fe.state import ENDINGS
from tests.i18n import support

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
SAMPLE_NAMES = [*NAMES, *(f"X{i}" for i in range(1, 10))]
# Image labels that are codes, not words: railhead tags and "x2" badges are drawn untranslated anyway.
ALLOWED_LABEL_WORDS = {"Santa", "Fe"}  # the game's title (and a city)
OPTION_SETS = ({}, {"advanced": True}, {"tile_buying": True}, {"advanced": True, "tile_buying": True})
PACKAGE = Path(__file__).resolve().parents[2] / "rules" / "santa_fe"


OWN = Catalog(JA)


def _ja(text: str) -> str:
    return i18n.localize("ja", text)


def _left(texts, names, own_catalog: Catalog = OWN) -> dict[str, list[str]]:
    """English left after the bot's catalog, and after this game's catalog alone (so that no other
    entry, the bot's or another game's, can stand in for a missing one here)."""
    texts = set(texts)
    own = {t: left for t in texts if (left := support.english_left(own_catalog.text(t), names))}
    return support.untranslated(texts, names) | own


@pytest.fixture(scope="module")
def played() -> tuple[set[str], list]:
    """Texts and states of seeded games: 2 to 5 seats, basic and advanced, with and without tile buying."""
    return support.played_texts("santa_fe", games=GAMES, seats=(2, 3, 4, 5), options=OPTION_SETS)


def test_every_step_has_its_japanese_name() -> None:
    assert set(PHASES_JA) == set(PHASE_NAMES.values())
    for english, japanese in PHASES_JA.items():
        assert _ja(f"That move is not allowed now (step: {english}).").endswith(f"（現在のステップ：{japanese}）。")
        assert OWN.line(f"That move is not allowed now (step: {english}).").endswith(f"：{japanese}）。")


def test_every_engine_text_in_the_source_is_translated() -> None:
    samples = support.source_texts("santa_fe")
    assert len(samples) >= 30  # the sampler found the engine's texts
    assert _left(samples, SAMPLE_NAMES) == {}


def _returned_texts() -> list[str]:
    """Refusals the engine returns rather than raises (why_illegal, _blocked_reason), and the reasons
    handed to _end (shown as "Game over: <reason>"): support.source_texts only sees direct calls."""
    samples = []
    for path in (PACKAGE / "state.py", PACKAGE / "notation.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name in ("why_illegal", "_blocked_reason"):
                for inner in ast.walk(node):
                    value = inner.value if isinstance(inner, ast.Return | ast.Assign) else None
                    sample = support._sample(value) if value is not None else None
                    if sample:
                        samples.append(sample)
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "_end":
                sample = support._sample(node.args[2])
                if sample:
                    samples.append("Game over: " + sample)
    return samples


def test_every_refusal_and_end_reason_is_translated() -> None:
    samples = _returned_texts()
    assert len(samples) >= 30
    assert any(s.startswith("That move is not allowed now") for s in samples)
    assert _left(samples, SAMPLE_NAMES) == {}


def test_refusals_met_in_play_are_translated() -> None:
    """Real refusals: unreadable text, ambiguous cities and lines, moves of another step, rule breaks."""
    reasons = set()
    tries = ("", "fly away", "lay zz 1 denver", "lay sf 1 s", "play double", "draw engineer", "draw city",
             "draw double", "draw branch sf", "buy tile sf", "buy engineer", "pass", "exchange denver",
             "play denver", "play denver branch up", "lay sf 9 denver", "branch sf denver reno",
             "lay sf 1 seattle", "lay up 1 omaha")
    for options in OPTION_SETS:
        state = DEFINITION.new_game(3, options, seed=7)
        for step in range(50):
            for text in tries:  # a refused move leaves no trace; one that is legal is simply played
                if state.is_over():
                    break
                try:
                    state.apply(min(state.to_act()), text)
                except IllegalMove as refusal:
                    reasons.add(refusal.reason)
            if state.is_over():
                break
            seat = min(state.to_act())
            legal = state.legal_moves(seat)
            state.apply(seat, legal[step % len(legal)])
    assert len(reasons) >= 15
    assert _left(reasons, NAMES) == {}


def test_played_games_are_translated(played) -> None:
    texts, _ = played
    assert any("(automatic)" in text for text in texts)  # the forced-move tag was met
    assert any("reveal" in text for text in texts)
    assert _left(texts, NAMES) == {}


def test_options_and_results_are_translated(played) -> None:
    words = [option.description for option in DEFINITION.options]
    _, states = played
    assert any(s.is_over() for s in states)
    words += support.result_words(states)
    assert {ENDINGS["E1"], ENDINGS["E2"], "money", "value_7_cards"} <= set(words)
    assert _left(words, NAMES) == {}
    # How a game ended reads as a sentence in both languages (the state keeps the spec's code).
    for code in ("E1", "E2", "E3"):
        assert support.english_left(OWN.line(ENDINGS[code])) == [] and OWN.line(ENDINGS[code]) != ENDINGS[code]


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
    lines = {render.describe(state.view(None), SEATS[: state.num_seats]) for state in [*fresh, *states]}
    assert any("before round 1" in line for line in lines) and any("game over" in line for line in lines)
    assert _left(lines, [*NAMES, *SEATS], Catalog(sf_render.JA)) == {}


def test_worked_examples() -> None:
    line = "{s1} lays SF 2 toward Houston (Dallas–Houston 2/2). (automatic)"
    assert name_seats(_ja(line), SEATS) == (
        "Bob が SF の路線 2 を Houston 方面へ延ばした（Dallas–Houston 2/2）。（自動）"
    )
    line = "SF reaches Houston. {s0} earns $12 ($4 first to Houston, $8 SF bonus)."
    assert name_seats(_ja(line), SEATS) == (
        "SF が Houston に接続した。Ann が $12 を獲得（Houston の都市ボーナス $4、SF のスペシャルボーナス $8）。"
    )
    line = "Round 2 reveal: {s1} plays a double-turn card + KP branch card; {s2} plays nothing; {s0} plays Denver."
    assert name_seats(_ja(line), SEATS) == (
        "ラウンド 2 の公開：Bob はダブルターンカード + KP の分岐カード／Cid は出さず／Ann は Denver。"
    )
    assert _ja("Your choice: play denver branch sf.") == "あなたの選択：`play denver branch sf`。"
    assert _ja("That move is not allowed now (step: lay pass 2).") == (
        "今はその手は指せません（現在のステップ：2 回目の線路敷設ターン）。"
    )
    view = DEFINITION.new_game(2, {}, seed=3).view(None)
    assert _ja(render.describe(view, ["Ann", "ボブ"])) == (
        "サンタフェ、ラウンド 1：カードの選択。手番：Ann, ボブ。得点：Ann 2, ボブ 2。"
        "残りの線路タイル：SF 32, SP 30, GN 25, UP 24, KP 17。直前：ラウンド 1 開始。ファーストプレイヤーは Ann。"
    )
