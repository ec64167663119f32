"""Trans Europa moves and their notation (spec section 11): start, lay, vex, end, pass."""

from __future__ import annotations

from dataclasses import dataclass

from rules.engine import IllegalMove, Move, check_move_text, quote
from rules.trans_europa import board
from rules.words import Msg


@dataclass(frozen=True, eq=False)
class Start(Move):
    """Put the start marker on a junction."""

    junction: int

    def __str__(self) -> str:
        return f"start {board.token(self.junction)}"


@dataclass(frozen=True, eq=False)
class Lay(Move):
    """Lay a black track on a line."""

    edge: int

    def __str__(self) -> str:
        return "lay " + board.LINE_NOTATION[self.edge]


@dataclass(frozen=True, eq=False)
class Vex(Move):
    """Lay one of the mover's coloured tracks on a line (vexation variant)."""

    edge: int

    def __str__(self) -> str:
        return "vex " + board.LINE_NOTATION[self.edge]


@dataclass(frozen=True, eq=False)
class End(Move):
    """Step 2: lay no second track."""

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, eq=False)
class Pass(Move):
    """Defensive: a seat with no legal placement (only ever applied automatically)."""

    def __str__(self) -> str:
        return "pass"


USAGE = Msg("use start <junction>, lay <junction> <junction>, vex <junction> <junction> or end")


def _junction(text: str) -> int:
    v = board.junction_of(text)
    if v is None:
        raise IllegalMove(Msg("Unknown junction '{text}'.", text=quote(text)))
    return v


def parse(text: str) -> Move:
    """Read a move leniently (case, spacing, coordinate ids of cities, either end first)."""
    words = check_move_text(text).strip().lower().split()
    if not words:
        raise IllegalMove(Msg("Empty move; {usage}.", usage=USAGE))
    verb, args = words[0], words[1:]
    if verb in ("end", "pass") and not args:
        return End() if verb == "end" else Pass()
    if verb == "start" and len(args) == 1:
        return Start(_junction(args[0]))
    if verb in ("lay", "vex") and len(args) == 2:
        a, b = _junction(args[0]), _junction(args[1])
        edge = board.edge_between(a, b)
        if edge is None:
            raise IllegalMove(Msg("{a} and {b} are not neighbours.", a=board.token(a), b=board.token(b)))
        return Lay(edge) if verb == "lay" else Vex(edge)
    raise IllegalMove(Msg("Unknown move '{text}'; {usage}.", text=quote(" ".join(words)), usage=USAGE))
