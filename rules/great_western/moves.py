"""Moves of Great Western Railway and their notation: `bid t<k> <m>`, `connect <city>`, `done`."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.engine import IllegalMove, Move, check_move_text, quote
from rules.great_western.board import CITIES, CITY_IDS, TRAINS
from rules.words import Items, Msg


@dataclass(frozen=True, eq=False)
class Bid(Move):
    train: int
    amount: int

    def __str__(self) -> str:
        return f"bid t{self.train} {self.amount}"


@dataclass(frozen=True, eq=False)
class Connect(Move):
    city: str

    def __str__(self) -> str:
        return f"connect {self.city}"


@dataclass(frozen=True, eq=False)
class Done(Move):
    def __str__(self) -> str:
        return "done"


DONE = Done()
_DONE_WORDS = ("done", "d", "pass", "end", "stop", "finish")
# ASCII digits, at most 6 (rules.engine.read_number's bound): no huge ints, no superscripts.
_BID = re.compile(r"^(?:bid|b)?\s*t?\s*([0-9]{1,6})\s*[ :x/,]?\s*(-?[0-9]{1,6})$")
_CONNECT_WORDS = ("connect", "c", "build", "con")


def find_city(text: str) -> str:
    """A city id from its id, name or a unique prefix of either (case and spaces ignored)."""
    wanted = re.sub(r"[^a-z]", "", text.lower())
    if not wanted:
        raise IllegalMove(Msg("Name a city, e.g. `connect reading`."))
    if wanted in CITIES:
        return wanted
    matches = [c for c in CITY_IDS if c.startswith(wanted) or CITIES[c].name.lower().startswith(wanted)]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise IllegalMove(Msg("There is no city called '{text}'.", text=quote(text)))
    names = Items([CITIES[c].name for c in matches], "comma")
    raise IllegalMove(Msg("'{text}' could be {names}: type more letters.", text=quote(text), names=names))


def parse(text: str) -> Move:
    """Read a move leniently: `bid t2 3`, `b 2 3`, `t2 3`; `connect oxford`, `c ox`, `oxford`; `done`."""
    clean = " ".join(check_move_text(text).strip().lower().split())
    if not clean:
        raise IllegalMove(Msg("Empty move: try `bid t1 2`, `connect reading` or `done`."))
    if clean in _DONE_WORDS:
        return DONE
    bid = _BID.match(clean)
    if bid and (clean.startswith("b") or clean.startswith("t")):
        train, amount = int(bid.group(1)), int(bid.group(2))
        if not 1 <= train <= len(TRAINS):
            raise IllegalMove(Msg("There is no train {n}: the trains are t1 to t{m}.", n=train, m=len(TRAINS)))
        return Bid(train, amount)
    if clean.startswith("bid") or clean == "b":
        raise IllegalMove(Msg("A bid reads `bid t<train> <cubes>`, e.g. `bid t2 3`."))
    first, _, rest = clean.partition(" ")
    if first in _CONNECT_WORDS and rest:
        return Connect(find_city(rest))
    if first in _CONNECT_WORDS:
        raise IllegalMove(Msg("Name a city, e.g. `connect reading`."))
    try:
        return Connect(find_city(clean))
    except IllegalMove:
        raise IllegalMove(
            Msg("Cannot read '{text}': try `bid t1 2`, `connect reading` or `done`.", text=quote(text))
        ) from None
