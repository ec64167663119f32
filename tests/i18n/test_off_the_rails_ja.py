"""Off the Rails in Japanese: every engine text, refusal, result word and image label a Japanese player reads is
translated by the catalog (locales/ja/LC_MESSAGES/off_the_rails.po), with the wording of before."""

from __future__ import annotations

import json

import pytest

import locales
import render
from locales import catalogs
from render import off_the_rails as otr_render
from rules.engine import Event
from rules.off_the_rails import DEFINITION, texts
from rules.words import Msg, Seat, Term
from tests.i18n import off_the_rails_corpus as corpus
from tests.i18n import support, vocabulary

KEY = "off_the_rails"
SEAT_NAMES = ["Ann", "Bob", "Cid", "Dee"]


def ja(msg: Msg, names: list[str] = SEAT_NAMES) -> str:
    return locales.say(msg, "ja", names, KEY)


def english_in(lines: list[Msg], names: list[str] = SEAT_NAMES) -> dict[str, list[str]]:
    """{English line: its words still in English in Japanese} for the lines that have any."""
    out = {}
    for line in lines:
        assert vocabulary.missing(line, "ja", KEY) == [], str(line)
        left = support.english_left(ja(line, names), [*names, *corpus.NOTATION])
        if left:
            out[str(line)] = left
    return out


@pytest.mark.slow  # seconds: plays or draws whole games, or extracts every domain
def test_the_catalog_is_complete() -> None:
    assert [p for p in catalogs.problems(["ja"]) if "/off_the_rails:" in p] == []


@pytest.mark.slow  # seconds: plays or draws whole games, or extracts every domain
def test_every_line_of_played_games_is_translated() -> None:
    lines, _ = corpus.played()
    assert len({str(line) for line in lines}) > 500
    assert english_in(list(lines)) == {}


@pytest.mark.slow  # seconds: plays or draws whole games, or extracts every domain
def test_every_decision_refusal_option_and_result_word_is_translated() -> None:
    refusals = corpus.refusals()
    assert len(refusals) >= 25  # different reasons
    assert english_in([*corpus.decisions(), *refusals, *corpus.result_words()]) == {}
    for option in DEFINITION.options:
        assert support.english_left(locales.gettext("ja", option.description, KEY), ["auto"]) == []
    assert locales.gettext("ja", DEFINITION.title, KEY) == "オフ・ザ・レールズ"
    assert locales.gettext("ja", DEFINITION.summary, KEY) != DEFINITION.summary


def test_lines_read_as_before() -> None:
    white, black = texts.cart(0, "white"), texts.cart(1, "black")
    collision = texts.collision("head-on", mover=white, hit=black, square="e5", cart=Term("white"), back="e4")
    assert ja(collision) == "Ann の白トロッコが e5 で Bob の黒トロッコに正面衝突した。白トロッコは e4 で向きが逆になった。"
    delivered = Msg("{cart} delivers {gems} at {square}.", cart=texts.cart(2, "black"),
                    gems=texts.gems({"ruby": 2, "gold": 1, "diamond": 1}), square="n8")
    assert ja(delivered) == "Cid の黒トロッコが n8 にルビー 2 個、黄金 1 個、ダイヤモンド 1 個を持ち帰った。"
    split = Msg("Your split: left {left} | right {right}.", left=texts.gem_words(["ruby", "gold"]),
                right=texts.gem_words(["rock"]))
    assert ja(split) == "あなたの分け方：左手 ルビー、黄金 | 右手 岩。"
    deposit = Msg("Deposit {card}: {gems} on {square}.", card=texts.card("red-3"), gems=texts.gems({"ruby": 2}),
                  square="f5")
    assert ja(deposit) == "鉱石堆積カード 赤3：f5 にルビー 2 個。"
    derailed = texts.derailed("mine", white, {}, target="e5")
    assert ja(derailed) == "Ann の白トロッコが e5 の鉱山にぶつかって脱線した。"
    take = Msg("{who}: choose a gem on {square} ({options})", who=Seat(1), square="c3",
               options=texts.choices([Term("ruby"), Term("gold"), Term("rock")]))
    assert ja(take) == "Bob：c3 で拾う宝石を選ぶ（ルビー | 黄金 | 岩）"


def test_a_refusal_keeps_the_notation_in_backticks() -> None:
    reason = Msg("lay takes a straight or a curve (ns ew ne es sw nw); use upgrade for T and cross")
    assert ja(reason) == ("`lay` で置けるのは直線か曲線（`ns` `ew` `ne` `es` `sw` `nw`）です。"
                          "T字と十字は `upgrade` を使います")
    state = DEFINITION.new_game(2, {}, 1)
    refused = [r for r in corpus.refusals() if r.id.startswith("{token} is not a cart")]
    assert [ja(r) for r in refused] == ["`red` はトロッコではありません（`white` か `black`）"]  # typed: as typed
    assert state.decision_msg().seats() == {0}


@pytest.mark.slow  # seconds: plays or draws whole games, or extracts every domain
def test_player_names_that_are_words_stay_as_typed() -> None:
    lines, _ = corpus.played(1)
    names = ["Black", "white", "gold", "Deck"]  # a colour, a cart, a gem and a word of the images
    vocabulary.assert_names_kept([line for line in lines if line.seats()], names, "ja", KEY)
    vocabulary.assert_names_kept(corpus.decisions(), list(vocabulary.WORDLIKE_NAMES), "ja", KEY)


@pytest.mark.slow  # seconds: plays or draws whole games, or extracts every domain
def test_images_draw_no_english_word() -> None:
    states = corpus.in_every_phase()
    assert {s.phase for s in states} >= {"run", "take", "go", "split", "pick", "claim", "rift", "over"}
    for state in states:
        last = (state.view(None).get("last_action") or {}).get("move") or ""
        drawn = vocabulary.images(state, SEAT_NAMES, "ja")
        left = [word for text in drawn for word in support.english_left(text, [*SEAT_NAMES, *corpus.NOTATION, last])]
        assert left == [], (state.phase, left)


def test_the_alt_text_is_translated_in_every_phase() -> None:
    for state in corpus.in_every_phase():
        alt = render.in_language("ja", KEY, otr_render.describe, state.view(None), SEAT_NAMES)
        assert support.english_left(alt, [*SEAT_NAMES, *corpus.NOTATION]) == [], alt
    first = render.in_language("ja", KEY, otr_render.describe, DEFINITION.new_game(2, {}, 1).view(None), SEAT_NAMES)
    assert first == "オフ・ザ・レールズ、手番 1（採掘）。得点：Ann 6, Bob 6。Ann：アクションフェーズ（4 回中 0 回使用）。"


def test_a_stored_line_reads_the_same() -> None:
    # events go to the outbox and the log as JSON: the message comes back whole, gem lists and all
    lines, _ = corpus.played(1)
    for line in lines:
        back = Event.from_json(json.loads(json.dumps(Event(line).to_json())))
        assert str(back.text) == str(line)
        assert ja(back.msg) == ja(line)


@pytest.mark.slow  # seconds: plays or draws whole games, or extracts every domain
def test_names_that_are_words_are_drawn_as_typed() -> None:
    names = ["Black", "gold", "ruby", "Deck"]  # words of the catalog: never looked up
    for state in corpus.in_every_phase():
        drawn = "\n".join(vocabulary.drawn_texts(lambda state=state: render.board_png(state.view(None), names, "ja")))
        for seat in range(state.num_seats):
            assert names[seat] in drawn, (state.phase, names[seat])
