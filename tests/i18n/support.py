"""Shared checks for the Japanese catalogs: what a Japanese player would still read in English.

A game's tests play seeded AI games and collect every text the engine wrote (events, public and
private), every refusal reason, and every label its images drew in Japanese, then ask which of
them the catalogs leave in English. Proper names (cities, trains, companies), move notation in
backticks and seat tokens are not words to translate: each game passes its own `names`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from render import kit, module_for
from rules import registry
from rules.engine import GameState, IllegalMove, RandomAI, ai_move

_SEAT = re.compile(r"\{\w+\}")  # seat tokens {s1}, and placeholders of unformatted keys
_CODE = re.compile(r"`[^`]*`")
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’]+")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def english_left(text: str, names: Iterable[str] = ()) -> list[str]:
    """The Latin words of `text` that are neither a seat token, code in backticks, nor one of `names`."""
    text = _CODE.sub(" ", _SEAT.sub(" ", text))
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return _LATIN_WORD.findall(text)


def untranslated(texts: Iterable[str], names: Iterable[str] = ()) -> dict[str, list[str]]:
    """{text: its words still in English}, for texts (already said in the reader's language) that have any."""
    names = list(names)
    return {text: left for text in set(texts) if (left := english_left(text, names))}


def played_texts(game_key: str, games: int, seats: Iterable[int] = (2, 3, 4),
                 options: Iterable[dict] = ({},)) -> tuple[set[str], list[GameState]]:
    """Every event text of `games` seeded games per seat count and option set (greedy vs random AI),
    and a few states along the way (for rendering)."""
    definition = registry.get(game_key)
    texts: set[str] = set()
    states: list[GameState] = []
    for num in seats:
        if not definition.min_players <= num <= definition.max_players:
            continue
        for opts in options:
            for seed in range(games):
                state = definition.new_game(num, opts, seed)
                texts.update(event.text for event in state.opening_events())
                brains = {s: (definition.ai() if (s + seed) % 2 else RandomAI()) for s in range(num)}
                step = 0
                last_phase = getattr(state, "phase", None)
                while state.to_act():
                    seat = min(state.to_act())
                    for event in state.apply(seat, ai_move(state, seat, brains[seat])):
                        texts.add(event.text)
                    step += 1
                    # Every 25th state, and each first state of a phase: which states an AI's game passes
                    # through must not decide whether a kind of image (a short phase) gets checked.
                    phase = getattr(state, "phase", None)
                    if seed == 0 and (step % 25 == 0 or phase != last_phase):
                        states.append(state.copy())
                    last_phase = phase
                states.append(state)
    return texts, states


def missed_labels(game_key: str, states: Iterable[GameState]) -> set[str]:
    """Labels with Latin letters that the game's images drew unchanged in Japanese: board, hands, and the
    interludes (round-end summary, intermediate scoring...) a state's public view calls for."""
    module = module_for(game_key)
    interludes = getattr(module, "interludes", None)
    missed: set[str] = set()
    kit.clear_static_layers()
    try:
        for state in states:
            names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"][: state.num_seats]
            with kit.language("ja", missed), kit.game(game_key):
                view = state.view(None)
                module.board(view, names)
                for seat in range(state.num_seats):
                    module.hand(state.view(seat), names)
                if interludes is not None:  # no previous view: whatever the state's view holds is new
                    interludes(None, view, names)
    finally:
        kit.clear_static_layers()
    return missed


def result_words(states: Iterable[GameState]) -> set[str]:
    """The words the results of the finished `states` show: how each game ended, the breakdown
    categories and the detail keys."""
    words: set[str] = set()
    for state in states:
        result = state.result()
        if result is None:
            continue
        words.add(result.ended_by)
        for line in result.seats:
            words.update(line.breakdown)
            words.update(line.details)
    return words


def refusal_reasons(states: Iterable[GameState], tries: Iterable[str]) -> set[str]:
    """The reasons the engine gives when each seat to act in each of `states` types each of `tries`
    (on a copy, so a move that happens to be legal changes nothing)."""
    tries = list(tries)
    reasons: set[str] = set()
    for state in states:
        for seat in sorted(state.to_act()):
            for text in tries:
                try:
                    state.copy().apply(seat, text)
                except IllegalMove as refused:
                    reasons.add(refused.reason)
    return reasons


_TEXT_CALLS = {"IllegalMove", "public", "private", "Event"}


def source_texts(game_key: str) -> list[str]:
    """Sample lines for every literal text the engine's code hands to IllegalMove, public, private or
    Event, with each `{expression}` of an f-string replaced by `X1`, `X2`... (a pattern matches them)."""
    import ast
    from pathlib import Path

    package = Path(__file__).resolve().parents[2] / "rules" / game_key
    samples = []
    for path in sorted(package.glob("*.py")):
        if path.name == "ja.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name not in _TEXT_CALLS:
                continue
            for arg in node.args:
                sample = _sample(arg)
                if sample is not None:
                    samples.append(sample)
    return samples


def _sample(node: object) -> str | None:
    import ast

    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts, count = [], 0
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            else:
                count += 1
                parts.append(f"X{count}")
        return "".join(parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):  # "..." + "..." (long lines)
        left, right = _sample(node.left), _sample(node.right)
        return None if left is None or right is None else left + right
    return None


def placeholder_problems(entries: dict[str, str]) -> list[str]:
    """Entries whose Japanese uses a placeholder the English lacks (format would fail) or drops one."""
    bad = []
    for english, japanese in entries.items():
        source, target = set(_PLACEHOLDER.findall(english)), set(_PLACEHOLDER.findall(japanese))
        if source != target:
            bad.append(f"{english!r}: {sorted(source)} vs {sorted(target)}")
    return bad


__all__ = ["english_left", "untranslated", "played_texts", "missed_labels", "result_words",
           "refusal_reasons", "placeholder_problems", "source_texts"]
