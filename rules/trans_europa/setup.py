"""Trans Europa setup: the city piles in play (D3) and the deal of one city per colour (5.1)."""

from __future__ import annotations

import random

from rules.trans_europa import board


def piles_for(num_seats: int) -> dict[str, list[str]]:
    """City ids in play per colour, in JSON order; 2-3 players leave out the 10 marked cards."""
    removed = set(board.REMOVED_FOR_2_3) if num_seats <= 3 else set()
    return {
        colour: [c.id for c in board.CITIES if c.colour == colour and c.id not in removed]
        for colour in board.COLOUR_KEYS
    }


def deal(rng: random.Random, piles: dict[str, list[str]], num_seats: int, start_seat: int) -> list[list[str]]:
    """Per colour (red, orange, yellow, green, blue): shuffle the pile, one card to each seat in
    turn order from the start seat. Returns each seat's five city ids in colour order."""
    hands: list[list[str]] = [[] for _ in range(num_seats)]
    for colour in board.COLOUR_KEYS:
        pile = list(piles[colour])
        rng.shuffle(pile)
        for i in range(num_seats):
            hands[(start_seat + i) % num_seats].append(pile[i])
    return hands
