"""Every engine refuses any text and any hand-built move with a one-line IllegalMove, never a crash (#12)."""

from __future__ import annotations

import dataclasses
import json
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import registry
from rules.engine import MAX_MOVE_TEXT, GameState, IllegalMove, Move, RandomAI, play_out, read_number

GAMES = list(registry.GAMES)
# Digits str.isdigit accepts and int() refuses, other scripts' digits, and characters that change
# length when lower-cased: the inputs that crashed or slowed the readers.
TRICKY = "²³¹⁰₂٣६߁①⑳ǅİßﬃ\u0130\u0300\u200b\x00\t\n -,.:;|/\\#`'\"{}<>@*+"
tricky_word = st.text(alphabet=st.sampled_from(TRICKY + "0123456789abcxyz"), min_size=1, max_size=8)
huge_number = st.integers(min_value=7, max_value=20_000).map(lambda n: "9" * n)
big_number = st.sampled_from(["100000000", "1000000000", "1" + "0" * 60, "-1", "0", "007", "+3", "1e9"])


@cache
def positions(key: str) -> tuple[str, ...]:
    """Saved states of one game: the start, the first simultaneous step, and two mid-game points."""
    definition = registry.get(key)
    players = min(4, definition.max_players)
    found = [definition.new_game(players, {}, seed=12)]
    for seed in (12, 13):
        state = definition.new_game(players, {}, seed=seed)
        brains = {s: RandomAI() for s in range(players)}
        for _ in range(400):
            if not state.to_act():
                break
            if len(state.to_act()) > 1:
                found.append(state.copy())
                break
            play_out(state, brains, max_moves=1)
    for moves in (40, 150):
        state = definition.new_game(players, {}, seed=moves)
        play_out(state, {s: definition.ai("greedy") for s in range(players)}, max_moves=moves)
        if state.to_act():
            found.append(state)
    return tuple(json.dumps(state.to_json()) for state in found)


def restore(key: str, saved: str) -> GameState:
    return registry.get(key).from_json(json.loads(saved))


def notations(state: GameState) -> list[str]:
    return sorted({str(m) for seat in state.to_act() for m in state.legal_moves(seat)})


def refuses_or_applies(state: GameState, seat: int, move: Move | str) -> None:
    """The contract: a move is applied, or refused with a one-line reason and no trace."""
    before = json.dumps(state.to_json(), sort_keys=True)
    try:
        state.apply(seat, move)
    except IllegalMove as error:
        reason = str(error.reason)  # a message: its English (the translations keep its one-line parameters)
        assert reason and "\n" not in reason and len(reason) < 400, f"{str(move)[:80]!r}: {reason[:200]!r}"
        assert json.dumps(state.to_json(), sort_keys=True) == before, f"{str(move)[:80]!r} left a trace"


def mutate(text: str, index: int, word: str) -> str:
    """A legal notation with one word replaced (or added): the readers' deep paths."""
    words = text.split()
    words.insert(index % (len(words) + 1), word) if index < 0 else words.__setitem__(index % len(words), word)
    return " ".join(words)


@pytest.mark.parametrize("key", GAMES)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_text_is_read_or_refused(key: str, data: st.DataObject) -> None:
    saved = positions(key)[data.draw(st.integers(0, len(positions(key)) - 1), label="position")]
    state = restore(key, saved)
    legal = notations(state) or ["pass"]
    text = data.draw(
        st.one_of(
            st.text(max_size=60),
            st.builds(mutate, st.sampled_from(legal), st.integers(-4, 4), tricky_word | huge_number | big_number),
            st.builds(lambda t, n: (t + " ") * n, st.sampled_from(legal), st.integers(1, 2 * MAX_MOVE_TEXT)),
            st.text(min_size=MAX_MOVE_TEXT - 5, max_size=MAX_MOVE_TEXT + 5),
        ),
        label="text",
    )
    try:
        state.parse_move(text)
    except IllegalMove as error:
        reason = str(error.reason)
        assert reason and "\n" not in reason and len(reason) < 400, reason[:200]
    for seat in sorted(state.to_act()) + [state.num_seats - 1]:
        refuses_or_applies(restore(key, saved), seat, text)


def garbage_like(value: object, declared: object) -> st.SearchStrategy[object]:
    """A value of a move field's declared type, but anything: unknown ids, huge and negative numbers."""
    declared = str(declared)
    if isinstance(value, bool) or declared == "bool":
        return st.booleans()
    if isinstance(value, int) or declared.startswith("int"):
        numbers = st.integers(-(10**30), 10**30) | st.integers(-3, 60)
        return numbers | st.none() if "None" in declared else numbers
    if isinstance(value, str) or declared.startswith("str"):
        words = st.text(max_size=12) | st.sampled_from(["atlantis", "", "0", "t0", "loco", "zz", "SF"])
        return words | st.none() if "None" in declared else words
    if isinstance(value, tuple):
        item = garbage_like(value[0], type(value[0]).__name__) if value else st.text(max_size=6)
        return st.lists(item, max_size=8).map(tuple)
    return st.nothing()


@pytest.mark.parametrize("key", GAMES)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_hand_built_moves_are_applied_or_refused(key: str, data: st.DataObject) -> None:
    """apply checks Move objects too, not only parsed text: a bot or a replay may hand it anything."""
    saved = positions(key)[data.draw(st.integers(0, len(positions(key)) - 1), label="position")]
    state = restore(key, saved)
    seat = data.draw(st.sampled_from(sorted(state.to_act()) or [0]), label="seat")
    legal = [m for s in state.to_act() for m in state.legal_moves(s)]
    if not legal:
        return
    move = data.draw(st.sampled_from(legal), label="legal move")
    if dataclasses.is_dataclass(move) and dataclasses.fields(move):
        field = data.draw(st.sampled_from(dataclasses.fields(move)), label="field")
        value = data.draw(garbage_like(getattr(move, field.name), field.type), label="value")
        try:
            move = dataclasses.replace(move, **{field.name: value})
        except (TypeError, ValueError):
            return  # the move class itself refuses such a value: nothing reaches apply
    refuses_or_applies(state, seat, move)


@pytest.mark.parametrize(
    ("key", "text"),
    [
        ("ttr_cards", "keep ²"),
        ("ttr_cards", "take ³"),
        ("ttr_cards", "keep " + "7" * 5000),
        ("ttr_cards", "yard 100000000 red"),
        ("ttr_cards", "yard 1000000000 red"),
        ("ttr_cards", "complete ²"),
        ("santa_fe", "lay sf ² omaha"),
        ("santa_fe", "lay sf 99999999999999999999 omaha"),
    ],
)
def test_the_reported_texts_are_refused(key: str, text: str) -> None:
    for saved in positions(key):
        state = restore(key, saved)
        for seat in state.to_act():
            refuses_or_applies(state, seat, text)


def test_santa_fe_hand_built_moves_with_unknown_names_are_refused() -> None:
    from rules.santa_fe.moves import Branch, Draw, Exchange, Lay, Play

    for saved in positions("santa_fe"):
        state = restore("santa_fe", saved)
        for seat in state.to_act():
            for move, reason in [
                (Lay("sf", 1, "atlantis"), "Unknown city 'atlantis'."),
                (Branch("sf", "chicago", "atlantis"), "Unknown city 'atlantis'."),
                (Play("atlantis"), "Unknown city 'atlantis'."),
                (Exchange(("atlantis",)), "Unknown city 'atlantis'."),
                (Lay("zz", 1, "omaha"), "Unknown railroad 'zz'; use one of sf, sp, gn, up, kp."),
                (Draw("branch", "zz"), "Unknown railroad 'zz'; use one of sf, sp, gn, up, kp."),
            ]:
                before = state.to_json()
                with pytest.raises(IllegalMove) as refused:
                    state.apply(seat, move)
                assert str(refused.value.reason) == reason and state.to_json() == before


def test_numbers_are_ascii_digits_of_bounded_length() -> None:
    assert read_number("42") == 42 and read_number("007") == 7
    assert read_number("²") is None and read_number("٣") is None and read_number("") is None
    assert read_number("9" * 7) is None and read_number("-1") is None and read_number("+1") is None
