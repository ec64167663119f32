"""Ticket to Ride: The Card Game components: colours, card counts, big cities and the 46 tickets."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.words import N_, Items, Msg, Term

# The card kinds: engine values and move notation, and words the catalogs translate (as a Term).
COLOURS: tuple[str, ...] = (
    N_("black"), N_("blue"), N_("green"), N_("orange"), N_("purple"), N_("red"), N_("white"), N_("yellow"),
)  # fmt: skip
LOCO = N_("loco")
KINDS: tuple[str, ...] = COLOURS + (LOCO,)
CARDS_PER_COLOUR = 10
LOCOMOTIVES = 16
TOTAL_CARDS = CARDS_PER_COLOUR * len(COLOURS) + LOCOMOTIVES

HAND_DEAL = 7
DISPLAY_SIZE = 5
SETUP_TICKETS = 6
TICKET_DRAW = 4
RESTART_DEAL = 4

# city -> (bonus, colour used to draw the city), in the order of the spec's table.
BIG_CITIES: dict[str, tuple[int, str]] = {
    "New York": (15, "blue"),
    "Chicago": (12, "yellow"),
    "Los Angeles": (12, "white"),
    "Dallas": (10, "green"),
    "Miami": (8, "red"),
    "Seattle": (8, "black"),
}


@dataclass(frozen=True)
class Ticket:
    """One destination ticket: the coloured cards it needs and the points it is worth."""

    id: int
    origin: str
    destination: str
    points: int
    cards: dict[str, int]
    big_cities: tuple[str, ...]

    @property
    def card_count(self) -> int:
        return sum(self.cards.values())

    def label(self) -> str:
        return f"{self.origin}–{self.destination}"


def _load_tickets() -> dict[int, Ticket]:
    raw = json.loads((Path(__file__).parent / "data" / "ttr_card_game_tickets.json").read_text("utf-8"))
    tickets = {}
    for item in raw:
        tickets[item["id"]] = Ticket(
            id=item["id"],
            origin=item["from"],
            destination=item["to"],
            points=item["points"],
            cards=dict(item["cards"]),
            big_cities=tuple(item["big_cities"]),
        )
    return tickets


TICKETS: dict[int, Ticket] = _load_tickets()
TICKET_IDS: tuple[int, ...] = tuple(sorted(TICKETS))


def empty_counts() -> dict[str, int]:
    """A per-kind card count with every kind present (so views and JSON keep a fixed shape)."""
    return {kind: 0 for kind in KINDS}


def counts_of(cards: list[str]) -> dict[str, int]:
    counts = empty_counts()
    for card in cards:
        counts[card] += 1
    return counts


def full_set() -> dict[str, int]:
    counts = {colour: CARDS_PER_COLOUR for colour in COLOURS}
    counts[LOCO] = LOCOMOTIVES
    return counts


def describe(counts: dict[str, int]) -> Any:
    """Card counts as a message parameter: 'blue 2, loco 1' in canonical order (each kind a term); 'nothing'
    when empty."""
    parts = [Msg("{kind} {n}", kind=Term(kind), n=counts[kind]) for kind in KINDS if counts.get(kind)]
    return Items(parts, "comma") if parts else Term(N_("nothing"))


def cards_played(cards: tuple[str, ...] | list[str]) -> Items:
    """The cards of a play, one term each, as the move writes them ('red red loco')."""
    return Items((Term(card) for card in cards), "comma", english=" ")
