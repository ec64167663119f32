"""Santa Fe greedy AI: play the city cards the railroads will reach, and build toward its own cities."""

from __future__ import annotations

import heapq
import random
from typing import Any

from rules.engine import AIPlayer, GameState, Move
from rules.santa_fe.board import BOARD, RAILROADS
from rules.santa_fe.moves import Branch, BuyTile, Draw, EngineerChoice, Exchange, Lay, Pass, Play
from rules.santa_fe.state import SantaFeState
from rules.search import SearchAI, SearchBudget, margin_value

DECAY = 0.8  # how much a city one more tile away is worth, per tile
HAND_WEIGHT = 0.8  # cards in hand will most likely be played later
RIVAL_WEIGHT = 0.25  # connecting a rival's played city helps the rival
# A bought tile was paid for and is worth nothing unlaid: lay it unless it costs more than this.
KEEP_GOING = 2.0
# A lane left one space short of a new city hands its bonus to the next seat; about this share of
# that bonus is lost (the next seat may not take it, or may be us in a later pass).
OPEN_BONUS_SHARE = 0.9
ENGINEER_ROUNDS = 4  # a free engineer in the draw pays back its lost hand card only early on
BUY_TILES_AT = 8  # tile buying: buy once the supply per seat falls below this (the bought phase is near)


# city -> (section, other end, spaces) for every section there
_EDGES: dict[str, list[tuple[int, str, int]]] = {
    city: [(sid, BOARD.sections[sid].other(city), BOARD.sections[sid].spaces) for sid in sids]
    for city, sids in BOARD.at_city.items()
}


class Model:
    """The board as the AI sees it in a view: which lanes are taken and where the railheads are."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.taken: dict[int, list[str]] = {}  # section -> railroads holding a lane
        self.lane_tiles: dict[tuple[int, int], tuple[str, str, int]] = {}
        for lane in view["lanes"]:
            self.taken.setdefault(lane["section"], []).append(lane["rr"])
            self.lane_tiles[(lane["section"], lane["lane"])] = (lane["rr"], lane["from"], lane["tiles"])
        self.lines: dict[str, list[dict[str, Any]]] = {
            rr: [dict(h) for h in view["lines"][rr]] for rr in RAILROADS
        }
        self.connected: dict[str, set[str]] = {rr: set(view["connected"][rr]) for rr in RAILROADS}
        self.supply: dict[str, int] = dict(view["supply"])

    def blocked(self, rr: str) -> set[int]:
        """Sections rr cannot enter: it holds a lane there, or every lane is taken."""
        return {
            sid
            for sid, holders in self.taken.items()
            if rr in holders or len(holders) >= BOARD.sections[sid].lanes
        }

    def distances(self, rr: str) -> dict[str, int]:
        """Fewest tiles for rr to connect each city (through sections still open to it)."""
        blocked = self.blocked(rr)
        best: dict[str, int] = {}
        queue: list[tuple[int, str]] = [(0, city) for city in self.connected[rr]]
        for head in self.lines[rr]:
            if "toward" in head:
                spaces = BOARD.sections[head["section"]].spaces
                queue.append((spaces - head["tiles"], head["toward"]))
        heapq.heapify(queue)
        heads = {h["at"] for h in self.lines[rr] if "at" in h}
        while queue:
            dist, city = heapq.heappop(queue)
            if city in best:
                continue
            best[city] = dist
            # A connected city without a railhead needs a branch card to build from: skip it.
            if dist == 0 and city not in heads:
                continue
            for sid, other, spaces in _EDGES[city]:
                if sid not in blocked and other not in best:
                    heapq.heappush(queue, (dist + spaces, other))
        return best

    def reach(self, rr: str) -> dict[str, float]:
        """Chance-like weight that rr ends up at each city."""
        limit = self.supply[rr]
        return {
            city: (1.0 if dist == 0 else DECAY**dist)
            for city, dist in self.distances(rr).items()
            if dist == 0 or dist <= limit
        }


def _worth(cards: list[tuple[str, float]], reach: dict[str, dict[str, float]]) -> float:
    return sum(
        weight * BOARD.cities[city].value * sum(r.get(city, 0.0) for r in reach.values())
        for city, weight in cards
    )


class GreedyAI(AIPlayer):
    """One-move lookahead on money plus the expected value of its own city cards."""

    name = "greedy"

    def __init__(self) -> None:
        self.last_gains: list[tuple[float, Move]] = []  # the placements of the last choice, for rank()

    def choose(self, view: dict[str, Any], legal: list[Move], rng: random.Random) -> Move:
        first = legal[0]
        if len(legal) == 1:
            return first
        if isinstance(first, EngineerChoice):
            # $4 of the $5 start leaves nothing to lay with; a free engineer comes in the first draw.
            return EngineerChoice(False) if EngineerChoice(False) in legal else first
        if isinstance(first, Draw):
            return self._draw(view, legal)
        model = Model(view)
        reach = {rr: model.reach(rr) for rr in RAILROADS}
        if isinstance(first, BuyTile):
            return self._buy(view, legal, model)
        if isinstance(first, Play):
            return self._play(view, legal, reach)
        if isinstance(first, Exchange):
            return self._exchange(view, legal, reach)
        return self._place(view, legal, model, reach, rng)

    def rank(self, view: dict[str, Any], legal: list[Move], rng: random.Random) -> list[Move]:
        """Moves from best to worst for the hard level's shortlist: its choice, then placements by gain."""
        self.last_gains = []
        first = self.choose(view, legal, rng)
        placements = [m for _, m in sorted(self.last_gains, key=lambda g: -g[0])]
        rest = [m for m in legal if m != first and m not in placements]
        rng.shuffle(rest)
        return [first, *(m for m in placements if m != first), *rest]

    @staticmethod
    def _card_value(city: str, reach: dict[str, dict[str, float]]) -> float:
        return BOARD.cities[city].value * sum(r.get(city, 0.0) for r in reach.values())

    def _play(self, view: dict[str, Any], legal: list[Move], reach: dict[str, dict[str, float]]) -> Move:
        best: Move = legal[0]
        best_score = -1.0
        for move in legal:
            assert isinstance(move, Play)
            # A double-turn card: two placements per pass and doubled bonuses, worth about $3.
            score = 3.0 if move.card == "double" else self._card_value(move.card, reach)
            if score > best_score:
                best, best_score = move, score
        return best

    def _exchange(self, view: dict[str, Any], legal: list[Move], reach: dict[str, dict[str, float]]) -> Move:
        junk = sorted(c["city"] for c in view["hand"] if self._card_value(c["city"], reach) < 1.5)
        while junk:
            move = Exchange(tuple(junk))
            if move in legal:
                return move
            junk.pop()
        return Exchange(())

    @staticmethod
    def _draw(view: dict[str, Any], legal: list[Move]) -> Move:
        me = view["seats"][view["seat"]]
        # Rivers cost $1 a space without an engineer; early on many spaces are still to come.
        if Draw("engineer") in legal and view["round"] <= ENGINEER_ROUNDS:
            return Draw("engineer")
        if me["hand_dt"] == 0 and Draw("double") in legal and me["hand_cities"] >= 3:
            return Draw("double")
        if Draw("city") in legal:
            return Draw("city")
        if Draw("double") in legal:
            return Draw("double")
        # Only paid branch cards (or stopping) are left: a branch card is worth its price only with money to spare.
        free = [m for m in legal if not (isinstance(m, Draw) and m.kind == "branch")]
        if free and me["money"] < 6:
            return free[0]
        return legal[0]

    def _buy(self, view: dict[str, Any], legal: list[Move], model: Model) -> Move:
        """Tile buying: a bought tile only counts once every supply is empty, so buy late, where it helps."""
        seat = view["seat"]
        me = view["seats"][seat]
        supply_left = sum(view["supply"].values())
        if me["money"] < 3 or supply_left >= BUY_TILES_AT * len(view["seats"]):
            return BuyTile(None)
        mine = {c["city"] for c in me["played"]} | {c["city"] for c in view["hand"]}
        best: Move = BuyTile(None)
        best_need = 0.0
        for move in legal:
            if not isinstance(move, BuyTile) or move.rr is None:
                continue
            # Worth buying where the railroad can still get to a city we hold and no railroad has yet.
            distances = model.distances(move.rr)
            need = sum(
                BOARD.cities[city].value / (1 + dist)
                for city, dist in distances.items()
                if dist > 0 and (city in mine or not any(city in c for c in model.connected.values()))
            )
            if need > best_need:
                best, best_need = move, need
        return best

    def _place(
        self,
        view: dict[str, Any],
        legal: list[Move],
        model: Model,
        reach: dict[str, dict[str, float]],
        rng: random.Random,
    ) -> Move:
        seat = view["seat"]
        me = view["seats"][seat]
        mine = [(c["city"], 1.0) for c in me["played"]] + [(c["city"], HAND_WEIGHT) for c in view["hand"]]
        rivals = [(c["city"], RIVAL_WEIGHT) for s in view["seats"] if s["seat"] != seat for c in s["played"]]
        multiplier = 2 if (me["play"] or {}).get("double") else 1
        reached_by_any = {c for rr in RAILROADS for c in model.connected[rr] if BOARD.cities[c].value}
        base = _worth(mine, reach) - _worth(rivals, reach)
        later_dt = self._later_double(view)
        self.last_gains: list[tuple[float, Move]] = []
        best: Move | None = None
        best_gain = float("-inf")
        for move in legal:
            if not isinstance(move, Lay | Branch):
                continue
            sid, from_city, index = self._target(model, move)
            section = BOARD.sections[sid]
            far = section.other(from_city)
            money = -self._cost(view, sid, from_city, index)
            after = self._after(model, move, sid, from_city, index)
            if far not in model.connected[move.rr]:
                bonus = (2 if BOARD.cities[far].value and far not in reached_by_any else 0) + (
                    4 if BOARD.railroads[move.rr].bonus_city == far else 0
                )
                left = section.spaces - index - 1
                if left == 0:
                    money += bonus * multiplier
                elif left == 1 and view["placements_left"] >= 2 and model.supply[move.rr] >= 2:
                    # A double-turn card's second placement finishes the lane and takes the doubled
                    # bonus: a first tile that only walks up to it is not worth nothing (issue 27).
                    finish = self._cost(view, sid, from_city, index + 1)
                    if me["money"] + money >= finish:
                        money += max(0, bonus * multiplier - finish)
                elif view["placements_left"] <= 1 and (left == 1 or (left == 2 and later_dt)):
                    # The next seat finishes the lane and takes the bonus we walked up to.
                    share = OPEN_BONUS_SHARE if left == 1 else OPEN_BONUS_SHARE / 2
                    money -= bonus * share * (2 if later_dt else 1)
            new_reach = dict(reach)
            new_reach[move.rr] = after.reach(move.rr)
            gain = money + _worth(mine, new_reach) - _worth(rivals, new_reach) - base + rng.random() * 1e-3
            self.last_gains.append((gain, move))
            if gain > best_gain:
                best, best_gain = move, gain
        if Pass() not in legal:
            return best if best is not None else legal[0]
        if best is None:
            return Pass()
        return best if best_gain > -self._pass_threshold(view) else Pass()

    @staticmethod
    def _later_double(view: dict[str, Any]) -> bool:
        """Does a seat still to lay in this pass have two placements (a double-turn card)?"""
        n = len(view["seats"])
        current = view["current"]
        if current is None:
            return False
        later = (current - view["first_player"]) % n + 1
        for k in range(later, n):
            play = view["seats"][(view["first_player"] + k) % n]["play"] or {}
            if play.get("double"):
                return True
        return False

    @staticmethod
    def _pass_threshold(view: dict[str, Any]) -> float:
        """How much a placement may lose before passing beats it."""
        if view["bought_phase"]:
            # A bought tile was paid for and is worth nothing unlaid.
            return KEEP_GOING
        seat = view["seat"]
        mine = view["seats"][seat]["score"]
        rivals = max(s["score"] for s in view["seats"] if s["seat"] != seat)
        # Ahead, an ending by everyone passing is welcome (when no tile gains). Behind or level, it
        # loses the game, which is worse than any tile: the game must go on.
        return 0.0 if mine > rivals else float("inf")

    @staticmethod
    def _target(model: Model, move: Lay | Branch) -> tuple[int, str, int]:
        """(section, from_city, space index) the tile goes to; the move is legal."""
        if isinstance(move, Lay):
            head = model.lines[move.rr][move.line - 1]
            if "toward" in head:
                return head["section"], head["from"], head["tiles"]
            start = head["at"]
        else:
            start = move.start
        return BOARD.between[frozenset((start, move.city))], start, 0

    @staticmethod
    def _cost(view: dict[str, Any], sid: int, from_city: str, index: int) -> int:
        if not view["options"]["advanced"]:
            return 0
        terrain = BOARD.sections[sid].terrain_from(from_city, index)
        engineer = view["seats"][view["seat"]]["engineer"]
        return (BOARD.terrain_cost_engineer if engineer else BOARD.terrain_cost)[terrain]

    @staticmethod
    def _after(model: Model, move: Lay | Branch, sid: int, from_city: str, index: int) -> Model:
        """A shallow copy of the model with the move's tile laid (only what distances read)."""
        after = Model.__new__(Model)
        after.taken = dict(model.taken)
        after.lane_tiles = model.lane_tiles
        after.connected = dict(model.connected)
        after.supply = dict(model.supply)
        after.supply[move.rr] -= 1
        lines = [dict(h) for h in model.lines[move.rr]]
        after.lines = dict(model.lines)
        after.lines[move.rr] = lines
        section = BOARD.sections[sid]
        far = section.other(from_city)
        if index == 0:
            after.taken[sid] = [*model.taken.get(sid, []), move.rr]
        if isinstance(move, Branch):
            lines.append({"at": move.start})
            number = len(lines)
        else:
            number = move.line
        if index + 1 == section.spaces:
            lines[number - 1] = {"at": far}
            after.connected[move.rr] = model.connected[move.rr] | {far}
        else:
            lines[number - 1] = {"section": sid, "from": from_city, "toward": far, "tiles": index + 1}
        return after


def estimate(state: GameState, seat: int) -> float:
    """A cut-off rollout judged by money plus each played card at the railroads expected to reach it."""
    assert isinstance(state, SantaFeState)
    model = Model(state.view(None))
    reach = {rr: model.reach(rr) for rr in RAILROADS}
    scores = [
        state.money[s] + _worth([(c, 1.0) for c in state.played[s]], reach) for s in range(state.num_seats)
    ]
    return margin_value(scores, seat, SCORE_SCALE)


SCORE_SCALE = 15.0  # a typical winning margin in dollars


def hard_ai() -> SearchAI:
    """The hard level: greedy rollouts of about two rounds (a greedy decision costs ~1 ms), then `estimate`."""
    return SearchAI(
        GreedyAI,
        SearchBudget(rollouts=32, candidates=5, horizon=32),
        evaluate=estimate,
        score_scale=SCORE_SCALE,
    )
