"""Messages (rules.words) and their translation at the edge (locales.say)."""

from __future__ import annotations

import pytest

import locales
from rules.engine import name_seats
from rules.words import N_, Items, Msg, Plural, Seat, Term, Verbatim


def _japanese(entries: dict) -> locales.Words:
    words = locales.Words("ja-test", {"g": entries})
    words.plural_index = lambda n: 0
    return words


def test_str_is_the_english_the_engines_wrote_with_seat_tokens() -> None:
    msg = Msg("{who} lays a track {line}; {n} black tracks left.", who=Seat(1), line="a1-b2", n=5)
    assert str(msg) == "{s1} lays a track a1-b2; 5 black tracks left."
    assert name_seats(str(msg), ["Ann", "Deck"]) == "Deck lays a track a1-b2; 5 black tracks left."
    assert str(Plural("{who} draws {n} card.", "{who} draws {n} cards.", n=1, who=Seat(0))) == "{s0} draws 1 card."
    assert str(Plural("{who} draws {n} card.", "{who} draws {n} cards.", n=2, who=Seat(0))) == "{s0} draws 2 cards."
    assert str(Msg("{a} wins.", a=Items([Seat(0), Seat(2)]))) == "{s0} and {s2} wins."
    assert str(Items(["x", "y", "z"], "comma")) == "x, y, z"
    assert str(Items(["x", "y"], english=" and ")) == "x and y"
    assert N_("Display") == "Display"
    with pytest.raises(TypeError):
        Plural("a", "b")


def test_a_message_survives_json() -> None:
    msg = Msg("{who} claims {colour} with {cards}: {inner}", who=Seat(2), colour=Term("black"),
              cards=Items([Term("red"), 3, "x"], "or", english=" / "),
              inner=Plural("{n} card", "{n} cards", n=2))
    again = Msg.from_json(msg.to_json())
    assert again == msg and str(again) == str(msg)
    assert msg.seats() == {2}


def test_names_are_never_translated_terms_are() -> None:
    words = _japanese({"{who} claims {colour}.": "{who} が {colour} を取った。", "black": "黒", "Deck": "山札"})
    msg = Msg("{who} claims {colour}.", who=Seat(0), colour=Term("black"))
    assert words.say(msg, ["Deck"], ("g",)) == "Deck が 黒 を取った。"
    # A plain value (a city, notation) is shown as given even when it is a catalog word.
    assert words.say(Msg("{who} claims {colour}.", who=Seat(0), colour="black"), ["Deck"], ("g",)) == \
        "Deck が black を取った。"
    assert words.say(Verbatim("Deck"), None, ("g",)) == "Deck"


def test_lists_join_the_readers_way_and_english_stays_byte_for_byte() -> None:
    msg = Msg("{who} win.", who=Items([Seat(0), Seat(1), Seat(2)]))
    assert locales.say(msg, "en", ["A", "B", "C"]) == name_seats(str(msg), ["A", "B", "C"]) == "A, B and C win."
    words = _japanese({"{who} win.": "{who} の勝ち。"})
    words.lang = "ja"
    assert words.say(msg, ["A", "B", "C"], ("g",)) == "A、B、C の勝ち。"


def test_a_translation_that_breaks_its_placeholders_falls_back_to_english() -> None:
    words = _japanese({"{who} passes.": "{whom} がパス。"})
    assert words.say(Msg("{who} passes.", who=Seat(0)), ["Ann"], ("g",)) == "Ann passes."


def test_discord_locales_map_to_the_languages_junction_speaks() -> None:
    assert locales.language_of("ja") == "ja"
    assert locales.language_of("en-GB") == "en"
    assert locales.language_of("pt-BR") == "en"
    assert locales.language_of(None) == "en"
    assert locales.LANGUAGES[0] == "en" and "ja" in locales.LANGUAGES


def test_the_japanese_catalogs_are_read_from_po_files() -> None:
    assert locales.gettext("ja", "Game over") == "ゲーム終了"
    assert locales.gettext("ja", "You joined.") == "参加しました。"
    assert locales.gettext("en", "You joined.") == "You joined."


def test_a_list_may_join_with_a_separator_the_catalogs_translate() -> None:
    parts = Items([Items([Seat(0), "blue 2"], sep=N_(": ")), Items([Seat(1), "nothing"], sep=N_(": "))], sep=N_("; "))
    msg = Msg("Track stacks: {stacks}.", stacks=parts)
    assert str(msg) == "Track stacks: {s0}: blue 2; {s1}: nothing."
    words = _japanese({"Track stacks: {stacks}.": "トラックスタック：{stacks}。", "; ": "／", ": ": "："})
    words.lang = "ja"
    assert words.say(msg, ["Ann", "Deck"], ("g",)) == "トラックスタック：Ann：blue 2／Deck：nothing。"
    again = Msg.from_json(msg.to_json())
    assert again == msg and str(again) == str(msg)
