"""What /profile, /leaderboard and /history read: a member's games and results, a scope's standings, a
server's finished games; queries only, each bounded by an index (migration 11) and a page or a limit.

A member "played" a game when they held one of its seats (its final holder, or a holder of a hand-over
from migration 10 on) in a game that started; they "finished" it when they still held the seat at the
end, and "won" it when that seat ranked first (a shared first place is a win for each). Ranks come
from the game's own result, ties kept.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.ratings import PROVISIONAL_GAMES, Rating, display_value
from bot.store.core import Store
from bot.store.reliability import Reliability, reliability

MIN_RATED_GAMES = 3  # rated games a player needs to appear on a leaderboard
PAGE_SIZE = 10  # leaderboard rows or history entries on one page
RECENT = 5  # recent results on a profile
TURN_GAMES = 100  # the member's latest games whose turns the average time per turn reads
CHART_POINTS = 200  # rating changes per title the chart shows (the latest)
TITLES_SHOWN = 6  # titles a profile lists (the most played first)


def guild_scope(guild_id: int | None) -> str:
    """A server's rating scope ('global' outside a server)."""
    return f"guild:{guild_id}" if guild_id is not None else "global"


def _marks(values: Sequence[object]) -> str:
    return ", ".join("?" for _ in values)


def _ordinal_above(display: int) -> float:
    """The least mu - 3 sigma whose shown number is above `display` (the shown number rounds
    1000 + 24 (mu - 3 sigma)): a player's rank counts everyone at or past it."""
    return (display + 0.5 - 1000.0) / 24.0


# ---------------------------------------------------------------------------------------- leaderboards


@dataclass(frozen=True)
class Standing:
    """One leaderboard row: players with the same shown number share a rank."""

    rank: int
    user_id: int
    display: int
    games: int
    position: int = 0  # 0-based place in the board's order (its page is position // PAGE_SIZE)
    tied: bool = False  # another player shows the same number (and so shares the rank)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


_ORDER = "mu - 3 * sigma"  # the expression the index ratings_by_ordinal sorts by


async def board_size(store: Store, scope: str, game_key: str, min_games: int = MIN_RATED_GAMES) -> int:
    """How many players a leaderboard lists."""
    rows = await store.db.fetch("SELECT count(*) FROM ratings WHERE scope = ? AND game_key = ? AND games >= ?",
                                (scope, game_key, min_games))
    return rows[0][0]


async def _rank(store: Store, scope: str, game_key: str, display: int, min_games: int) -> int:
    """1 + the players whose shown number is above `display`."""
    rows = await store.db.fetch(
        f"SELECT count(*) FROM ratings WHERE scope = ? AND game_key = ? AND {_ORDER} >= ? AND games >= ?",
        (scope, game_key, _ordinal_above(display), min_games))
    return rows[0][0] + 1


async def board_page(store: Store, scope: str, game_key: str, page: int, size: int = PAGE_SIZE,
                     min_games: int = MIN_RATED_GAMES) -> list[Standing]:
    """One page of a leaderboard, best first; players who show the same number share the rank of the
    first of them and are marked tied, also across the page's edges (the row after the page is read)."""
    rows = await store.db.fetch(
        f"SELECT user_id, mu, sigma, games FROM ratings WHERE scope = ? AND game_key = ? AND games >= ?"
        f" ORDER BY {_ORDER} DESC, user_id LIMIT ? OFFSET ?", (scope, game_key, min_games, size + 1, page * size))
    shown = [display_value(mu, sigma) for _, mu, sigma, _ in rows]
    standings: list[Standing] = []
    for index, (user_id, _, _, games) in enumerate(rows[:size]):
        display = shown[index]
        if index and shown[index - 1] == display:
            rank = standings[-1].rank
        elif index == 0:
            rank = await _rank(store, scope, game_key, display, min_games)
        else:
            rank = page * size + index + 1
        position = page * size + index
        tied = rank < position + 1 or display in (shown[index - 1] if index else None,
                                                  shown[index + 1] if index + 1 < len(shown) else None)
        standings.append(Standing(rank, user_id, display, games, position, tied))
    return standings


async def rated_games(store: Store, scope: str, game_key: str, user_id: int) -> int:
    """A player's rated games of a title in a scope (0: none)."""
    rows = await store.db.fetch("SELECT games FROM ratings WHERE scope = ? AND game_key = ? AND user_id = ?",
                                (scope, game_key, user_id))
    return rows[0][0] if rows else 0


async def standing_of(store: Store, scope: str, game_key: str, user_id: int,
                      min_games: int = MIN_RATED_GAMES) -> Standing | None:
    """A player's row on a leaderboard (None: not on it, too few rated games or none)."""
    rows = await store.db.fetch("SELECT mu, sigma, games FROM ratings WHERE scope = ? AND game_key = ? AND user_id = ?",
                                (scope, game_key, user_id))
    if not rows or rows[0][2] < min_games:
        return None
    mu, sigma, games = rows[0]
    ordinal = mu - 3 * sigma
    before = await store.db.fetch(
        f"SELECT count(*) FROM ratings WHERE scope = ? AND game_key = ? AND games >= ?"
        f" AND ({_ORDER} > ? OR ({_ORDER} = ? AND user_id < ?))",
        (scope, game_key, min_games, ordinal, ordinal, user_id))
    display = display_value(mu, sigma)
    rank = await _rank(store, scope, game_key, display, min_games)
    same = await store.db.fetch(
        f"SELECT count(*) FROM ratings WHERE scope = ? AND game_key = ? AND games >= ? AND {_ORDER} >= ?"
        f" AND {_ORDER} < ?", (scope, game_key, min_games, _ordinal_above(display - 1), _ordinal_above(display)))
    return Standing(rank, user_id, display, games, before[0][0], same[0][0] > 1)


# ---------------------------------------------------------------------------------------- a member's games


@dataclass(frozen=True)
class Played:
    """One game a member held a seat in (started: running or over)."""

    game_id: int
    game_key: str
    status: str
    seat: int
    finished: bool  # over, and the member held the seat at the end
    rank: int | None  # the seat's rank when over
    seats: int
    ended_at: float
    guild_id: int | None
    place_id: int
    message_id: int | None

    @property
    def won(self) -> bool:
        return self.finished and self.rank == 1


def _ranks(result: str | None) -> dict[int, int]:
    if not result:
        return {}
    return {int(s["seat"]): int(s["rank"]) for s in json.loads(result).get("seats", [])}


async def games_of(store: Store, user_id: int, guild_id: int | None = None, game_key: str | None = None,
                   over_only: bool = False, limit: int | None = None, offset: int = 0) -> list[Played]:
    """The member's started games (in one server, of one title), the latest end first."""
    where, args = ["g.status IN ('running', 'over')" if not over_only else "g.status = 'over'"], []
    if guild_id is not None:
        where += ["g.guild_id = ?"]
        args.append(guild_id)
    if game_key is not None:
        where += ["g.game_key = ?"]
        args.append(game_key)
    rows = await store.db.fetch(
        "SELECT g.id, g.game_key, g.status, m.seat, f.user_id, g.result, g.updated_at, g.guild_id,"
        " coalesce(g.thread_id, g.channel_id), g.board_message_id,"
        " (SELECT count(*) FROM seats n WHERE n.game_id = g.id)"
        " FROM (SELECT game_id, seat FROM seats WHERE user_id = ?"
        "       UNION SELECT game_id, seat FROM seat_holders WHERE user_id = ?) m"
        " JOIN games g ON g.id = m.game_id"
        " LEFT JOIN seats f ON f.game_id = g.id AND f.seat = m.seat AND f.user_id = ?"
        f" WHERE {' AND '.join(where)} ORDER BY g.updated_at DESC, g.id DESC"
        + (" LIMIT ? OFFSET ?" if limit is not None else ""),
        (user_id, user_id, user_id, *args, *((limit, offset) if limit is not None else ())))
    played: dict[int, Played] = {}
    for game_id, key, status, seat, holder, result, ended, guild, place, message, seats in rows:
        if game_id in played and not played[game_id].finished and holder is None:
            continue  # a hand-over's earlier seat; the seat they hold at the end counts
        rank = _ranks(result).get(seat) if status == "over" else None
        played[game_id] = Played(game_id, key, status, seat, status == "over" and holder is not None, rank,
                                 seats, ended, guild, place, message)
    return list(played.values())


@dataclass
class TitleStats:
    """A member's figures for one title on a server."""

    game_key: str
    played: int = 0
    finished: int = 0
    won: int = 0
    timeouts: int = 0
    turn_seconds: float | None = None  # average time per turn (the latest TURN_GAMES games)
    rating: Rating | None = None  # on this server
    rank: int | None = None  # on this server's leaderboard (None: not on it)
    players: int = 0  # on that leaderboard
    global_rating: Rating | None = None

    @property
    def win_share(self) -> float | None:
        return self.won / self.finished if self.finished else None


@dataclass
class Profile:
    """What /profile shows of a member on a server."""

    user_id: int
    titles: list[TitleStats] = field(default_factory=list)
    recent: list[Played] = field(default_factory=list)
    changes: dict[int, int] = field(default_factory=dict)  # game id -> the shown rating's change
    reliability: Reliability = Reliability()  # over every server, as a lobby's minimum checks it

    @property
    def favourite(self) -> str | None:
        """The title the member played most (the better win share breaks a tie)."""
        if not self.titles:
            return None
        return max(self.titles, key=lambda t: (t.played, t.won)).game_key


async def profile(store: Store, user_id: int, guild_id: int | None, game_key: str | None = None) -> Profile:
    """A member's profile on a server: per title played, won, finished, timeouts, the average time per
    turn, the rating and rank here and the global rating; the recent results with their rating change; the
    reliability over every server (bot/store/reliability.py)."""
    games = await games_of(store, user_id, guild_id, game_key)
    titles: dict[str, TitleStats] = {}
    for game in games:
        stats = titles.setdefault(game.game_key, TitleStats(game.game_key))
        stats.played += 1
        stats.finished += game.finished
        stats.won += game.won
    shown = sorted(titles.values(), key=lambda t: (-t.played, t.game_key))[:TITLES_SHOWN]
    keys = [t.game_key for t in shown]
    scope = guild_scope(guild_id)
    if keys:
        for key, mu, sigma, count, where in await store.db.fetch(
                f"SELECT game_key, mu, sigma, games, scope FROM ratings WHERE user_id = ? AND scope IN (?, 'global')"
                f" AND game_key IN ({_marks(keys)})", (user_id, scope, *keys)):
            rating = Rating(mu, sigma, count)
            if where == scope:
                titles[key].rating = rating
            if where == "global":
                titles[key].global_rating = rating
        for stats in shown:
            stats.players = await board_size(store, scope, stats.game_key)
            standing = await standing_of(store, scope, stats.game_key, user_id)
            stats.rank = standing.rank if standing else None
        await _timeouts(store, user_id, games, titles)
        await _turn_times(store, games, titles)
    recent = [g for g in games if g.status == "over"][:RECENT]
    changes = await rating_changes(store, user_id, scope, [g.game_id for g in recent])
    return Profile(user_id, shown, recent, changes, await reliability(store, user_id))


async def _timeouts(store: Store, user_id: int, games: list[Played], titles: dict[str, TitleStats]) -> None:
    """Timeouts of the member's seats (their seat's count while they held it at the end, or when the AI
    took it from them: seat_prefs.away_user_id)."""
    by_id = {g.game_id: g for g in games}
    ids = list(by_id)
    for start in range(0, len(ids), 500):
        part = ids[start:start + 500]
        for game_id, seat, total, away in await store.db.fetch(
                f"SELECT game_id, seat, timeouts_total, away_user_id FROM seat_prefs WHERE game_id IN ({_marks(part)})"
                " AND timeouts_total > 0", part):
            game = by_id[game_id]
            if seat == game.seat and (game.finished or game.status == "running" or away == user_id):
                titles[game.game_key].timeouts += total


async def _turn_times(store: Store, games: list[Played], titles: dict[str, TitleStats]) -> None:
    """The average time from a turn's start (the move before it, by another seat) to its first move, over
    the member's latest TURN_GAMES games of each title."""
    by_key: dict[str, list[Played]] = {}
    for game in games:
        by_key.setdefault(game.game_key, []).append(game)
    for key, listed in by_key.items():
        latest = listed[:TURN_GAMES]
        seats = {g.game_id: g.seat for g in latest}
        ids = list(seats)
        rows = await store.db.fetch(
            "SELECT game_id, seat, at - before FROM (SELECT game_id, seat, at,"
            " lag(at) OVER (PARTITION BY game_id ORDER BY n) AS before,"
            " lag(seat) OVER (PARTITION BY game_id ORDER BY n) AS previous"
            f" FROM moves WHERE game_id IN ({_marks(ids)})) turns"
            " WHERE before IS NOT NULL AND previous <> seat", ids)
        waits = [wait for game_id, seat, wait in rows if seats[game_id] == seat]
        titles[key].turn_seconds = sum(waits) / len(waits) if waits else None


async def rating_changes(store: Store, user_id: int, scope: str, game_ids: Sequence[int]) -> dict[int, int]:
    """For these games, how each moved the member's shown rating in the scope."""
    if not game_ids:
        return {}
    rows = await store.db.fetch(
        f"SELECT game_id, mu_before, sigma_before, mu, sigma FROM rating_changes WHERE user_id = ? AND scope = ?"
        f" AND game_id IN ({_marks(game_ids)})", (user_id, scope, *game_ids))
    return {r[0]: display_value(r[3], r[4]) - display_value(r[1], r[2]) for r in rows}


async def rating_history(store: Store, user_id: int, scope: str, game_key: str,
                         points: int = CHART_POINTS) -> list[tuple[float, int]]:
    """(time, shown rating after it) for the member's latest rated games of a title in a scope, oldest
    first, starting with the rating before the first of them."""
    rows = await store.db.fetch(
        "SELECT at, mu_before, sigma_before, mu, sigma FROM rating_changes WHERE user_id = ? AND scope = ?"
        " AND game_key = ? ORDER BY at DESC, game_id DESC LIMIT ?", (user_id, scope, game_key, points))
    rows.reverse()
    if not rows:
        return []
    return [(rows[0][0], display_value(rows[0][1], rows[0][2])), *((r[0], display_value(r[3], r[4])) for r in rows)]


@dataclass(frozen=True)
class HeadToHead:
    """Two members' finished games together: who ranked above whom."""

    games: int
    wins: int  # the first member ranked above the second
    losses: int
    ties: int


async def head_to_head(store: Store, user_id: int, other_id: int, guild_id: int | None,
                       game_key: str | None = None) -> HeadToHead:
    """Finished games (in one server, of one title) both members held a seat in at the end."""
    where, args = "", []
    if guild_id is not None:
        where += " AND g.guild_id = ?"
        args.append(guild_id)
    if game_key is not None:
        where += " AND g.game_key = ?"
        args.append(game_key)
    rows = await store.db.fetch(
        "SELECT g.result, a.seat, b.seat FROM seats a JOIN seats b ON b.game_id = a.game_id AND b.user_id = ?"
        f" JOIN games g ON g.id = a.game_id WHERE a.user_id = ? AND g.status = 'over'{where}",
        (other_id, user_id, *args))
    tally = Counter()
    for result, mine, theirs in rows:
        ranks = _ranks(result)
        if mine in ranks and theirs in ranks:
            tally["win" if ranks[mine] < ranks[theirs] else "loss" if ranks[mine] > ranks[theirs] else "tie"] += 1
    return HeadToHead(sum(tally.values()), tally["win"], tally["loss"], tally["tie"])


# ---------------------------------------------------------------------------------------- history


@dataclass(frozen=True)
class Entry:
    """A finished game in a history: its seats in rank order (name, user id or None, rank), length."""

    game_id: int
    game_key: str
    guild_id: int | None
    place_id: int
    message_id: int | None
    ended_at: float
    started_at: float | None
    moves: int
    standings: tuple[tuple[str, int | None, int, int | None], ...]  # (name, user id, rank, score)
    changes: dict[int, int] = field(default_factory=dict)  # user id -> the shown rating's change here


async def history_size(store: Store, guild_id: int | None, user_id: int | None = None,
                       game_key: str | None = None) -> int:
    if user_id is not None:
        return len(await games_of(store, user_id, guild_id, game_key, over_only=True))
    rows = await store.db.fetch(
        "SELECT count(*) FROM games WHERE guild_id = ? AND status = 'over'" + (" AND game_key = ?" if game_key else ""),
        (guild_id, *((game_key,) if game_key else ())))
    return rows[0][0]


async def history_page(store: Store, guild_id: int | None, user_id: int | None = None, game_key: str | None = None,
                       page: int = 0, size: int = PAGE_SIZE) -> list[Entry]:
    """One page of a server's finished games (or a member's there), the latest end first."""
    if user_id is not None:
        ids = [g.game_id for g in await games_of(store, user_id, guild_id, game_key, over_only=True,
                                                 limit=size, offset=page * size)]
    else:
        ids = [r[0] for r in await store.db.fetch(
            "SELECT id FROM games WHERE guild_id = ? AND status = 'over'" + (" AND game_key = ?" if game_key else "")
            + " ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?",
            (guild_id, *((game_key,) if game_key else ()), size, page * size))]
    return await entries(store, ids)


async def entries(store: Store, ids: Sequence[int], scope: str | None = None) -> list[Entry]:
    """These games as history entries, in this order (`scope`: with each player's rating change in it)."""
    if not ids:
        return []
    marks = _marks(ids)
    games = {r[0]: r for r in await store.db.fetch(
        "SELECT id, game_key, guild_id, coalesce(thread_id, channel_id), board_message_id, updated_at, result"
        f" FROM games WHERE id IN ({marks}) AND status = 'over'", ids)}
    seats: dict[int, dict[int, tuple[str, int | None]]] = {}
    for game_id, seat, name, user in await store.db.fetch(
            f"SELECT game_id, seat, name, user_id FROM seats WHERE game_id IN ({marks})", ids):
        seats.setdefault(game_id, {})[seat] = (name, user)
    lengths = {r[0]: (r[1], r[2]) for r in await store.db.fetch(
        f"SELECT game_id, count(*), min(at) FROM moves WHERE game_id IN ({marks}) GROUP BY game_id", ids)}
    changes: dict[int, dict[int, int]] = {}
    if scope is not None:
        for game_id, user, mu0, s0, mu, s in await store.db.fetch(
                "SELECT game_id, user_id, mu_before, sigma_before, mu, sigma FROM rating_changes"
                f" WHERE scope = ? AND game_id IN ({marks})", (scope, *ids)):
            changes.setdefault(game_id, {})[user] = display_value(mu, s) - display_value(mu0, s0)
    out = []
    for game_id in ids:
        if game_id not in games:
            continue
        _, key, guild, place, message, ended, result = games[game_id]
        lines = json.loads(result).get("seats", []) if result else []
        named = seats.get(game_id, {})
        standings = tuple((named.get(int(s["seat"]), (f"seat {int(s['seat']) + 1}", None))[0],
                           named.get(int(s["seat"]), ("", None))[1], int(s["rank"]), s.get("score"))
                          for s in lines)
        count, first = lengths.get(game_id, (0, None))
        out.append(Entry(game_id, key, guild, place, message, ended, first, count, standings,
                         changes.get(game_id, {})))
    return out
