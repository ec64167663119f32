"""Off the Rails in German: the catalog (locales/de/LC_MESSAGES/off_the_rails.po) is complete, and every line,
decision, refusal, result word, image text and alt text a German player reads is German."""

from __future__ import annotations

import pytest

import locales
import render
from locales import catalogs
from render import off_the_rails as otr_render
from rules.off_the_rails import DEFINITION, board, texts
from rules.words import Msg, Seat, Term
from tests.i18n import off_the_rails_corpus as corpus
from tests.i18n import vocabulary

KEY = "off_the_rails"
SEAT_NAMES = ["Ann", "Bob", "Cid", "Dee"]
# English words of the ids that German keeps: the game's name, notation and the letters the board prints.
KEEP = {"Off", "the", "Rails", "end", "run", "white", "black", "red", "leader"}


def de(msg: Msg, names: list[str] = SEAT_NAMES) -> str:
    return locales.say(msg, "de", names, KEY)


def english_in(lines: list[Msg], names: list[str] = SEAT_NAMES) -> dict[str, list[str]]:
    """{English line: the English words its German still shows} for the lines that have any."""
    english = vocabulary.english_only("de", KEY, KEEP)
    out = {}
    for line in lines:
        assert vocabulary.missing(line, "de", KEY) == [], str(line)
        left = vocabulary.leftovers(de(line, names), english, [*names, *corpus.NOTATION])
        if left:
            out[str(line)] = left
    return out


@pytest.mark.slow  # seconds: plays or draws whole games, or extracts every domain
def test_the_catalog_is_complete() -> None:
    assert [p for p in catalogs.problems(["de"]) if "/off_the_rails:" in p] == []


def test_every_line_of_played_games_is_german() -> None:
    lines, _ = corpus.played()
    assert len({str(line) for line in lines}) > 500
    assert english_in(list(lines)) == {}


def test_every_decision_refusal_option_and_result_word_is_german() -> None:
    refusals = corpus.refusals()
    assert len(refusals) >= 25
    assert english_in([*corpus.decisions(), *refusals, *corpus.result_words()]) == {}
    english = vocabulary.english_only("de", KEY, KEEP)
    for text in (*(option.description for option in DEFINITION.options), DEFINITION.summary):
        assert vocabulary.leftovers(locales.gettext("de", text, KEY), english) == [], text


def test_lines_read_as_german() -> None:
    white, black = texts.cart(0, "white"), texts.cart(1, "black")
    collision = texts.collision("head-on", mover=white, hit=black, square="e5", cart=Term("white"), back="e4")
    assert de(collision) == ("Die weiße Lore von Ann rammt auf e5 frontal die schwarze Lore von Bob; "
                             "die weiße Lore kehrt auf e4 um.")
    delivered = Msg("{cart} delivers {gems} at {square}.", cart=texts.cart(2, "black"),
                    gems=texts.gems({"ruby": 2, "gold": 1, "diamond": 1}), square="n8")
    assert de(delivered) == "Die schwarze Lore von Cid liefert 2 Rubine, 1 Gold, 1 Diamant auf n8 ab."
    deposit = Msg("Deposit {card}: {gems} on {square}.", card=texts.card("red-3"), gems=texts.gems({"emerald": 2}),
                  square="f5")
    assert de(deposit) == "Vorkommen Rot-3: 2 Smaragde auf f5."
    take = Msg("{who}: choose a gem on {square} ({options})", who=Seat(1), square="c3",
               options=texts.choices([Term("ruby"), Term("gold")]))
    assert de(take) == "Bob: Wähle einen Edelstein auf c3 (Rubin | Gold)"
    assert de(DEFINITION.new_game(2, {}, 1).decision_msg()) == "Ann: noch bis zu 4 Aktionen, dann `end`"
    pick = Msg("{who}: pick left ({left}) or right ({right})", who=Seat(0), left=texts.gem_count(2),
               right=texts.gem_count(1))
    assert de(pick) == "Ann: Wähle links (2 Edelsteine) oder rechts (1 Edelstein)"


@pytest.mark.slow  # seconds: plays or draws whole games, or extracts every domain
def test_player_names_that_are_words_stay_as_typed() -> None:
    lines, _ = corpus.played(1)
    names = ["Black", "weiße", "Gold", "Deck"]  # a cart in English and in German, a gem, a word of the images
    vocabulary.assert_names_kept([line for line in lines if line.seats()], names, "de", KEY)
    vocabulary.assert_names_kept(corpus.decisions(), list(vocabulary.WORDLIKE_NAMES), "de", KEY)


@pytest.mark.slow  # seconds: plays or draws whole games, or extracts every domain
def test_images_draw_german() -> None:
    english = vocabulary.english_only("de", KEY, KEEP)
    with vocabulary.speaking("de"):
        for state in corpus.in_every_phase():
            last = (state.view(None).get("last_action") or {}).get("move") or ""
            drawn = vocabulary.images(state, SEAT_NAMES, "de")
            left = [w for text in drawn for w in vocabulary.leftovers(text, english, [*SEAT_NAMES, *corpus.NOTATION,
                                                                                     last])]
            assert left == [], (state.phase, left)
            assert any("Lore" in text for text in drawn)


def test_the_alt_text_is_german_in_every_phase() -> None:
    english = vocabulary.english_only("de", KEY, KEEP)
    with vocabulary.speaking("de"):
        for state in corpus.in_every_phase():
            alt = render.in_language("de", KEY, otr_render.describe, state.view(None), SEAT_NAMES)
            assert vocabulary.leftovers(alt, english, [*SEAT_NAMES, *corpus.NOTATION]) == [], alt
        first = render.in_language("de", KEY, otr_render.describe, DEFINITION.new_game(2, {}, 1).view(None),
                                   SEAT_NAMES)
    assert first == ("Off the Rails, Zug 1 (Abbau). Punkte: Ann 6, Bob 6. "
                     "Ann: Aktionsphase, 0 von 4 Aktionen genutzt.")


@pytest.mark.slow  # seconds: plays or draws whole games, or extracts every domain
def test_names_that_are_words_are_drawn_as_typed() -> None:
    names = ["Black", "Gold", "Rot", "Deck"]  # English and German words of this game, and a word of the images
    with vocabulary.speaking("de"):
        for state in corpus.in_every_phase():
            drawn = "\n".join(vocabulary.drawn_texts(lambda state=state: render.board_png(state.view(None), names, "de")))
            for seat in range(state.num_seats):
                assert names[seat] in drawn, (state.phase, names[seat])
            alt = render.in_language("de", KEY, otr_render.describe, state.view(None), names)
            assert all(f"{names[seat]} " in alt for seat in range(state.num_seats)), alt


def test_the_words_listed_for_the_catalog_are_the_games_words() -> None:
    # texts.py spells out the words of the board data (extraction reads the code, not the JSON)
    assert set(texts.MISSION_NAMES) == {m["name"] for m in board.MISSIONS.values()}
    assert set(texts.MISSION_LINES) == {f"{key}: {m['condition']}" for key, m in board.MISSIONS.items()}
    assert set(texts.GEMS) == set(board.GEM_KINDS)
    assert set(texts.COLOURS) == set(board.COLOURS)
    assert set(texts.CARTS) == set(board.CART_NAMES)
