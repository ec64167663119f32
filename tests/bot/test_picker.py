"""The move picker reaches every legal move in few clicks, 25 options at most per select."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ui.picker import PAGE_SIZE, autocomplete, menu, under

CITIES = ["paris", "zurich", "wien", "madrid", "berlin", "roma", "oslo", "kyiv"]
POINTS = [f"{row}{col}" for row in "abcdefghijkl" for col in range(1, 31, 2)]


def reach(moves: list[str], target: str) -> int:
    """Clicks a player needs to pick `target` from the picker (each group or page choice is one)."""
    prefix, page, clicks = "", 0, 0
    while True:
        current = menu(moves, prefix, page)
        assert 0 < len(current.choices) <= PAGE_SIZE
        for choice in current.choices:
            if choice.is_move and choice.value == target:
                return clicks + 1
            if not choice.is_move and under(target, choice.value):
                prefix, page, clicks = choice.value, 0, clicks + 1
                break
        else:
            assert current.page + 1 < current.pages, f"{target} not reachable under {prefix!r}"
            page, clicks = page + 1, clicks + 1
        assert clicks < 20


def test_start_moves_all_share_the_first_word():
    moves = sorted(f"start {p}" for p in CITIES + POINTS)  # 188 moves, one first word
    assert max(reach(moves, m) for m in moves) <= 3


def test_few_moves_are_one_select():
    moves = ["end", "lay paris g11", "lay g11 h12"]
    current = menu(moves)
    assert [c.value for c in current.choices] == sorted(moves) and current.pages == 1


@settings(deadline=None, max_examples=60)
@given(st.lists(st.text(alphabet="abc 12", min_size=1, max_size=12).map(str.strip).filter(bool),
                min_size=1, max_size=400, unique=True))
def test_every_move_is_reachable(moves):
    moves = sorted(moves)
    for move in moves:
        reach(moves, move)


def test_autocomplete_prefers_prefix_matches_and_caps_at_25():
    moves = sorted(f"lay {a} {b}" for a in POINTS[:10] for b in POINTS[10:20]) + ["end"]
    found = autocomplete(moves, "LAY  a1")
    assert len(found) == 25 and all(m.startswith("lay a1") for m in found)
    assert autocomplete(moves, "nd") == ["end"]
    assert autocomplete(moves, "zzz") == []


# ---- with Trans Europa's real legal moves (cities by name, other junctions by square id)

def trans_europa_lays() -> dict[int, list[str]]:
    """Each seat's legal moves at its first lay, start markers at Warszawa, Malmö and Paris."""
    from rules.registry import GAMES

    state = GAMES["trans_europa"].new_game(3, {"first_player": "seat0"}, seed=7)
    for seat, city in enumerate(("warszawa", "malmo", "paris")):
        state.apply(seat, f"start {city}")
    moves: dict[int, list[str]] = {}
    while len(moves) < 3:
        seat = min(state.to_act())
        legal = [str(m) for m in state.legal_moves(seat)]
        moves.setdefault(seat, legal)
        state.apply(seat, next(m for m in legal if m.startswith("lay")) if "end" not in legal else "end")
    return moves


def test_autocomplete_finds_a_city_at_either_end_of_a_track():
    lays = trans_europa_lays()
    warszawa = [m for m in lays[0] if "warszawa" in m.split()]
    assert len(warszawa) == 6
    assert sorted(autocomplete(lays[0], "lay war")) == sorted(warszawa)
    assert sorted(autocomplete(lays[0], "war")) == sorted(warszawa)
    malmo = autocomplete(lays[1], "lay mal")
    assert malmo and all("malmo" in m.split() for m in malmo)
    assert any(m.split()[1] != "malmo" for m in malmo)  # e.g. `lay b18 malmo`, the city written last
    paris = autocomplete(lays[2], "lay par")
    assert sorted(paris) == sorted(m for m in lays[2] if "paris" in m.split()) and len(paris) >= 4
    # the whole text as a prefix comes first
    assert all(m.startswith("lay paris") for m in paris[: sum(m.startswith("lay paris") for m in paris)])


def test_autocomplete_orders_numbers_by_value():
    moves = ["bid t2 10", "bid t2 3", "bid t2 2", "bid t10 1", "bid t1 1"]
    assert autocomplete(moves, "bid") == ["bid t1 1", "bid t2 2", "bid t2 3", "bid t2 10", "bid t10 1"]


def start_moves() -> list[str]:
    from rules.registry import GAMES

    state = GAMES["trans_europa"].new_game(3, {}, seed=7)
    return [str(m) for m in state.legal_moves(min(state.to_act()))]


def test_picker_groups_never_mix_squares_with_cities_and_sort_by_value():
    moves = start_moves()
    assert len(moves) > 150
    top = menu(moves)
    assert top.pages == 1  # the names by letter and one group of every square: no second page
    squares_seen = 0
    choices = list(top.choices)
    while choices:
        choice = choices.pop(0)
        if choice.is_move:
            continue
        members = [m for m in moves if under(m, choice.value)]
        assert len(members) == choice.count > 1
        kinds = {m.split()[1][-1].isdigit() for m in members}
        assert len(kinds) == 1, (choice.label, members)
        inner = menu(moves, choice.value).choices
        if kinds == {True} and all(c.is_move for c in inner):
            squares_seen += 1
            numbers = [int(c.value.split()[1][1:]) for c in inner]
            assert numbers == sorted(numbers), inner  # d2 before d10
            row = members[0].split()[1][0]
            assert choice.label.startswith(f"start {row}") and "–" in choice.label
        elif kinds == {True}:  # every square: a group per row below it
            assert choice.label.startswith("start a") and "–" in choice.label
            choices.extend(inner)
    assert squares_seen >= 5
    # every start move within 3 clicks, none on a second page
    assert max(reach(moves, m) for m in moves) <= 3
    assert all(menu(moves, prefix).pages == 1 for prefix in ("", "start #"))


def test_off_the_rails_lays_take_three_clicks_at_most():
    """About 1,100 `lay SQUARE EDGES` moves: the rows sit at the top beside `cart …` and `end`, so a
    tile is row → square → tile; `undo` (after an action) is one click."""
    from rules.registry import GAMES

    state = GAMES["off_the_rails"].new_game(3, {}, seed=1)
    seat = min(state.to_act())
    moves = [str(m) for m in state.legal_moves(seat)]
    assert len(moves) > 1000
    top = menu(moves)
    assert top.pages == 1 and any(c.value == "end" for c in top.choices)
    assert max(reach(moves, m) for m in moves[::9] + [m for m in moves if not m.startswith("lay")]) <= 3
    state.apply(seat, next(m for m in moves if m.startswith("lay")))
    after = [str(m) for m in state.legal_moves(seat)]
    assert reach(after, "undo") == 1
    assert max(reach(after, m) for m in after[::13]) <= 3


def test_shortcuts_come_first_in_one_click_and_a_group_they_cover_goes():
    """Off the Rails' shortcuts (the track ahead of your carts, their speed changes) head the top
    menu: one click for the lays a player makes most; everything else stays within 3 clicks."""
    from rules.registry import GAMES

    state = GAMES["off_the_rails"].new_game(3, {}, seed=1)
    seat = min(state.to_act())
    state.apply(seat, "cart white e1")
    moves = [str(m) for m in state.legal_moves(seat)]
    shortcuts = [str(m) for m in state.shortcuts(seat)]
    assert shortcuts and set(shortcuts) <= set(moves)
    ahead = [m for m in shortcuts if m.startswith("lay")]
    assert ahead and {m.split()[1] for m in ahead} == {"e2"}  # the square the cart faces
    top = menu(moves, shortcuts=shortcuts)
    assert [c.value for c in top.choices[: len(shortcuts)]] == shortcuts
    assert len(top.choices) <= PAGE_SIZE and top.total == len(moves)
    assert not any(c.label == "speed …" for c in top.choices)  # both speed moves are shortcuts
    assert menu(moves, "lay e#").choices == menu(moves, "lay e#", shortcuts=shortcuts).choices  # top only
    assert max(reach(moves, m) for m in moves[::11]) <= 3
