"""Greedy Trans Europa AI (spec section 13): builds along one of its own minimum Steiner trees."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from typing import Any

from rules.engine import AIPlayer, GameState, Move
from rules.search import SearchAI, SearchBudget, margin_value
from rules.trans_europa import board
from rules.trans_europa.moves import End, Lay, Start, Vex
from rules.trans_europa.setup import piles_for
from rules.trans_europa.state import TransEuropaState


def _edge(track: dict[str, Any]) -> int:
    a, b = board.junction_of(track["a"]), board.junction_of(track["b"])
    assert a is not None and b is not None
    edge = board.edge_between(a, b)
    assert edge is not None
    return edge


def seat_board(view: dict[str, Any], seat: int) -> tuple[frozenset[int], frozenset[int]]:
    """(lines costing 0, lines blocked) for `seat`, read from the public part of a view."""
    zero, blocked = set(), set()
    for track in view["tracks"]:
        (zero if track["owner"] in (None, seat) else blocked).add(_edge(track))
    return frozenset(zero), frozenset(blocked)


# Tracks a seat loses in a typical round: how fast scores fall towards the end of the game.
_PENALTY_PER_ROUND = 4


def _vex_allowance(view: dict[str, Any], seat: int) -> bool:
    """Whether this round's share of our coloured tracks is not spent yet.

    Tracks that last the whole game are spread over the rounds it is expected to last (until the lowest
    score reaches 0), so later rounds still have some to block with.
    """
    left = int(view["coloured_left"][str(seat)])
    if view["options"].get("vexation_refill") == "round":
        return left > 0
    lowest = min(int(score) for score in view["scores"].values())
    rounds_left = max(1, -(-lowest // _PENALTY_PER_ROUND))
    used_this_round = sum(1 for track in view["tracks"] if track["owner"] == seat)
    return used_this_round < -(-(left + used_this_round) // rounds_left)


def _unseen(view: dict[str, Any]) -> tuple[list[list[int]], set[int]]:
    """The junctions of the cities this seat has not seen, one list per colour (each other seat holds
    one city of each), and the seats whose cities are shown (their network is complete)."""
    seen = {h["id"] for h in view["hand"]}
    revealed = {entry["seat"] for entry in view["completed"]}
    for entry in view["completed"]:
        seen.update(c["id"] for c in entry["cities"])
    piles = piles_for(view["num_seats"]).values()
    return [[board.CITY_BY_ID[c].junction for c in pile if c not in seen] for pile in piles], revealed


def _rivals(view: dict[str, Any], seat: int, revealed: set[int]) -> Iterator[tuple[int, frozenset[int], frozenset[int]]]:
    """(marker, lines costing 0, lines blocked) of every other seat still building, in seat order."""
    for key, token in sorted(view["markers"].items()):
        other = int(key)
        if other == seat or other in revealed:
            continue
        marker = board.junction_of(token)
        assert marker is not None
        yield marker, *seat_board(view, other)


def _vex_hurts(view: dict[str, Any], seat: int, edge: int) -> bool:
    """Whether a coloured track here (instead of a black one) likely costs some opponent a track.

    Opponents' cities are secret, so this takes every city this seat has not seen as equally likely (one
    per colour, as dealt) and asks how likely it is that blocking the line lengthens the way from that
    opponent's marker to at least one of its cities. Coloured tracks are few; one that blocks nobody's
    path only saves a black track.
    """
    unseen_piles, revealed = _unseen(view)
    for marker, their_zero, their_blocked in _rivals(view, seat, revealed):
        near = board.distances_from(marker, their_zero | {edge}, their_blocked)
        far = board.distances_from(marker, their_zero, their_blocked | {edge})
        untouched = 1.0
        for unseen in unseen_piles:
            if unseen:
                longer = sum(1 for v in unseen if far[v] > near[v])
                untouched *= 1 - longer / len(unseen)
        if untouched <= 0.5:
            return True
    return False


def _network(view: dict[str, Any], seat: int, zero: frozenset[int]) -> set[int]:
    """Junctions reachable from the seat's marker over lines it may use (the engine's network, D6)."""
    marker = board.junction_of(view["markers"][str(seat)])
    assert marker is not None
    return _grown({marker}, [marker], zero)


def _grown(reached: set[int], todo: list[int], zero: frozenset[int] | set[int]) -> set[int]:
    """`reached` with every junction joined to `todo` over `zero` lines (in place)."""
    while todo:
        v = todo.pop()
        for u, e in board.ADJACENCY[v]:
            if u not in reached and e in zero:
                reached.add(u)
                todo.append(u)
    return reached


def first_lines(view: dict[str, Any], seat: int, terminals: tuple[int, ...], tree: tuple[int, ...],
                options: list[int], placeable: list[int]) -> list[int]:
    """Of the lines a turn may begin with (`options`: lines of our minimum `tree`), those that begin the
    turn's best use of its two tracks: single lines after which another single line shortens the path
    again (2 tracks nearer), else a double line that brings us 2 nearer (of the tree, or of another
    minimum tree: any `placeable` one), else the single lines (1 nearer).

    A single line laid alone ends the turn 1 track nearer where one double line would have brought us 2
    nearer (issue 27): a double line only loses to two single lines that both shorten the path. Which
    singles are followed is asked of our tree first (a single line of it that the first one makes
    reachable), and only when none is, exactly (any line that shortens the path after it): the hard
    level's rollouts ask this at every step 1, so the exact test runs only where it can matter.
    """
    singles = [e for e in options if board.EDGES[e].cost == 1]
    doubles = [e for e in options if board.EDGES[e].cost == 2]
    if not singles:
        return options
    others = [] if doubles else [e for e in placeable if board.EDGES[e].cost == 2 and e not in options]
    if not doubles and not others:
        return singles
    zero, blocked = seat_board(view, seat)
    home = _network(view, seat, zero)
    built = {_edge(track) for track in view["tracks"]}
    after_each = {}
    for e in singles:
        line = board.EDGES[e]
        after = zero | {e}
        ends = [v for v in (line.a, line.b) if v not in home]
        after_each[e] = (after, _grown(set(home) | set(ends), list(ends), after))
    followed = [e for e in singles if any(
        f != e and f not in built and board.EDGES[f].cost == 1 and (board.EDGES[f].a in after_each[e][1]
                                                                    or board.EDGES[f].b in after_each[e][1])
        for f in tree)]
    if followed:
        return followed
    for e in singles:
        after, reach = after_each[e]
        touching = sorted({f for v in reach for _u, f in board.ADJACENCY[v]
                           if f not in built and f != e and board.EDGES[f].cost == 1})
        if board.shortening_lines(terminals, after, blocked, touching):
            followed.append(e)
    if followed:
        return followed
    if others:
        before = board.steiner_cost(terminals, zero, blocked)
        doubles = [e for e in board.shortening_lines(terminals, zero, blocked, others)
                   if board.steiner_cost(terminals, zero | {e}, blocked) <= before - 2]
    return doubles or singles


class GreedyAI(AIPlayer):
    """Marker where its five cities are cheapest to join; then lays lines of a minimum tree."""

    name = "greedy"

    def rank(self, view: dict[str, Any], legal: list[Move], rng: random.Random) -> list[Move]:
        """Moves from best to worst as this player sees them, for the hard level's shortlist: markers by
        the tracks they leave, then the lines of its minimum tree, then lines that shorten its path by
        another tree, then `end`, then the rest."""
        seat = view["seat"]
        zero, blocked = seat_board(view, seat)
        cities = tuple(c for c in (board.junction_of(h["junction"]) for h in view["hand"]) if c is not None)
        starts = [m for m in legal if isinstance(m, Start)]
        if starts:
            costs = board.marker_costs(cities, zero, blocked)
            return sorted(starts, key=lambda m: (costs[m.junction], str(m)))
        marker = board.junction_of(view["markers"][str(seat)])
        terminals = tuple(sorted({marker, *cities}))
        _weight, tree = board.steiner_tree(terminals, zero, blocked)
        placed = sorted((m for m in legal if isinstance(m, Lay | Vex)), key=str)
        in_tree = self.order_lines(view, [m for m in placed if m.edge in tree and m.edge not in zero])
        if view["step"] == 1:  # the lines that begin the turn's best use of its two tracks go first
            first = set(first_lines(view, seat, terminals, tree, sorted({m.edge for m in in_tree}),
                                    sorted({m.edge for m in placed})))
            in_tree += [m for m in placed if m.edge in first and m not in in_tree]
            in_tree = sorted(in_tree, key=lambda m: m.edge not in first)
        shorter = set(board.shortening_lines(terminals, zero, blocked, sorted({m.edge for m in placed} - set(tree))))
        shortening = [m for m in placed if m.edge in shorter]
        ordered = [*in_tree, *shortening, *(m for m in legal if isinstance(m, End))]
        return [*ordered, *(m for m in sorted(legal, key=str) if m not in ordered)]

    def order_lines(self, view: dict[str, Any], placements: list[Move]) -> list[Move]:
        """The order the ranking gives placements on the tree's lines (by notation here)."""
        return placements

    def pick_line(self, view: dict[str, Any], options: list[int], rng: random.Random) -> int:
        """Which of the equally useful lines to build now (any, here)."""
        return rng.choice(options)

    def choose(self, view: dict[str, Any], legal: list[Move], rng: random.Random) -> Move:
        seat = view["seat"]
        zero, blocked = seat_board(view, seat)
        cities = [board.junction_of(h["junction"]) for h in view["hand"]]
        starts = [m for m in legal if isinstance(m, Start)]
        if starts:
            costs = board.marker_costs(tuple(c for c in cities if c is not None), zero, blocked)
            best = min(costs[m.junction] for m in starts)
            return rng.choice([m for m in starts if costs[m.junction] == best])
        lays = {m.edge: m for m in legal if isinstance(m, Lay)}
        vexes = {m.edge: m for m in legal if isinstance(m, Vex)}
        marker = board.junction_of(view["markers"][str(seat)])
        terminals = tuple(sorted({marker, *cities}))
        _weight, tree = board.steiner_tree(terminals, zero, blocked)
        options = [e for e in tree if e not in zero and (e in lays or e in vexes)]
        if view["step"] == 1:
            options = first_lines(view, seat, terminals, tree, options, sorted({*lays, *vexes}))
        if not options:
            # The tree's next line may be a double line (too big for step 2) while another minimum tree
            # goes on with a single line: any line that shortens our remaining path is worth laying.
            options = board.shortening_lines(terminals, zero, blocked, sorted({*lays, *vexes}))
        if not options:
            end = End()
            return end if end in legal else rng.choice(legal)
        edge = self.pick_line(view, sorted(options), rng)
        if edge in vexes and (edge not in lays or (_vex_allowance(view, seat) and _vex_hurts(view, seat, edge))):
            return vexes[edge]
        return lays[edge]


def others_interest(view: dict[str, Any], seat: int, lines: list[int]) -> dict[int, float]:
    """Per line, how many other seats likely want it built: for each seat still building, the chance
    that the line lies on a shortest way from its network to at least one of its cities.

    Their cities are secret, so every city this seat has not seen counts as equally likely (one per
    colour, as dealt), as in `_vex_hurts`.
    """
    unseen, revealed = _unseen(view)
    interest = dict.fromkeys(lines, 0.0)
    for marker, zero, blocked in _rivals(view, seat, revealed):
        home = board.distances_from(marker, zero, blocked)
        for e in lines:
            if e in blocked or e in zero:
                continue
            a, b, w = board.EDGES[e].a, board.EDGES[e].b, board.EDGES[e].cost
            from_a = board.distances_from(a, zero, blocked)
            from_b = board.distances_from(b, zero, blocked)
            untouched = 1.0
            for pile in unseen:
                if pile:
                    on_way = sum(1 for v in pile
                                 if home[v] in (home[a] + w + from_b[v], home[b] + w + from_a[v]))
                    untouched *= 1 - on_way / len(pile)
            interest[e] += 1 - untouched
    return interest


class ThriftyAI(GreedyAI):
    """The greedy player that builds first the lines of its tree no one else seems to need: a line that
    others want may well be built by one of them (free for us), and building it ourselves helps them.
    The hard level plays its own seat this way; it expects the others to play greedy."""

    name = "thrifty"

    def order_lines(self, view: dict[str, Any], placements: list[Move]) -> list[Move]:
        edges = sorted({m.edge for m in placements if isinstance(m, Lay | Vex)})
        interest = others_interest(view, view["seat"], edges)
        single_first = view["step"] == 1
        return sorted(placements, key=lambda m: (
            single_first and board.EDGES[m.edge].cost != 1, interest[m.edge], str(m)))

    def pick_line(self, view: dict[str, Any], options: list[int], rng: random.Random) -> int:
        interest = others_interest(view, view["seat"], options)
        least = min(interest.values())
        return rng.choice([e for e in options if interest[e] <= least + 1e-9])


def race_losses(state: TransEuropaState) -> list[float]:
    """What each seat is likely to lose when the round ends, if everyone from now on lays the 2 tracks a
    turn that join its own cities (1 in what is left of the active seat's turn): the first seat whose
    tracks run out ends the round, and every other seat loses what it still lacks by then."""
    n = state.num_seats
    if state.completed:
        return [0.0 if s in state.completed else float(state.penalty(s)) for s in range(n)]
    need = [float(state.penalty(s)) for s in range(n)]
    order = state.turn_order(state.active_seat)
    first_turn = 1.0 if state.step == 2 else 2.0
    # the turn (0, 1, ...) in which each seat would be done: its k-th turn comes at k * n + position
    finish = []
    for position, s in enumerate(order):
        first = first_turn if position == 0 else 2.0
        finish.append((max(0, math.ceil((need[s] - first) / 2)) * n + position, s))
    end_at, _winner = min(finish)
    losses = [0.0] * n
    for position, s in enumerate(order):
        # turns this seat plays before the round ends (the ender plays its last)
        turns = (end_at - position) // n + 1 if end_at >= position else 0
        built = 0.0 if turns == 0 else (first_turn if position == 0 else 2.0) + 2.0 * (turns - 1)
        losses[s] = max(0.0, need[s] - built)
    return losses


def estimate(state: GameState, seat: int) -> float:
    """A cut-off rollout judged by the race to finish the round (`race_losses`): each score minus what
    the seat would still lack when the first network is done."""
    assert isinstance(state, TransEuropaState)
    if state.phase != "building":  # between rounds (markers to place): only the scores count
        scores = [float(v) for v in state.scores]
    else:
        losses = race_losses(state)
        scores = [state.scores[s] - losses[s] for s in range(state.num_seats)]
    return margin_value(scores, seat, 6.0)


def next_turn(root: GameState, world: GameState) -> bool:
    """Rollouts stop when the seat's next turn begins (or a new round starts): every candidate is judged
    at the same point, after every rival's reply."""
    assert isinstance(root, TransEuropaState) and isinstance(world, TransEuropaState)
    if world.round != root.round or world.phase == "game_over":
        return True
    if world.phase != "building" or world.step != 1:
        return False
    seat = root.active_seat
    return world.active_seat == seat and (root.phase == "markers" or world.tracks.keys() != root.tracks.keys())


def hard_ai() -> SearchAI:
    """The hard level: greedy rollouts to the seat's next turn (one greedy decision costs ~3 ms), judged
    by the race to finish the round; the horizon only caps a rollout that never gets there. A rollout
    plays every rival's turn, so with 4 seats one costs about twice as much and there are half as many
    (32 a decision took up to 4 s)."""
    return SearchAI(
        GreedyAI,
        SearchBudget(rollouts=32, candidates=5, horizon=40, seats=2),
        evaluate=estimate,
        score_scale=6.0,
        stop=next_turn,
        lead=ThriftyAI,
    )
