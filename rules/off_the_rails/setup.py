"""Off the Rails setup (spec section 4): deposits, deposit and chasm decks, rift supply, missions."""

from __future__ import annotations

from typing import Any

from rules.off_the_rails import board
from rules.off_the_rails.state import OffTheRailsState

SOLO_REMOVED = ("enemy-lines", "jewel-heist", "bumper-carts", "head-to-head", "dirty-goblins")
BUMPER_REMOVED = ("jewel-heist", "bumper-carts")


def create(num_seats: int, options: dict[str, Any], seed: int) -> OffTheRailsState:
    state = OffTheRailsState(num_seats, options, seed)
    rng = state.rng
    length = state.options_length()
    per_colour = (length - 1) // 4
    piles = {}
    for colour in board.COLOURS:
        pile = list(board.CARDS_OF_COLOUR[colour])
        rng.shuffle(pile)
        piles[colour] = pile
    for colour in board.COLOURS:
        card = piles[colour].pop(0)
        state.setup_cards.append(card)
        info = board.CARDS[card]
        state._put_gems(info["square"], state._draw_gems(max(board.SETUP_MIN_GEMS, info["gems"])))
    for colour in board.COLOURS:
        state.chasm_deck.append(piles[colour].pop(0))
    layers = []
    for _ in range(per_colour):
        layers.append([piles[colour].pop(0) for colour in board.COLOURS])
    layers[-2].append(board.COLLAPSE)  # second layer from the bottom: 4-8 cards stay below it
    for layer in layers:
        rng.shuffle(layer)
        state.deck.extend(layer)
    for colour in board.COLOURS:
        state.unused_cards.extend(piles[colour])
        state.rift_supply[colour] = board.RIFT_SUPPLY_PER_COLOUR
        state.chasm_tokens[colour] = board.RIFTS_PER_COLOUR - board.RIFT_SUPPLY_PER_COLOUR
    pool = list(board.MISSION_IDS)
    removed: list[str] = []
    if not options.get("missions", True):
        removed = list(pool)
    else:
        if options.get("bumper_carts"):
            removed += BUMPER_REMOVED
        if num_seats == 1:
            removed += [m for m in SOLO_REMOVED if m not in removed]
    pool = [m for m in pool if m not in removed]
    rng.shuffle(pool)
    shown = 2 if num_seats == 1 else num_seats + 1
    state.face_up = pool[:shown]
    state.missions_out = sorted(removed + pool[shown:])
    return state
