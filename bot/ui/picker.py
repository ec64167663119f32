"""Narrow a long list of move notations to one Discord select (at most 25 options) in few clicks.

Pure functions, no discord: the picker groups moves by their next word (`lay …`, `vex …`, `end`),
and where one word leaves too many groups (e.g. `start paris`, `start g13`, … 210 moves) by the
next character, going deeper until a group fits; pages of 25 are the last resort. With the
prefix the player has chosen so far, the same list always gives the same menu, so the prefix is
all a custom_id needs to carry.
"""

from __future__ import annotations

from dataclasses import dataclass

PAGE_SIZE = 25  # Discord's limit of options per select


@dataclass(frozen=True)
class Choice:
    """One select option: a move (`is_move`) or a group of moves sharing `value` as prefix."""

    label: str
    value: str
    count: int
    is_move: bool


@dataclass(frozen=True)
class Menu:
    prefix: str
    choices: tuple[Choice, ...]  # the current page
    page: int
    pages: int
    total: int  # moves under the prefix


def _next_word(move: str, prefix: str) -> str:
    """The prefix extended to the end of the next word (with its trailing space if more follows)."""
    rest = move[len(prefix):]
    stripped = len(rest) - len(rest.lstrip(" "))
    cut = rest.find(" ", stripped)
    return move if cut < 0 else prefix + rest[: cut + 1]


def _group(moves: list[str], key) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for move in moves:
        groups.setdefault(key(move), []).append(move)
    return groups


def groups_under(moves: list[str], prefix: str = "") -> tuple[str, list[Choice]]:
    """(effective prefix, choices) for the moves starting with prefix; the prefix may grow."""
    items = sorted(m for m in moves if m.startswith(prefix))
    while True:
        if len(items) <= PAGE_SIZE:
            return prefix, [Choice(m, m, 1, True) for m in items]
        groups = _group(items, lambda m, p=prefix: _next_word(m, p))
        if len(groups) == 1 and next(iter(groups)) not in items:
            prefix = next(iter(groups))  # every move shares the next word: look one word further
            continue
        if len(groups) > PAGE_SIZE or len(groups) == 1:
            cut = len(prefix) + 1
            groups = _group(items, lambda m, cut=cut: m[:cut])
            if len(groups) == 1 and next(iter(groups)) not in items:
                prefix = next(iter(groups))
                continue
        choices = []
        for key, members in sorted(groups.items()):
            if len(members) == 1:
                choices.append(Choice(members[0], members[0], 1, True))
            else:
                choices.append(Choice(key.rstrip() + " …", key, len(members), False))
        return prefix, choices


def menu(moves: list[str], prefix: str = "", page: int = 0) -> Menu:
    """The page of choices to show for this prefix."""
    prefix, choices = groups_under(moves, prefix)
    pages = max(1, -(-len(choices) // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    shown = tuple(choices[page * PAGE_SIZE : (page + 1) * PAGE_SIZE])
    return Menu(prefix, shown, page, pages, sum(c.count for c in choices))


def autocomplete(moves: list[str], typed: str, limit: int = PAGE_SIZE) -> list[str]:
    """Legal moves matching what was typed: prefix matches first, then other substring matches."""
    text = " ".join(typed.lower().split())
    starts = [m for m in moves if m.lower().startswith(text)]
    inside = [m for m in moves if text in m.lower() and m not in starts]
    return (starts + inside)[:limit]
