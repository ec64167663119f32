"""Off the Rails scoring (spec section 8): gem points, ruby majority, missions, Dirty Goblins, carts in hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.off_the_rails import board

CATEGORIES: tuple[str, ...] = (*board.GEM_KINDS, "ruby_majority", "missions", "dirty_goblins", "carts")


def breakdowns(
    stockpiles: list[dict[str, int]],
    claimed: list[list[str]],
    face_up: list[str],
    reserve: list[int],
) -> list[dict[str, int]]:
    """Each seat's points per category (they sum to the score); carts on the board are not counted."""
    most_rubies = max(s["ruby"] for s in stockpiles)
    most_rocks = max(s["rock"] for s in stockpiles)
    goblins_open = "dirty-goblins" in face_up
    result = []
    for seat, stock in enumerate(stockpiles):
        points = {kind: stock[kind] * board.GEM_POINTS[kind] for kind in board.GEM_KINDS}
        # D19: every tied player with at least one scores the majority
        points["ruby_majority"] = board.RUBY_BONUS if most_rubies >= 1 and stock["ruby"] == most_rubies else 0
        points["missions"] = board.MISSION_POINTS * len(claimed[seat])
        goblin = goblins_open and most_rocks >= 1 and stock["rock"] == most_rocks
        points["dirty_goblins"] = board.MISSION_POINTS if goblin else 0
        points["carts"] = board.CART_POINTS * reserve[seat]
        result.append(points)
    return result


def rank_key(total: int, stock: dict[str, int]) -> tuple[int, int, int]:
    """Tie-breaks (D20): total, then more stockpiled gems of all kinds, then fewer rocks."""
    return (total, board.gem_total(stock), -stock["rock"])


def delivery_missions(load: Mapping[str, int], start_colour: str, colours: Sequence[str], own: str) -> list[str]:
    """The delivery missions a delivery of `load` into a start square of `start_colour` meets.

    `colours` are the colours in play, `own` the deliverer's. The engine (claims) and the AI (its
    plans) both ask here, so they never disagree on a mission.
    """
    total = sum(load.values())
    checks = {
        "red-leader": load.get("ruby", 0) >= 4,
        "green-fingers": load.get("emerald", 0) >= 2,
        "gold-hills": load.get("gold", 0) >= 2,
        "diamonds": load.get("diamond", 0) >= 1,
        "gem-collector": total == board.CAPACITY and load.get("rock", 0) == 0,
        "enemy-lines": total >= 1 and start_colour in colours and start_colour != own,
    }
    return [mission for mission, met in checks.items() if met]

