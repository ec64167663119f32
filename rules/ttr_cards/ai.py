"""A greedy player for Ticket to Ride: The Card Game: few well-matched tickets, big safe rows."""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterable
from typing import Any

from rules.engine import AIPlayer, GameState, Move
from rules.search import SearchAI, SearchBudget
from rules.ttr_cards.cards import COLOURS, LOCO, TICKETS
from rules.ttr_cards.moves import Complete, Done, DrawDeck, DrawTickets, Keep, Take, Undo, Yard
from rules.ttr_cards.scoring import best_completion, fits, fitting_alone
from rules.ttr_cards.state import TTRCardsState


def _needs(ticket_ids: list[int]) -> dict[str, int]:
    need = dict.fromkeys(COLOURS, 0)
    for tid in ticket_ids:
        for colour, count in TICKETS[tid].cards.items():
            need[colour] += count
    return need


def _open_needs(view: dict[str, Any]) -> dict[str, int]:
    """Cards of each colour our tickets need beyond what our track stack already holds."""
    track = _track(view)
    return {c: max(0, n - track.get(c, 0)) for c, n in _needs(view["tickets"]).items()}


def _points(ticket_ids: Iterable[int]) -> int:
    return sum(TICKETS[t].points for t in ticket_ids)


def _ticket_set_value(ticket_ids: tuple[int, ...], have: dict[str, int]) -> float:
    """Points of a ticket set minus a cost per card it needs beyond what is already in sight."""
    need = _needs(list(ticket_ids))
    points = _points(ticket_ids)
    colours = sum(1 for c in COLOURS if need[c])
    missing = sum(max(0, need[c] - have.get(c, 0)) for c in COLOURS)
    return points - 4.0 * colours - 3.0 * missing


@functools.lru_cache(maxsize=4096)
def _completion(ticket_ids: tuple[int, ...], track: tuple[tuple[str, int], ...]) -> tuple[int, ...]:
    """`best_completion` of sorted tickets and a track stack as sorted items, remembered: a hard
    decision's rollouts reach the same last-turn choices again and again."""
    return tuple(best_completion(ticket_ids, dict(track)))


def _track(view: dict[str, Any]) -> dict[str, int]:
    """Our own track stack as we remember it (spec D7 and its AI hints: step 1 moved public yard
    cards), or as the view shows it when the stacks are open; empty when nothing tells us."""
    shown = view["seats"][view["seat"]]["track"]
    return dict(shown if shown is not None else view.get("track_memory") or {})


def _last_turn(view: dict[str, Any]) -> bool:
    """Our turn in the final round of the last deck: no card reaches our track stack any more."""
    return view["final_round"] is not None and view["deck_number"] == view["decks_total"]


class GreedyAI(AIPlayer):
    """Reads only its own view: its hand, its tickets, the public yards and the display, plus the memory
    of what its own step 1 moved to its track stack."""

    name = "greedy"

    def decide(self, state: GameState, seat: int, legal: list[Move], rng: random.Random) -> Move:
        view = state.view(seat)
        if view["seats"][seat]["track"] is None:
            assert isinstance(state, TTRCardsState)
            # What a player with perfect memory knows: its own step-1 moves, all public at the time.
            view["track_memory"] = dict(state.tracks[seat])
        return self.choose(view, legal, rng)

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
        need = _open_needs(view)
        in_yard = {row["colour"]: row["locos"] + row["coloured"] for row in me["yard"]}

        rows = self._rows_to_rob(view)
        valued = [(self._yard_value(view, m, need, rows), m) for m in legal if isinstance(m, Yard)]
        # max keeps the first of equal values, as legal's notation order did before.
        value, best_yard = max(valued, key=lambda pair: pair[0], default=(0.0, None))
        if best_yard is not None:
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

    def rank(self, view: dict[str, Any], legal: list[Move], rng: random.Random) -> list[Move]:
        """Moves from best to worst for the hard level's shortlist: its choice, then the best move of
        each kind in turn (rail yard by `_yard_value`, display card by need, deck, tickets), so a few
        candidates already cover the different plans; ticket choices in random order."""
        first = self.choose(view, legal, rng)
        if view["phase"] in ("keep_setup", "choose") or view["step"] == "keep":
            rest = [m for m in legal if m != first]
            return [first, *rng.sample(rest, len(rest))]
        need = _open_needs(view)
        rows = self._rows_to_rob(view)
        hand: dict[str, int] = view["hand"]
        in_yard = {row["colour"]: row["locos"] + row["coloured"] for row in view["seats"][view["seat"]]["yard"]}

        def desire(move: Take) -> float:
            if move.kind == LOCO:
                return 100.0
            score = 2.0 * max(0, need[move.kind] - in_yard.get(move.kind, 0)) + hand.get(move.kind, 0)
            return score if move.kind not in in_yard else score / 3

        yards = sorted((m for m in legal if isinstance(m, Yard)), key=lambda m: -self._yard_value(view, m, need, rows))
        takes = sorted((m for m in legal if isinstance(m, Take)), key=lambda m: -desire(m))
        deck = [m for m in legal if isinstance(m, (DrawDeck, DrawTickets))]
        kinds = [yards, takes, deck]
        ranked = [first]
        for depth in range(max(map(len, kinds), default=0)):
            ranked += [kind[depth] for kind in kinds if depth < len(kind)]
        ranked += [m for m in legal if not isinstance(m, (Yard, Take, DrawDeck, DrawTickets))]
        return list(dict.fromkeys(ranked))

    @staticmethod
    def _rows_to_rob(view: dict[str, Any]) -> dict[str, int]:
        """Cards in other seats' rows by colour: what a bigger set of that colour would rob."""
        rows: dict[str, int] = {}
        for other in view["seats"]:
            if other["seat"] != view["seat"]:
                for row in other["yard"]:
                    rows[row["colour"]] = rows.get(row["colour"], 0) + row["locos"] + row["coloured"]
        return rows

    def _yard_value(self, view: dict[str, Any], move: Yard, need: dict[str, int], rows: dict[str, int]) -> float:
        colours = move.colours
        distinct = set(colours)
        value = 0.0
        if len(distinct) == 1:
            colour = colours[0]
            size = len(move.cards)
            robbed = rows.get(colour, 0)
            if not need[colour]:
                # A row no ticket needs only feeds the track stack useless cards and waits to be robbed:
                # worth it to rob a row, or to empty a full hand late in the game.
                return 2.0 * robbed - 0.5 * move.locos + (1.0 if size >= 4 and view["deck_count"] <= 6 else 0.0)
            # Locomotives reach the track stack first and complete anything: keep a few for robbing.
            value = size * 2.0 - 0.5 * move.locos + 2.0 * robbed
            if size >= 4:
                value += 2
        else:
            value = sum(1.5 if need[c] else 0.0 for c in distinct)
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
        if _last_turn(view):
            return self._keep_last(view)
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
    def _keep_last(view: dict[str, Any]) -> Keep:
        """On our last turn the track stack is final: keep exactly the drawn tickets it completes on top
        of the tickets we hold (an uncompleted ticket costs its points). Of the subsets of the drawn
        tickets: the one whose tickets score most, the smallest of those, the first by size then ids.

        The same choice with few exact completions (each is a branch and bound, a player may hold 18
        tickets by then, and the hard level's rollouts end here often). With `best(S)` the points the
        stack completes of the held tickets plus S, keeping S scores 2·best(S) − held points − S points:
        - A drawn ticket the stack cannot complete even alone never counts, so keeping it only costs:
          subsets with one are never best and are not tried.
        - best(S) is at most best(S without t) + t's points for each t in S, and at most best(all):
          a subset whose bound cannot beat the best score so far is skipped.
        - A subset that fits the stack together with the held tickets' own completion reaches its bound.
        """
        track = _track(view)
        track_key = tuple(sorted(track.items()))
        held = tuple(sorted(view["tickets"]))
        held_points = _points(held)
        held_done = _completion(held, track_key)
        pending = fitting_alone(view["pending"], track)
        top = _points(_completion(tuple(sorted((*held, *pending))), track_key))
        bound: dict[tuple[int, ...], int] = {(): _points(held_done)}
        best: tuple[int, int] | None = None
        choice: tuple[int, ...] = ()
        for size in range(len(pending) + 1):
            for kept in itertools.combinations(pending, size):
                points = _points(kept)
                if kept:
                    smaller = (bound[kept[:i] + kept[i + 1 :]] + TICKETS[t].points for i, t in enumerate(kept))
                    bound[kept] = min(top, *smaller)
                if best is not None and (2 * bound[kept] - held_points - points, -size) <= best:
                    continue
                if kept and not fits((*held_done, *kept), track):
                    bound[kept] = _points(_completion(tuple(sorted((*held, *kept))), track_key))
                score = (2 * bound[kept] - held_points - points, -size)
                if best is None or score > best:
                    best, choice = score, kept
        return Keep(choice)

    @staticmethod
    def _profile(view: dict[str, Any]) -> dict[str, float]:
        """How strongly we collect each colour: rows in our yard, cards in hand, current tickets."""
        me = view["seats"][view["seat"]]
        profile = dict.fromkeys(COLOURS, 0.0)
        for row in me["yard"]:
            profile[row["colour"]] += 2 + row["coloured"]
        for colour in COLOURS:
            profile[colour] += view["hand"].get(colour, 0) / 2
        # Cards on our track stack make a colour cheap for new tickets too, so it stays in the profile.
        for colour, count in _needs(view["tickets"]).items():
            profile[colour] += count
        for colour, count in _track(view).items():
            if colour in profile:
                profile[colour] += count / 2
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
        supply = me["track_count"]
        if not _last_turn(view):  # after our last turn the yard never reaches the track stack
            supply += sum(row["locos"] + row["coloured"] for row in me["yard"])
        if view["final_round"] is None and view["deck_count"] > 0:
            supply += 0.5 * me["hand_count"]
        demand = sum(TICKETS[t].card_count for t in view["tickets"])
        return supply - 1.2 * demand

    @staticmethod
    def _choose(view: dict[str, Any], legal: list[Move]) -> Move:
        """`completion=choose`: pick the tickets of the best set the track stack completes (the exact
        choice the automatic rule makes, section 7.1), not the most valuable ticket first, which can
        leave far fewer points (issue 27). Picks outside that set (a player's own, before the AI took
        the seat over) are undone first, the last one first, as `undo` drops it."""
        picks = list(view["picks"])
        target = _completion(tuple(sorted(view["tickets"])), tuple(sorted(_track(view).items())))
        if any(t not in target for t in picks) and Undo() in legal:
            return Undo()
        for ticket in target:
            if ticket not in picks and Complete(ticket) in legal:
                return Complete(ticket)
        for move in legal:
            if isinstance(move, Done):
                return move
        return next(m for m in legal if not isinstance(m, Undo))


def hard_ai() -> SearchAI:
    """The hard level: rollouts to the end with greedy players (a whole game costs ~30 ms); 96 rollouts
    over 6 candidates cost about 0.5 s a decision."""
    return SearchAI(GreedyAI, SearchBudget(rollouts=96, candidates=6), score_scale=15.0)
