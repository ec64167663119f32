"""Seasons in the store, on SQLite and PostgreSQL, with the injected clock: games rated in their season from the
base rating, standings with ties, the end handled once (also by two processes at once) with the next season,
the results post claimed once."""

from __future__ import annotations

import asyncio

import pytest

from bot.ratings import display_value
from bot.store import Store, StoreError
from bot.store.seasons import (
    WEEK,
    claim_results,
    due_seasons,
    end_season,
    release_results,
    results_owed,
    results_sent,
    running_season,
    start_season,
    stop_season,
    top_three,
)
from bot.store.stats import board_page
from bot.tables import Tables
from tests.bot.guess_game import GAMES
from tests.bot.test_deadlines import T0, Clock
from tests.bot.test_lobby_hygiene import finish, open_lobby
from tests.bot.test_tables import ANN, BOB, CID

GUILD = 9  # tests.bot.test_lobby_hygiene.open_lobby opens its games in server 9


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def timed(store, clock):
    tables = Tables(store, games=GAMES, now=clock)
    await tables.load()
    return tables


async def played(tables: Tables, users, channel: int, seed: int) -> int:
    game_id = await open_lobby(tables, users=users, channel=channel, options={"rounds": 1}, seed=seed)
    await tables.start(game_id, users[0])
    await finish(tables, game_id, seed=seed)
    return game_id


async def scopes_of(store: Store, game_id: int) -> list[str]:
    return sorted(r[0] for r in await store.db.fetch("SELECT scope FROM rated_games WHERE game_id = ?", (game_id,)))


async def test_a_seasons_games_count_from_the_base_rating_and_its_end_comes_once(timed, store, clock):
    before = await played(timed, (ANN, BOB), 50, 1)
    assert await scopes_of(store, before) == ["global", "guild:9"]
    season = await start_season(store, GUILD, 2, 700)
    assert season.number == 1 and season.ends_at == T0 + 2 * WEEK and await due_seasons(store) == {season.id: T0 + 2 * WEEK}
    with pytest.raises(StoreError, match="running on this server already"):
        await start_season(store, GUILD, 1, 700)
    first = await played(timed, (ANN, BOB), 51, 2)
    await played(timed, (ANN, CID), 52, 3)
    assert await scopes_of(store, first) == ["global", "guild:9", f"season:{season.id}"]
    # Everyone starts the season from the base rating: Ann's season rating counts two games, not three.
    games = {r[0]: r[1] for r in await store.db.fetch(
        "SELECT user_id, games FROM ratings WHERE scope = ?", (season.scope,))}
    assert games == {ANN: 2, BOB: 1, CID: 1}
    standings = await board_page(store, season.scope, "guess", 0, min_games=1)
    assert sorted(s.user_id for s in standings) == [ANN, BOB, CID] and standings[0].rank == 1
    assert [s.display for s in standings] == sorted((s.display for s in standings), reverse=True)
    assert await board_page(store, season.scope, "guess", 0) == []  # the leaderboard's minimum: 3 rated games

    clock.advance(2 * 7 * 24 - 1)
    assert await end_season(store, season.id) is None  # not due yet
    clock.advance(1)
    ended, following = await end_season(store, season.id)
    assert ended.status == "over" and (following.number, following.starts_at, following.ends_at) == (
        2, T0 + 2 * WEEK, T0 + 4 * WEEK)
    assert await end_season(store, season.id) is None  # once
    assert (await running_season(store, GUILD)).id == following.id
    later = await played(timed, (ANN, BOB), 53, 4)
    assert f"season:{season.id}" not in await scopes_of(store, later)
    assert f"season:{following.id}" in await scopes_of(store, later)
    podium = await top_three(store, season.id)
    assert list(podium) == ["guess"] and len(podium["guess"]) == 3


async def test_the_podium_keeps_ties_also_past_a_page(store):
    """The podium is the season's leaderboard read up to rank 3: twelve players tied first (past a page of
    ten) are all on it, the thirteenth (ranked 13) is not."""
    season = await start_season(store, GUILD, 1, 700)
    players = [(user, 30.0) for user in range(1, 13)] + [(13, 20.0)]
    rows = [(season.scope, "guess", user, mu, 5.0, 1, 1, 0.0) for user, mu in players]
    await store.db.write("INSERT INTO ratings (scope, game_key, user_id, mu, sigma, games, last_game_id, updated_at)"
                         " VALUES " + ", ".join("(?, ?, ?, ?, ?, ?, ?, ?)" for _ in rows) + " RETURNING user_id",
                         [v for row in rows for v in row])
    [(key, places)] = (await top_three(store, season.id)).items()
    assert key == "guess" and [(s.rank, s.user_id, s.display) for s in places] == [
        (1, user, display_value(30.0, 5.0)) for user in range(1, 13)]


async def test_stopped_seasons_end_without_results_and_long_downtime_starts_the_next_now(store, clock):
    store.now = clock
    season = await start_season(store, GUILD, 1, 700)
    stopped = await stop_season(store, GUILD)
    assert stopped.status == "stopped" and await running_season(store, GUILD) is None
    assert await stop_season(store, GUILD) is None and await results_owed(store) == []
    season = await start_season(store, GUILD, 1, 700)
    assert season.number == 2
    clock.advance(5 * 7 * 24)  # the bot was down for five weeks
    _, following = await end_season(store, season.id)
    assert following.starts_at == clock() and following.ends_at == clock() + WEEK


async def test_two_processes_end_a_season_once_and_post_its_results_once(db_path, clock):
    """PostgreSQL: two stores (two shard processes) race for the end and the results post; SQLite: one store."""
    first = await Store.open(db_path)
    second = await Store.open(db_path) if first.shared else first
    try:
        first.now = second.now = clock
        seasons = [await start_season(first, guild, 1, 700) for guild in (1, 2, 3)]
        clock.advance(7 * 24)
        ends = await asyncio.gather(*(end_season(s, season.id) for season in seasons for s in (first, second) * 2))
        assert sum(e is not None for e in ends) == len(seasons)
        assert sorted(await results_owed(first)) == [s.id for s in seasons]
        claims = await asyncio.gather(*(claim_results(s, season.id, owner, 60) for season in seasons
                                        for s, owner in ((first, "a"), (second, "b"), (first, "c"))))
        assert sum(claims) == len(seasons) and await results_owed(first) == []
        winner = ["abc"[claims[3 * i:3 * i + 3].index(True)] for i in range(len(seasons))]
        await release_results(first, seasons[0].id, winner[0])  # the post failed: owed again
        assert await results_owed(first) == [seasons[0].id]
        await results_sent(first, seasons[1].id, 123)
        assert not await claim_results(second, seasons[1].id, "d", 60)  # sent: never again
        clock.advance(1)  # the third's lease runs out (its process died): another takes it over
        assert await results_owed(second) == [seasons[0].id, seasons[2].id]
    finally:
        if second is not first:
            await second.close()
        await first.close()


async def test_a_season_button_reads_only_its_own_servers_season(store):
    """A leaderboard button carries its season's id (s<id>): read back on this server only."""
    from types import SimpleNamespace

    from bot.ui.leaderboard import board_of

    season = await start_season(store, GUILD, 1, 700)

    def clicked(guild: int):
        return SimpleNamespace(guild_id=guild, client=SimpleNamespace(tables=SimpleNamespace(store=store)))

    board = await board_of(clicked(GUILD), f"s{season.id}")
    assert board.season == season and board.scope(GUILD) == season.scope and board.letter == f"s{season.id}"
    assert await board_of(clicked(GUILD + 1), f"s{season.id}") is None  # another server's season
    assert await board_of(clicked(GUILD), f"s{season.id + 1}") is None
    assert (await board_of(clicked(GUILD), "w")).scope(GUILD) == "global"
    assert (await board_of(clicked(GUILD), "g")).scope(GUILD) == f"guild:{GUILD}"
