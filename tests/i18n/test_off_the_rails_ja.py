"""Off the Rails in Japanese: every engine text, refusal and image label a Japanese player reads is translated."""

from __future__ import annotations

import functools
import os

import pytest

from bot import i18n, tables, texts
from render import catalog as render_catalog
from render import kit
from render import off_the_rails as otr_render
from rules.engine import Catalog, GameState, RandomAI, ai_move
from rules.off_the_rails import DEFINITION, board
from rules.off_the_rails.ja import JA
from rules.off_the_rails.state import gems_text
from tests.i18n import support

GAMES = int(os.environ.get("JUNCTION_I18N_GAMES", "4"))  # per player count; the other option sets get half
SAMPLE_NAMES = [f"X{i}" for i in range(1, 10)]
# Options that change what the engine writes: bumper carts (no drops), the rift die (die rolls),
# the automatic split (no split decision) and no missions (no claims).
OPTION_SETS = ({}, {"bumper_carts": True, "rift_die": True}, {"auto_split": True, "missions": False})
# Single letters the board draws as they are: columns a-n (edges n e s w among them), cart letters W/B,
# clan letters R/Y/B/G; move notation and the clan letters are the same in every language.
ALLOWED_LABELS = set(board.COLUMNS) | set(board.EDGES) | {"W", "B", "R", "Y", "G"}
SEAT_NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


def ja(text: str) -> str:
    return i18n.localize("ja", text)


def test_every_text_in_the_engine_source_is_translated() -> None:
    samples = support.source_texts("off_the_rails")
    assert len(samples) > 50  # the scan found the engine's texts
    assert support.untranslated(samples, SAMPLE_NAMES) == {}


@pytest.fixture(scope="module")
def played() -> tuple[set[str], list[GameState]]:
    texts, states = support.played_texts("off_the_rails", games=GAMES, seats=(1, 2, 3, 4))
    more, _ = support.played_texts("off_the_rails", games=max(1, GAMES // 2), seats=(2, 3), options=OPTION_SETS[1:])
    return texts | more, states


def test_every_line_of_played_games_is_translated(played: tuple[set[str], list[GameState]]) -> None:
    texts, _ = played
    assert len(texts) > 500
    assert support.untranslated(texts) == {}


def test_refusals_and_option_descriptions_are_translated() -> None:
    # Seat 0 of a fresh game types them: a crash other than IllegalMove fails the test.
    refusals = support.refusal_reasons([DEFINITION.new_game(2, {}, 1)], (
        "dig e5", "lay z9 ns", "lay e5 nes", "upgrade e5 nesw", "cart red a1", "speed white sideways", "go up",
        "take coal", "pick middle", "claim fame", "run white", "end now", "", "split", "speed white up",
        "cart white e5", "lay e5 ns"))
    assert len(refusals) >= 15  # different reasons
    descriptions = [option.description for option in DEFINITION.options]
    assert support.untranslated([*refusals, *descriptions]) == {}


def test_the_end_of_game_lines_are_translated(played: tuple[set[str], list[GameState]]) -> None:
    _, states = played
    lines: list[str] = []
    for state, result in ((s, s.result()) for s in states if s.result() is not None):
        names = SEAT_NAMES[: state.num_seats]
        # as the bot draws them: each category, detail name and listed value in the reader's words
        word = lambda english: i18n.localize("ja", english)  # noqa: E731
        lines += tables.result_lines(result, names, word) + texts.revealed_lines(result.to_json(), names, word=word)
        for line in result.seats:  # the final report: one category, or one revealed detail, per line
            lines += [f"     {category}: {points}" for category, points in line.breakdown.items()]
            lines += [f"     {key} (revealed): {texts._detail(value)}" for key, value in line.details.items()]
    assert len(lines) > 20
    # mission ids are what `claim` reads: they stay as they are, like move notation
    assert support.untranslated(lines, SEAT_NAMES + list(board.MISSION_IDS)) == {}
    assert ja("Ann: colour red; missions none; gems rock: 1; ruby: 0; emerald: 2; gold: 0; diamond: 1; "
              "carts_in_reserve 2") == "Ann：色 赤、ミッション なし、宝石 岩 1・ルビー 0・エメラルド 2・黄金 0・ダイヤモンド 1、手元のトロッコ 2"


def test_rules_text_keeps_the_option_keys() -> None:
    english = texts.rules_text(DEFINITION)
    japanese = i18n.rules_text("ja", DEFINITION, english)
    for option in DEFINITION.options:  # what `/game new options:` reads, in every language
        assert f"`{option.key}`" in japanese
    option_lines = [line for line in english.split("\n") if line.startswith("• ")]
    assert support.untranslated(option_lines, ["on", "off", "auto"]) == {}  # values are notation too


def test_a_collision_line_reads_as_intended() -> None:
    line = "{s0}'s white cart hits {s1}'s black cart on e5 (head-on); the white cart reverses on e4."
    assert ja(line) == "{s0} の白トロッコが e5 で {s1} の黒トロッコに正面衝突した。白トロッコは e4 で向きが逆になった。"
    delivered = "{s2}'s black cart delivers 2 ruby, 1 gold, 1 diamond at n8."
    assert ja(delivered) == "{s2} の黒トロッコが n8 にルビー 2 個、黄金 1 個、ダイヤモンド 1 個を持ち帰った。"
    assert ja("Your split: left ruby, gold | right rock.") == "あなたの分け方：左手 ルビー、黄金 | 右手 岩。"
    assert ja("Deposit red-3: 2 ruby on f5.") == "鉱石堆積カード 赤3：f5 にルビー 2 個。"


def test_a_refusal_keeps_the_notation_in_backticks() -> None:
    reason = "lay takes a straight or a curve (ns ew ne es sw nw); use upgrade for T and cross"
    assert ja(reason) == ("`lay` で置けるのは直線か曲線（`ns` `ew` `ne` `es` `sw` `nw`）です。"
                          "T字と十字は `upgrade` を使います")


PHASES = {"action-mining", "action-collapse", "action-chasm", "run", "take", "go", "split", "pick", "claim", "rift",
          "over"}


@functools.cache
def _states_in_every_phase() -> list[GameState]:
    """One state waiting in each decision (run, take, go, split, pick, claim, rift), in each stage, and the end."""
    wanted: dict[str, GameState] = {}
    for seed in range(40):
        state = DEFINITION.new_game(4 if seed % 2 else 3, {}, seed)
        brains = {s: DEFINITION.ai() if (s + seed) % 2 else RandomAI() for s in range(state.num_seats)}
        while state.to_act():
            seat = min(state.to_act())
            state.apply(seat, ai_move(state, seat, brains[seat]))
            key = state.phase if state.phase != "action" else f"action-{state.stage}"
            if key not in wanted:
                wanted[key] = state.copy()
        wanted.setdefault("over", state)
        if set(wanted) >= PHASES:
            break
    return list(wanted.values())


def test_images_draw_no_english_word() -> None:
    states = _states_in_every_phase()
    assert {s.phase for s in states} >= {"run", "take", "go", "split", "pick", "claim", "rift", "over"}
    missed = support.missed_labels("off_the_rails", states)
    assert missed - ALLOWED_LABELS - set(SEAT_NAMES) == set()


def test_a_player_name_is_never_looked_up_as_a_word() -> None:
    # "gold" is a word of the catalog; as a player's name it must stay as it is, also inside a label
    with kit.language("ja", render_catalog("off_the_rails", "ja")):
        line = kit.say("{s0}: split 3 gems of the white cart", ["gold"])
    assert line == "gold：白トロッコの宝石 3 個を左手と右手に分ける"


def test_every_gem_list_a_cart_can_carry_is_translated() -> None:
    catalog = Catalog(JA)
    for load in ({"rock": 1}, {"ruby": 2, "diamond": 3}, {"rock": 1, "ruby": 1, "emerald": 1, "gold": 1, "diamond": 1}):
        counted = catalog.line(f"{{s0}}'s white cart delivers {gems_text(load)} at a1.")
        assert support.english_left(counted) == [], counted
        words = catalog.line(", ".join(board.gem_list(load)))
        assert support.english_left(words) == [], words



def test_the_alt_text_is_translated_in_every_phase() -> None:
    descriptions = [otr_render.describe(state.view(None), SEAT_NAMES) for state in _states_in_every_phase()]
    assert support.untranslated(descriptions, SEAT_NAMES) == {}
    first = otr_render.describe(DEFINITION.new_game(2, {}, 1).view(None), SEAT_NAMES)
    assert ja(first) == "オフ・ザ・レールズ、手番 1（採掘）。得点：Ann 6, Bob 6。Ann：アクションフェーズ（4 回中 0 回使用）。"
