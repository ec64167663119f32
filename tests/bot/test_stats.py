"""What /profile, /leaderboard and /history read (bot/store/stats.py), on SQLite and PostgreSQL: ranks with
ties across page edges, a member's figures from played games, timeouts counted, head-to-head, histories."""

from __future__ import annotations

import random

from bot.ratings import display_value
from bot.store import stats
from bot.tables import Tables
from tests.bot.test_deadlines import GAMES as TIMED_GAMES
from tests.bot.test_deadlines import Clock
from tests.bot.test_deadlines import start as timed_start
from tests.bot.test_rating_store import played_game
from tests.bot.test_tables import ANN, BOB, CID, play_one

SCOPE = "guild:9"


async def seed(store, players: list[tuple[int, float, float, int]], scope: str = SCOPE, key: str = "guess") -> None:
    async with store.db.transaction() as tx:
        await tx.executemany(
            "INSERT INTO ratings (scope, game_key, user_id, mu, sigma, games, last_game_id, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, 0, 0)",
            [(scope, key, u, float(mu), float(sigma), games) for u, mu, sigma, games in players])


async def test_ties_share_a_rank_across_page_edges(store):
    # Shown numbers: 100 -> 1576, 101/102/103 tie at 1504, 104 -> 1432; 105 has too few games.
    await seed(store, [(100, 30, 2, 9), (101, 27, 2, 9), (102, 27, 2, 9), (103, 27, 2, 5), (104, 24, 2, 9),
                       (105, 40, 1, 2)])
    assert await stats.board_size(store, SCOPE, "guess") == 5
    page0 = await stats.board_page(store, SCOPE, "guess", 0, size=2)
    page1 = await stats.board_page(store, SCOPE, "guess", 1, size=2)
    page2 = await stats.board_page(store, SCOPE, "guess", 2, size=2)
    rows = [(s.rank, s.user_id, s.display, s.tied) for s in page0 + page1 + page2]
    assert rows == [(1, 100, 1576, False), (2, 101, 1504, True), (2, 102, 1504, True), (2, 103, 1504, True),
                    (5, 104, 1432, False)]
    assert display_value(27, 2) == 1504
    mine = await stats.standing_of(store, SCOPE, "guess", 103)
    assert (mine.rank, mine.position, mine.tied, mine.provisional) == (2, 3, True, False)
    assert await stats.standing_of(store, SCOPE, "guess", 105) is None  # 2 games: not on the board
    assert (await stats.standing_of(store, SCOPE, "guess", 105, min_games=1)).rank == 1
    assert await stats.board_page(store, "global", "guess", 0) == []  # another scope


async def test_a_members_figures_from_played_games(tables, store):
    first = await played_game(tables, seed=11)
    second = await played_game(tables, seed=12, channel=51)
    ranks = [{s["seat"]: s["rank"] for s in (await store.game(g)).result["seats"]} for g in (first, second)]
    won = sum(r[0] == 1 for r in ranks)
    figures = await stats.profile(store, ANN, 9)
    [guess] = figures.titles
    assert (guess.played, guess.finished, guess.won, guess.timeouts) == (2, 2, won, 0)
    assert guess.rating.games == 2 and guess.global_rating.games == 2 and guess.rank is None  # 2 < 3 games
    assert guess.players == 0 and figures.favourite == "guess"
    assert [g.game_id for g in figures.recent] == [second, first]
    assert set(figures.changes) == {first, second}
    history = await stats.rating_history(store, ANN, SCOPE, "guess")
    assert [v for _, v in history][0] == 1000 and len(history) == 3
    assert history[-1][1] == guess.rating.display
    # Another server sees none of it; the head-to-head counts both games.
    assert (await stats.profile(store, ANN, 10)).titles == []
    h2h = await stats.head_to_head(store, ANN, BOB, 9)
    assert (h2h.games, h2h.wins + h2h.losses + h2h.ties) == (2, 2)
    assert h2h.wins == sum(r[0] < r[1] for r in ranks) and h2h.losses == sum(r[0] > r[1] for r in ranks)
    assert (await stats.head_to_head(store, ANN, CID, 9)).games == 0


async def test_a_history_lists_finished_games_newest_first(tables, store):
    games = [await played_game(tables, seed=20 + n, channel=60 + n) for n in range(3)]
    assert await stats.history_size(store, 9) == 3 and await stats.history_size(store, 9, ANN) == 3
    page = await stats.history_page(store, 9, size=2)
    assert [e.game_id for e in page] == [games[2], games[1]]
    assert [e.game_id for e in await stats.history_page(store, 9, page=1, size=2)] == [games[0]]
    assert [e.game_id for e in await stats.history_page(store, 9, ANN, "guess", page=0, size=5)] == games[::-1]
    entry = page[0]
    assert entry.moves > 0 and {s[1] for s in entry.standings} == {ANN, BOB}
    [with_changes] = await stats.entries(store, [games[0]], SCOPE)
    assert set(with_changes.changes) == {ANN, BOB}
    assert await stats.history_size(store, 9, CID) == 0


async def test_timeouts_are_counted_in_all_and_read_per_member(store):
    clock = Clock()
    tables = Tables(store, games=TIMED_GAMES, now=clock)
    await tables.load()
    game_id = await timed_start(tables, users=(ANN, BOB), turn_hours=1, max_timeouts=5, timeout_action="ai")
    rng = random.Random(3)
    timeouts = 0
    while (await tables.info(game_id)).row.status == "running":
        info = await tables.info(game_id)
        if info.seats[info.to_act[0]].user_id == BOB:  # Bob never moves: his clock runs out each turn
            clock.advance(2)
            if await tables.fire_due(game_id) is not None:
                timeouts += 1
        else:
            await play_one(tables, game_id, rng)
    prefs = await store.seat_prefs(game_id)
    assert prefs[1].timeouts_total == timeouts >= 1 and 0 not in prefs
    [bob] = (await stats.profile(store, BOB, 9)).titles
    assert bob.timeouts == prefs[1].timeouts_total
    [ann] = (await stats.profile(store, ANN, 9)).titles
    assert ann.timeouts == 0 and ann.turn_seconds is not None


async def test_a_profile_shows_the_players_reliability_over_every_server(store, monkeypatch):
    """Item 6: /profile shows games finished against games left to the AI, and timeouts, over every server
    (what a lobby's minimum checks), in every language."""
    import locales
    from bot.i18n import t
    from bot.store.reliability import Reliability
    from bot.ui.profile import profile_text
    from tests.bot.guess_game import GAMES
    from tests.bot.test_lobby_hygiene import finished_and_conceded

    tables = Tables(store, games=GAMES)
    await tables.load()
    await finished_and_conceded(tables)  # Cid finishes one game and concedes another
    figures = await stats.profile(store, CID, 9)
    assert figures.reliability == Reliability(1, 1, 0)
    assert (await stats.profile(store, CID, 8)).reliability == Reliability(1, 1, 0)  # every server
    assert (await stats.profile(store, BOB, 9)).reliability == Reliability(0, 0, 0)  # a newcomer: 100%
    text = profile_text("en", CID, figures, lambda key: key, None)
    assert text.splitlines()[1] == "Reliability **50%** on all servers: 1 finished · 1 left to the AI · 0 timeouts"
    assert "**50%**" in profile_text("ja", CID, figures, lambda key: key, None).splitlines()[1]
    assert profile_text("ja", CID, figures, lambda key: key, None).splitlines()[1] == t(
        "ja", "Reliability **{percent}%** on all servers: {finished} finished · {abandoned} left to the AI · {timeouts}",
        percent=50, finished=1, abandoned=1, timeouts="時間切れ 0 回") == (
        "全サーバーでの信頼度 **50%**: 最後まで遊んだゲーム 1 · AI に任せたゲーム 1 · 時間切れ 0 回")
    monkeypatch.setattr(locales, "LANGUAGES", (*locales.LANGUAGES, "de"))  # German is not in LINGUAS yet
    assert profile_text("de", CID, figures, lambda key: key, None).splitlines()[1] == (
        "Zuverlässigkeit **50 %** auf allen Servern: 1 beendet · 1 der KI überlassen · 0-mal Zeit überschritten")
