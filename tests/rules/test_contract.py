"""Every registered game keeps the engine contract the bot relies on (a few AI games per game)."""

from __future__ import annotations

import json

import pytest

from rules import registry
from rules.engine import GameDefinition, IllegalMove, RandomAI, ai_move, replay

BASE_KEYS = {"game", "seat", "num_seats", "to_act", "over", "moves_applied"}


def _games() -> list[tuple[str, int]]:
    cases = []
    for key, definition in registry.GAMES.items():
        for players in sorted({definition.min_players, definition.max_players}):
            cases.append((key, players))
    return cases


@pytest.mark.parametrize(("key", "players"), _games())
def test_contract_holds_through_a_whole_game(key: str, players: int) -> None:
    definition: GameDefinition = registry.get(key)
    state = definition.new_game(players, {}, seed=2024)
    for event in state.opening_events():
        assert event.seats is None or event.seats <= set(range(players))
    assert definition.from_json(state.to_json()).opening_events() == []
    brains = {s: (definition.ai("greedy") if s % 2 else RandomAI()) for s in range(players)}
    log: list[tuple[int, str]] = []
    while state.to_act():
        acting = state.to_act()
        views = {seat: state.view(seat) for seat in [None, *range(players)]}
        frozen = {seat: json.dumps(view, sort_keys=True) for seat, view in views.items()}
        saved = state.to_json()
        snapshot = json.dumps(saved, sort_keys=True)
        for seat, view in views.items():
            assert set(view) >= BASE_KEYS, f"view lacks {BASE_KEYS - set(view)}"
            assert view["seat"] == seat and view["to_act"] == sorted(acting)
            if seat is not None:  # the view without hints: the view, some keys left out
                bare = state.view_without_hints(seat)
                assert set(bare) <= set(view) and all(view[k] == v for k, v in bare.items())
        seat = min(acting)
        legal = state.legal_moves(seat)
        notations = [str(m) for m in legal]
        assert notations == sorted(set(notations)), "legal moves must be unique and sorted"
        assert all(str(state.parse_move(text)) == text for text in notations)
        for idle in set(range(players)) - acting:
            assert state.legal_moves(idle) == []
            with pytest.raises(IllegalMove):
                state.apply(idle, notations[0])
        move = ai_move(state, seat, brains[seat])
        state.apply(seat, move)
        log.append((seat, str(move)))
        # What was handed out before the move must not change under the holder's feet.
        for viewer, view in views.items():
            assert json.dumps(view, sort_keys=True) == frozen[viewer], f"view({viewer}) aliases the state"
        assert json.dumps(saved, sort_keys=True) == snapshot, "to_json() aliases the state"
        assert len(log) < 20_000
    result = state.result()
    assert result is not None
    assert sorted(s.seat for s in result.seats) == list(range(players))
    assert [s.rank for s in result.seats] == sorted(s.rank for s in result.seats)
    for line in result.seats:
        assert sum(line.breakdown.values()) == line.score
    json.dumps(result.to_json())
    again = replay(definition, players, {}, 2024, log)
    assert again.to_json() == state.to_json()
    assert definition.from_json(json.loads(json.dumps(state.to_json()))).to_json() == state.to_json()


@pytest.mark.parametrize("key", list(registry.GAMES))
def test_definition_is_complete(key: str) -> None:
    definition = registry.get(key)
    assert definition.key == key and definition.title and definition.summary
    assert 1 <= definition.min_players <= definition.max_players <= 6
    assert list(definition.ais)[:1] == ["normal"] and set(definition.ais) >= {"easy", "normal", "hard"}
    assert type(definition.ai("greedy")) is type(definition.ai("normal"))  # kinds stored by older tables
    defaults = definition.resolve_options({})
    assert defaults == {o.key: o.default for o in definition.options}
