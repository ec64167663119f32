"""Recaps marked as recaps (issue 29, bot.delivery.posting): a new post says again, marked, only the lines
the live post already showed as the decisions of its turn; what no post showed stays unmarked."""

from __future__ import annotations

from bot.delivery.posting import RECAP, recap, recap_marked, unmarked
from bot.words import say
from rules.words import Msg, Seat

NAMES = ["Ann", "Bob"]


def line(text: str) -> dict:
    return Msg(text, who=Seat(0)).to_json() if "{who}" in text else Msg(text).to_json()


BID, PASS, DEAL, BIDS = line("{who} has bid."), line("Bob passes."), line("Cards dealt."), line("Bids: 1, 2")


def test_a_recap_reads_as_one_in_every_language_and_unmarks_to_the_line():
    marked = recap(BID)
    assert marked["id"] == RECAP and recap(marked) == marked  # never marked twice
    assert say(marked, "en", NAMES) == "(recap) Ann has bid."
    assert say(marked, "de", NAMES).startswith("(Rückblick) ")
    assert say(marked, "ja", NAMES).startswith("（振り返り）")
    assert unmarked(marked) == BID and unmarked(BID) == BID
    assert unmarked(recap("Ann bids (an old English line).")) == "Ann bids (an old English line)."


def test_the_lines_the_live_posts_decisions_showed_are_marked():
    # The live post showed its own lines (DEAL) and then, by edits, BID and PASS; the new post sums
    # up the turn (BID, PASS) and says BIDS for the first time.
    shown = {"lines": [DEAL, BID, PASS], "through": 9, "own": 1}
    assert recap_marked([BID, PASS, BIDS], 1, shown) == [recap(BID), recap(PASS), BIDS]


def test_decisions_no_post_showed_are_not_marked():
    # A crash (or a backlog) skipped the edit that would have shown PASS: only BID was shown.
    shown = {"lines": [DEAL, BID], "through": 9, "own": 1}
    assert recap_marked([BID, PASS, BIDS], 1, shown) == [recap(BID), PASS, BIDS]
    # A post that showed no decision of its turn: nothing is a recap, even a line equal to its own.
    assert recap_marked([DEAL, BIDS], 1, {"lines": [DEAL], "through": 9, "own": 1}) == [DEAL, BIDS]


def test_a_post_that_collapsed_a_backlog_counts_the_decisions_it_showed():
    # The live post collapsed a new turn (DEAL) and its first decision (BID): "own" ends at DEAL.
    shown = {"lines": [DEAL, BID], "through": 9, "own": 1}
    assert recap_marked([BID, BIDS], 1, shown) == [recap(BID), BIDS]


def test_without_words_or_fresh_counts_nothing_is_marked():
    assert recap_marked([BID, BIDS], 1, None) == [BID, BIDS]
    assert recap_marked([BID, BIDS], None, {"lines": [BID], "through": 1, "own": 0}) == [BID, BIDS]
