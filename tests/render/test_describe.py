"""Board descriptions (alt text): generic fallback for any game, Trans Europa's own, never a secret."""

from __future__ import annotations

import render
from render.describe import MAX_DESCRIPTION, clip, generic
from rules.engine import play_out
from rules.registry import GAMES

NAMES = ["Ann", "Bob", "Cid"]


def test_generic_reads_the_base_view_keys_and_common_scores():
    view = {"game": "some_new_game", "seat": None, "num_seats": 2, "to_act": [1], "over": False,
            "moves_applied": 7, "scores": {"0": 3, "1": 5}, "round": 2}
    text = generic(view, NAMES)
    assert text == "Some New Game board after 7 moves, round 2. Scores: Ann 3, Bob 5. To act: Bob."
    assert "over" in generic({**view, "over": True, "to_act": []}, NAMES)


def test_dispatch_falls_back_for_a_game_without_render_module_and_clips():
    view = {"game": "no_such_game_here", "num_seats": 1, "to_act": [], "over": True, "moves_applied": 0}
    assert render.describe(view, ["Ann"]).startswith("No Such Game Here board after 0 moves.")
    assert len(clip("word " * 500)) <= MAX_DESCRIPTION


def test_every_registered_game_gets_a_description_of_its_public_view():
    for key, definition in GAMES.items():
        state = definition.new_game(definition.min_players, {}, 3)
        text = render.describe(state.view(None), NAMES)
        assert 10 < len(text) <= MAX_DESCRIPTION, key


def test_trans_europa_description_names_scores_turn_and_no_hand_city():
    te = GAMES["trans_europa"]
    state = te.new_game(3, {}, 11)
    greedy = te.ai("greedy")
    play_out(state, {s: greedy for s in range(3)}, max_moves=6)  # markers placed, a few tracks laid: hands secret
    text = render.describe(state.view(None), NAMES)
    assert text.startswith("Trans Europa, round 1:") and "Scores: Ann 13, Bob 13, Cid 13." in text
    assert "to play" in text
    hand_cities = {c["name"] for s in range(3) for c in state.view(s)["hand"]}
    assert not any(city in text for city in hand_cities)
    play_out(state, {s: greedy for s in range(3)})
    assert "Game over" in render.describe(state.view(None), NAMES)
