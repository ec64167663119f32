"""Ticket completion (exact best set, fit tests, the fixed card assignment) and big-city bonuses."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rules.ttr_cards.cards import BIG_CITIES, COLOURS, LOCO, TICKETS
from rules.words import N_

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

    Tickets needing only plentiful colours are always completed; the rest go to `_BestSet`, a branch
    and bound with Lagrangian (LP dual) bounds. The bounds only prune; any prices give a valid bound,
    so the answer is exact whatever the floating-point LP at the root returns.
    """
    have0 = [track.get(c, 0) for c in COLOURS]
    locos0 = track.get(LOCO, 0)
    candidates = fitting_alone(set(ticket_ids), track)
    if fits(candidates, track):
        return candidates
    total_need = [sum(_NEEDS[t][c] for t in candidates) for c in range(len(COLOURS))]
    scarce = [c for c in range(len(COLOURS)) if have0[c] < total_need[c]]
    free = [t for t in candidates if not any(_NEEDS[t][c] for c in scarce)]
    contested = [t for t in candidates if any(_NEEDS[t][c] for c in scarce)]
    needs = {t: tuple(_NEEDS[t][c] for c in scarce) for t in contested}
    return sorted(free + _BestSet(contested, needs, [have0[c] for c in scarce], locos0).run())


_POINTS = 1 << 59  # the weight of one ticket point (7.1)
_LOW = _POINTS - 1  # below the points: count, big cities, id; a set's sum stays under 2^59
_THETA = 1024  # the tie bound tries theta = k / _THETA


def _lp_prices(values: list[float], needs: list[tuple[int, ...]], have: list[int], locos: int) -> list[float]:
    """Optimal dual prices of the colours for the LP relaxation (bounded primal simplex, floats).

    max Σ v_t x_t with Σ_t need_t,c x_t − b_c ≤ have_c, Σ_c b_c ≤ locos, 0 ≤ x ≤ 1, b ≥ 0.
    Nine rows at most; a few dozen pivots. Returns [] if it does not finish (the caller falls back).
    """
    n = len(values)
    k = len(have)
    rows = k + 1
    width = n + k + rows
    inf = float("inf")
    table = [
        [float(needs[t][c]) for t in range(n)]
        + [-1.0 if d == c else 0.0 for d in range(k)]
        + [1.0 if r == c else 0.0 for r in range(rows)]
        for c in range(k)
    ]
    table.append([0.0] * n + [1.0] * k + [1.0 if r == k else 0.0 for r in range(rows)])
    level = [float(h) for h in have] + [float(locos)]
    upper = [1.0] * n + [inf] * (k + rows)
    at_upper = [False] * width
    basis = [n + k + r for r in range(rows)]
    reduced = [float(v) for v in values] + [0.0] * (k + rows)
    eps = 1e-9
    for _ in range(50 * width):
        entering, best = -1, eps
        for col in range(width):
            gain = -reduced[col] if at_upper[col] else reduced[col]
            if gain > best:
                entering, best = col, gain
        if entering < 0:
            return [-reduced[n + k + c] for c in range(k)]
        sign = -1.0 if at_upper[entering] else 1.0
        step, leaving, leaves_at_upper = upper[entering], -1, False
        for r in range(rows):
            rate = table[r][entering] * sign
            if rate > eps:
                limit = level[r] / rate
                if limit < step:
                    step, leaving, leaves_at_upper = limit, r, False
            elif rate < -eps and upper[basis[r]] != inf:
                limit = (upper[basis[r]] - level[r]) / -rate
                if limit < step:
                    step, leaving, leaves_at_upper = limit, r, True
        if step == inf:
            return []
        for r in range(rows):
            level[r] -= table[r][entering] * sign * step
        if leaving < 0:
            at_upper[entering] = not at_upper[entering]
            continue
        at_upper[basis[leaving]] = leaves_at_upper
        pivot_row = table[leaving]
        pivot = pivot_row[entering]
        pivot_row = table[leaving] = [v / pivot for v in pivot_row]
        for r in range(rows):
            factor = table[r][entering]
            if r != leaving and factor:
                table[r] = [a - factor * b for a, b in zip(table[r], pivot_row, strict=True)]
        factor = reduced[entering]
        reduced = [a - factor * b for a, b in zip(reduced, pivot_row, strict=True)]
        level[leaving] = (upper[entering] if at_upper[entering] else 0.0) + sign * step
        basis[leaving] = entering
        at_upper[entering] = False
    return []


def _descend(
    live: list[int],
    red: list[int],
    nonzero: list[list[tuple[int, int]]],
    prices: list[int],
    have,
    locos: int,
    together: bool = False,
) -> None:
    """One pass of coordinate descent on the Lagrangian bound, prices and red[] changed in place.

    The bound is max(prices)·locos + Σ_c prices_c·have_c + Σ_live max(0, red_t), with
    red_t = w_t − Σ_c prices_c·need_t,c (nonzero[t] lists the (colour, count) that t needs). Each
    colour's price in turn moves to the minimum along its own axis (a walk over the breakpoints; the
    Locomotive term counts once the price passes every other colour's). Prices stay whole and ≥ 0, so
    the bound stays a valid one. With `together`, two or more colours sharing the top price then also
    move as one (the Locomotive term couples them; single moves cannot lower that level). The search
    asks for it only while Locomotives are left (without them the colours are independent).
    """
    k = len(prices)
    by_colour: list[list[tuple[int, int]]] = [[] for _ in range(k)]
    for j in live:
        for c, count in nonzero[j]:
            by_colour[c].append((j, count))
    for c in range(k):
        touching = by_colour[c]
        if not touching:
            prices[c] = 0  # nothing left needs it: its cards are worth nothing to the bound
            continue
        price = prices[c]
        prices[c] = 0
        others = max(prices)
        prices[c] = price
        slope = have[c] + (locos if others == 0 else 0)
        events = [(r // count, count) for j, count in touching if (r := red[j] + price * count) > 0]
        for _, count in events:
            slope -= count
        x = 0
        if slope < 0:
            if others:
                events.append((others, locos))
            events.sort()
            for x, rise in events:  # noqa: B007 - x is the new price where the slope turns
                slope += rise
                if slope >= 0:
                    break
        if x != price:
            prices[c] = x
            step = price - x
            for j, count in touching:
                red[j] += step * count

    if not together:
        return
    top = max(prices)
    in_group = [p == top for p in prices]
    if sum(in_group) < 2:
        return  # one colour on top: its own move above already found its best
    floor = max((p for p in prices if p != top), default=0)
    slope = locos + sum(h for h, inside in zip(have, in_group, strict=True) if inside)
    events = []
    touching = []
    for j in live:
        count = sum(n for c, n in nonzero[j] if in_group[c])
        if count:
            touching.append((j, count))
            r = red[j] + top * count
            if r > floor * count:
                slope -= count
                events.append((r // count, count))
    x = floor
    if slope < 0:
        events.sort()
        for position, rise in events:
            slope += rise
            if position >= floor:
                x = position
            if slope >= 0:
                break
    if x != top:
        for c in range(k):
            if in_group[c]:
                prices[c] = x
        for j, count in touching:
            red[j] += (top - x) * count


def _equality_bound(base: int, remaining: int, items: list[tuple[int, int]]) -> int:
    """min over θ = k/_THETA of _THETA × [(1−θ)·base + θ·remaining + Σ max(0, (1−θ)·q + l)].

    The Lagrangian bound on the lower part l of a set whose upper part must equal `remaining` exactly
    (items are (q, l) per ticket: q its reduced upper weight, l > 0 its lower weight). Convex in θ:
    a walk over the breakpoints finds the best k, evaluated exactly in integers.
    """
    slope = remaining - base
    events = []
    for q, lower in items:
        if q >= 0 or q + lower > 0:
            slope -= q
        else:
            events.append((_THETA - _THETA * lower / -q, -q))
    at = 0.0
    if slope < 0:
        events.sort()
        at = _THETA
        for position, rise in events:
            slope += rise
            if slope >= 0:
                at = position
                break
    k0 = min(_THETA - 1, max(0, int(at)))

    def scaled(k: int) -> int:
        total = (_THETA - k) * base + k * remaining
        for q, lower in items:
            v = (_THETA - k) * q + _THETA * lower
            if v > 0:
                total += v
        return total

    return min(scaled(k0), scaled(k0 + 1))


class _BestSet:
    """Branch and bound over the contested tickets (those needing a scarce colour).

    - Order: by points per card priced at the root LP's dual prices, best first (ties by id); take
      before leave.
    - Dominance: a ticket needing at most what another needs and weighing more is taken whenever that
      other one is (leaving it bans the other; taking the other requires it).
    - Memo of (index, remaining cards per colour capped at the remaining demand, Locomotives capped).
    - Bound: the Lagrangian max(p)·L + Σ p_c·have_c + Σ max(0, w_t − p·need_t) over the tickets still
      possible, at the parent's prices, then after one descent pass. Reduced-cost fixing: a ticket
      whose reduced weight alone exceeds the gap is taken (or left) throughout the subtree.
    - Ties: points are whole, so where the points cannot beat the best, only sets with exactly the
      best points count; relaxing that equality with a multiplier bounds the lower criteria
      (count, big cities, ids) much more tightly.
    """

    def __init__(self, tickets: list[int], needs: dict[int, tuple[int, ...]], have: list[int], locos: int):
        self.have = have
        self.locos = locos
        weights = {t: weight(t) for t in tickets}
        duals = _lp_prices([weights[t] / _POINTS for t in tickets], [needs[t] for t in tickets], have, locos)
        if duals:
            prices = [max(0, int(p * _POINTS)) for p in duals]
        else:  # the simplex did not finish: 5 points a card (the best ratio of any ticket), then descend
            prices = [5 * _POINTS] * len(have)
            nonzero = [[(c, n) for c, n in enumerate(needs[t]) if n] for t in tickets]
            red = [weights[t] - sum(p * n for p, n in zip(prices, needs[t], strict=True)) for t in tickets]
            for _ in range(10):
                _descend(list(range(len(tickets))), red, nonzero, prices, have, locos, together=True)
        cost = {t: sum(p * n for p, n in zip(prices, needs[t], strict=True)) for t in tickets}
        self.order = sorted(
            tickets, key=lambda t: (-(TICKETS[t].points / cost[t]) if cost[t] else -float("inf"), t)
        )
        self.needs = [needs[t] for t in self.order]
        self.nonzero = [[(c, n) for c, n in enumerate(need) if n] for need in self.needs]
        self.w = [weights[t] for t in self.order]
        self.low = [w & _LOW for w in self.w]
        self.prices = prices

    def run(self) -> list[int]:
        needs, nonzero, w, low, order = self.needs, self.nonzero, self.w, self.low, self.order
        n = len(order)
        k = len(self.have)
        demand = [[0] * k for _ in range(n + 1)]
        for i in range(n - 1, -1, -1):
            demand[i] = [demand[i + 1][c] + needs[i][c] for c in range(k)]
        dominated = [
            [
                j
                for j in range(i + 1, n)
                if w[j] < w[i] and all(a >= b for a, b in zip(needs[j], needs[i], strict=True))
            ]
            for i in range(n)
        ]
        dominating = [
            [
                j
                for j in range(i + 1, n)
                if w[j] > w[i] and all(a <= b for a, b in zip(needs[j], needs[i], strict=True))
            ]
            for i in range(n)
        ]
        banned = [0] * n
        required = [0] * n
        chosen: list[int] = []
        memo: dict[tuple, int] = {}
        best_value = 0
        best_set: list[int] = []

        def search(i, have, locos, value, prices, live, red, took) -> None:
            nonlocal best_value, best_set
            if value > best_value:
                best_value = value
                best_set = list(chosen)
            if i == n:
                return
            if banned[i]:
                if not required[i]:
                    leave(i, have, locos, value, prices, live, red)
                return
            if required[i]:
                # Forced: taking a ticket never raises the bound at the same prices, so the child's
                # own check at these prices prunes at least as well as one here would.
                branch(i, have, locos, value, prices, live, red)
                return
            rest = demand[i]
            capped = [h if h < r else r for h, r in zip(have, rest, strict=True)]
            deficit = sum(rest) - sum(capped)
            spare = locos if locos < deficit else deficit
            key = (i, *capped, spare)
            if memo.get(key, -1) >= value:
                return
            memo[key] = value
            # The bound at the parent's prices, over the tickets that could still be taken.
            base = max(prices) * spare + sum(p * h for p, h in zip(prices, capped, strict=True))
            total = base
            kept = []
            for j in live:
                if j < i or banned[j]:
                    continue
                if took:
                    short = 0
                    for c, count in nonzero[j]:
                        if count > capped[c]:
                            short += count - capped[c]
                    if short > spare:
                        continue
                kept.append(j)
                if red[j] > 0:
                    total += red[j]
            live = kept
            if value + total <= best_value:
                return
            prices = list(prices)
            red = list(red)
            _descend(live, red, nonzero, prices, capped, spare, spare > 0)
            base = max(prices) * spare + sum(p * h for p, h in zip(prices, capped, strict=True))
            positive = sum(red[j] for j in live if red[j] > 0)
            gap = value + base + positive - best_value
            if gap <= 0:
                return
            if ties_only(value, base, live, red, best_value):
                return
            fix_in = [j for j in live if red[j] >= gap]
            fix_out = [j for j in live if -red[j] >= gap]
            for j in fix_in:
                required[j] += 1
            for j in fix_out:
                banned[j] += 1
            if fix_out:
                live = [j for j in live if not banned[j]]
            if not banned[i]:
                branch(i, have, locos, value, prices, live, red)
            elif not required[i]:
                leave(i, have, locos, value, prices, live, red)
            for j in fix_in:
                required[j] -= 1
            for j in fix_out:
                banned[j] -= 1

        def branch(i, have, locos, value, prices, live, red) -> None:
            after = list(have)
            short = 0
            for c, count in nonzero[i]:
                used = min(have[c], count)
                after[c] -= used
                short += count - used
            if short <= locos:
                chosen.append(order[i])
                for j in dominating[i]:
                    required[j] += 1
                search(i + 1, after, locos - short, value + w[i], prices, live, red, True)
                for j in dominating[i]:
                    required[j] -= 1
                chosen.pop()
            if not required[i]:
                leave(i, have, locos, value, prices, live, red)

        def leave(i, have, locos, value, prices, live, red) -> None:
            for j in dominated[i]:
                banned[j] += 1
            search(i + 1, have, locos, value, prices, live, red, False)
            for j in dominated[i]:
                banned[j] -= 1

        def ties_only(value, base, live, red, best) -> bool:
            """True if no set in this subtree can beat `best` (checked where the points cannot)."""
            best_points = best >> 59
            # The points alone at the same prices: red_t − low_t is the reduced weight of the points.
            points_bound = base + sum(red[j] - low[j] for j in live if red[j] > low[j])
            top = (value >> 59) + (points_bound >> 59)
            if top > best_points:
                return False
            if top < best_points:
                return True
            # Only sets with exactly best_points points can win. For such a remainder R (needing
            # `need` more points): w(R) = w(R) − θ·(points(R) − need)·2^59 for any θ; at prices
            # (1−θ)·p that is at most (1−θ)·base + θ·need·2^59 + Σ max(0, (1−θ)(red_t − low_t) + low_t).
            need = best_points - (value >> 59)
            scaled = _equality_bound(base, need << 59, [(red[j] - low[j], low[j]) for j in live])
            return _THETA * value + scaled <= _THETA * best

        red = [
            w[j] - sum(p * count for p, count in zip(self.prices, needs[j], strict=True)) for j in range(n)
        ]
        search(0, list(self.have), self.locos, 0, self.prices, list(range(n)), red, True)
        return best_set


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
    "tickets_deck1": N_("points for tickets at the first scoring"),
    "tickets_final": N_("points for completed tickets"),
    "tickets_failed": N_("points lost for failed tickets"),
    "big_cities": N_("Big City bonuses"),
    "big_city_cards": N_("Big City bonus cards"),
    "completed": N_("number of tickets completed"),
    "completed_ids": N_("completed ticket numbers"),
    "failed_ids": N_("failed ticket numbers"),
    "deck": N_("The game ended: the train deck ran out and everyone had a last turn."),
}
