"""The move picker reaches every legal move in few clicks, 25 options at most per select."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ui.picker import PAGE_SIZE, autocomplete, menu

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
            if not choice.is_move and target.startswith(choice.value):
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
