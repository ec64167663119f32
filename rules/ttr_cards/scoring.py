"""Ticket completion (exact best set, fit tests, the fixed card assignment) and big-city bonuses."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rules.ttr_cards.cards import BIG_CITIES, COLOURS, LOCO, TICKETS

_NEEDS: dict[int, tuple[int, ...]] = {
    tid: tuple(t.cards.get(c, 0) for c in COLOURS) for tid, t in TICKETS.items()
}


def weight(ticket_id: int) -> int:
    """The additive weight whose maximum sum is the spec's choice (7.1): points, then count, then
    big-city names, then the lowest-numbered ticket where candidates differ."""
    ticket = TICKETS[ticket_id]
    return (ticket.points << 59) + (1 << 53) + (len(ticket.big_cities) << 46) + (1 << (46 - ticket_id))


def fits(ticket_ids: Iterable[int], track: Mapping[str, int]) -> bool:
    """Can these tickets all be completed together from a track stack (locomotives are wild)?"""
    need = [0] * len(COLOURS)
    for tid in ticket_ids:
        for index, count in enumerate(_NEEDS[tid]):
            need[index] += count
    deficit = sum(max(0, need[i] - track.get(c, 0)) for i, c in enumerate(COLOURS))
    return deficit <= track.get(LOCO, 0)


def fitting_alone(ticket_ids: Iterable[int], track: Mapping[str, int]) -> list[int]:
    """The tickets that could each be completed on their own (the set F of section 5)."""
    return sorted(tid for tid in ticket_ids if fits((tid,), track))


def best_completion(ticket_ids: Iterable[int], track: Mapping[str, int]) -> list[int]:
    """The exact best completable set (section 7.1), ascending ids.

    Branch and bound over the tickets, best points per card first, with a fractional bound on the
    colours that are short (scarce) and a memo of equivalent remaining-resource states.
    """
    have0 = [track.get(c, 0) for c in COLOURS]
    locos0 = track.get(LOCO, 0)
    candidates = fitting_alone(set(ticket_ids), track)
    if fits(candidates, track):
        return candidates
    weights = {tid: weight(tid) for tid in candidates}
    # Order by value per card in the colours that are short at the start (the bound's own measure,
    # so the first dive follows the bound's fractional solution); tickets needing no short colour
    # first. 60 is a common multiple of the possible costs 1..5.
    total_need = [sum(_NEEDS[t][c] for t in candidates) for c in range(len(COLOURS))]
    short = [c for c in range(len(COLOURS)) if have0[c] < total_need[c]]

    def root_cost(tid: int) -> int:
        return sum(_NEEDS[tid][c] for c in short)

    order = sorted(
        candidates,
        key=lambda tid: (root_cost(tid) > 0, -(weights[tid] * 60 // max(1, root_cost(tid))), tid),
    )
    needs = [_NEEDS[tid] for tid in order]
    values = [weights[tid] for tid in order]
    count = len(order)
    colours = range(len(COLOURS))
    # demand[i][c]: what tickets i.. still need of colour c.
    demand = [[0] * len(COLOURS) for _ in range(count + 1)]
    for i in range(count - 1, -1, -1):
        for c in colours:
            demand[i][c] = demand[i + 1][c] + needs[i][c]

    # Dominance: if ticket j needs at least what ticket i needs and weighs less, an optimal set
    # without i holds no j (swapping j for i would be better). Leaving i therefore bans every such j;
    # this removes the many symmetric branches of tickets with equal needs.
    dominated = [
        [
            j
            for j in range(i + 1, count)
            if values[j] < values[i] and all(needs[j][c] >= needs[i][c] for c in colours)
        ]
        for i in range(count)
    ]
    banned = [0] * count

    best_value = 0
    best_set: list[int] = []
    chosen: list[int] = []
    memo: dict[tuple, int] = {}

    # Per set of scarce colours (a bit mask): each ticket's cost in those colours, and the paying
    # tickets by value per card, best first. Computed once per mask, so a bound needs no sorting.
    by_mask: dict[int, tuple[list[int], list[int]]] = {}

    def ranked(mask: int) -> tuple[list[int], list[int]]:
        entry = by_mask.get(mask)
        if entry is None:
            costs = [sum(needs[j][c] for c in colours if mask >> c & 1) for j in range(count)]
            paying = sorted(
                (j for j in range(count) if costs[j]), key=lambda j: (-(values[j] * 60 // costs[j]), j)
            )
            entry = by_mask[mask] = (costs, paying)
        return entry

    def bound(i: int, have: list[int], locos: int) -> int:
        """An upper bound on the weight still addable from ticket i on (a surrogate relaxation).

        The short (scarce) colours and the locomotives form one pool of cards, any card for any
        scarce need; tickets needing only plentiful colours are free; then a fractional knapsack.
        """
        rest = demand[i]
        mask = 0
        capacity = locos
        for c in colours:
            if have[c] < rest[c]:
                mask |= 1 << c
                capacity += have[c]
        costs, paying = ranked(mask)
        total = 0
        for j in range(i, count):
            if not costs[j] and not banned[j]:
                total += values[j]
        for j in paying:
            if j < i or banned[j]:
                continue
            cost = costs[j]
            if cost <= capacity:
                capacity -= cost
                total += values[j]
            else:
                total += values[j] * capacity // cost + 1
                break
        return total

    def search(i: int, have: list[int], locos: int, value: int) -> None:
        nonlocal best_value, best_set
        if value > best_value:
            best_value = value
            best_set = list(chosen)
        if i == count:
            return
        if banned[i]:
            leave(i, have, locos, value)
            return
        rest = demand[i]
        key = (
            i,
            tuple(min(have[c], rest[c]) for c in colours),
            min(locos, sum(max(0, rest[c] - have[c]) for c in colours)),
        )
        if memo.get(key, -1) >= value:
            return
        memo[key] = value
        if value + bound(i, have, locos) <= best_value:
            return
        need = needs[i]
        after = list(have)
        short = 0
        contested = False
        for c in colours:
            if need[c]:
                if have[c] < rest[c]:
                    contested = True
                used = min(have[c], need[c])
                after[c] -= used
                short += need[c] - used
        if short <= locos:
            chosen.append(order[i])
            search(i + 1, after, locos - short, value + values[i])
            chosen.pop()
            if not contested:
                # Every colour it needs is plentiful for all remaining tickets: leaving it cannot help.
                return
        leave(i, have, locos, value)

    def leave(i: int, have: list[int], locos: int, value: int) -> None:
        for j in dominated[i]:
            banned[j] += 1
        search(i + 1, have, locos, value)
        for j in dominated[i]:
            banned[j] -= 1

    search(0, have0, locos0, 0)
    return sorted(best_set)


def assign_cards(ticket_ids: Iterable[int], track: Mapping[str, int]) -> dict[int, dict[str, int]]:
    """The fixed card-to-ticket assignment (7.1): ascending ids, own colour first, then locomotives."""
    left = {kind: track.get(kind, 0) for kind in (*COLOURS, LOCO)}
    assignment: dict[int, dict[str, int]] = {}
    for tid in sorted(ticket_ids):
        used: dict[str, int] = {}
        for colour in COLOURS:
            need = TICKETS[tid].cards.get(colour, 0)
            if not need:
                continue
            own = min(need, left[colour])
            if own:
                used[colour] = own
                left[colour] -= own
            if need > own:
                if left[LOCO] < need - own:
                    raise ValueError("assign_cards called with a set that does not fit")
                used[LOCO] = used.get(LOCO, 0) + need - own
                left[LOCO] -= need - own
        assignment[tid] = used
    return assignment


def city_counts(completed: Iterable[int]) -> dict[str, int]:
    """How many of these completed tickets name each big city."""
    counts = {city: 0 for city in BIG_CITIES}
    for tid in completed:
        for city in TICKETS[tid].big_cities:
            counts[city] += 1
    return counts


def big_city_winners(completed_by_seat: list[list[int]]) -> dict[str, list[int]]:
    """city -> seats with the highest count (at least 1); every tied seat takes the bonus (D22)."""
    per_seat = [city_counts(done) for done in completed_by_seat]
    winners: dict[str, list[int]] = {}
    for city in BIG_CITIES:
        top = max(counts[city] for counts in per_seat)
        winners[city] = [seat for seat, counts in enumerate(per_seat) if top >= 1 and counts[city] == top]
    return winners


# The result's keys in a player's words (bot posts and files show these; ja.py translates them).
RESULT_LABELS: dict[str, str] = {
    "tickets_deck1": "points for tickets at the first scoring",
    "tickets_final": "points for completed tickets",
    "tickets_failed": "points lost for failed tickets",
    "big_cities": "Big City bonuses",
    "big_city_cards": "Big City bonus cards",
    "completed": "number of tickets completed",
    "completed_ids": "completed ticket numbers",
    "failed_ids": "failed ticket numbers",
    "deck": "The game ended: the train deck ran out and everyone had a last turn.",
}
