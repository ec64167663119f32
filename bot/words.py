"""Lines as messages: what the service stores (outbox payloads, the board post's words, DM news) and the edge
translates, free of discord.

A line is a `rules.words.Msg` kept as JSON (`Msg.to_json`) with its seats as `Seat`s: the reader's language
and the players' names are filled in only where a post, a reply or a DM is sent (`say`), the template first
and the names after, so a player named "Deck" or "Score" is never taken for a word of the catalog.

Two older shapes still display:

- a plain `str` stored before messages existed (an outbox row, a board post's words, DM news written by an
  older version): English with the names already in it, shown as it is in every language;
- an engine line that is not a message yet (`Event.text` as English with `{sN}` seat tokens), carried as
  `engine_line(text)`: translated whole through the old pattern catalog of its game (`rules.engine.Catalog`,
  until every engine emits messages), then its seat tokens are filled with the names.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

import locales
from bot.service.types import CURRENT_GAME
from rules.engine import Catalog, Event, name_seats
from rules.registry import GAME_KEYS, GAMES
from rules.words import Items, Msg

Line = Msg | str  # a message, or English stored before messages existed
Stored = dict[str, Any] | str  # a line as stored: a message's JSON, or English from before
ENGINE = "{english}"  # the id of an engine's English line that is not a message yet


def engine_line(text: str) -> Msg:
    """An engine's English line (seats as {sN} tokens) carried as a message until the edge."""
    return Msg(ENGINE, english=text)


def engine_msg(text: Msg | str) -> Msg:
    """What an engine said (an event's text, a refusal's reason) as a message: a message as it is, an engine's
    English from before messages as `engine_line`."""
    return text if isinstance(text, Msg) else engine_line(text)


def event_msg(event: Event) -> Msg:
    """An event's line as a message."""
    return engine_msg(event.text)


def to_json(line: Line) -> Stored:
    return line.to_json() if isinstance(line, Msg) else line


def from_json(data: Mapping[str, Any] | str | Msg) -> Line:
    """A stored line: a message, or (stored before messages) its English as it was written."""
    if isinstance(data, Msg | str):
        return data
    return Msg.from_json(data)


def lines_json(lines: Iterable[Line]) -> list[Stored]:
    return [to_json(line) for line in lines]


def sentences(parts: Sequence[Line]) -> Line | None:
    """Several lines said one after the other in one line (a move's events in the log); None for none."""
    if not parts:
        return None
    first, *rest = parts
    return first if not rest else Msg("{first} {rest}", first=first, rest=sentences(rest))


def lang(locale: Any) -> str:
    """The language Junction speaks for a Discord locale, a language code or None (English)."""
    return locales.language_of(locale)


def t(locale: Any, msgid: str, /, **params: Any) -> str:
    """The bot's own text `msgid` (its English, with `{named}` placeholders) in the reader's language,
    filled with `params` after the translation (a `Msg` or `Term` parameter is translated in turn, any
    other value is shown as given). Looked up in the current game's domain first (CURRENT_GAME)."""
    if not params:
        return locales.gettext(lang(locale), msgid, CURRENT_GAME.get())
    return locales.say(Msg(msgid, **params), lang(locale), None, CURRENT_GAME.get())


def title(locale: Any, definition: Any) -> str:
    """A game's title in the reader's language (from the game's own domain)."""
    return locales.gettext(lang(locale), definition.title, definition.key)


def say(line: Mapping[str, Any] | Line, lang: str, names: Sequence[str] | None = None,
        game: str | None = None) -> str:
    """A line in `lang` with its seats named by `names` (looked up in `game`'s domain first)."""
    line = from_json(line)
    if isinstance(line, str):
        return line
    return locales.say(_engine_lines_said(line, lang, names, game), lang, names, game)


def _engine_lines_said(msg: Msg, lang: str, names: Sequence[str] | None, game: str | None) -> Msg:
    """`msg` with every engine line inside it already in `lang` (names filled in after the translation)."""
    if msg.id == ENGINE:
        text = str(msg.params.get("english", ""))
        if lang != locales.SOURCE:
            text = engine_catalog(game, lang).text(text)
        return Msg("{text}", text=name_seats(text.replace(Catalog.JOIN, " "), names and list(names)))
    if not any(isinstance(v, Msg | Items) for v in msg.params.values()):
        return msg
    out = Msg(msg.id, **{k: _said_inside(v, lang, names, game) for k, v in msg.params.items()})
    out.plural = msg.plural
    return out


def _said_inside(value: Any, lang: str, names: Sequence[str] | None, game: str | None) -> Any:
    if isinstance(value, Msg):
        return _engine_lines_said(value, lang, names, game)
    if isinstance(value, Items):
        return Items([_said_inside(item, lang, names, game) for item in value.items], value.kind, value.english,
                     value.sep)
    return value


@lru_cache(maxsize=64)
def engine_catalog(game: str | None, lang: str) -> Catalog:
    """The pattern catalog for an engine's English lines about `game` in `lang` (transitional: it goes once
    every game emits messages), as the bot's catalog was before messages: the shared domains over the game's
    own entries (every game's without one) and every game's title."""
    every = {key: locales.entries(lang, key) for key in GAME_KEYS}
    titles = {d.title: every[k][d.title] for k, d in GAMES.items() if d.title in every[k]}
    games = every[game] if game in every else {k: v for c in every.values() for k, v in c.items()}
    shared = {domain: locales.entries(lang, domain) for domain in locales.SHARED_DOMAINS}
    return Catalog(shared["images"] | games | titles | shared["community"] | shared["bot"])
