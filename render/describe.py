"""Short text descriptions of board views (alt text, `/board text`), generic over every game.

`describe(view, names)` reads only the keys every view carries (`rules.engine.GameState.base_view`)
plus a few common shapes (a `scores` mapping or list, a `round`, a `phase`), so a game whose render
module has no `describe` of its own still gets a useful line. A public view holds no secret, so
neither does its description.
"""

from __future__ import annotations

from typing import Any

MAX_DESCRIPTION = 1000  # Discord caps attachment alt text at 1024 characters


def seat_name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def _scores(view: dict[str, Any]) -> dict[int, Any]:
    """Seat -> score from a `scores` list or {"0": n} mapping, if the view has one."""
    raw = view.get("scores")
    if isinstance(raw, list):
        return {i: v for i, v in enumerate(raw) if isinstance(v, int | float)}
    if isinstance(raw, dict):
        out = {}
        for key, value in raw.items():
            if str(key).isdigit() and isinstance(value, int | float):
                out[int(key)] = value
        return out
    return {}


def generic(view: dict[str, Any], names: list[str]) -> str:
    """One paragraph from the base view keys: game, moves, round, scores, whose turn or the end."""
    title = str(view.get("game", "game")).replace("_", " ").title()
    parts = [f"{title} board after {int(view.get('moves_applied', 0))} moves"]
    if isinstance(view.get("round"), int):
        parts[0] += f", round {view['round']}"
    parts[0] += "."
    scores = _scores(view)
    if scores:
        parts.append("Scores: " + ", ".join(f"{seat_name(names, s)} {v}" for s, v in sorted(scores.items())) + ".")
    if view.get("over"):
        parts.append("The game is over.")
    elif view.get("to_act"):
        parts.append("To act: " + ", ".join(seat_name(names, int(s)) for s in view["to_act"]) + ".")
    return " ".join(parts)


def clip(text: str, limit: int = MAX_DESCRIPTION) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
