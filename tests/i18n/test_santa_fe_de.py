"""Santa Fe in German: every engine message, refusal, option and image label has its German in
locales/de/LC_MESSAGES/santa_fe.po (checked by message id, not by looking for English letters), players'
names stay as they are, and the German images draw every label from the catalog."""

from __future__ import annotations

import pytest

import locales
import render
from locales import catalogs
from rules.santa_fe import DEFINITION
from rules.santa_fe.board import BOARD
from rules.santa_fe.notation import PHASE_NAMES
from rules.santa_fe.state import ENDINGS, RESULT_LABELS
from rules.words import Items, Msg, Plural, Seat, Term
from tests.i18n.messages import english_labels, missing, played_messages
from tests.i18n.test_santa_fe_ja import OPTION_SETS, SEATS, refusals

NAMES = [*(city.name for city in BOARD.cities.values()), *(railroad.name for railroad in BOARD.railroads.values())]


def de(msg, names=SEATS) -> str:
    return locales.say(msg, "de", names, "santa_fe")


@pytest.fixture(scope="module")
def played() -> tuple[list, list]:
    return played_messages("santa_fe", games=2, seats=(2, 3, 4, 5), options=OPTION_SETS)


def test_the_german_catalog_is_complete_and_keeps_its_placeholders() -> None:
    problems = [p for p in catalogs.problems(["de"]) if p.startswith(("de/santa_fe", "templates/santa_fe"))]
    assert problems == []


def test_played_games_and_refusals_are_german(played) -> None:
    messages, _ = played
    reasons = refusals()
    assert missing([*messages, *reasons], "de", "santa_fe") == set()
    # Every line reads differently from the English (none fell back to its id).
    unchanged = {str(msg) for msg in [*messages, *reasons]
                 if de(msg) == locales.say(msg, "en", SEATS) and msg.id not in ("{who} {score}",)}
    assert unchanged == set()


def test_options_steps_results_and_rules_are_german(played) -> None:
    _, states = played
    words = [option.description for option in DEFINITION.options] + [DEFINITION.summary]
    words += [*ENDINGS.values(), *RESULT_LABELS.values(), "money", *PHASE_NAMES.values()]
    for word in words:
        assert locales.gettext("de", word, "santa_fe") != word, word


def test_worked_examples() -> None:
    lay = Msg("{line} (automatic)", line=Msg(
        "{who} lays {rr} {line} toward {city} ({section} {done}/{spaces}), pays ${cost}.", who=Seat(1), rr="SF",
        line=2, city="Houston", section="Dallas–Houston", done=2, spaces=2, cost=3))
    assert de(lay) == "Bob baut SF 2 Richtung Houston (Dallas–Houston 2/2) und zahlt $3. (automatisch)"
    bonus = Msg("{rr} reaches {city}. {who} earns ${bonus} ({parts}).", rr="SF", city="Houston", who=Seat(0),
                bonus=12, parts=Items([Msg("${money} first to {city}", money=4, city="Houston"),
                                       Msg("${money} {rr} bonus", money=8, rr="SF")], "comma"))
    assert de(bonus) == "SF erreicht Houston. Ann bekommt $12 ($4 Erstanschluss Houston, $8 SF-Bonus)."
    assert de(Plural("{who} exchanged {n} card.", "{who} exchanged {n} cards.", n=1, who=Seat(2))) == \
        "Cid hat 1 Karte getauscht."
    assert de(Plural("{who} exchanged {n} card.", "{who} exchanged {n} cards.", n=3, who=Seat(2))) == \
        "Cid hat 3 Karten getauscht."
    assert de(Msg("Engineers bought by: {who}.", who=Items([Seat(0), Seat(1)], "comma"))) == \
        "Ingenieure gekauft von: Ann, Bob."
    assert de(Msg("That move is not allowed now (step: {step}).", step=Term("lay pass 2"))) == \
        "Dieser Zug ist jetzt nicht erlaubt (Schritt: Baudurchgang 2)."


def test_a_player_named_like_a_catalog_word_keeps_the_name() -> None:
    names = ["Deck", "Round", "Score", "Easy", "Players", "Black", "draw", "nobody", "money", "Bahn"]
    state = DEFINITION.new_game(5, {"advanced": True}, seed=2)
    said = [de(event.msg, names) for event in state.opening_events()]
    for seat in range(5):
        said += [de(event.msg, names) for event in state.apply(seat, "decline engineer")]
    assert "Ingenieure gekauft von: niemand." in said
    assert f"{names[state.first]} ist Startspieler." in said or any(
        line.endswith(f"{names[state.first]} ist Startspieler.") for line in said)
    for seat, name in enumerate(names):
        assert de(Msg("{who} passes.", who=Seat(seat)), names) == f"{name} passt."
        assert de(Msg("Final scores: {scores}.", scores=Items([Msg("{who} {score}", who=Seat(seat), score=3)],
                                                              "comma")), names) == f"Endstand: {name} 3."


def test_images_draw_every_label_from_the_german_catalog(played, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render, "LANGUAGES", tuple(dict.fromkeys((*render.LANGUAGES, "de"))))
    _, states = played
    fresh = [DEFINITION.new_game(n, options, seed=1) for options in OPTION_SETS for n in (2, 5)]
    assert english_labels("santa_fe", [*fresh, *states[:: max(1, len(states) // 12)]], "de", SEATS) == set()


def test_alt_text_is_german(played, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render, "LANGUAGES", tuple(dict.fromkeys((*render.LANGUAGES, "de"))))
    view = DEFINITION.new_game(2, {}, seed=3).view(None)
    assert render.in_language("de", "santa_fe", render.describe, view, ["Ann", "Bob"]) == (
        "Santa Fe, Runde 1: Karten wählen. Am Zug: Ann, Bob. Punkte: Ann 2, Bob 2. Schienenteile übrig: SF 32, "
        "SP 30, GN 25, UP 24, KP 17. Zuletzt: Runde 1 beginnt; Ann ist Startspieler."
    )
    _, states = played
    over = next(state for state in states if state.is_over())
    line = render.in_language("de", "santa_fe", render.describe, over.view(None), SEATS[: over.num_seats])
    assert line.startswith("Santa Fe, Spielende nach Runde ") and "Zuletzt: Endstand: " in line
