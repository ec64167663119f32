"""A greedy player for Ticket to Ride: The Card Game: few well-matched tickets, big safe rows."""

from __future__ import annotations

import itertools
import random
from typing import Any

from rules.engine import AIPlayer, Move
from rules.ttr_cards.cards import COLOURS, LOCO, TICKETS
from rules.ttr_cards.moves import Complete, Done, DrawDeck, DrawTickets, Keep, Take, Undo, Yard


def _needs(ticket_ids: list[int]) -> dict[str, int]:
    need = dict.fromkeys(COLOURS, 0)
    for tid in ticket_ids:
        for colour, count in TICKETS[tid].cards.items():
            need[colour] += count
    return need


def _ticket_set_value(ticket_ids: tuple[int, ...], have: dict[str, int]) -> float:
    """Points of a ticket set minus a cost per card it needs beyond what is already in sight."""
    need = _needs(list(ticket_ids))
    points = sum(TICKETS[t].points for t in ticket_ids)
    colours = sum(1 for c in COLOURS if need[c])
    missing = sum(max(0, need[c] - have.get(c, 0)) for c in COLOURS)
    return points - 4.0 * colours - 3.0 * missing


class GreedyAI(AIPlayer):
    """Reads only its own view: its hand, its tickets, the public yards and the display."""

    name = "greedy"

    def choose(self, view: dict[str, Any], legal: list[Move], rng: random.Random) -> Move:
        seat = view["seat"]
        if view["phase"] == "keep_setup":
            return self._keep_setup(view, legal)
        if view["phase"] == "choose":
            return self._choose(view, legal)
        if view["step"] == "keep":
            return self._keep(view, legal)
        me = view["seats"][seat]
        hand: dict[str, int] = view["hand"]
        need = _needs(view["tickets"])
        in_yard = {row["colour"]: row["locos"] + row["coloured"] for row in me["yard"]}

        yard_moves = [m for m in legal if isinstance(m, Yard)]
        best_yard = max(yard_moves, key=lambda m: self._yard_value(view, m, need), default=None)
        if best_yard is not None:
            value = self._yard_value(view, best_yard, need)
            deck_empty = not any(isinstance(m, (DrawDeck, Take)) for m in legal)
            if value >= 6 or (deck_empty and value > 0) or (view["deck_count"] <= 6 and value >= 3):
                return best_yard

        can_draw_tickets = any(isinstance(m, DrawTickets) for m in legal)
        if can_draw_tickets and self._spare_cards(view) >= 4 and view["deck_count"] >= 6:
            return DrawTickets()
        draws = [m for m in legal if isinstance(m, (DrawDeck, Take))]
        if draws:
            takes = {m.kind: m for m in draws if isinstance(m, Take)}
            if LOCO in takes:
                return takes[LOCO]

            def desire(colour: str) -> float:
                # Cards of a colour the tickets need, and colours we already collect, make big rows.
                score = 2.0 * max(0, need[colour] - in_yard.get(colour, 0)) + hand.get(colour, 0)
                return score if colour not in in_yard else score / 3

            wanted = [k for k in takes if k != LOCO]
            if wanted:
                best = max(wanted, key=lambda k: (desire(k), k))
                if desire(best) >= 2:
                    return takes[best]
            for move in draws:
                if isinstance(move, DrawDeck):
                    return move
            return draws[0]
        if best_yard is not None:
            return best_yard
        for move in legal:
            if isinstance(move, DrawTickets):
                return move
        return legal[0]

    def _yard_value(self, view: dict[str, Any], move: Yard, need: dict[str, int]) -> float:
        seat = view["seat"]
        colours = move.colours
        distinct = set(colours)
        value = 0.0
        if len(distinct) == 1:
            colour = colours[0]
            size = len(move.cards)
            # Locomotives reach the track stack first and complete anything: keep a few for robbing.
            value = size * (2.0 if need[colour] else 0.8) - 0.5 * move.locos
            for other in view["seats"]:
                if other["seat"] == seat:
                    continue
                for row in other["yard"]:
                    if row["colour"] == colour:
                        value += 2.0 * (row["locos"] + row["coloured"])
            if size >= 4:
                value += 2
        else:
            value = sum(1.5 if need[c] else 0.5 for c in distinct)
        return value

    def _keep_setup(self, view: dict[str, Any], legal: list[Move]) -> Move:
        hand: dict[str, int] = view["hand"]
        pending = sorted(view["pending"])
        best: tuple[float, tuple[int, ...]] | None = None
        for size in (1, 2, 3, 4):
            for combo in itertools.combinations(pending, size):
                value = _ticket_set_value(combo, hand)
                if best is None or value > best[0]:
                    best = (value, combo)
        assert best is not None
        return Keep(best[1])

    def _keep(self, view: dict[str, Any], legal: list[Move]) -> Move:
        """Keep drawn tickets that use colours we already collect, while the expected cards suffice."""
        spare = self._spare_cards(view)
        profile = self._profile(view)
        kept = []
        ranked = sorted(view["pending"], key=lambda t: (-self._match(t, profile), -TICKETS[t].points, t))
        for tid in ranked:
            if self._match(tid, profile) >= 0.5 and spare >= TICKETS[tid].card_count:
                kept.append(tid)
                spare -= TICKETS[tid].card_count
        return Keep(tuple(sorted(kept)))

    @staticmethod
    def _profile(view: dict[str, Any]) -> dict[str, float]:
        """How strongly we collect each colour: rows in our yard, cards in hand, current tickets."""
        me = view["seats"][view["seat"]]
        profile = dict.fromkeys(COLOURS, 0.0)
        for row in me["yard"]:
            profile[row["colour"]] += 2 + row["coloured"]
        for colour in COLOURS:
            profile[colour] += view["hand"].get(colour, 0) / 2
        for colour, count in _needs(view["tickets"]).items():
            profile[colour] += count
        return profile

    @staticmethod
    def _match(ticket_id: int, profile: dict[str, float]) -> float:
        cards = TICKETS[ticket_id].cards
        good = sum(count for colour, count in cards.items() if profile[colour] >= 2)
        return good / sum(cards.values())

    @staticmethod
    def _spare_cards(view: dict[str, Any]) -> float:
        """Expected track cards (stack, yard, part of the hand) minus what our tickets need."""
        me = view["seats"][view["seat"]]
        supply = me["track_count"] + sum(row["locos"] + row["coloured"] for row in me["yard"])
        if view["final_round"] is None and view["deck_count"] > 0:
            supply += 0.5 * me["hand_count"]
        demand = sum(TICKETS[t].card_count for t in view["tickets"])
        return supply - 1.2 * demand

    def _choose(self, view: dict[str, Any], legal: list[Move]) -> Move:
        # Take the most valuable fitting ticket first; undo is never needed for a greedy pick.
        picks = [m for m in legal if isinstance(m, Complete)]
        if picks:
            return max(picks, key=lambda m: (TICKETS[m.ticket].points, -m.ticket))
        for move in legal:
            if isinstance(move, Done):
                return move
        return next(m for m in legal if not isinstance(m, Undo))
