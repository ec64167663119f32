"""Off the Rails greedy AI: cost-to-go tables over (square, facing), simulated runs, best short plan.

It reads only its own seat's view. Two backward shortest-path tables give, for a cart on a square
facing an edge, the cost (tiles to lay, plus a little per step) to reach a delivery (any start square
entered by its inward edge) or a square with gems. A plan for the action phase is: place a cart or
not, lay/upgrade the first k missing tiles of the cart's cheapest route, set its speed; every plan is
simulated step by step (pick-ups, junction choices, derails, rifts, collisions) and valued; the first
action of the best plan is played, and the plan is recomputed at the next decision.
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from rules.engine import AIPlayer, GameState, Move
from rules.off_the_rails import board
from rules.off_the_rails.scoring import delivery_missions
from rules.off_the_rails.state import OffTheRailsState
from rules.search import SearchAI, SearchBudget

INF = 10_000.0
STEP_COST = 0.15  # a step costs a little: speed is limited, and long routes pass other carts
OCCUPIED_COST = 2.0  # a square with a cart on it may free up, but usually costs a turn
PER_ACTION = 0.2  # points one action of route-building is worth
OWN_BLOCK_COST = 1.0  # ending a run facing our own cart: one of them must move away or they collide
GATHER_BONUS = 4.0  # what reaching a deposit is worth to a cart with room: about two gems, delivered


@dataclass(frozen=True)
class Style:
    """How a greedy player weighs its carts' prospects; the defaults are the normal level's.

    `gather_until`: a cart with at most this many gems (and room) still goes for more, a fuller one
    heads home. `chasm_danger` and `danger_step`: the danger of a cart on the board once the chasm is
    open, and what each rift token placed since adds (it costs a share of the cart's 3 points and load,
    and above 2.5 no new cart goes on the board). `min_gain`: what a plan must gain over ending the
    action phase at once.
    """

    gather_until: int = 2
    chasm_danger: float = 2.5
    danger_step: float = 0.3
    min_gain: float = 0.05


NORMAL = Style()
# The hard level's own seat (issue 15): it fills a cart before heading home, fears the chasm less and acts
# on any gain. Alone, with no search, it won 62.2% ± 3.0 of 1,000 2-player games against the normal style
# (seeds 2000-2999, where two normal players share 51.9%), after single changes and pairs were tried on
# 600 other seeds (`gather_until` 3-4 and a lower chasm danger each won; the mission and delivery
# bonuses, route costs, the collapse danger and cart placement changed nothing).
BOLD = Style(gather_until=4, chasm_danger=1.2, danger_step=0.2, min_gain=0.0)


@dataclass
class Sim:
    """A cart being simulated: position, facing, load."""

    square: str
    front: str
    back: str | None
    load: dict[str, int]


# (edges of a tile, edge entered by) -> the edges the cart may leave by
_EXITS: dict[tuple[str, str], tuple[str, ...]] = {
    (edges, via): tuple(e for e in edges if e != via)
    for edges in (*board.TILE_TYPE_OF, "nesw")
    for via in board.EDGES
}
# (square, facing) -> (the square ahead, the edge it is entered by)
_AHEAD: dict[tuple[str, str], tuple[str, str]] = {
    (sq, f): (board.NEIGHBOUR[(sq, f)], board.OPPOSITE[f])  # type: ignore[misc]
    for sq in board.SQUARES
    for f in board.EDGES
    if board.NEIGHBOUR[(sq, f)] is not None
}
# (square, facing f) -> [(via, (pred, g))]: carts that enter `square` by `via` and could then face f
_BEHIND: dict[tuple[str, str], list[tuple[str, tuple[str, str]]]] = {
    (sq, f): [
        (via, (board.NEIGHBOUR[(sq, via)], board.OPPOSITE[via]))  # type: ignore[misc]
        for via in board.EDGES
        if via != f and board.NEIGHBOUR[(sq, via)] is not None
    ]
    for sq in board.SQUARES
    for f in board.EDGES
}


# Cost-to-go tables by board (see Board), the least recently used dropped first. The table home depends
# on the track, rifts and carts' squares; the one to the gems also on which squares hold gems. A table
# takes about 75 KB: 512 of them keep a search's boards (about 40 MB in the hard level's worker).
Table = dict[tuple[str, str], float]
TableKey = tuple[frozenset[Any], ...]
_TABLES: dict[TableKey, Table] = {}
_TABLES_MAX = 512


def _cached_table(key: TableKey, compute: Callable[[], Table]) -> Table:
    table = _TABLES.pop(key, None)
    if table is None:
        table = compute()
        if len(_TABLES) >= _TABLES_MAX:
            del _TABLES[next(iter(_TABLES))]
    _TABLES[key] = table  # (again) the most recently used
    return table

# The tables' searches number the states (square, facing) in sorted order, so a heap of (cost, number)
# pops them in the order a heap of (cost, square, facing) would: the same costs to the last bit.
_STATES: list[tuple[str, str]] = sorted((sq, f) for sq in board.SQUARES for f in board.EDGES)
_NUMBER: dict[tuple[str, str], int] = {s: i for i, s in enumerate(_STATES)}
Edges = tuple[tuple[int, float], ...]
# (square, tile, a cart on it) -> per facing f (in EDGES order): (predecessor, step cost) of the carts
# that enter the square and may then face f, predecessors in the order _BEHIND lists them.
_EDGES: dict[tuple[str, str | None, bool], tuple[Edges, ...]] = {}


def _entry_cost(target: str, via: str, tile: str | None, occupied: bool) -> tuple[float, tuple[str, ...]]:
    """Board.entry's (cost, exits) on a square that is not a centre, a start square or a rift."""
    extra = OCCUPIED_COST if occupied else 0.0
    if tile is None:
        return 1.0 + STEP_COST + extra, _EXITS[("nesw", via)]
    if via in tile:
        return STEP_COST + extra, _EXITS[(tile, via)]
    if occupied:
        return INF, ()
    if len(tile) in (2, 3):
        return 1.0 + STEP_COST, tuple(tile)
    return INF, ()


def _square_edges(square: str, tile: str | None, occupied: bool) -> tuple[Edges, ...]:
    key = (square, tile, occupied)
    found = _EDGES.get(key)
    if found is None:
        found = tuple(
            tuple(
                (_NUMBER[pred], step)
                for via, pred in _BEHIND[(square, f)]
                if (cost := _entry_cost(square, via, tile, occupied))
                and (step := cost[0]) < INF
                and f in cost[1]
            )
            for f in board.EDGES
        )
        _EDGES[key] = found
    return found


# The edges of a board without track, carts or rifts (centres and start squares are never entered
# on the way to a goal: no cart passes through them).
_EMPTY_EDGES: list[Edges] = [()] * len(_STATES)
for _sq in board.SQUARES:
    if _sq in board.CENTRES or _sq in board.START:
        continue
    for _f, _edges in zip(board.EDGES, _square_edges(_sq, None, False), strict=True):
        _EMPTY_EDGES[_NUMBER[(_sq, _f)]] = _edges
# Start square -> the state (square, facing) of a cart about to enter it by its inward edge.
_HOME_SEEDS: list[tuple[str, int]] = [
    (sq, _NUMBER[(pred, board.OPPOSITE[inward])])
    for sq, (_colour, inward) in board.START.items()
    if (pred := board.NEIGHBOUR[(sq, inward)]) is not None
]


def _search(seeds: list[tuple[float, int]], edges: list[Edges]) -> Table:
    """Backward Dijkstra from the seed states (cost of their next entry, which reaches the goal)."""
    heap = list(seeds)
    best = [INF] * len(_STATES)
    for c, i in seeds:
        best[i] = c
    done = [False] * len(_STATES)
    heapq.heapify(heap)
    cost: Table = {}
    pop, push, states = heapq.heappop, heapq.heappush, _STATES
    while heap:
        c, i = pop(heap)
        if done[i]:
            continue
        done[i] = True
        cost[states[i]] = c
        for pred, step in edges[i]:
            if done[pred]:
                continue
            total = c + step
            if total < best[pred]:
                best[pred] = total
                push(heap, (total, pred))
    return cost


class Board:
    """The board as the AI sees it in a view, with what it needs to plan."""

    def __init__(self, view: Mapping[str, Any], seat: int) -> None:
        self.seat = seat
        self.tiles: dict[str, str] = dict(view["tiles"])
        self.gems: dict[str, dict[str, int]] = {k: dict(v) for k, v in view["gems"].items()}
        self.rifts: dict[str, str] = dict(view["rifts"])
        self.carts = [c for c in view["carts"] if c["where"] == "board"]
        self.cart_squares = {c["square"]: c for c in self.carts}
        # Rollouts meet the same boards again and again (every world of a search starts from the same
        # one), and many plans never ask how far the gems are (a full cart, the chasm stage).
        self._key = (frozenset(self.tiles.items()), frozenset(self.rifts), frozenset(self.cart_squares))
        self.home = _cached_table(self._key, self._home_table)
        self._mine: Table | None = None

    @property
    def mine(self) -> Table:
        """Cost-to-go to a square with gems (computed when first asked for)."""
        if self._mine is None:
            self._mine = _cached_table((*self._key, frozenset(self.gems)), self._mine_table)
        return self._mine

    # -- what entering square `target` by edge `via` costs and where the cart may face afterwards

    def entry(self, target: str | None, via: str, goal: str) -> tuple[float, tuple[str, ...], bool]:
        """(cost, exits, goal reached on entering). cost INF = impossible."""
        if target is None or target in board.CENTRES or target in self.rifts:
            return INF, (), False
        if target in board.START:
            if via != board.START[target][1] or target in self.cart_squares:
                return INF, (), False
            return STEP_COST, (), goal == "home"
        extra = OCCUPIED_COST if target in self.cart_squares else 0.0
        tile = self.tiles.get(target)
        reached = goal == "gems" and target in self.gems
        if tile is None:
            return 1.0 + STEP_COST + extra, _EXITS[("nesw", via)], reached
        if via in tile:
            return STEP_COST + extra, _EXITS[(tile, via)], reached
        if target in self.cart_squares:
            return INF, (), False
        if len(tile) in (2, 3):  # upgrade to a T (keeping both edges) or to a cross
            return 1.0 + STEP_COST, tuple(tile), reached
        return INF, (), False

    def _edges(self) -> list[Edges]:
        """The tables' search runs backward over numbered states (square, facing), with each square's
        edges cached by (square, tile, cart on it); it finds the same costs, to the last bit, as
        relaxing `entry` over (square, facing) pairs."""
        edges = list(_EMPTY_EDGES)
        cart_squares = self.cart_squares
        for square in {*self.tiles, *cart_squares, *self.rifts}:
            if square in board.CENTRES or square in board.START:
                continue
            numbers = [_NUMBER[(square, f)] for f in board.EDGES]
            if square in self.rifts:
                for i in numbers:
                    edges[i] = ()
                continue
            square_edges = _square_edges(square, self.tiles.get(square), square in cart_squares)
            for i, edge in zip(numbers, square_edges, strict=True):
                edges[i] = edge
        return edges

    def _home_table(self) -> Table:
        """Cost-to-go for a cart on square S facing edge f to a delivery."""
        seeds = [
            (STEP_COST, i) for sq, i in _HOME_SEEDS if sq not in self.cart_squares and sq not in self.rifts
        ]
        return _search(seeds, self._edges())

    def _mine_table(self) -> Table:
        """Cost-to-go for a cart on square S facing edge f to a square with gems."""
        edges = self._edges()
        gem_seeds = []
        for target in self.gems:
            if target in board.START:
                continue
            for via in board.EDGES:
                pred = board.NEIGHBOUR[(target, via)]
                if pred is None:
                    continue
                c = self.entry(target, via, "gems")[0]
                if c < INF:
                    gem_seeds.append((c, _NUMBER[(pred, board.OPPOSITE[via])]))
            if target not in board.CENTRES:
                for f in board.EDGES:  # a cart passes no square with gems: it stops to load there
                    edges[_NUMBER[(target, f)]] = ()
        return _search(gem_seeds, edges)

    def togo(self, table: dict[tuple[str, str], float], square: str, front: str | None) -> float:
        if front is None:
            return min((table.get((square, f), INF) for f in board.EDGES), default=INF)
        return table.get((square, front), INF)


def _load_value(load: Mapping[str, int]) -> float:
    points = board.GEM_POINTS
    return sum(points[k] * n for k, n in load.items()) + 0.3 * load.get("ruby", 0) + 0.1 * sum(load.values())


class Planner:
    """Evaluates cart positions and simulates runs on a Board."""

    def __init__(self, view: Mapping[str, Any], seat: int, style: Style = NORMAL) -> None:
        self.view = view
        self.seat = seat
        self.style = style
        self.board = Board(view, seat)
        stage = self.stage = view["stage"]
        supply = sum(view["rift_supply"].values())
        # the later in the game, the more a cart on the board risks being lost (3 points) with its load
        self.danger = {"mining": 0.0, "collapse": 1.0, "chasm": style.chasm_danger + (16 - supply) * style.danger_step}[stage]
        self.missions = set(view["face_up"])
        # with at most one token per seat left, our carts do not move again: what stays on the board is lost
        self.last_run = stage == "chasm" and supply <= view["num_seats"]
        # A planner's board does not change, so neither do these; the plans of one decision ask for the
        # same squares again and again (a rollout's greedy decisions spend most of their time here).
        self._potentials: dict[tuple[str, str | None, frozenset[tuple[str, int]]], float] = {}
        self._rift_risks: dict[str, float] = {}

    def potential(self, square: str, front: str | None, load: Mapping[str, int]) -> float:
        """Expected future points from a cart standing here with this load."""
        key = (square, front, frozenset(load.items()))
        value = self._potentials.get(key)
        if value is None:
            value = self._potentials[key] = self._potential(square, front, load)
        return value

    def _potential(self, square: str, front: str | None, load: Mapping[str, int]) -> float:
        b = self.board
        value = _load_value(load)
        home = b.togo(b.home, square, front)
        if self.last_run:
            # Whatever stays on the board is lost; the distance home only steers the junction choices
            # of a run that may still deliver.
            return -3.0 - value - 0.01 * min(home, 100.0)
        count = board.gem_total(dict(load))
        # gems on the board are not banked yet: collisions, derails and the chasm may take them
        # no way home: at best the cart derails later (load lost, cart kept); in the chasm it is likely lost
        stuck = -value - (3.0 if self.stage == "chasm" else 1.5)
        best = stuck if home >= INF else 0.85 * value - PER_ACTION * home
        room = board.CAPACITY - count
        # a cart with more gems than the style gathers heads home (normal: three or more): banked gems are safe
        if room and count <= self.style.gather_until and self.danger < 3:
            gather = b.togo(b.mine, square, front)
            if gather < INF and home < INF:
                bonus = GATHER_BONUS * min(room, 2) / 2
                best = max(best, 0.85 * value + bonus - PER_ACTION * gather - 0.4 * self.danger)
        best -= self.danger * (1.0 + 0.3 * value) / 2
        # where the chasm will open (a mine square) or spread (next to a rift), the cart may fall
        if self.stage == "collapse" and square in board.MINE_SQUARE_LABEL:
            best -= (3.0 + value) / 6
        elif self.stage == "chasm":
            best -= self.rift_risk(square) * (3.0 + value) * 1.5
        return best

    def rift_risk(self, square: str) -> float:
        """Chance that a rift opens on `square` before our next turn.

        A token goes next to a rift of its own colour, and a rival who draws one puts it on our cart:
        only colours still in the rift supply threaten a square, in proportion to their tokens.
        """
        risk = self._rift_risks.get(square)
        if risk is None:
            risk = self._rift_risks[square] = self._rift_risk(square)
        return risk

    def _rift_risk(self, square: str) -> float:
        supply = self.view["rift_supply"]
        total = sum(supply.values())
        if not total:
            return 0.0
        if self.view["options"].get("rift_die"):
            # The die picks a mine square of the colour: no choice, one square in eight.
            label = board.MINE_SQUARE_LABEL.get(square)
            return 0.0 if label is None else supply.get(label[0], 0) / total / 8
        rifts = self.board.rifts
        near = [n for e in board.EDGES if (n := board.NEIGHBOUR[(square, e)]) is not None]
        colours = {rifts[n] for n in near if n in rifts}
        draw = sum(supply.get(c, 0) for c in colours) / total
        # Two squares away, a rift of a colour with two tokens left can arrive in two placements.
        further = {
            rifts[m]
            for n in near
            if n not in rifts
            for e in board.EDGES
            if (m := board.NEIGHBOUR[(n, e)]) in rifts and supply.get(rifts[m], 0) >= 2
        } - colours
        draw += 0.3 * sum(supply.get(c, 0) for c in further) / total
        rivals = self.view["num_seats"] - 1
        return 1.0 - (1.0 - min(draw, 1.0)) ** max(rivals, 1)

    def choose_exit(self, square: str, exits: tuple[str, ...] | list[str], load: Mapping[str, int]) -> str:
        return max(exits, key=lambda e: (self.potential(square, e, load), -board.EDGES.index(e)))

    def simulate(
        self,
        cart: Mapping[str, Any],
        speed: int,
        extra_tiles: Mapping[str, str],
        occupied: Mapping[str, Mapping[str, Any]],
    ) -> tuple[float, str | None, str | None]:
        """Run `cart` at `speed` on the board plus `extra_tiles` with carts on `occupied` squares.

        Returns (value in points, incl. banked ones; the square where the cart ends and the edge it
        faces there, None if off the board).
        """
        b = self.board
        tiles = b.tiles
        sim = Sim(cart["square"], cart["front"], cart["back"], dict(cart["load"]))
        gems: dict[str, dict[str, int]] = {}
        steps = speed
        while steps > 0:
            target = board.NEIGHBOUR[(sim.square, sim.front)]
            via = board.OPPOSITE[sim.front]
            if target is None or target in board.CENTRES:
                return -_load_value(sim.load) - 0.5, None, None
            if target in b.rifts:
                return -3.0 - _load_value(sim.load) * 1.5, None, None
            if target in board.START:
                if via != board.START[target][1]:
                    return -_load_value(sim.load) - 0.5, None, None
                if target in occupied:
                    return (
                        self.potential(sim.square, sim.back, sim.load) + 0.2,
                        sim.square,
                        sim.back,
                    )
                return self._delivery(sim.load, target), None, None
            tile = extra_tiles.get(target) or tiles.get(target)
            if tile is None or via not in tile:
                return -_load_value(sim.load) - 0.5, None, None
            if target in occupied:
                other = occupied[target]
                if other["seat"] != self.seat:
                    bonus = 0.6 if other["load"] else 0.3
                else:  # hitting our own cart costs it gems or derails it
                    bonus = -2.0 - 0.6 * _load_value(other["load"])
                return self.potential(sim.square, sim.back, sim.load) + bonus, sim.square, sim.back
            sim.back, sim.square = via, target
            steps -= 1
            take = min(2 if steps == 0 else 1, board.CAPACITY - board.gem_total(sim.load))
            here = dict(gems.get(target) or b.gems.get(target, {}))
            while take > 0 and here:
                kind = "rock" if "rock" in here else max(here, key=lambda k: board.GEM_POINTS[k])
                here[kind] -= 1
                if not here[kind]:
                    del here[kind]
                sim.load[kind] = sim.load.get(kind, 0) + 1
                take -= 1
            gems[target] = here
            exits = [e for e in tile if e != via]
            sim.front = exits[0] if len(exits) == 1 else self.choose_exit(target, exits, sim.load)
        return self.potential(sim.square, sim.front, sim.load), sim.square, sim.front

    def run_all(self, carts: list[dict[str, Any]], extra_tiles: Mapping[str, str]) -> float:
        """Value of running all our `carts` (at their speeds), in the better of the two orders (we pick it)."""
        return max(self.run_in_order(order, extra_tiles) for order in run_orders(carts))

    def run_in_order(self, ordered: list[dict[str, Any]], extra_tiles: Mapping[str, str]) -> float:
        """Value of running our carts one after the other in this order."""
        carts = ordered
        occupied = {c["square"]: c for c in self.board.carts if c["seat"] != self.seat}
        for c in carts:
            occupied[c["square"]] = c
        total = 0.0
        for cart in ordered:
            del occupied[cart["square"]]
            value, end, front = self.simulate(cart, cart["speed"], extra_tiles, occupied)
            total += value
            if end is not None:
                occupied[end] = dict(cart, square=end, front=front)
        ours = [c for c in occupied.values() if c["seat"] == self.seat]
        for cart in ours:
            # A cart left facing our other cart runs into it next turn unless that one moves off first.
            ahead = board.NEIGHBOUR[(cart["square"], cart["front"])] if cart["front"] else None
            if any(other is not cart and other["square"] == ahead for other in ours):
                total -= OWN_BLOCK_COST
        return total

    def _delivery(self, load: Mapping[str, int], square: str) -> float:
        value = _load_value(load) + 0.2 * self.danger
        if not board.gem_total(dict(load)):
            return 0.1 * self.danger
        colours = self.view["colours"]
        met = delivery_missions(load, board.START[square][0], colours, colours[self.seat])
        if any(m in self.missions for m in met):
            value += 3.0
        return value + 1.0

    def escapes(self, cart: Mapping[str, Any]) -> list[tuple[str, str, str]]:
        """Upgrades of a tile on the track ahead of the cart: a way to turn off (or derail) before a rift."""
        b = self.board
        out: list[tuple[str, str, str]] = []
        square, front = cart["square"], cart["front"]
        for _ in range(board.MAX_SPEED):
            target = board.NEIGHBOUR[(square, front)]
            via = board.OPPOSITE[front]
            tile = b.tiles.get(target) if target else None
            if tile is None or via not in tile or target in b.cart_squares:
                break
            if len(tile) == 2:
                out.extend(
                    ("upgrade", target, new)
                    for new in board.UPGRADES
                    if len(new) == 3 and set(tile) < set(new)
                )
            elif len(tile) == 3:
                out.append(("upgrade", target, "nesw"))
            exits = [e for e in tile if e != via]
            if len(exits) != 1:
                break
            square, front = target, exits[0]
        return out

    def route(self, cart: Mapping[str, Any], limit: int) -> list[tuple[str, str, str]]:
        """The first `limit` tiles to build on the cart's best route: (verb, square, edges)."""
        b = self.board
        load = cart["load"]
        square, front = cart["square"], cart["front"]
        built: list[tuple[str, str, str]] = []
        seen = set()
        for _ in range(40):
            if len(built) >= limit or (square, front) in seen:
                break
            seen.add((square, front))
            target = board.NEIGHBOUR[(square, front)]
            via = board.OPPOSITE[front]
            if target is None or target in board.START or target in board.CENTRES or target in b.rifts:
                break
            if target in b.cart_squares:
                break
            tile = b.tiles.get(target)
            if tile is not None and via in tile:
                exits = tuple(e for e in tile if e != via)
                nxt = self.choose_exit(target, exits, load)
            else:
                if tile is None:
                    exits = tuple(e for e in board.EDGES if e != via)
                elif len(tile) in (2, 3):
                    exits = tuple(tile)
                else:
                    break
                # New track never points straight at a cart: that only builds a collision.
                clear = tuple(e for e in exits if board.NEIGHBOUR[(target, e)] not in b.cart_squares)
                nxt = self.choose_exit(target, clear or exits, load)
                # Late in the chasm every square looks bad; a route is still worth building if it
                # leads home (a delivery banks the load before the cart is lost).
                hopeless = b.togo(b.home, target, nxt) >= INF
                if hopeless if self.stage == "chasm" else self.potential(target, nxt, load) <= -3:
                    break
                if tile is None:
                    built.append(("lay", target, board.sort_edges(via + nxt)))
                else:
                    built.append(("upgrade", target, board.sort_edges(tile + via)))
            square, front = target, nxt
        return built


class GreedyAI(AIPlayer):
    name = "greedy"

    def __init__(self, style: Style = NORMAL) -> None:
        self.style = style
        self.first_gains: dict[str, float] = {}  # first actions of the last action-phase plans, for rank()

    def rank(self, view: dict[str, Any], legal: list[Move], rng: random.Random) -> list[Move]:
        """Moves from best to worst for the hard level's shortlist: its choice, then the first actions
        of its other plans by their value; any other move only after those."""
        self.first_gains = {}
        first = self.choose(view, legal, rng)
        texts = {m.text: m for m in legal}  # type: ignore[attr-defined]
        planned = [texts[t] for t, _ in sorted(self.first_gains.items(), key=lambda kv: -kv[1]) if t in texts]
        if "end" in texts:
            planned.append(texts["end"])
        rest = [m for m in legal if m != first and m not in planned] if view["phase"] != "action" else []
        return list(dict.fromkeys([first, *planned, *rest]))

    def choose(self, view: dict[str, Any], legal: list[Move], rng: random.Random) -> Move:
        seat = view["seat"]
        texts = {m.text: m for m in legal}  # type: ignore[attr-defined]
        phase = view["phase"]
        if phase == "action":
            return texts.get(self._action(view, seat, texts), legal[0])
        if phase == "take":
            return max(legal, key=lambda m: board.GEM_POINTS[str(m).split()[1]])
        if phase == "go":
            return texts[f"go {self._direction(view, seat, legal)}"]
        if phase == "split":
            return self._split(view, seat, legal, rng)
        if phase == "pick":
            # The picker cannot see the hands: a fair coin leaves a splitter nothing to exploit.
            return texts["pick left"] if rng.random() < 0.5 else texts["pick right"]
        if phase == "rift":
            return max(legal, key=lambda m: self._rift_value(view, seat, str(m).split()[1]))
        if phase == "run":
            return self._run_order(view, seat, legal, texts)
        return legal[0]  # claim: any mission is worth the same

    def _run_order(self, view: Mapping[str, Any], seat: int, legal: list[Move], texts: Mapping[str, Move]) -> Move:
        # The same comparison the action phase planned with, so the carts run as planned.
        planner = Planner(view, seat, self.style)
        mine = [dict(c) for c in view["carts"] if c["seat"] == seat and c["where"] == "board"]
        best = max(run_orders(mine), key=lambda order: planner.run_in_order(order, {}))
        return texts.get(f"run {best[0]['name']}", legal[0])

    @staticmethod
    def _split(view: Mapping[str, Any], seat: int, legal: list[Move], rng: random.Random) -> Move:
        """Hands as even in points as possible (the picked one drops), ties broken at random.

        Against a picker who tosses a coin every split loses half the points on average; even hands
        also leave a picker who reads our habits nothing to gain.
        """
        mine = next(
            c
            for c in view["carts"]
            if c["seat"] == seat
            and c["where"] == "board"
            and c["name"] == (view["pending"] or {}).get("hit_cart")
        )
        total = board.gem_value(dict(mine["load"]))

        def imbalance(move: Move) -> int:
            left = sum(board.GEM_POINTS[g] for g in str(move).split()[1:])
            return abs(2 * left - total)

        fewest = min(imbalance(m) for m in legal)
        return rng.choice([m for m in legal if imbalance(m) == fewest])

    def _direction(self, view: Mapping[str, Any], seat: int, legal: list[Move]) -> str:
        """The exit whose rest of the run (with the steps left, past every cart) is worth most."""
        planner = Planner(view, seat, self.style)
        mine = next(c for c in view["carts"] if c["seat"] == seat and c["choosing"])
        steps = (view["moving"] or {}).get("steps_left", 0)
        occupied = {
            c["square"]: c for c in planner.board.carts if c is not mine and c["square"] != mine["square"]
        }
        exits = [str(m).split()[1] for m in legal]

        def value(edge: str) -> tuple[float, int]:
            cart = dict(mine, front=edge)
            if steps <= 0:
                return planner.potential(mine["square"], edge, mine["load"]), -board.EDGES.index(edge)
            return planner.simulate(cart, steps, {}, occupied)[0], -board.EDGES.index(edge)

        return max(exits, key=value)

    @staticmethod
    def _rift_value(view: Mapping[str, Any], seat: int, square: str) -> float:
        value = 0.0
        for cart in view["carts"]:
            if cart["where"] != "board":
                continue
            near = cart["square"] == square
            adjacent = any(board.NEIGHBOUR[(cart["square"], e)] == square for e in board.EDGES)
            sign = -1 if cart["seat"] == seat else 1
            value += sign * (10 if near else 2 if adjacent else 0)
        return value

    def _action(self, view: Mapping[str, Any], seat: int, texts: Mapping[str, Move]) -> str:
        planner = Planner(view, seat, self.style)
        left = view["actions_max"] - view["actions_used"]
        colour = view["colours"][seat]
        mine = [c for c in view["carts"] if c["seat"] == seat]
        on_board = [dict(c) for c in mine if c["where"] == "board"]
        baseline = planner.run_all(on_board, {})
        best_gain, best_first = self.style.min_gain, "end"

        def consider(
            cart: dict[str, Any], others: list[dict[str, Any]], first: list[str], budget: int
        ) -> None:
            nonlocal best_gain, best_first
            route = planner.route(cart, budget)
            builds = [route[:k] for k in range(len(route) + 1)]
            if not first and budget >= 1:
                builds += [[b] for b in planner.escapes(cart)]
            for build in builds:
                extra = {sq: e for _v, sq, e in build}
                spare = budget - len(build)
                for speed in range(board.MIN_SPEED, board.MAX_SPEED + 1):
                    change = abs(speed - cart["speed"])
                    if change > spare:
                        continue
                    value = planner.run_all([*others, dict(cart, speed=speed)], extra)
                    gain = value - baseline - 0.01 * (len(first) + len(build) + change)
                    acts = list(first) + [f"{v} {sq} {e}" for v, sq, e in build]
                    direction = "up" if speed > cart["speed"] else "down"
                    acts += [f"speed {cart['name']} {direction}"] * change
                    if acts and acts[0] in texts:
                        self.first_gains[acts[0]] = max(gain, self.first_gains.get(acts[0], -INF))
                        if gain > best_gain:
                            best_gain, best_first = gain, acts[0]

        if left > 0:
            for cart in on_board:
                consider(cart, [c for c in on_board if c is not cart], [], left)
            if planner.danger < 2.5:
                occupied = {c["square"] for c in view["carts"] if c["where"] == "board"}
                reserve = [c for c in mine if c["where"] == "reserve"]
                if reserve:
                    name = reserve[0]["name"]  # both reserve carts are alike
                    for square in board.START_OF_COLOUR[colour]:
                        if square in occupied:
                            continue
                        placed = {
                            "seat": seat,
                            "name": name,
                            "square": square,
                            "back": None,
                            "front": board.START[square][1],
                            "speed": board.START_SPEED,
                            "load": {},
                        }
                        consider(placed, on_board, [f"cart {name} {square}"], left - 1)
        return best_first


def run_orders(carts: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The orders our carts may run in (by name, so the plan and the run decision agree)."""
    ordered = sorted(carts, key=lambda c: c["name"])
    return [ordered, ordered[::-1]] if len(ordered) == 2 else [ordered]


SCORE_SCALE = 8.0  # a typical winning margin in points


def estimate(state: GameState, seat: int) -> float:
    """A cut-off rollout judged by each seat's banked score plus what its carts on the board promise.

    A cart on the board is worth most of its 3 points (it may still be lost) plus the greedy planner's
    `potential` of its square, facing and load: the load most likely delivered, less the tiles still
    missing on its way home, or the gems it can still reach. Tiles laid towards a delivery thus count
    before the cart has run on them; on the last run, what stays on the board is lost and worth nothing.
    """
    assert isinstance(state, OffTheRailsState)
    scores = [float(sum(b.values())) for b in state.score_breakdowns()]
    planners: dict[int, Planner] = {}
    for cart in state.carts_on_board():
        planner = planners.get(cart.seat)
        if planner is None:
            planner = planners[cart.seat] = Planner(state.view(cart.seat), cart.seat)
        if planner.last_run:
            continue
        scores[cart.seat] += 0.8 * board.CART_POINTS + planner.potential(cart.square, cart.front, dict(cart.load))
    mine = scores[seat]
    lead = mine - max(s for i, s in enumerate(scores) if i != seat)
    # Smooth where `margin_value` steps: mid-game, a small lead is only a slightly better chance to win.
    return 0.5 * (1.0 + math.tanh(lead / SCORE_SCALE)) + math.tanh(lead / SCORE_SCALE)


def next_turn(root: GameState, world: GameState) -> bool:
    """Rollouts stop when the seat's next turn begins: every candidate (even `end`, which skips ahead)
    is judged at the same point of the game, after its own run and every rival's turn."""
    assert isinstance(root, OffTheRailsState) and isinstance(world, OffTheRailsState)
    return world.phase == "action" and world.actions_used == 0 and world.turn >= root.turn + root.num_seats


def next_turn_while_mining(root: GameState, world: GameState) -> bool:
    """`next_turn` while the mines are open; once the collapse card is out, rollouts play to the end.

    The end is then a few rounds away and `estimate` is a poor judge there: full greedy games from the
    positions where a search judged by it left the greedy move showed it ending turns where the greedy
    put a cart on the board (in one, -0.6 wins and -8 points), while its switches in the mining stage
    were mostly right (issue 15)."""
    assert isinstance(root, OffTheRailsState)
    return not endgame(root) and next_turn(root, world)


# With 3 or more seats, the deck's last three layers (4 cards each, the collapse card among the first of
# the last two): rollouts play to the end from there, as after the collapse card (see hard_ai). In the
# first of those layers (more than CLOSE_DECK cards left) a rollout is longest, so a decision gets fewer.
ENDGAME_DECK = 3 * len(board.COLOURS) + 1
CLOSE_DECK = 2 * len(board.COLOURS) + 1


def endgame(state: OffTheRailsState) -> bool:
    """Whether the hard level's rollouts play to the end of the game: once the collapse card is out,
    and with 3 or more seats already from the deck's last three layers (the deck's size is public)."""
    return state.stage != "mining" or (state.num_seats >= 3 and len(state.deck) <= ENDGAME_DECK)


def _by_seats(budgets: SearchBudget | Mapping[int, SearchBudget]) -> dict[int, SearchBudget]:
    return {1: budgets} if isinstance(budgets, SearchBudget) else dict(budgets)


class HardAI(SearchAI):
    """The search with a budget by stage: more rollouts to the next turn while mining, fewer (each a
    whole rest of the game) after the collapse card, so a decision stays around a second at most.
    `early` (default: `late`) is the budget of the `endgame` decisions before the deck's last two layers,
    whose rollouts are the longest. A stage's budget may depend on the table's size: {seats: budget},
    the entry for the most seats up to the table's (or the smallest) applies."""

    def __init__(
        self,
        mining: SearchBudget | Mapping[int, SearchBudget],
        late: SearchBudget | Mapping[int, SearchBudget],
        early: SearchBudget | Mapping[int, SearchBudget] | None = None,
        **kwargs: Any,
    ) -> None:
        self.mining_budgets = _by_seats(mining)
        self.late_budgets = _by_seats(late)
        self.early_budgets = self.late_budgets if early is None else _by_seats(early)
        super().__init__(GreedyAI, self.mining_budgets[min(self.mining_budgets)], **kwargs)

    def budget_for(self, state: GameState) -> SearchBudget:
        assert isinstance(state, OffTheRailsState)
        if not endgame(state):
            budgets = self.mining_budgets
        elif state.stage == "mining" and len(state.deck) > CLOSE_DECK:
            budgets = self.early_budgets
        else:
            budgets = self.late_budgets
        fitting = [n for n in budgets if n <= state.num_seats]
        return budgets[max(fitting) if fitting else min(budgets)]


def hard_ai() -> SearchAI:
    """The hard level: greedy rollouts to the seat's next turn while mining (a greedy decision costs
    ~2 ms, less with the cached tables), judged by `estimate`; to the end of the game once the chasm is
    coming. The horizon only caps a rollout that never gets there.

    Full greedy games (24-32 per move, in worlds the seat could be in) from positions where a search
    would leave the greedy move judged its switches:
    - after the collapse card, where rollouts play to the end against rivals who play as they do, a
      paired gain of 0.75 to 2 standard errors was right in 16 of 18 positions (2 and 4 players; the
      two below 0.5 lost badly): 0.75 is enough there;
    - while mining, judged by `estimate` at the next turn, switches were right about as often as wrong
      with 2 players and wrong in all 6 positions with 4 (2p vs normal without them: 105.5 of 170
      games on seeds 50000-50169, as many as with them);
    - with 4 players, rollouts to the end from the last two layers of the deck (before the collapse
      card) switched rightly in 19 of 21 positions (the 2 others lost little); from the layer before
      those (judged by 100 such games each), 17 of 23 switches gained (13 clearly, none clearly lost)
      with 14 rollouts (seeds 20000-20014), and 9 of 12 with the 8 it gets (one clearly lost; seeds
      20000-20007).
    So the hard level plays the greedy move while mining (with 3 or more seats until the deck's last
    three layers, `endgame`), then searches to the end with 12 rollouts (each plays three rivals' turns;
    16 took up to 2.0 s before the planner's caches), 8 between 2 candidates in the first of those
    layers (its rollouts are the longest: 12 took up to 1.6 s), 20 with 2 seats (22 took up to 2.03 s
    once its own seat played bold: its carts stay on the board longer, so rollouts run longer).

    Its own seat plays the `BOLD` style (its move while mining, the shortlist later); the rollouts still
    expect every seat to play the normal one.
    """
    late = SearchBudget(rollouts=20, candidates=3, horizon=400, switch_z=0.75)
    return HardAI(
        {1: SearchBudget(rollouts=0, candidates=1)},
        {1: late, 3: replace(late, rollouts=12)},
        {1: late, 3: replace(late, rollouts=8, candidates=2)},
        evaluate=estimate,
        score_scale=SCORE_SCALE,
        stop=next_turn_while_mining,
        # Rollouts part ways at the first different action (deck draws, rifts and runs follow other
        # paths), so common random numbers cancel little: switch only on a paired gain of 2 standard errors.
        switch_z=2.0,
        lead=partial(GreedyAI, BOLD),
    )
