"""Checks on messages (rules.words) against the catalogs: which ids of a message a language lacks.

A message is a tree: its id (or singular and plural), and parameters that may be messages, terms or lists
of them. A language covers a message when every id and every term in the tree has a translation in the
game's domain or a shared one; names, numbers, cities and notation are plain values and need none.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import locales
from rules.words import Items, Msg, Term


def keys(value: Any) -> Iterator[str | tuple[str, str]]:
    """Every catalog key in a message tree: message ids ((singular, plural) for a plural) and terms."""
    if isinstance(value, Msg):
        if value.id != "{text}":  # Verbatim: shown as it is in every language
            yield (value.id, value.plural) if value.plural is not None else value.id
        for param in value.params.values():
            yield from keys(param)
    elif isinstance(value, Term):
        yield value.word
    elif isinstance(value, Items):
        for item in value.items:
            yield from keys(item)


def missing(messages: Iterable[Any], lang: str, game: str) -> set[str | tuple[str, str]]:
    """The keys of `messages` that `lang` has no translation for (looked up as the bot does for `game`)."""
    words = locales.words(lang)
    domains = locales.domains_for(game)
    return {key for msg in messages for key in keys(msg) if not words.find(key, domains)}


def message_of(value: Any) -> Any:
    """A view's or an exception's message: stored message data becomes a Msg again."""
    return Msg.from_json(value) if isinstance(value, dict) else value


def played_messages(game_key: str, games: int, seats: Iterable[int] = (2, 3, 4),
                    options: Iterable[dict] = ({},)) -> tuple[list[Msg], list[Any]]:
    """Every event message of `games` seeded games per seat count and option set (greedy vs random AI), and
    a few states along the way (every 25th of seed 0, each first state of a phase, and each last)."""
    from rules import registry
    from rules.engine import RandomAI, ai_move

    definition = registry.get(game_key)
    messages: list[Msg] = []
    states: list[Any] = []
    for num in seats:
        if not definition.min_players <= num <= definition.max_players:
            continue
        for opts in options:
            for seed in range(games):
                state = definition.new_game(num, opts, seed)
                messages.extend(event.msg for event in state.opening_events())
                brains = {s: (definition.ai() if (s + seed) % 2 else RandomAI()) for s in range(num)}
                step, last_phase = 0, getattr(state, "phase", None)
                while state.to_act():
                    seat = min(state.to_act())
                    messages.extend(event.msg for event in state.apply(seat, ai_move(state, seat, brains[seat])))
                    step += 1
                    phase = getattr(state, "phase", None)
                    if seed == 0 and (step % 25 == 0 or phase != last_phase):
                        states.append(state.copy())
                    last_phase = phase
                states.append(state)
    return messages, states
