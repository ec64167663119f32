"""Short text descriptions of board views (alt text, `/board text`), generic over every game.

`describe(view, names)` reads only the keys every view carries (`rules.engine.GameState.base_view`)
plus a few common shapes (a `scores` mapping or list, a `round`, a `phase`), so a game whose render
module has no `describe` of its own still gets a useful line. A public view holds no secret, so
neither does its description.
"""

from __future__ import annotations

from typing import Any

from rules.words import Items, Msg, Seat, Term

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
    """One paragraph from the base view keys (game, moves, round, scores, whose turn or the end), in the
    current language of the images (render.kit.language)."""
    from render import kit  # the kit imports this module's callers; imported late to keep this one light

    title = Term(str(view.get("game", "game")).replace("_", " ").title())
    moves = int(view.get("moves_applied", 0))
    if isinstance(view.get("round"), int):
        parts = [Msg("{title} board after {n} moves, round {round}.", title=title, n=moves, round=view["round"])]
    else:
        parts = [Msg("{title} board after {n} moves.", title=title, n=moves)]
    scores = _scores(view)
    if scores:
        each = [Msg("{who} {score}", who=Seat(s), score=v) for s, v in sorted(scores.items())]
        parts.append(Msg("Scores: {scores}.", scores=Items(each, "comma")))
    if view.get("over"):
        parts.append(Msg("The game is over."))
    elif view.get("to_act"):
        parts.append(Msg("To act: {who}.", who=Items([Seat(int(s)) for s in view["to_act"]], "comma")))
    return " ".join(kit.words(part, names) for part in parts)


def clip(text: str, limit: int = MAX_DESCRIPTION) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
