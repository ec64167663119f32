"""Ticket to Ride: The Card Game in German: every engine message, refusal, option and image label has its German
in locales/de/LC_MESSAGES/ttr_cards.po (checked by message id, not by looking for English letters), in the terms
of the German edition (Wagenkarten, Lok, Zielkarten, Verschiebebahnhof, Unterwegs-Stapel), players' names stay
as they are, and the German images draw every label from the catalog."""

from __future__ import annotations

import pytest

import locales
import render
from locales import catalogs
from rules.ttr_cards import DEFINITION
from rules.ttr_cards.cards import cards_played, describe
from rules.ttr_cards.scoring import RESULT_LABELS
from rules.words import Items, Msg, Plural, Seat, Term
from tests.i18n.messages import english_labels, missing, played_messages
from tests.i18n.test_ttr_cards_ja import OPTIONS, PLAYERS, _kinds_of_board, refusals


def de(msg, names=PLAYERS) -> str:
    return locales.say(msg, "de", names, "ttr_cards")


@pytest.fixture(scope="module")
def played() -> tuple[list, list]:
    return played_messages("ttr_cards", games=3, seats=(2, 3, 4), options=OPTIONS)


@pytest.fixture
def german(monkeypatch: pytest.MonkeyPatch) -> None:
    """Draw German whether or not locales/LINGUAS lists it yet."""
    monkeypatch.setattr(render, "LANGUAGES", tuple(dict.fromkeys((*render.LANGUAGES, "de"))))


def test_the_german_catalog_is_complete_and_keeps_its_placeholders() -> None:
    problems = [p for p in catalogs.problems(["de"]) if p.startswith(("de/ttr_cards", "templates/ttr_cards"))]
    assert problems == []


def test_played_games_and_refusals_are_german(played) -> None:
    messages, states = played
    reasons = refusals(states[::3])
    assert missing([*messages, *reasons], "de", "ttr_cards") == set()
    same = ("{who} {n}", "{rank}. {who} {score}", "{who}: {cards}", "{a}; {b}")
    unchanged = {str(msg) for msg in [*messages, *reasons]
                 if de(msg) == locales.say(msg, "en", PLAYERS) and msg.id not in same}
    assert unchanged == set()


def test_options_results_and_rules_are_german() -> None:
    words = [*RESULT_LABELS.values(), *(option.description for option in DEFINITION.options), DEFINITION.summary]
    for word in words:
        assert locales.gettext("de", word, "ttr_cards") != word, word


def test_worked_examples() -> None:
    rob = Msg("{who} plays {cards} to the rail yard, robbing {victim}'s {colour} row ({n} {colour} + {m} loco).",
              who=Seat(0), cards=cards_played(("red", "red", "loco")), victim=Seat(1), colour=Term("red"), n=2, m=1)
    assert de(rob) == ("Ann legt Rot, Rot, Lok in den Verschiebebahnhof und raubt die Reihe Rot von Bob "
                       "(2 Rot + 1 Lok).")
    moved = Plural("{who} moves {n} card to the track stack (now {total}): {moved}.",
                   "{who} moves {n} cards to the track stack (now {total}): {moved}.", n=1, who=Seat(1), total=7,
                   moved=describe({"loco": 1}))
    assert de(moved) == "Bob legt 1 Karte auf den Unterwegs-Stapel (jetzt 7): Lok 1."
    standings = Msg("Game over: {who}.", who=Items([Msg("{rank}. {who} {score}", rank=r, who=Seat(s), score=p)
                                                   for r, s, p in ((1, 2, 61), (2, 0, 47))], "comma"))
    assert de(standings) == "Spielende: 1. Cid 61, 2. Ann 47."


def test_a_player_named_like_a_catalog_word_keeps_the_name() -> None:
    names = ["Deck", "Rot", "red", "Score"]
    state = DEFINITION.new_game(4, {}, 1)
    said = []
    for seat in range(4):
        said += [de(event.msg, names) for event in state.apply(seat, "keep all")]
    assert any(line.startswith("Alle haben gewählt. Behaltene Zielkarten: Deck ") for line in said)
    for seat, name in enumerate(names):
        assert de(Msg("{who} has chosen their tickets.", who=Seat(seat)), names) == f"{name} hat die Zielkarten gewählt."


def test_images_draw_every_label_from_the_german_catalog(played, german) -> None:
    assert english_labels("ttr_cards", _kinds_of_board(played[1]), "de", PLAYERS) == set()


def test_alt_text_is_german(played, german) -> None:
    state = DEFINITION.new_game(2, {}, 1)
    for seat in range(2):
        state.apply(seat, "keep all")
    line = render.in_language("de", "ttr_cards", render.describe, state.view(None), ["Ann", "Bob"])
    assert line.startswith("Zug um Zug: Das Kartenspiel, offener Tisch. Ann: 2 Karten ziehen, ")
    assert "Zuletzt: Bob hat gewählt." in line and "Verschiebebahnhof von Bob: leer." in line
