"""What a batch owes (bot.service.owed), decided without Discord, a store or a game: which board post
(new, edit or none), which DMs, and what waits for later."""

from __future__ import annotations

from bot.service.owed import (
    batch_lines,
    board_owed,
    dms_owed,
    secret_digest,
    secret_parts,
    turn_begins,
    welcome_owed,
)
from bot.words import say
from rules.engine import private, public
from rules.words import Msg
from tests.bot.guess_game import DEFINITION

NAMES = ["Deck", "Bob", "Cid"]


def said(lines: list, lang: str = "en") -> list[str]:
    """Stored lines as a reader sees them (the names go in after the words)."""
    return [say(line, lang, NAMES) for line in lines]


# ---- lines


def test_batch_lines_puts_the_services_lines_first_and_names_the_seats():
    events = [public("{s0} bids."), private(1, "{s1} draws a 3."), public("{s2} passes.")]
    public_lines, private_lines = batch_lines(events, [Msg("{name} left the game.", name="Bob")])
    assert said(public_lines) == ["Bob left the game.", "Deck bids.", "Cid passes."]
    assert {seat: said(lines) for seat, lines in private_lines.items()} == {1: ["Bob draws a 3."]}
    assert all(isinstance(line, dict) for line in public_lines)  # stored as messages: names go in at the edge


# ---- whose turn begins


def test_a_turn_begins_for_a_seat_newly_awaited_or_released_during_the_batch():
    assert turn_begins({1}, was_to_act={0}, paused={0}) == [1]  # newly awaited
    assert turn_begins({0}, was_to_act={0}, paused=set()) == []  # the same turn goes on
    assert turn_begins({0}, was_to_act={0}, paused={0}) == [0]  # its turn passed and came back
    assert turn_begins({0, 2}, was_to_act={0, 2}, paused=set(), opening=True) == [0, 2]


# ---- the board post


def test_a_decision_inside_a_turn_edits_the_current_post():
    owed = board_owed(summary=["Ann played."], lines=["Bob bids."], public_lines=["Bob bids again."], moved=True)
    assert owed.board == {"lines": ["Ann played.", "Bob bids.", "Bob bids again."], "edit": True, "fresh": 1}
    assert (owed.summary, owed.lines) == (["Ann played."], ["Bob bids.", "Bob bids again."])


def test_a_new_turn_makes_a_new_post_that_sums_up_the_turn_before_and_pings():
    owed = board_owed(summary=["old"], lines=["Bob bids."], public_lines=["Bob passes."], moved=True,
                      new_turn=[2], previous_view={"scores": [0, 0, 0]})
    assert owed.board == {"lines": ["Bob bids.", "Bob passes."], "ping": [2], "fresh": 1,
                          "previous_view": {"scores": [0, 0, 0]}}
    assert (owed.summary, owed.lines) == (["Bob bids.", "Bob passes."], [])


def test_the_end_and_the_services_own_lines_make_a_new_post():
    over = board_owed(summary=[], lines=["a"], public_lines=["b"], moved=True, over=True, result=["1. Ann: 3"])
    assert over.board is not None and "edit" not in over.board and over.board["result"] == ["1. Ann: 3"]
    said = board_owed(summary=[], lines=[], public_lines=["Bob left."], moved=False, extra_lines=True)
    assert said.board == {"lines": ["Bob left."], "ping": [], "fresh": 1}


def test_a_batch_without_moves_or_lines_owes_no_post():
    assert board_owed(summary=["s"], lines=["l"], public_lines=[], moved=False).board is None


# ---- DMs


def _dms(**given):
    facts = {"humans": [0, 1], "choices": {0: "all", 1: "all"}, "news": {}, "private_lines": {},
             "new_turn": [], "movers": [], "secrets_after": {0: {"hand": [1]}, 1: {"hand": [2]}},
             "sent": {0: secret_digest({"hand": [1]}), 1: secret_digest({"hand": [2]})}}
    return dms_owed(**{**facts, **given})


def test_private_news_waits_for_the_seats_turn_and_never_for_another_players_move():
    owed = _dms(private_lines={1: ["You draw a 5."]}, movers=[0])
    assert owed.posts == [] and owed.news == {1: ["You draw a 5."]}
    later = _dms(news=owed.news, new_turn=[1], movers=[0])
    assert [(p.kind, p.seat, p.payload) for p in later.posts] == [
        ("dm", 1, {"lines": ["You draw a 5."], "since": True, "digest": secret_digest({"hand": [2]})})]
    assert later.news == {}


def test_a_changed_hand_is_sent_when_the_turn_begins_and_remembered():
    owed = _dms(secrets_after={0: {"hand": [1, 4]}, 1: {"hand": [2]}}, new_turn=[0], movers=[0])
    assert [(p.seat, p.payload) for p in owed.posts] == [(0, {"lines": [], "digest": secret_digest({"hand": [1, 4]})})]
    assert owed.sent[0] == secret_digest({"hand": [1, 4]})
    assert _dms(new_turn=[0], movers=[0]).posts == []  # nothing new: no DM


def test_a_dm_row_carries_the_moves_applied_when_owed():
    """What a DM shows is the game then (replayed if it is sent later), not when it is sent."""
    owed = _dms(secrets_after={0: {"hand": [1, 4]}, 1: {"hand": [2]}}, new_turn=[0], movers=[1], at=17)
    assert [(p.seat, p.payload["at"]) for p in owed.posts] == [(0, 17)]
    assert all("at" not in p.payload for p in _dms(new_turn=[0], movers=[1]).posts)  # not given: none
    welcome = welcome_owed(humans=[0], choices={0: "all"}, opening=[], to_act={0},
                           secrets={0: {"hand": [4]}}, at=0)
    assert welcome.posts[0].payload["at"] == 0


def test_the_players_choice_of_dms():
    ended = _dms(choices={0: "all", 1: "turn"}, private_lines={0: ["x"], 1: ["y"]}, over=True)
    assert [p.seat for p in ended.posts] == [0]  # `turn`: no DM at the end of the game
    off = _dms(choices={0: "off", 1: "all"}, private_lines={0: ["x"]}, new_turn=[0], movers=[1])
    assert off.posts == [] and off.news == {}  # `off`: no DM, and the news is not kept


def test_a_seat_taken_back_gets_its_welcome_in_words_when_it_chose_no_dms():
    owed = _dms(choices={0: "off", 1: "all"}, welcome=(0, 1))
    assert [(p.seat, p.payload) for p in owed.posts] == [
        (1, {"lines": [], "welcome": True, "digest": secret_digest({"hand": [2]})}),
        (0, {"lines": [], "welcome": True, "dms": "off"})]


# ---- the deal's welcome DMs


def test_the_welcome_dm_follows_each_players_choice():
    opening = [public("{s0} deals."), private(0, "{s0} holds a 4."), private(1, "{s1} holds a 2."),
               private(2, "{s2} holds a 6.")]
    secrets = {0: {"hand": [4]}, 1: {"hand": [2]}, 2: {"hand": [6]}}
    owed = welcome_owed(humans=[0, 1, 2], choices={0: "all", 1: "turn", 2: "off"}, opening=opening,
                        to_act={0}, secrets=secrets)
    assert [(p.seat, {**p.payload, "lines": said(p.payload["lines"])}) for p in owed.posts] == [
        (0, {"lines": ["Deck holds a 4."], "welcome": True, "digest": secret_digest({"hand": [4]})}),
        (2, {"lines": [], "welcome": True, "dms": "off"})]  # `off`: a welcome in words only
    assert {seat: said(lines) for seat, lines in owed.news.items()} == {1: ["Bob holds a 2."]}  # `turn`: waits
    assert owed.welcomed == [0]
    first = welcome_owed(humans=[1], choices={1: "turn"}, opening=opening, to_act={1}, secrets=secrets)
    assert [p.seat for p in first.posts] == [1] and first.news == {}  # `turn` and to act: welcomed now


# ---- secrets


def test_secret_parts_hold_only_what_the_public_view_does_not_show():
    state = DEFINITION.new_game(2, {}, 7)
    parts = secret_parts(state, [0, 1])
    public_view = state.view(None)
    assert set(parts) == {0, 1} and parts[0] != parts[1]
    for part in parts.values():
        assert part and all(k not in public_view or public_view[k] != v for k, v in part.items())
