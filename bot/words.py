"""Lines as messages: what the service stores (outbox payloads, the board post's words, DM news) and the edge
translates, free of discord.

A line is a `rules.words.Msg` kept as JSON (`Msg.to_json`) with its seats as `Seat`s: the reader's language
and the players' names are filled in only where a post, a reply or a DM is sent (`say`), the template first
and the names after, so a player named "Deck" or "Score" is never taken for a word of the catalog.

Two older shapes still display (stored by an older version; nothing new produces them):

- a plain `str` stored before messages existed (an outbox row, a board post's words, DM news written by an
  older version): English with the names already in it, shown as it is in every language;
- an engine line from before the engines emitted messages (`Event.text` as English with `{sN}` seat tokens),
  stored as `engine_line(text)` (id `ENGINE`): shown as its English (or the translation of that exact text,
  when a catalog has it as a message id), its seat tokens filled with the names. No pattern is matched.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import locales
from bot.service.types import CURRENT_GAME
from rules.engine import Event, name_seats
from rules.words import Items, Msg, Plural

Line = Msg | str  # a message, or English stored before messages existed
Stored = dict[str, Any] | str  # a line as stored: a message's JSON, or English from before
ENGINE = "{english}"  # the id of an engine's English line stored before engines emitted messages (display only)
# How the old pattern catalog joined one move's event lines in a stored log line: shown as a space.
_OLD_JOIN = " \u2016 "


def engine_line(text: str) -> Msg:
    """An engine's English line from before messages (seats as {sN} tokens) as a message: display only, for
    rows stored by an older version (the engines emit messages; nothing new is made of this)."""
    return Msg(ENGINE, english=text)


def engine_msg(text: Msg | str) -> Msg:
    """What an engine said (an event's text, a refusal's reason) as a message: a message as it is; English
    (an event stored before messages) as `engine_line`, for display."""
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


def tn(locale: Any, singular: str, plural: str, /, **params: Any) -> str:
    """`t` for a text that agrees with a count `n` (a parameter it must have): the language's own plural rule
    (CLDR, from the catalog's Plural-Forms) picks the form, so a language with more forms than English needs
    only its catalog."""
    return locales.say(Plural(singular, plural, **params), lang(locale), None, CURRENT_GAME.get())


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
    """`msg` with every stored engine line inside it (`ENGINE`) already shown: its English, or the translation
    of exactly that English when a catalog has it as an id, the names filled in after the lookup."""
    if msg.id == ENGINE:
        text = str(msg.params.get("english", "")).replace(_OLD_JOIN, " ")
        if lang != locales.SOURCE:
            text = locales.gettext(lang, text, game)
        return Msg("{text}", text=name_seats(text, names and list(names)))
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


# --------------------------------------------------------------------------- result words


def result_label(result: Mapping[str, Any] | None, key: str) -> Msg:
    """A result key (breakdown category, detail key, how the game ended) as the message a player reads: the
    engine's message (`label_msgs`), else its label or the key itself as a message id. A stored label with
    seat tokens in it (a result from before messages) is shown as its English with the names filled in."""
    result = result or {}
    found = (result.get("label_msgs") or {}).get(key)
    if isinstance(found, Mapping):
        return Msg.from_json(found)
    english = (result.get("labels") or {}).get(key, key)
    if isinstance(english, Mapping):
        return Msg.from_json(english)
    english = str(english)
    return engine_line(english) if "{" in english else Msg(english)
