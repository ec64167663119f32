"""Every text an engine hands a player is a message with a translation in every language (issue 25 item 5).

AI-played games of all five titles, each variant, the fewest and the most seats: every event line (public and
private), every refusal of a move (typed nonsense, another seat's turn, a finished game) and every refusal of
a table option is a `rules.words.Msg` (never English composed by the engine, never the old "{english}" line of
bot.words.ENGINE, which only rows stored by an older version carry), and every id and term in it has its
translation in each language's catalogs: the bot translates by exact ids, no pattern."""

from __future__ import annotations

import os
from typing import Any

import pytest

from bot.words import ENGINE, result_label
from rules.engine import GameDefinition, IllegalMove
from rules.registry import GAME_KEYS, GAMES
from rules.words import Items, Msg
from tests.i18n.messages import missing
from tests.i18n.support import played_texts, refusal_reasons

LANGUAGES = ("ja", "de")
GAMES_EACH = int(os.environ.get("JUNCTION_I18N_GAMES", "1"))  # per seat count and option set
# What players type that no game reads, or reads and refuses somewhere.
TRIES = ["", "nonsense", "pass", "end", "draw", "draw 9", "buy", "lay a1 a2", "bid t1 99", "play 99", "keep 1 2",
         "start nowhere", "x" * 1001]


def variants(definition: GameDefinition) -> list[dict[str, Any]]:
    """The default table and each option changed on its own: every other choice, a flag flipped, a number at
    its least (a short game: more of its endings)."""
    out: list[dict[str, Any]] = [{}]
    for option in definition.options:
        if option.kind == "bool":
            out.append({option.key: not option.default})
        elif option.kind == "choice":
            out += [{option.key: choice} for choice in option.choices if choice != option.default]
        elif option.minimum:
            out.append({option.key: option.minimum})
    return out


def engine_lines(value: Any) -> list[Msg]:
    """Every stored-engine-line message inside a message tree."""
    if isinstance(value, Msg):
        own = [value] if value.id == ENGINE else []
        return own + [m for param in value.params.values() for m in engine_lines(param)]
    if isinstance(value, Items):
        return [m for item in value.items for m in engine_lines(item)]
    return []


def refusals(states: list[Any]) -> list[Any]:
    reasons = list(refusal_reasons(states, TRIES))
    for state in states:
        for seat in range(state.num_seats):
            if seat not in state.to_act():
                try:
                    state.copy().apply(seat, "pass")
                except IllegalMove as refused:
                    reasons.append(refused.reason)
    return reasons


def option_refusals(definition: GameDefinition) -> list[Any]:
    tries = [{"no_such_option": 1}] + [{option.key: "-1x"} for option in definition.options]
    tries += [{option.key: option.maximum + 1} for option in definition.options if option.maximum is not None]
    reasons = []
    for given in tries:
        with pytest.raises(ValueError) as refused:
            definition.resolve_options(given)
        reasons.append(refused.value.args[0])
    with pytest.raises(ValueError) as refused:
        definition.new_game(definition.max_players + 1)
    return [*reasons, refused.value.args[0]]


@pytest.mark.parametrize("game_key", GAME_KEYS)
def test_every_engine_text_is_a_message_translated_in_every_language(game_key: str) -> None:
    definition = GAMES[game_key]
    seats = sorted({definition.min_players, definition.max_players})
    lines, states = played_texts(game_key, GAMES_EACH, seats, variants(definition))
    ended = [state for state in states if not state.to_act()]
    assert ended  # a finished game's refusal ("The game is over.") is among them
    said = [*lines, *refusals(states[::4] + ended[:1]), *option_refusals(definition)]
    assert len(said) > 20
    not_messages = {str(text) for text in said if not isinstance(text, Msg)}
    assert not_messages == set()
    assert [str(msg) for msg in said for msg in engine_lines(msg)] == []
    for lang in LANGUAGES:
        assert missing(said, lang, game_key) == set(), lang
    # What a result shows: each breakdown category, detail key and how the game ended is the engine's message.
    results = [state.result().to_json() for state in ended]
    labels = [result_label(data, key) for data in results
              for key in [data["ended_by"], *(k for line in data["seats"] for k in [*line["breakdown"], *line["details"]])]]
    assert labels and all(isinstance(label, Msg) and label.id != ENGINE for label in labels)
    for lang in LANGUAGES:
        assert missing(labels, lang, game_key) == set(), lang
