"""Moves of Ticket to Ride: The Card Game and their notation (section 10), with a lenient reader."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.engine import IllegalMove, Move, check_move_text, quote, read_number
from rules.ttr_cards.cards import KINDS, LOCO
from rules.words import Items, Msg


@dataclass(frozen=True, eq=False)
class DrawDeck(Move):
    def __str__(self) -> str:
        return "draw deck"


@dataclass(frozen=True, eq=False)
class Take(Move):
    """A display card of `kind`: the leftmost one, or the one in `slot` (0-based) for `take N`.

    `take N` names a slot only when it is not the leftmost card of its kind: the refill lands in
    that slot (section 10), so it is a different move from `take KIND` and keeps its own notation.
    """

    kind: str
    slot: int | None = None

    def __str__(self) -> str:
        return f"take {self.kind}" if self.slot is None else f"take {self.slot + 1}"


@dataclass(frozen=True, eq=False)
class Yard(Move):
    """Cards from the hand to the rail yard; `cards` is canonical: colours alphabetical, then locos."""

    cards: tuple[str, ...]

    def __str__(self) -> str:
        return "yard " + " ".join(self.cards)

    @property
    def colours(self) -> list[str]:
        return [card for card in self.cards if card != LOCO]

    @property
    def locos(self) -> int:
        return self.cards.count(LOCO)


def yard_move(cards: list[str] | tuple[str, ...]) -> Yard:
    coloured = sorted(card for card in cards if card != LOCO)
    return Yard(tuple(coloured) + (LOCO,) * sum(1 for card in cards if card == LOCO))


@dataclass(frozen=True, eq=False)
class DrawTickets(Move):
    def __str__(self) -> str:
        return "tickets"


@dataclass(frozen=True, eq=False)
class Keep(Move):
    """Keep these pending tickets (ascending ids); `every` is `keep all`, resolved per seat."""

    ids: tuple[int, ...]
    every: bool = False

    def __str__(self) -> str:
        if self.every:
            return "keep all"
        return "keep " + (" ".join(str(i) for i in self.ids) if self.ids else "none")


@dataclass(frozen=True, eq=False)
class Complete(Move):
    ticket: int

    def __str__(self) -> str:
        return f"complete {self.ticket}"


@dataclass(frozen=True, eq=False)
class Undo(Move):
    def __str__(self) -> str:
        return "undo"


@dataclass(frozen=True, eq=False)
class Done(Move):
    def __str__(self) -> str:
        return "done"


# More cards than the game holds (96): a longer yard cannot be legal, so it is refused unread.
MAX_CARDS = 200

_ALIASES = {"locomotive": LOCO, "locomotives": LOCO, "wild": LOCO, "locos": LOCO, "pink": "purple"}


def _words(text: str) -> list[str]:
    return [_ALIASES.get(word, word) for word in re.split(r"[\s,]+", text.strip().lower()) if word]


def _expand(words: list[str]) -> list[str]:
    """`3 red 1 loco` -> red red red loco: a number before a word repeats it."""
    out: list[str] = []
    repeat: int | None = None
    for word in words:
        number = read_number(word)
        if number is not None:
            if repeat is not None:
                raise IllegalMove(Msg("unreadable cards: a number must be followed by a card ({word})", word=quote(word)))
            repeat = number
            continue
        if word not in KINDS:
            raise IllegalMove(Msg("unknown card {word}: use {kinds}", word=repr(quote(word)), kinds=Items(KINDS, "comma")))
        if len(out) + (1 if repeat is None else repeat) > MAX_CARDS:
            raise IllegalMove(Msg("too many cards"))  # before building the list: `yard 100000000 red`
        out.extend([word] * (1 if repeat is None else repeat))
        repeat = None
    if repeat is not None:
        raise IllegalMove(Msg("unreadable cards: a number must be followed by a card"))
    return out


def parse(text: str, display: list[str]) -> Move:
    """Read one move; `display` resolves `take N` / `draw N` (slot N from the left)."""
    words = _words(check_move_text(text))
    if not words:
        raise IllegalMove(Msg("empty move"))
    head, rest = words[0], words[1:]
    if head == "draw" and rest == ["deck"]:
        return DrawDeck()
    if head in ("take", "draw") and len(rest) == 1:
        word = rest[0]
        slot = read_number(word)
        if slot is not None:
            if not 1 <= slot <= len(display):
                raise IllegalMove(Msg("the display has slots {first} to {last}", first=1, last=len(display)))
            kind = display[slot - 1]
            return Take(kind, None if display.index(kind) == slot - 1 else slot - 1)
        if word in KINDS:
            return Take(word)
        raise IllegalMove(Msg("unknown card {word}: use {kinds}", word=repr(quote(word)), kinds=Items(KINDS, "comma")))
    if head == "yard":
        cards = _expand(rest)
        if not cards:
            raise IllegalMove(Msg("name the cards to play, e.g. `yard red red loco`"))
        return yard_move(cards)
    if head == "tickets" and not rest:
        return DrawTickets()
    if head == "keep":
        if rest == ["none"]:
            return Keep(())
        if rest == ["all"]:
            return Keep((), every=True)
        ids = [read_number(word) for word in rest]
        if not ids or None in ids:
            raise IllegalMove(Msg("write `keep` and ticket numbers, e.g. `keep 7 44`, or `keep none`"))
        return Keep(tuple(sorted({i for i in ids if i is not None})))
    if head == "complete" and len(rest) == 1 and read_number(rest[0]) is not None:
        return Complete(int(rest[0]))
    if head == "undo" and not rest:
        return Undo()
    if head == "done" and not rest:
        return Done()
    raise IllegalMove(Msg(
        "unknown move {text}: try `draw deck`, `take red`, `yard red red`, `tickets`, `keep 7 44`",
        text=repr(quote(text))))
