"""AI strength bench: win shares of one AI against others per game and player count, and time per decision.

    PYTHONPATH=$PWD python bench/ai_strength.py                       # every game, 2 and 4 players
    PYTHONPATH=$PWD python bench/ai_strength.py --games ttr_cards --players 2 --count 100 --jobs 2

Matchups: `hard-normal` seats one hard AI among normals, `normal-frozen` one normal among the greedy AIs
frozen from main before issue 15 (bench/frozen_ai). Opponents hard does not model (its rollouts play
normal): `hard-bold` and `hard-thrifty` seat the game's bold or thrifty greedy style against it where the
game has one (Off the Rails: bold; Trans Europa: thrifty), `hard-reseeded` normals whose own random
choices come from another seed than the game's (ties and random picks differ from what hard expects),
`hard-hard` other hard AIs. Hard models no seat's random generator (its rollouts give normal one of
their own), so to it a reseeded normal is the same opponent as normal, in distribution; where normal
never draws on its generator (Ticket to Ride, Great Western) hard-reseeded plays hard-normal's very
games, seed by seed. The tested AI's seat rotates with the game number so every seat is played
equally. `--options advanced=on` (any table option) plays a variant. A win counts 1, a shared first place 1/winners. The margin printed is the
95% half-width (1.96 standard errors): ±5% needs about 385 games at a 50% share, 280 at 25%; the
brackets give the 95% Wilson interval, the honest one near 0% and 100%.
`--record FILE` appends one JSON line per game (seed, seat, share, decision times), so runs split over
seed ranges or stopped early still add up: `--summary FILE` prints the line of each game, variant,
player count and matchup over every game recorded, with its seeds.
Time per decision is the CPU time (time.process_time) of the tested AI's own decisions: what one core
spends, whatever else shares the machine.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from contextlib import nullcontext
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import registry  # noqa: E402
from rules.engine import AIPlayer, GameState, Move, ai_move  # noqa: E402

MATCHUPS = ("hard-normal", "normal-frozen", "hard-bold", "hard-thrifty", "hard-reseeded", "hard-hard")
MAX_DECISIONS = 20_000


def _frozen(key: str) -> Callable[[], AIPlayer]:
    module = importlib.import_module(f"bench.frozen_ai.{key}")
    return module.GreedyAI


def _style(key: str, style: str) -> Callable[[], AIPlayer] | None:
    """The game's greedy player in a style other than normal's, None where the game has none."""
    if key == "off_the_rails" and style == "bold":
        from rules.off_the_rails.ai import BOLD, GreedyAI

        return lambda: GreedyAI(BOLD)
    if key == "trans_europa" and style == "thrifty":
        from rules.trans_europa.ai import ThriftyAI

        return ThriftyAI
    return None


class Reseeded(AIPlayer):
    """A player whose own random choices (ties, random picks) come from another seed than the game's."""

    name = "reseeded"

    def __init__(self, player: AIPlayer, salt: int = 0x5EED) -> None:
        self.player = player
        self.salt = salt

    def decide(self, state: GameState, seat: int, legal: list[Move], rng: random.Random) -> Move:
        return self.player.decide(state, seat, legal, random.Random(rng.getrandbits(64) ^ self.salt))

    def choose(self, view: dict[str, Any], legal: list[Move], rng: random.Random) -> Move:
        return self.player.choose(view, legal, random.Random(rng.getrandbits(64) ^ self.salt))


def has_matchup(key: str, matchup: str) -> bool:
    field = matchup.split("-")[1]
    return field not in ("bold", "thrifty") or _style(key, field) is not None


def _players(key: str, matchup: str) -> tuple[Callable[[], AIPlayer], Callable[[], AIPlayer]]:
    definition = registry.get(key)
    tested, field = matchup.split("-")
    opponent: Callable[[], AIPlayer]
    if field == "frozen":
        opponent = _frozen(key)
    elif field in ("bold", "thrifty"):
        style = _style(key, field)
        assert style is not None, f"{key} has no {field} style"
        opponent = style
    elif field == "reseeded":
        opponent = lambda: Reseeded(definition.ai("normal"))  # noqa: E731
    else:
        opponent = lambda: definition.ai(field)  # noqa: E731
    return (lambda: definition.ai(tested)), opponent


def play_one(job: tuple[str, str, int, int, int, dict[str, Any]]) -> tuple[float, list[float]]:
    """One game: the tested AI's win share in it and the seconds of each of its decisions."""
    key, matchup, players, seed, seat, options = job
    tested_factory, field_factory = _players(key, matchup)
    state: GameState = registry.get(key).new_game(players, options, seed)
    brains = {s: (tested_factory() if s == seat else field_factory()) for s in range(players)}
    times: list[float] = []
    for _ in range(MAX_DECISIONS):
        acting = state.to_act()
        if not acting:
            break
        actor = min(acting)
        started = time.process_time()
        move = ai_move(state, actor, brains[actor])
        if actor == seat:
            times.append(time.process_time() - started)
        state.apply(actor, move)
    result = state.result()
    if result is None:
        return 0.0, times
    winners = [s.seat for s in result.seats if s.rank == 1]
    return (1.0 / len(winners) if seat in winners else 0.0), times


def wilson(wins: float, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a win share (honest near 0% and 100%, where the normal margin is not)."""
    z = 1.96
    share = wins / games
    centre = (share + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def run(key: str, matchup: str, players: int, count: int, jobs: int, first_seed: int, progress: bool = False,
        options: dict[str, Any] | None = None, record: str | None = None) -> str:
    work = [(key, matchup, players, first_seed + i, i % players, dict(options or {})) for i in range(count)]
    started = time.perf_counter()
    outcomes: list[tuple[float, list[float]]] = []
    with Pool(jobs) if jobs > 1 else nullcontext() as pool:
        # In seed order, with worker processes too, so a run stopped early has played a range of seeds.
        played = pool.imap(play_one, work, chunksize=1) if pool else map(play_one, work)
        for job, outcome in zip(work, played, strict=True):
            outcomes.append(outcome)
            if record:  # one line per game: runs stopped early or split over seed ranges can be summed later
                with open(record, "a", encoding="utf-8") as out:
                    out.write(json.dumps({"game": key, "options": job[5], "players": players, "matchup": matchup,
                                          "seed": job[3], "seat": job[4], "share": outcome[0],
                                          "times": [round(t, 4) for t in outcome[1]]}) + "\n")
            if progress:  # a long run still leaves figures behind if it is stopped
                done = [share for share, _ in outcomes]
                print(f"  {key} {players}p {matchup}: {len(done)} games, win share {100 * sum(done) / len(done):.1f}%, "
                      f"slowest decision so far {1000 * max((t for _, ts in outcomes for t in ts), default=0):.0f} ms",
                      flush=True)
    return summary(key, matchup, players, outcomes, options, time.perf_counter() - started)


def summary(key: str, matchup: str, players: int, outcomes: list[tuple[float, list[float]]],
            options: dict[str, Any] | None = None, wall: float | None = None) -> str:
    """One line: the tested AI's win share with its margins, and the CPU time of its decisions."""
    shares = [share for share, _ in outcomes]
    times = sorted(t for _, ts in outcomes for t in ts)
    share = sum(shares) / len(shares)
    margin = 1.96 * math.sqrt(max(share * (1 - share), 1e-9) / len(shares))
    median = statistics.median(times) if times else 0.0
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0
    fair = 1 / players
    # Games a ±5% margin needs at this share (at 0% or 100% the normal margin says nothing: see Wilson).
    needed = math.ceil(share * (1 - share) * (1.96 / 0.05) ** 2) if 0 < share < 1 else None
    more = f"±5% needs {needed} games" if needed else "±5%: share at an edge, see Wilson"
    variant = " ".join(f"{k}={v}" for k, v in sorted((options or {}).items()))
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))] if times else 0.0
    low, high = wilson(sum(shares), len(shares))
    return (
        f"{key:14}{' ' + variant if variant else ''} {players}p {matchup:14} games {len(shares):4}  win share {100 * share:5.1f}% "
        f"± {100 * margin:4.1f} [{100 * low:.1f}–{100 * high:.1f}%]  (fair {100 * fair:.0f}%)  decision median {1000 * median:7.1f} ms  "
        f"p95 {1000 * p95:7.1f} ms  p99 {1000 * p99:7.1f} ms  max {1000 * (times[-1] if times else 0):7.1f} ms  "
        f"({len(times)} decisions; {more})" + (f"  [{wall:.0f} s]" if wall is not None else "")
    )


def summarize(path: str) -> list[str]:
    """The summary of every game, variant, player count and matchup in a --record file, over all its runs."""
    groups: dict[tuple[str, str, int, str], list[tuple[float, list[float]]]] = {}
    options: dict[tuple[str, str, int, str], dict[str, Any]] = {}
    seeds: dict[tuple[str, str, int, str], list[int]] = {}
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            game = json.loads(line)
            group = (game["game"], json.dumps(game["options"], sort_keys=True), game["players"], game["matchup"])
            groups.setdefault(group, []).append((game["share"], game["times"]))
            options[group] = game["options"]
            seeds.setdefault(group, []).append(game["seed"])
    return [f"{summary(group[0], group[3], group[2], outcomes, options[group])}  seeds {_ranges(seeds[group])}"
            for group, outcomes in sorted(groups.items())]


def _ranges(seeds: list[int]) -> str:
    """1, 2, 3, 7 as '1–3, 7'."""
    spans: list[list[int]] = []
    for seed in sorted(set(seeds)):
        if spans and seed == spans[-1][1] + 1:
            spans[-1][1] = seed
        else:
            spans.append([seed, seed])
    return ", ".join(f"{a}–{b}" if a != b else str(a) for a, b in spans)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=list(registry.GAMES))
    parser.add_argument("--players", nargs="*", type=int, default=[2, 4])
    parser.add_argument("--matchups", nargs="*", default=list(MATCHUPS[:2]), choices=MATCHUPS)
    parser.add_argument("--count", type=int, default=400, help="games per game, player count and matchup")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (one per free core)")
    parser.add_argument("--seed", type=int, default=10_000, help="seed of the first game")
    parser.add_argument("--progress", action="store_true", help="print the running share after each game")
    parser.add_argument("--options", nargs="*", default=[], metavar="KEY=VALUE",
                        help="table options of the variant to play, e.g. advanced=on (one game at a time)")
    parser.add_argument("--record", metavar="FILE", help="append one JSON line per game played (seed, share, times)")
    parser.add_argument("--summary", metavar="FILE", help="summarize a --record file instead of playing")
    args = parser.parse_args()
    if args.summary:
        print("\n".join(summarize(args.summary)))
        return
    for key in args.games:
        definition = registry.get(key)
        options = definition.resolve_options(dict(item.split("=", 1) for item in args.options))
        options = {k: v for k, v in options.items() if v != definition.option(k).default}
        for players in args.players:
            if not definition.min_players <= players <= definition.max_players:
                continue
            for matchup in args.matchups:
                if has_matchup(key, matchup):
                    print(run(key, matchup, players, args.count, args.jobs, args.seed, args.progress, options, args.record),
                          flush=True)


if __name__ == "__main__":
    main()
