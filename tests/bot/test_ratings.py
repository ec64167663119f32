"""The rating math (bot/ratings.py) against openskill's own Plackett-Luce results on recorded finishes."""

from __future__ import annotations

import math

import pytest
from openskill.models import PlackettLuce

from bot.ratings import (
    AI_ANCHORS,
    PROVISIONAL_GAMES,
    GameRecord,
    Holder,
    Rating,
    SeatRecord,
    display_value,
    is_rated,
    rate_game,
)

MODEL = PlackettLuce()


def record(*seats: SeatRecord, guild_id: int | None = 7) -> GameRecord:
    return GameRecord(1, "guess", guild_id, 0.0, seats)


def human(seat: int, rank: int, user: int, moves: int = 10) -> SeatRecord:
    return SeatRecord(seat, rank, moves, (Holder(user, moves),))


def openskill(ratings: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    return [(t[0].mu, t[0].sigma) for t in MODEL.rate(teams, ranks=[float(r) for r in ranks])]


def close(rating: Rating, expected: tuple[float, float]) -> bool:
    return math.isclose(rating.mu, expected[0], rel_tol=1e-12) and math.isclose(rating.sigma, expected[1], rel_tol=1e-12)


@pytest.mark.parametrize("ranks", [[1, 2], [2, 1], [1, 1], [1, 2, 3], [2, 1, 1], [1, 2, 2, 4], [3, 1, 2, 4, 5],
                                   [1, 1, 1, 4, 5, 6], [6, 5, 4, 3, 2, 1]])
def test_free_for_all_with_ties_is_openskills_result(ranks):
    users = list(range(101, 101 + len(ranks)))
    before = {u: Rating(20.0 + 3 * i, 8.0 - i, i) for i, u in enumerate(users)}
    after = rate_game(record(*(human(s, r, u) for s, (r, u) in enumerate(zip(ranks, users, strict=True)))), before)
    expected = openskill([(before[u].mu, before[u].sigma) for u in users], ranks)
    for user, want in zip(users, expected, strict=True):
        assert close(after[user], want)
        assert after[user].games == before[user].games + 1
    # a tie gives tied players with equal ratings the same change
    if ranks == [1, 1]:
        fresh = rate_game(record(human(0, 1, 1), human(1, 1, 2)), {})
        assert fresh[1] == fresh[2]


def test_ai_seats_are_fixed_anchors_never_rated():
    seats = (human(0, 2, 1), SeatRecord(1, 1, 10, ai_level="hard"), human(2, 3, 2), SeatRecord(3, 4, 10, ai_level="easy"))
    after = rate_game(record(*seats), {})
    assert set(after) == {1, 2}
    base = (Rating().mu, Rating().sigma)
    expected = openskill([base, AI_ANCHORS["hard"], base, AI_ANCHORS["easy"]], [2, 1, 3, 4])
    assert close(after[1], expected[0]) and close(after[2], expected[2])


def test_fewer_than_two_humans_is_not_rated():
    solo = record(human(0, 1, 1), SeatRecord(1, 2, 10, ai_level="normal"))
    assert not is_rated(solo) and rate_game(solo, {}) == {}
    assert is_rated(record(human(0, 1, 1), human(1, 2, 2)))


def test_a_conceder_ranks_last_below_the_ai_that_took_the_seat_over():
    # Bob's seat, played on by the AI after he left, finished first; Bob still ranks last.
    seats = (human(0, 2, 1), SeatRecord(1, 1, 10, (Holder(2, 4, gone=True),)), human(2, 3, 3))
    after = rate_game(record(*seats), {})
    base = (Rating().mu, Rating().sigma)
    expected = openskill([base, base, base], [2, 3, 4])  # Ann 2nd, Cid 3rd, Bob (gone) after them
    assert close(after[1], expected[0]) and close(after[3], expected[1]) and close(after[2], expected[2])
    assert after[2].mu < after[3].mu < after[1].mu


def test_a_seat_handed_over_credits_each_human_by_their_share_of_its_moves():
    # Seat 0 finished first: Ann made 3 of its 12 moves, then handed it to Dan, who made the other 9.
    seats = (SeatRecord(0, 1, 12, (Holder(1, 3), Holder(4, 9))), human(1, 2, 2, 12), human(2, 3, 3, 12))
    before = {1: Rating(27.0, 6.0, 8), 4: Rating(22.0, 7.0, 2), 2: Rating(), 3: Rating(25.0, 5.0, 9)}
    after = rate_game(record(*seats), before)
    # Dan made most of the seat's moves: he is its entrant in openskill's update, unscaled by 9/12.
    main = openskill([(22.0, 7.0), (Rating().mu, Rating().sigma), (25.0, 5.0)], [1, 2, 3])
    dan = Rating(22.0 + 0.75 * (main[0][0] - 22.0), math.sqrt(49 + 0.75 * (main[0][1] ** 2 - 49)))
    assert math.isclose(after[4].mu, dan.mu) and math.isclose(after[4].sigma, dan.sigma)
    assert close(after[2], main[1]) and close(after[3], main[2])
    # Ann: the same seat with her rating, a quarter of the change.
    own = openskill([(27.0, 6.0), (Rating().mu, Rating().sigma), (25.0, 5.0)], [1, 2, 3])
    assert math.isclose(after[1].mu, 27.0 + 0.25 * (own[0][0] - 27.0))
    assert math.isclose(after[1].sigma, math.sqrt(36 + 0.25 * (own[0][1] ** 2 - 36)))
    assert 27.0 < after[1].mu < own[0][0]


def test_a_holder_without_moves_is_not_rated_and_moves_the_ai_made_count_for_nobody():
    # Ann handed her seat over before her first move; Bob left it to the AI for 4 of its 10 moves.
    seats = (SeatRecord(0, 1, 10, (Holder(1, 0), Holder(2, 6))), human(1, 2, 3))
    after = rate_game(record(*seats), {})
    assert set(after) == {2, 3}
    full = openskill([(Rating().mu, Rating().sigma)] * 2, [1, 2])
    assert math.isclose(after[2].mu, Rating().mu + 0.6 * (full[0][0] - Rating().mu))


def test_display_scale_and_provisional_mark():
    assert Rating().display == 1000 and display_value(Rating().mu, Rating().sigma) == 1000
    assert Rating(30.0, 2.0).display == round(1000 + 24 * (30 - 6))
    assert Rating(games=PROVISIONAL_GAMES - 1).provisional and not Rating(games=PROVISIONAL_GAMES).provisional
    winner = rate_game(record(human(0, 1, 1), human(1, 2, 2)), {})[1]
    assert winner.display > 1000 > rate_game(record(human(0, 1, 1), human(1, 2, 2)), {})[2].display


def test_scopes_global_and_the_games_server():
    assert record(human(0, 1, 1), guild_id=5).scopes() == ("global", "guild:5")
    assert record(human(0, 1, 1), guild_id=None).scopes() == ("global",)
