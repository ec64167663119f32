"""Off the Rails: a greedy player's style against normal ones, with no search (about 0.1 s a 2-player game).

    PYTHONPATH=$PWD python bench/otr_styles.py --players 2 --count 1000 --seed 2000            # BOLD
    PYTHONPATH=$PWD python bench/otr_styles.py --style gather_until=3 chasm_danger=1.8       # a trial

One seat plays the style, every other seat the normal one; the seat rotates with the game number. A win
counts 1, a shared first place 1/winners; the margin is the 95% half-width. "normal" plays the normal
style in that seat too: the share a normal seat gets on the same seeds, to compare with.
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.engine import ai_move  # noqa: E402
from rules.off_the_rails import DEFINITION  # noqa: E402
from rules.off_the_rails.ai import BOLD, NORMAL, GreedyAI, Style  # noqa: E402


def play(players: int, seed: int, seat: int, style: Style) -> tuple[float, float]:
    """The styled seat's win share and its score less the best other seat's."""
    state = DEFINITION.new_game(players, {}, seed)
    brains = [GreedyAI(style if s == seat else NORMAL) for s in range(players)]
    while state.to_act():
        actor = min(state.to_act())
        state.apply(actor, ai_move(state, actor, brains[actor]))
    result = state.result()
    assert result is not None
    winners = [s.seat for s in result.seats if s.rank == 1]
    best_other = max(s.score for s in result.seats if s.seat != seat)
    return (1.0 / len(winners) if seat in winners else 0.0), result.score_of(seat) - best_other


def parse_style(texts: list[str]) -> Style:
    if texts == ["normal"]:
        return NORMAL
    if not texts:
        return BOLD
    changes: dict[str, float] = {}
    for text in texts:
        name, value = text.split("=")
        changes[name] = int(value) if isinstance(getattr(NORMAL, name), int) else float(value)
    return replace(NORMAL, **changes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2000, help="seed of the first game")
    parser.add_argument("--style", nargs="*", default=[], help="field=value changes from normal; none: BOLD")
    args = parser.parse_args()
    style = parse_style(args.style)
    outcomes = [play(args.players, args.seed + i, i % args.players, style) for i in range(args.count)]
    share = sum(w for w, _ in outcomes) / len(outcomes)
    margin = 1.96 * math.sqrt(max(share * (1 - share), 1e-9) / len(outcomes))
    points = sum(m for _, m in outcomes) / len(outcomes)
    print(f"{style} {args.players}p: win share {100 * share:.1f}% ± {100 * margin:.1f} over {len(outcomes)} games "
          f"(fair {100 / args.players:.0f}%), points over the best other seat {points:+.2f}")


if __name__ == "__main__":
    main()
