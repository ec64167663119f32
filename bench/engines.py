"""Engine and render figures per registered game: python bench/engines.py [--games K,K] [--winrate N].

Prints, per game: median time of legal_moves and apply over the positions of AI-played games, median
time of a whole AI game, median render + PNG-encode time of the public board, the PNG size, and the
greedy AI's win rate against random seats over N seeded games (greedy sits in seat g mod n).
Then (--worst N, 0 skips) the worst single engine call of each game: every apply, legal_moves,
view (public and each seat), result and ai_move of N seeded greedy-vs-random games, timed one by one;
the slowest of each kind with the seed and move number that produced it.
"""

from __future__ import annotations

import argparse
import statistics
import time

import render
from rules import registry
from rules.engine import GameDefinition, RandomAI, ai_move, play_out


def _ms(seconds: float) -> str:
    return f"{1000 * seconds:8.2f} ms"


JAPANESE_NAMES = ["たろう", "はなこ", "山田", "さくら", "けんた", "ゆい"]


def bench_game(definition: GameDefinition, games: int, players: int, lang: str = "en") -> dict[str, float]:
    legal_times: list[float] = []
    apply_times: list[float] = []
    game_times: list[float] = []
    render_times: list[float] = []
    png_sizes: list[int] = []
    names = JAPANESE_NAMES[:players] if lang == "ja" else [f"Player {i + 1}" for i in range(players)]
    for seed in range(games):
        state = definition.new_game(players, {}, seed)
        brain = definition.ai("greedy")
        sample_views = []
        started = time.perf_counter()
        while state.to_act():
            seat = min(state.to_act())
            t0 = time.perf_counter()
            state.legal_moves(seat)
            legal_times.append(time.perf_counter() - t0)
            move = ai_move(state, seat, brain)
            t0 = time.perf_counter()
            state.apply(seat, move)
            apply_times.append(time.perf_counter() - t0)
            if state.moves_applied % 9 == 0:
                sample_views.append(state.view(None))
        game_times.append(time.perf_counter() - started)
        for view in sample_views[:12] + [state.view(None)]:
            t0 = time.perf_counter()
            png = render.board_png(view, names, lang)
            render_times.append(time.perf_counter() - t0)
            png_sizes.append(len(png))
    return {
        "legal_moves": statistics.median(legal_times),
        "apply": statistics.median(apply_times),
        "game": statistics.median(game_times),
        "render": statistics.median(render_times) if render_times else float("nan"),
        "png_kb": statistics.median(png_sizes) / 1024 if png_sizes else float("nan"),
        "png_kb_max": max(png_sizes) / 1024 if png_sizes else float("nan"),
        "moves": len(apply_times) / games,
    }


def greedy_win_rate(definition: GameDefinition, games: int, players: int) -> tuple[float, float]:
    """Share of games the greedy seat wins outright or shares first place, and the fair share 1/n."""
    wins = 0
    for seed in range(games):
        greedy_seat = seed % players
        brains = {s: (definition.ai("greedy") if s == greedy_seat else RandomAI()) for s in range(players)}
        state = definition.new_game(players, {}, 10_000 + seed)
        play_out(state, brains)
        result = state.result()
        assert result is not None
        if result.rank_of(greedy_seat) == 1:
            wins += 1
    return wins / games, 1 / players


CALLS = ("apply", "legal_moves", "view", "result", "ai_move")


def worst_calls(definition: GameDefinition, games: int, players: int) -> dict[str, tuple[float, str]]:
    """The slowest single call of each kind over seeded games (greedy seats mixed with random ones)."""
    worst: dict[str, tuple[float, str]] = {name: (0.0, "") for name in CALLS}

    def note(name: str, seconds: float, where: str) -> None:
        if seconds > worst[name][0]:
            worst[name] = (seconds, where)

    for seed in range(games):
        state = definition.new_game(players, {}, 20_000 + seed)
        brains = {s: (definition.ai("greedy") if (s + seed) % 2 else RandomAI()) for s in range(players)}
        while state.to_act():
            seat = min(state.to_act())
            where = f"seed {20_000 + seed} move {state.moves_applied}"
            t0 = time.perf_counter()
            state.legal_moves(seat)
            note("legal_moves", time.perf_counter() - t0, where)
            for viewer in (None, *range(players)):
                t0 = time.perf_counter()
                state.view(viewer)
                note("view", time.perf_counter() - t0, where)
            t0 = time.perf_counter()
            move = ai_move(state, seat, brains[seat])
            note("ai_move", time.perf_counter() - t0, f"{where} ({brains[seat].name})")
            t0 = time.perf_counter()
            state.apply(seat, move)
            note("apply", time.perf_counter() - t0, f"{where} `{move}`")
        t0 = time.perf_counter()
        state.result()
        note("result", time.perf_counter() - t0, f"seed {20_000 + seed} end")
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", default=",".join(registry.GAMES), help="comma-separated game keys")
    parser.add_argument("--runs", type=int, default=5, help="AI games timed per game")
    parser.add_argument("--winrate", type=int, default=200, help="seeded games for the greedy win rate (0: skip)")
    parser.add_argument("--players", type=int, default=0, help="seats (default: 4 or the game's maximum)")
    parser.add_argument("--lang", default="en", choices=("en", "ja"), help="language of the board labels and names")
    parser.add_argument("--worst", type=int, default=20, help="seeded games searched for the worst call (0: skip)")
    args = parser.parse_args()
    print(f"{'game':<15}{'legal_moves':>12}{'apply':>12}{'AI game':>12}{'render+png':>12}"
          f"{'PNG KB':>9}{'moves':>7}  greedy seat in 1st place (shared counts) vs random")
    for key in args.games.split(","):
        definition = registry.get(key)
        players = args.players or min(4, definition.max_players)
        figures = bench_game(definition, args.runs, players, args.lang)
        rate = ""
        if args.winrate:
            won, fair = greedy_win_rate(definition, args.winrate, players)
            rate = f"{100 * won:.0f}% of {args.winrate} ({players} seats, fair share {100 * fair:.0f}%)"
        print(
            f"{key:<15}{_ms(figures['legal_moves']):>12}{_ms(figures['apply']):>12}"
            f"{figures['game']:>10.2f} s{_ms(figures['render']):>12}"
            f"{figures['png_kb']:>6.0f}/{figures['png_kb_max']:<3.0f}{figures['moves']:>6.0f}  {rate}",
            flush=True,
        )
    if not args.worst:
        return
    print(f"\nworst single engine call over {args.worst} seeded games per game (greedy and random seats):")
    for key in args.games.split(","):
        definition = registry.get(key)
        players = args.players or min(4, definition.max_players)
        for name, (seconds, where) in worst_calls(definition, args.worst, players).items():
            print(f"{key:<15}{name:<12}{_ms(seconds)}  {where}", flush=True)


if __name__ == "__main__":
    main()
