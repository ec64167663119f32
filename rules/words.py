"""Messages, not sentences: what an engine (or the bot) says, as a message id and its parameters.

A `Msg` is the English source text with named placeholders (the gettext message id) and the values that
fill them. It is translated at the edge, in the reader's language (`locales.say`): the template first, then
the parameters, so a player's name is never taken for a word of the catalog.

    Msg("{who} lays a track {line}; {n} black tracks left.", who=Seat(0), line="a1-b2", n=5)
    Plural("{who} draws {n} card.", "{who} draws {n} cards.", n=2, who=Seat(1))
    Msg("{who} claims {colour}.", who=Seat(2), colour=Term("black"))

A parameter is one of:

- `Seat(i)`: a seat, shown as its player's display name (never translated);
- `Term(word)`: a word the catalog translates (a colour, a card kind, a railroad, a category);
- `Items([...], kind)`: a list joined the reader's way ("a, b and c", "a、b、c"); items are parameters too;
  `Items([...], sep=N_("; "))` joins with a separator the catalogs translate (a line's parts: "a; b" or "a／b");
- another `Msg` (a message inside a message, translated in turn);
- anything else (`str`, `int`): shown exactly as given. Names, numbers, cities as the board prints them and
  move notation are plain values, so they are never translated.

`str(msg)` is plain English with seats as `{sN}` tokens (`rules.engine.name_seats` fills in names): what logs,
tests and the English posts show, exactly as the engines wrote before messages existed.

Engines stay pure: nothing here knows a language. `N_("Display")` marks a label for extraction (gettext's
"noop"); `Msg`, `Plural`, `N_` and the bot's `t(locale, "...")` are the keywords `python -m locales extract`
looks for, so every message id in the code reaches the catalogs' templates.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

# --------------------------------------------------------------------------- parameters


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat of the game, shown as its player's name (English `str()`: the `{sN}` token)."""

    index: int

    def __str__(self) -> str:
        return f"{{s{self.index}}}"


@dataclass(frozen=True, slots=True)
class Term:
    """A word the catalogs translate: a colour, a card kind, a railroad, a scoring category."""

    word: str

    def __str__(self) -> str:
        return self.word


# How `Items` joins in English (str()): "and" -> "a, b and c", "or" -> "a, b or c", "comma" -> "a, b, c".
LIST_KINDS = ("and", "or", "comma")


@dataclass(frozen=True, slots=True)
class Items:
    """A list of parameters joined the reader's way. `english` overrides how str() joins (the engines'
    own English, kept byte for byte); the translations join with the language's list pattern, or with the
    translation of `sep` when it is given (a separator that is a message id of its own: "; ", ": ")."""

    items: tuple[Any, ...]
    kind: str = "and"
    english: str | None = None  # a separator for every gap in English (", " or " and "); None: by kind
    sep: str | None = None  # a separator every language translates (English: itself, unless `english`)

    def __init__(self, items: Iterable[Any], kind: str = "and", english: str | None = None,
                 sep: str | None = None) -> None:
        if kind not in LIST_KINDS:
            raise ValueError(f"unknown list kind {kind!r}")
        object.__setattr__(self, "items", tuple(items))
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "english", english)
        object.__setattr__(self, "sep", sep)

    def join(self, parts: list[str]) -> str:
        """The parts joined in English."""
        if self.english is not None:
            return self.english.join(parts)
        if self.sep is not None:
            return self.sep.join(parts)
        if self.kind == "comma" or len(parts) < 2:
            return ", ".join(parts)
        word = " and " if self.kind == "and" else " or "
        return ", ".join(parts[:-1]) + word + parts[-1]

    def __str__(self) -> str:
        return self.join([english(item) for item in self.items])


# --------------------------------------------------------------------------- messages

_FORMATTER = string.Formatter()


def placeholders(template: str) -> set[str]:
    """The names of a template's `{placeholders}`."""
    return {field.split(".")[0].split("[")[0] for _, field, _, _ in _FORMATTER.parse(template) if field}


class Msg:
    """A message: its id (the English template), an optional plural template chosen by `n`, parameters."""

    __slots__ = ("id", "plural", "params")

    def __init__(self, id: str, /, **params: Any) -> None:  # noqa: A002 - gettext's word for it
        self.id = id
        self.plural: str | None = None
        self.params = params

    @property
    def count(self) -> int | None:
        """The number a plural message agrees with (its `n`)."""
        return self.params.get("n") if self.plural is not None else None

    def template(self) -> str:
        """The English template this message uses (the plural one when `n` is not 1)."""
        if self.plural is not None and self.params.get("n") != 1:
            return self.plural
        return self.id

    def __str__(self) -> str:
        return self.template().format(**{key: _english_value(value) for key, value in self.params.items()})

    def __repr__(self) -> str:
        return f"Msg({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Msg):
            return (self.id, self.plural, self.params) == (other.id, other.plural, other.params)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.id, self.plural))

    def seats(self) -> set[int]:
        """Every seat this message names, at any depth."""
        found: set[int] = set()
        for value in self.params.values():
            _collect_seats(value, found)
        return found

    # ---- storage

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id}
        if self.plural is not None:
            data["pl"] = self.plural
        if self.params:
            data["p"] = {key: _value_to_json(value) for key, value in self.params.items()}
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Msg:
        msg = cls(data["id"], **{key: _value_from_json(value) for key, value in data.get("p", {}).items()})
        msg.plural = data.get("pl")
        return msg


def Plural(singular: str, plural: str, /, **params: Any) -> Msg:  # noqa: N802 - reads as a message kind
    """A message whose template agrees with the count `n` (a parameter it must have)."""
    if "n" not in params:
        raise TypeError("a plural message needs its count as the parameter n")
    msg = Msg(singular, **params)
    msg.plural = plural
    return msg


def N_(text: str) -> str:  # noqa: N802 - gettext's name for it
    """Mark a fixed label (a word drawn on an image, a heading) as a message id; returns it unchanged."""
    return text


def english(value: Any) -> str:
    """Any message or parameter in plain English (seats as `{sN}` tokens)."""
    return str(value)


def as_msg(value: Msg | str) -> Msg:
    """A message; a plain English text (from before messages existed) becomes a message of its own."""
    return value if isinstance(value, Msg) else Verbatim(value)


def Verbatim(text: str) -> Msg:  # noqa: N802
    """A text shown as it is in every language (a line stored before messages existed, a quoted input)."""
    return Msg("{text}", text=text)


def _english_value(value: Any) -> Any:
    if isinstance(value, (Seat, Term, Items, Msg)):
        return str(value)
    return value


def _collect_seats(value: Any, found: set[int]) -> None:
    if isinstance(value, Seat):
        found.add(value.index)
    elif isinstance(value, Msg):
        found |= value.seats()
    elif isinstance(value, Items):
        for item in value.items:
            _collect_seats(item, found)


def _value_to_json(value: Any) -> Any:
    if isinstance(value, Seat):
        return {"seat": value.index}
    if isinstance(value, Term):
        return {"term": value.word}
    if isinstance(value, Msg):
        return {"msg": value.to_json()}
    if isinstance(value, Items):
        data: dict[str, Any] = {"items": [_value_to_json(item) for item in value.items], "kind": value.kind}
        if value.english is not None:
            data["en"] = value.english
        if value.sep is not None:
            data["sep"] = value.sep
        return data
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"a message parameter cannot be {type(value).__name__}")


def _value_from_json(data: Any) -> Any:
    if isinstance(data, dict):
        if "seat" in data:
            return Seat(data["seat"])
        if "term" in data:
            return Term(data["term"])
        if "msg" in data:
            return Msg.from_json(data["msg"])
        if "items" in data:
            return Items([_value_from_json(item) for item in data["items"]], data["kind"], data.get("en"),
                         data.get("sep"))
    return data
