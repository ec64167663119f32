"""Santa Fe's moves and their text notation (spec section 11)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.engine import Move


@dataclass(frozen=True, eq=False)
class EngineerChoice(Move):
    """5.0: buy an engineer at setup or decline."""

    buy: bool

    def __str__(self) -> str:
        return "buy engineer" if self.buy else "decline engineer"


@dataclass(frozen=True, eq=False)
class Play(Move):
    """5.1: a city card (city id) or a double-turn card (card == "double"), maybe with a branch card."""

    card: str
    branch: str | None = None

    def __str__(self) -> str:
        return f"play {self.card}" + (f" branch {self.branch}" if self.branch else "")


@dataclass(frozen=True, eq=False)
class Exchange(Move):
    """5.3: city cards (ids, ascending, repeated for two copies) swapped for cards from the deck."""

    cities: tuple[str, ...]

    def __str__(self) -> str:
        return "exchange " + (" ".join(self.cities) if self.cities else "none")


@dataclass(frozen=True, eq=False)
class Lay(Move):
    """5.2/5.4: extend line `line` of railroad `rr` one space toward `city`."""

    rr: str
    line: int
    city: str

    def __str__(self) -> str:
        return f"lay {self.rr} {self.line} {self.city}"


@dataclass(frozen=True, eq=False)
class Branch(Move):
    """5.2/5.4: start a new line of `rr` at `start` with its first tile toward `city`."""

    rr: str
    start: str
    city: str

    def __str__(self) -> str:
        return f"branch {self.rr} {self.start} {self.city}"


@dataclass(frozen=True, eq=False)
class Pass(Move):
    """A placement not made (advanced game or the bought-tile phase)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, eq=False)
class Draw(Move):
    """5.6: kind is city, double, branch (with rr), engineer, or none (stop drawing, D11)."""

    kind: str
    rr: str | None = None

    def __str__(self) -> str:
        return f"draw {self.kind}" + (f" {self.rr}" if self.rr else "")


@dataclass(frozen=True, eq=False)
class BuyTile(Move):
    """5.7: buy one tile of `rr` ($1), or nothing (rr None)."""

    rr: str | None

    def __str__(self) -> str:
        return f"buy tile {self.rr}" if self.rr else "buy nothing"
