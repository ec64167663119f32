"""ttr_cards ticket completion (spec 7.1): the exact best set against a brute force and the previous search."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.ttr_cards.cards import COLOURS, KINDS, LOCO, TICKET_IDS
from rules.ttr_cards.scoring import _NEEDS, best_completion, fits, fitting_alone, weight

# Stacks that took the previous search seconds or more, and stacks built against the new one
# (the worst node counts of a hill climb over 0-10 per colour and 0-16 Locomotives).
HARD_STACKS = [
    {"black": 10, "blue": 6, "green": 9, "orange": 5, "purple": 5, "red": 8, "white": 9, "yellow": 6, "loco": 5},
    {"black": 9, "blue": 2, "green": 6, "orange": 5, "purple": 6, "red": 2, "white": 7, "yellow": 5, "loco": 14},
    {"black": 10, "blue": 9, "green": 10, "orange": 7, "purple": 6, "red": 9, "white": 4, "yellow": 6, "loco": 8},
    {"black": 10, "blue": 10, "green": 10, "orange": 10, "purple": 10, "red": 10, "white": 10, "yellow": 9, "loco": 0},
    {"black": 10, "blue": 7, "green": 9, "orange": 7, "purple": 5, "red": 9, "white": 9, "yellow": 5, "loco": 3},
    {"black": 3, "blue": 1, "green": 9, "orange": 3, "purple": 9, "red": 10, "white": 5, "yellow": 1, "loco": 9},
    {"black": 1, "blue": 6, "green": 0, "orange": 9, "purple": 9, "red": 3, "white": 10, "yellow": 8, "loco": 4},
    {"black": 8, "blue": 8, "green": 5, "orange": 3, "purple": 4, "red": 9, "white": 8, "yellow": 7, "loco": 15},
    {"black": 6, "blue": 6, "green": 3, "orange": 10, "purple": 8, "red": 6, "white": 10, "yellow": 6, "loco": 9},
    {"black": 4, "blue": 8, "green": 4, "orange": 10, "purple": 7, "red": 10, "white": 3, "yellow": 3, "loco": 10},
    {"black": 4, "blue": 5, "green": 8, "orange": 10, "purple": 6, "red": 9, "white": 9, "yellow": 7, "loco": 8},
    {"black": 5, "blue": 10, "green": 6, "orange": 10, "purple": 7, "red": 7, "white": 7, "yellow": 7, "loco": 3},
    {colour: 10 for colour in COLOURS} | {LOCO: 0},
    {colour: 10 for colour in COLOURS} | {LOCO: 16},
]


def brute_force(tickets: list[int], track: dict[str, int]) -> list[int]:
    """Every completable subset (completability is monotone, so a subset that does not fit ends its branch)."""
    ordered = sorted(tickets)
    best: tuple[int, list[int]] = (-1, [])

    def walk(index: int, chosen: list[int], value: int) -> None:
        nonlocal best
        if index == len(ordered):
            if value > best[0]:
                best = (value, list(chosen))
            return
        chosen.append(ordered[index])
        if fits(chosen, track):
            walk(index + 1, chosen, value + weight(ordered[index]))
        chosen.pop()
        walk(index + 1, chosen, value)

    walk(0, [], 0)
    return best[1]


class _OverBudget(Exception):
    pass


def reference_best_completion(ticket_ids: list[int], track: dict[str, int], budget: int) -> list[int]:
    """The search before issue 12 finding 7 (branch and bound with a surrogate fractional bound, memo
    and dominance), kept verbatim but for a node budget so that the tests stay quick."""
    have0 = [track.get(c, 0) for c in COLOURS]
    locos0 = track.get(LOCO, 0)
    candidates = fitting_alone(set(ticket_ids), track)
    if fits(candidates, track):
        return candidates
    weights = {tid: weight(tid) for tid in candidates}
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
    demand = [[0] * len(COLOURS) for _ in range(count + 1)]
    for i in range(count - 1, -1, -1):
        for c in colours:
            demand[i][c] = demand[i + 1][c] + needs[i][c]
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
    by_mask: dict[int, tuple[list[int], list[int]]] = {}
    nodes = 0

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
        nonlocal best_value, best_set, nodes
        nodes += 1
        if nodes > budget:
            raise _OverBudget
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


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.integers(1, 46), unique=True, max_size=14),
    st.one_of(
        st.fixed_dictionaries({kind: st.integers(0, 4) for kind in KINDS}),
        st.fixed_dictionaries({colour: st.integers(0, 10) for colour in COLOURS} | {LOCO: st.integers(0, 16)}),
    ),
)
def test_best_completion_matches_a_brute_force(tickets: list[int], track: dict[str, int]) -> None:
    assert best_completion(tickets, track) == brute_force(tickets, track)


def test_best_completion_matches_a_brute_force_on_crowded_small_hands() -> None:
    # 14 tickets all fighting for two or three colours: many equal-point sets, so the tie-breaks decide.
    rng = random.Random(12)
    crowded = [t for t in TICKET_IDS if _NEEDS[t][COLOURS.index("black")] or _NEEDS[t][COLOURS.index("white")]]
    for _ in range(60):
        tickets = rng.sample(crowded, 14)
        track = {kind: rng.randint(0, 3) for kind in KINDS}
        assert best_completion(tickets, track) == brute_force(tickets, track)


def test_best_completion_matches_the_previous_search_on_large_hands() -> None:
    rng = random.Random(2026)
    compared = 0
    for case in range(300):
        tickets = rng.sample(TICKET_IDS, rng.randint(13, 46))
        top = (6, 8, 10)[case % 3]
        track = {colour: rng.randint(0, top) for colour in COLOURS} | {LOCO: rng.randint(0, 16)}
        try:
            expected = reference_best_completion(tickets, track, budget=5_000)
        except _OverBudget:
            continue
        compared += 1
        assert best_completion(tickets, track) == expected, (tickets, track)
    assert compared >= 150


def _is_locally_best(chosen: list[int], tickets: list[int], track: dict[str, int]) -> bool:
    """No single ticket added, and no one ticket swapped for another, gives a completable set of more weight."""
    value = sum(weight(t) for t in chosen)
    outside = [t for t in tickets if t not in chosen]
    for t in outside:
        if fits([*chosen, t], track):
            return False
        for u in chosen:
            swapped = [x for x in chosen if x != u] + [t]
            if weight(t) > weight(u) and fits(swapped, track) and value - weight(u) + weight(t) > value:
                return False
    return True


def test_best_completion_on_the_hard_stacks() -> None:
    for track in HARD_STACKS:
        chosen = best_completion(list(TICKET_IDS), track)
        assert chosen == sorted(chosen)
        assert fits(chosen, track)
        assert _is_locally_best(chosen, list(TICKET_IDS), track)
        # Same answer whatever the order of the hand.
        shuffled = list(TICKET_IDS)
        random.Random(len(chosen)).shuffle(shuffled)
        assert best_completion(shuffled, track) == chosen


def test_best_completion_does_not_depend_on_the_root_prices(monkeypatch) -> None:
    # The LP only steers the search: with no prices (the fallback) or random ones, same answers.
    from rules.ttr_cards import scoring

    rng = random.Random(7)
    cases = []
    for _ in range(40):
        tickets = rng.sample(TICKET_IDS, rng.randint(10, 30))
        cases.append((tickets, {colour: rng.randint(0, 10) for colour in COLOURS} | {LOCO: rng.randint(0, 16)}))
    expected = [best_completion(tickets, track) for tickets, track in cases]
    monkeypatch.setattr(scoring, "_lp_prices", lambda *args: [])
    assert [best_completion(tickets, track) for tickets, track in cases] == expected
    monkeypatch.setattr(scoring, "_lp_prices", lambda values, needs, have, locos: [rng.uniform(0, 9) for _ in have])
    assert [best_completion(tickets, track) for tickets, track in cases] == expected
