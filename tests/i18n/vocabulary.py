"""Checks of a game's words in any language, Latin-script ones included (German, French): from its catalogs.

Looking for Latin letters cannot tell German from English. These checks ask the catalogs instead:

- `missing(msg, lang, game)`: the message ids (and translatable terms) inside a message that `lang` lacks;
- `english_only(lang, domain)`: the English words of a domain's message ids that no translation of `lang`
  uses ("auction", "passengers" in German; every Latin word in Japanese but the notation and the names): a
  drawn text that contains one of them was left in English;
- `leftovers(text, vocabulary, names)`: those words in a text, the players' names taken out first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from contextlib import contextmanager
from typing import Any

import pytest
from babel.messages.pofile import read_po

import locales
import render
from render import kit
from rules.words import Items, Msg, Term

_WORD = re.compile(r"[A-Za-zÀ-ÿ]{3,}")
_CODE = re.compile(r"`[^`]*`|\{\w+\}")


def missing(value: Any, lang: str, game: str) -> list[str]:
    """The ids in `value` (a message, its nested messages and terms) that `lang`'s catalogs lack."""
    words = locales.words(lang)
    domains = locales.domains_for(game)
    out: list[str] = []
    if isinstance(value, Msg):
        key = value.id if value.plural is None else (value.id, value.plural)
        if value.id != "{text}" and not words.find(key, domains):
            out.append(value.id)
        for param in value.params.values():
            out += missing(param, lang, game)
    elif isinstance(value, Term):
        if not words.find(value.word, domains):
            out.append(value.word)
    elif isinstance(value, Items):
        for item in value.items:
            out += missing(item, lang, game)
    return out


def _strings(message: Any) -> tuple[list[str], list[str]]:
    ids = message.id if isinstance(message.id, tuple) else (message.id,)
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return [*ids], [s for s in strings if s]


def english_only(lang: str, domain: str, keep: Iterable[str] = ()) -> set[str]:
    """Words (3+ letters) of `domain`'s English ids that none of `lang`'s translations there uses."""
    with locales.pot_path(domain).open("rb") as handle:
        template = read_po(handle)
    with locales.po_path(lang, domain).open("rb") as handle:
        catalog = read_po(handle)
    english: set[str] = set()
    for message in template:
        if message.id:
            for text in _strings(message)[0]:
                english.update(_WORD.findall(_CODE.sub(" ", text)))
    used: set[str] = set(keep)
    for message in catalog:
        if message.id and not message.fuzzy:
            for text in _strings(message)[1]:
                used.update(_WORD.findall(_CODE.sub(" ", text)))
    return english - used


def catalog_gaps(lang: str, domain: str) -> list[str]:
    """What keeps `domain`'s catalog in `lang` from being complete and current (`python -m locales check`)."""
    from locales import catalogs

    return [problem for problem in catalogs.problems([lang]) if f"/{domain}" in problem or f"{domain}.pot" in problem]


def line_problems(messages: Iterable[Any], lang: str, game: str, names: list[str],
                  vocabulary: set[str] | None = None) -> dict[str, list[str]]:
    """{English line: what is wrong with it in `lang`} for the lines with an id the catalogs lack or words left
    in English: with `vocabulary` (a Latin-script language) those words, else any Latin word (Japanese)."""
    from tests.i18n.support import english_left

    out = {}
    for msg in messages:
        said = locales.say(msg, lang, names, game)
        left = english_left(said, names) if vocabulary is None else leftovers(said, vocabulary, names)
        wrong = missing(msg, lang, game) + left
        if wrong:
            out[str(msg)] = wrong
    return out


def leftovers(text: str, vocabulary: set[str], names: Iterable[str] = ()) -> list[str]:
    """The words of `vocabulary` in `text`, once the names (players, cities) are taken out."""
    text = _CODE.sub(" ", text)
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return [word for word in _WORD.findall(text) if word in vocabulary]


@contextmanager
def speaking(lang: str) -> Any:
    """`render.in_language` draws in `lang` even before locales/LINGUAS lists it (German, until the
    language is switched on for players)."""
    with pytest.MonkeyPatch.context() as patch:
        if lang not in render.LANGUAGES:
            patch.setattr(render, "LANGUAGES", (*render.LANGUAGES, lang))
        yield


def drawn_texts(draw: Any) -> list[str]:
    """Every text `draw()` puts on an image."""
    with kit.recording() as boxes:
        draw()
    return [box.text for box in boxes if box.is_text]


def images(state: Any, names: list[str], lang: str) -> list[str]:
    """Every text drawn on `state`'s board and on each seat's hand image in `lang`."""
    texts = drawn_texts(lambda: render.board_png(state.view(None), names, lang))
    for seat in range(state.num_seats):
        texts += drawn_texts(lambda seat=seat: render.hand_png(state.view(seat), names, lang))
    return texts


# The names a player may choose that are also words of the catalogs (issue #25): they must stay as typed.
WORDLIKE_NAMES = ("Deck", "Round", "Score", "Easy", "Players", "Black")


def assert_names_kept(lines: Iterable[Msg], names: list[str], lang: str, game: str) -> None:
    """Each line in `lang` is the same line said with neutral stand-ins for the seats, each stand-in then
    replaced by the player's name as typed: no name was translated, dropped or taken for a word."""
    stand_ins = [f"\u27e8{seat}\u27e9" for seat in range(len(names))]
    for line in lines:
        said = locales.say(line, lang, names, game)
        shape = locales.say(line, lang, stand_ins, game)
        for seat in line.seats():
            assert stand_ins[seat] in shape, (str(line), shape)
        for seat, name in enumerate(names):
            shape = shape.replace(stand_ins[seat], name)
        assert said == shape, (str(line), said)
