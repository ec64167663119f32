"""Narrow a long list of move notations to one Discord select (at most 25 options) in few clicks.

Pure functions, no discord: the picker groups moves by their next word (`lay …`, `vex …`, `end`),
and where one word leaves too many groups (e.g. `start paris`, `start g13`, … 210 moves) by the
next character, board squares apart from city names, going deeper until a group fits; pages of 25
are the last resort. Numbers sort by value. A level that would only lead to more groups is shown
in its parent's place where it fits: one click fewer (three at most for any decision of the five
games' bench runs). At the top, the engine's shortcuts (moves the player most likely wants) come
first. With the prefix the player has chosen so far, the same list always gives the same menu, so
the prefix is all a custom_id needs to carry.
"""

from __future__ import annotations

import re
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


SQUARES = "#"  # ends a group prefix that holds board squares only (`start g#`: g1, g3 … g29, no city)
_SQUARE = re.compile(r"[a-z]+\d+")  # a board square's id: row letters then a number (`g13`, `b18`)


def natural(text: str) -> tuple:
    """Sort key reading numbers by value: `d2` before `d10`, `t2 3` before `t2 10`."""
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", text) if part)


def _split(prefix: str) -> tuple[str, bool]:
    """(text the moves start with, whether the word it ends in must be a square)."""
    return (prefix[:-1], True) if prefix.endswith(SQUARES) else (prefix, False)


def _word_at(move: str, position: int) -> str:
    """The whole word of `move` that covers `position` ('' at a space or the end)."""
    if position >= len(move) or move[position] == " ":
        return ""
    start = move.rfind(" ", 0, position) + 1
    end = move.find(" ", position)
    return move[start: None if end < 0 else end]


def under(move: str, prefix: str) -> bool:
    """Whether a picker group `prefix` holds `move`: it starts with it, and a group that ends inside a
    word holds either squares (`…#`) or names, never both (`g13` and `genova` share a first letter)."""
    base, squares = _split(prefix)
    if not move.startswith(base):
        return False
    if not base or base.endswith(" "):  # `start #`: every move whose next word is a square
        return not squares or bool(_SQUARE.fullmatch(_word_at(move, len(base))))
    if len(move) == len(base) or move[len(base)] == " ":
        return not squares
    return bool(_SQUARE.fullmatch(_word_at(move, len(base) - 1))) == squares


def _next_word(move: str, prefix: str) -> str:
    """The prefix extended to the end of the next word (with its trailing space if more follows)."""
    rest = move[len(prefix):]
    stripped = len(rest) - len(rest.lstrip(" "))
    cut = rest.find(" ", stripped)
    return move if cut < 0 else prefix + rest[: cut + 1]


def _next_letter(move: str, cut: int) -> str:
    """The group of `move` by its text up to `cut`, squares apart from names (see `under`)."""
    word = _word_at(move, cut - 1)
    return move[:cut] + (SQUARES if word and move[cut - 1] != " " and _SQUARE.fullmatch(word) else "")


def _by_letter(moves: list[str], base: str) -> dict[str, list[str]]:
    """Group by the next character, squares apart from names; where that makes more groups than one
    select holds, all squares at the start of a word go into one group (`start #`), so the names by
    letter and the squares by row each fit a select instead of spilling onto a second page."""
    cut = len(base) + 1
    groups = _group(moves, lambda m: _next_letter(m, cut))
    at_word_start = not base or base.endswith(" ")
    if len(groups) > PAGE_SIZE and at_word_start and any(key.endswith(SQUARES) for key in groups):
        groups = _group(moves, lambda m: base + SQUARES if _next_letter(m, cut).endswith(SQUARES)
                        else _next_letter(m, cut))
    return groups


def _group(moves: list[str], key) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for move in moves:
        groups.setdefault(key(move), []).append(move)
    return groups


def _label(key: str, members: list[str]) -> str:
    """A group's option text: `lay …`, or the squares' range for a square group (`start g1–g29 …`,
    `start a1–o29 …` for every square)."""
    base, squares = _split(key)
    if not squares:
        return key.rstrip() + " …"
    head = base[: base.rfind(" ") + 1]
    at = len(base) if not base or base.endswith(" ") else len(base) - 1
    words = sorted({_word_at(m, at) for m in members}, key=natural)
    return f"{head}{words[0]}–{words[-1]} …"


def groups_under(moves: list[str], prefix: str = "", flatten: bool = True) -> tuple[str, list[Choice]]:
    """(effective prefix, choices) for the moves in the group `prefix`; the prefix may grow.

    `flatten`: a group whose own menu would be groups only (`lay …` → `lay a1–a14 …`, `lay b2–b14 …`)
    is shown as those groups in its place when they fit, biggest first, so it costs no click
    (Off the Rails' 1,080 `lay` moves: `lay e2–e14 …` → `lay e2 …` → the move, three clicks)."""
    prefix, choices = _choices(moves, prefix)
    if not flatten:
        return prefix, choices
    shown: list[list[Choice]] = [[choice] for choice in choices]  # each choice, or the groups in its place
    for index in sorted(range(len(choices)), key=lambda i: -choices[i].count):
        if choices[index].is_move:
            continue
        inner = _choices(moves, choices[index].value)[1]
        if all(not c.is_move for c in inner) and sum(map(len, shown)) - 1 + len(inner) <= PAGE_SIZE:
            shown[index] = inner
    return prefix, [choice for part in shown for choice in part]


def _choices(moves: list[str], prefix: str) -> tuple[str, list[Choice]]:
    items = sorted((m for m in moves if under(m, prefix)), key=natural)
    while True:
        base, _ = _split(prefix)
        if len(items) <= PAGE_SIZE:
            return prefix, [Choice(m, m, 1, True) for m in items]
        groups = _group(items, lambda m, p=base: _next_word(m, p))
        if len(groups) == 1 and next(iter(groups)) not in items:
            prefix = next(iter(groups))  # every move shares the next word: look one word further
            continue
        if len(groups) > PAGE_SIZE or len(groups) == 1:
            groups = _by_letter(items, base)
            if len(groups) == 1 and next(iter(groups)) not in items:
                prefix = next(iter(groups))
                continue
        choices = []
        for key, members in sorted(groups.items(), key=lambda group: natural(group[0])):
            if len(members) == 1:
                choices.append(Choice(members[0], members[0], 1, True))
            else:
                choices.append(Choice(_label(key, members), key, len(members), False))
        return prefix, choices


def with_shortcuts(moves: list[str], choices: list[Choice], shortcuts: list[str]) -> list[Choice]:
    """The top menu with the engine's shortcuts (moves the player most likely wants) first, as
    many as fit in one select, in the engine's order; a group all of whose moves are shown so goes."""
    legal = set(moves)
    present = {c.value for c in choices if c.is_move}
    members = {c.value: {m for m in moves if under(m, c.value)} for c in choices if not c.is_move}
    chosen: list[str] = []
    kept = choices
    for move in dict.fromkeys(shortcuts):
        if move not in legal or move in present:
            continue
        trial = {*chosen, move}
        left = [c for c in choices if c.is_move or not members[c.value] <= trial]
        if len(left) + len(trial) <= PAGE_SIZE:
            chosen.append(move)
            kept = left
    return [*(Choice(m, m, 1, True) for m in chosen), *kept]


def menu(moves: list[str], prefix: str = "", page: int = 0, shortcuts: list[str] = ()) -> Menu:
    """The page of choices to show for this prefix; at the top, `shortcuts` first where they fit."""
    asked = prefix
    prefix, choices = groups_under(moves, prefix)
    total = sum(c.count for c in choices)
    if asked == "" and shortcuts and len(choices) < PAGE_SIZE:
        choices = with_shortcuts(moves, choices, list(shortcuts))
    pages = max(1, -(-len(choices) // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    shown = tuple(choices[page * PAGE_SIZE : (page + 1) * PAGE_SIZE])
    return Menu(prefix, shown, page, pages, total)


def _words_match(typed: list[str], words: list[str]) -> bool:
    """Each typed word starts a word of the move, in order (`lay mal` ~ `lay b18 malmo`)."""
    position = 0
    for piece in typed:
        while position < len(words) and not words[position].startswith(piece):
            position += 1
        if position == len(words):
            return False
        position += 1
    return True


def autocomplete(moves: list[str], typed: str, limit: int = PAGE_SIZE) -> list[str]:
    """Legal moves matching what was typed: the whole text as a prefix first, then moves where each
    typed word starts a word of the move (`lay war` finds every track at Warszawa, whichever end
    it is written at), then any move containing the text; numbers in order of value."""
    text = " ".join(typed.lower().split())
    ordered = sorted(moves, key=lambda m: natural(m.lower()))
    typed_words = text.split()
    tiers: list[list[str]] = [[], [], []]
    for move in ordered:
        lowered = move.lower()
        if lowered.startswith(text):
            tiers[0].append(move)
        elif _words_match(typed_words, lowered.split()):
            tiers[1].append(move)
        elif text in lowered:
            tiers[2].append(move)
    return [*tiers[0], *tiers[1], *tiers[2]][:limit]
