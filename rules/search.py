"""The "hard" AI level: compares a shortlist of moves by rollouts in sampled worlds, never reading a secret."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rules.engine import AIPlayer, GameState, Move, Result

# How a search scores a finished or cut-off rollout for its seat: larger is better, about -1..2.
Evaluate = Callable[[GameState, int], float]
# Where a rollout from `root` may stop early, given (root, world): a quiet point the same distance into
# the game for every candidate (e.g. the start of the seat's next turn), where `evaluate` judges it.
Stop = Callable[[GameState, GameState], bool]


class Ranker(Protocol):
    """A policy that can also order moves from best to worst for the shortlist (optional)."""

    def rank(self, view: dict[str, Any], legal: list[Move], rng: random.Random) -> list[Move]: ...


@dataclass(frozen=True)
class SearchBudget:
    """How much a decision may cost, in rollouts rather than seconds so choices are reproducible.

    `rollouts` is spent by sequential halving over `candidates` moves; `horizon` cuts each rollout after
    that many decisions (None: play to the end), where the game's `evaluate` must judge the position.
    With `seats`, `rollouts` is meant for a table of that many seats: a rollout that plays every rival's
    turn costs more with more rivals, so a bigger table gets proportionally fewer (at least one per
    candidate). With `switch_z`, it replaces the search's own `switch_z` for these decisions (a game
    whose stages judge rollouts differently may trust some more than others).
    """

    rollouts: int = 48
    candidates: int = 6
    horizon: int | None = None
    seats: int | None = None
    switch_z: float | None = None

    def rollouts_for(self, num_seats: int) -> int:
        if self.seats is None or num_seats <= self.seats:
            return self.rollouts
        return max(self.candidates, self.rollouts * self.seats // num_seats)


def outcome_value(result: Result, seat: int, scale: float) -> float:
    """1 for a win (shared among tied winners), plus the score margin over the best other seat,
    squashed so a crushing win cannot outweigh winning more often."""
    winners = [s.seat for s in result.seats if s.rank == 1]
    win = 1.0 / len(winners) if seat in winners else 0.0
    mine = result.score_of(seat)
    best_other = max((s.score for s in result.seats if s.seat != seat), default=mine)
    return win + math.tanh((mine - best_other) / scale)


def margin_value(scores: Sequence[float], seat: int, scale: float) -> float:
    """The same yardstick as `outcome_value` for an estimate of every seat's final score."""
    mine = scores[seat]
    others = [s for i, s in enumerate(scores) if i != seat]
    best_other = max(others, default=mine)
    win = 1.0 if mine > best_other else (0.5 if mine == best_other else 0.0)
    return win + math.tanh((mine - best_other) / scale)


class SearchAI(AIPlayer):
    """Determinized rollouts with common random numbers, shortlist from the game's greedy policy (or `lead`).

    Each round samples worlds with `state.determinize(seat, rng)` (own secrets kept, everyone else's
    resampled), plays every surviving candidate in the same worlds with the same rollout seed (so
    luck cancels out between candidates), then keeps the better half, always with the policy's own
    move, which it leaves at the end only for a move that did clearly better.
    """

    name = "hard"

    def __init__(
        self,
        policy: Callable[[], AIPlayer],
        budget: SearchBudget,
        evaluate: Evaluate | None = None,
        score_scale: float = 10.0,
        switch_margin: float = 0.1,
        stop: Stop | None = None,
        switch_z: float = 0.0,
        lead: Callable[[], AIPlayer] | None = None,
    ) -> None:
        self.policy = policy()
        # The shortlist's policy (its own move first, then its ranking): the rollout policy unless a game
        # plays its own seat by a more careful one than it expects of the others.
        self.lead = self.policy if lead is None else lead()
        self.switch_margin = switch_margin
        self.switch_z = switch_z
        self.budget = budget
        self.score_scale = score_scale
        self.evaluate = evaluate
        self.stop = stop
        # A list to append (candidates, mean value per candidate, rollouts per candidate, choice) to,
        # for benches that look at concrete decisions; None in play.
        self.trace: list[tuple[list[Move], dict[Move, float], dict[Move, int], Move]] | None = None
        if (budget.horizon is not None or stop is not None) and evaluate is None:
            raise ValueError("a search cut off by a horizon needs the game's evaluate")

    def budget_for(self, state: GameState) -> SearchBudget:
        """The budget of a decision in this position (a game may spend differently by stage)."""
        return self.budget

    def choose(self, view: dict[str, Any], legal: list[Move], rng: random.Random) -> Move:
        # Without the state (a caller that only has a view) it plays like its shortlist's policy.
        return self.lead.choose(view, legal, rng)

    def decide(self, state: GameState, seat: int, legal: list[Move], rng: random.Random) -> Move:
        if len(legal) == 1:
            return legal[0]
        if type(state).determinize is GameState.determinize:  # no way to sample worlds fairly yet
            return self.lead.choose(state.view(seat), legal, rng)
        candidates = self.shortlist(state, seat, legal, rng)
        if len(candidates) == 1:
            return candidates[0]
        # Each move's value in each world it was played in; the moves still alive share every world.
        values: dict[Move, list[float]] = {m: [] for m in candidates}
        alive = list(candidates)
        rounds = max(1, math.ceil(math.log2(len(alive))))
        budget = self.budget_for(state)
        rollouts = budget.rollouts_for(state.num_seats)
        for round_number in range(rounds):
            worlds = max(1, rollouts // (rounds * len(alive)))
            for _ in range(worlds):
                world = state.determinize(seat, rng)
                rollout_seed = rng.getrandbits(64)
                for move in alive:
                    values[move].append(self._rollout(state, world.copy(), seat, move, random.Random(rollout_seed)))
            if round_number < rounds - 1:
                # The policy's own move always stays: few rollouts are noisy, and it is the safe default.
                others = sorted(alive[1:], key=lambda m: -statistics.fmean(values[m]))
                alive = [alive[0], *others[: max(0, math.ceil(len(alive) / 2) - 1)]]
        favourite = alive[0]
        best = max(alive, key=lambda m: statistics.fmean(values[m]))
        switch_z = self.switch_z if budget.switch_z is None else budget.switch_z
        switch = best != favourite and self._clearly_better(values[best], values[favourite], switch_z)
        choice = best if switch else favourite
        if self.trace is not None:
            means = {m: statistics.fmean(values[m]) for m in candidates}
            self.trace.append((candidates, means, {m: len(values[m]) for m in candidates}, choice))
        return choice

    def _clearly_better(self, challenger: list[float], favourite: list[float], switch_z: float) -> bool:
        """Leave the policy's move only for one that did clearly better in the same worlds: by more than
        `switch_margin` on average and, with `switch_z`, by that many standard errors of the paired
        differences (the best of several noisy means beats the favourite by luck alone)."""
        diffs = [a - b for a, b in zip(challenger, favourite, strict=True)]
        gain = statistics.fmean(diffs)
        if gain <= self.switch_margin:
            return False
        if switch_z <= 0:
            return True
        if len(diffs) < 2:
            return False
        return gain > switch_z * statistics.stdev(diffs) / math.sqrt(len(diffs))

    def shortlist(self, state: GameState, seat: int, legal: list[Move], rng: random.Random) -> list[Move]:
        """The policy's own decision first (with what its seat remembers, as in the rollouts), then its
        ranking when it has one, else a sample of the rest."""
        wanted = self.budget_for(state).candidates
        first = self.lead.decide(state, seat, legal, rng)
        rank = getattr(self.lead, "rank", None)
        if rank is not None:
            ranked = [m for m in dict.fromkeys(rank(state.view(seat), legal, rng)) if m != first]
            return [first, *ranked][:wanted]
        rest = [m for m in legal if m != first]
        return [first, *rng.sample(rest, min(len(rest), wanted - 1))]

    def _rollout(self, root: GameState, world: GameState, seat: int, move: Move, rng: random.Random) -> float:
        world.apply(seat, move)
        steps = 0
        horizon = self.budget_for(root).horizon
        while True:
            acting = world.to_act()
            if not acting or (horizon is not None and steps >= horizon):
                break
            if self.stop is not None and self.stop(root, world):
                break
            actor = min(acting)
            legal = world.legal_moves(actor)
            # decide, not choose: a policy may use what its seat remembers (TTR's own track stack).
            world.apply(actor, legal[0] if len(legal) == 1 else self.policy.decide(world, actor, legal, rng))
            steps += 1
        result = world.result()
        if result is not None:
            return outcome_value(result, seat, self.score_scale)
        assert self.evaluate is not None
        return self.evaluate(world, seat)
