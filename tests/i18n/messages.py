"""Checks on messages (rules.words) against the catalogs: which ids of a message a language lacks.

A message is a tree: its id (or singular and plural), and parameters that may be messages, terms or lists
of them. A language covers a message when every id and every term in the tree has a translation in the
game's domain or a shared one; names, numbers, cities and notation are plain values and need none.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import locales
from rules.words import Items, Msg, Term, as_msg


def keys(value: Any) -> Iterator[str | tuple[str, str]]:
    """Every catalog key in a message tree: message ids ((singular, plural) for a plural) and terms."""
    if isinstance(value, Msg):
        if value.id != "{text}":  # Verbatim: shown as it is in every language
            yield (value.id, value.plural) if value.plural is not None else value.id
        for param in value.params.values():
            yield from keys(param)
    elif isinstance(value, Term):
        yield value.word
    elif isinstance(value, Items):
        if value.sep is not None and value.sep.strip():  # a separator the catalogs translate ("; ", ": ")
            yield value.sep
        for item in value.items:
            yield from keys(item)


def missing(messages: Iterable[Any], lang: str, game: str) -> set[str | tuple[str, str]]:
    """The keys of `messages` that `lang` has no translation for (looked up as the bot does for `game`)."""
    words = locales.words(lang)
    domains = locales.domains_for(game)
    return {key for msg in messages for key in keys(msg) if not words.find(key, domains)}


def message_of(value: Any) -> Any:
    """A view's or an exception's message: stored message data becomes a Msg again."""
    return Msg.from_json(value) if isinstance(value, dict) else value


def played_messages(game_key: str, games: int, seats: Iterable[int] = (2, 3, 4),
                    options: Iterable[dict] = ({},)) -> tuple[list[Msg], list[Any]]:
    """Every distinct event message of the seeded games of `support.played_texts`, and its states."""
    from tests.i18n.support import played_texts

    texts, states = played_texts(game_key, games, seats, options)
    return [as_msg(text) for text in texts], states


def english_labels(game_key: str, states: Iterable[Any], lang: str, names: list[str]) -> set[str]:
    """Labels the images of `states` (board, every hand, interludes) looked up in `lang` and drew unchanged that
    hold a word only the English has: a name, a city, notation or a word spelled alike in both languages is
    in neither or in both, so what is left is English a translation is missing for (checked by words, since
    German is written in the same letters as English)."""
    import re

    from locales import catalogs
    from render import kit, module_for

    def words(text: str) -> set[str]:
        return set(re.findall(r"[A-Za-zÄÖÜäöüßÀ-ÿ]{2,}", re.sub(r"\{\w+\}", " ", text)))

    module = module_for(game_key)
    missed: set[str] = set()
    kit.clear_static_layers()
    try:
        for state in states:
            with kit.language(lang, missed), kit.game(game_key):
                view = state.view(None)
                module.board(view, names[: state.num_seats])
                for seat in range(state.num_seats):
                    module.hand(state.view(seat), names[: state.num_seats])
                if hasattr(module, "interludes"):
                    module.interludes(None, view, names[: state.num_seats])
    finally:
        kit.clear_static_layers()
    ids = [m.id for m in catalogs.extract(game_key) if isinstance(m.id, str) and m.id]
    translated = locales.entries(lang, game_key).values()
    english_only = {w for key in ids for w in words(key)} - {w for value in translated for w in words(value)}
    return {label for label in missed if words(label) & english_only}
