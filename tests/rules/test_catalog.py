"""rules.engine.Catalog: exact entries, whole-line patterns, composed values, joined events."""

from __future__ import annotations

from rules.engine import Catalog

CATALOG = Catalog({
    "Game over.": "ゲーム終了。",
    "{who} draws {n} cards.": "{who} がカードを {n} 枚引いた。",
    "{who} lays {kind} track {line}.": "{who} が {line} に{kind}線路を敷いた。",
    "black": "黒の",
    "{who} lays a track {line}.": "{who} が {line} に線路を敷いた。",
    "Round {n}: {what}": "第 {n} ラウンド：{what}",
    "{a} and {a}": "{a} が二つ",
    "You played `{move}`.": "`{move}` を指した。",
    "{x}": "never used: a pattern with no literal text would match anything",
})


def test_exact_entries_and_unknown_text():
    assert CATALOG.line("Game over.") == "ゲーム終了。"
    assert CATALOG.line("Something else.") == "Something else."
    assert CATALOG.line("") == ""


def test_patterns_keep_seat_tokens_and_numbers_and_translate_known_values():
    assert CATALOG.line("{s1} draws 2 cards.") == "{s1} がカードを 2 枚引いた。"
    assert CATALOG.line("{s0} lays black track a1–b2.") == "{s0} が a1–b2 に黒の線路を敷いた。"
    assert CATALOG.line("Round 3: {s2} draws 1 cards.") == "第 3 ラウンド：{s2} がカードを 1 枚引いた。"


def test_the_most_specific_pattern_wins():
    # "{who} lays a track {line}." and "{who} lays {kind} track {line}." both match; the longer literal wins.
    assert CATALOG.line("{s0} lays a track a1–b2.") == "{s0} が a1–b2 に線路を敷いた。"


def test_a_repeated_placeholder_must_repeat_its_value():
    assert CATALOG.line("x and x") == "x が二つ"
    assert CATALOG.line("x and y") == "x and y"


def test_lines_bullets_indents_and_joined_events():
    text = "Game over.\n• {s0} draws 2 cards.\n    Game over.\nunknown"
    assert CATALOG.text(text) == "ゲーム終了。\n• {s0} がカードを 2 枚引いた。\n    ゲーム終了。\nunknown"
    joined = Catalog.JOIN.join(["{s0} draws 2 cards.", "Game over."])
    assert CATALOG.line(joined) == Catalog.JOIN.join(["{s0} がカードを 2 枚引いた。", "ゲーム終了。"])


def test_a_paragraph_without_an_entry_is_translated_sentence_by_sentence():
    text = "Game over. {s0} draws 2 cards. Unknown words here."
    assert CATALOG.line(text) == "ゲーム終了。 {s0} がカードを 2 枚引いた。 Unknown words here."


def test_notation_in_backticks_is_never_translated():
    assert CATALOG.line("You played `black`.") == "`black` を指した。"
    assert CATALOG.line("Round 1: black") == "第 1 ラウンド：黒の"
