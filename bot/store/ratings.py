"""Ratings in the store (migration 10): a finished game's record rebuilt from its rows, its update applied once per scope.

Exactly once: the update of a scope commits in the same transaction as the game's row in the
`rated_games` ledger, whose key (game, scope) refuses a second one; on PostgreSQL an advisory lock
makes the updates of all processes take turns, so two games sharing a player never both read the
player's old rating. A game whose update did not happen (a crash right after its end) is found by
`pending_games` and applied by the next sweep (a start of the bot, the shared upkeep, the
`ratings-backfill` command), in the order the games ended.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from bot.ratings import GameRecord, Holder, Rating, SeatRecord, lineup, rate_game
from bot.store.core import Store
from bot.store.rows import RATINGS_LOCK
from bot.store.seasons import season_scopes

_RATINGS_LOCK = RATINGS_LOCK  # rating updates take turns under it (and season ends: bot/store/seasons.py)


async def game_record(store: Store, game_id: int) -> GameRecord | None:
    """The record of a finished game (None: not over, or over without a result, e.g. a damaged one).

    Who held each seat comes from seat_holders (migration 10). A game finished before it has only
    its final seats: each human seat is credited to its final holder, and a seat the AI holds for a
    player who timed out for good or stepped away (seat_prefs.away_user_id) to that player, gone; a
    player who conceded or handed their seat over then is not known (see docs/ratings.md)."""
    row = await store.game(game_id)
    if row is None or row.status != "over" or not row.result or not row.result.get("seats"):
        return None
    db = store.db
    ranks = {int(s["seat"]): int(s["rank"]) for s in row.result["seats"]}
    seats = await store.seats(game_id)
    held: defaultdict[int, list[tuple[int, int | None, str | None]]] = defaultdict(list)
    for seat, from_n, user_id, ai_kind in await db.fetch(
            "SELECT seat, from_n, user_id, ai_kind FROM seat_holders WHERE game_id = ? ORDER BY seat, from_n",
            (game_id,)):
        held[seat].append((from_n, user_id, ai_kind))
    moves: defaultdict[int, list[int]] = defaultdict(list)
    for seat, n in await db.fetch("SELECT seat, n FROM moves WHERE game_id = ? ORDER BY n", (game_id,)):
        moves[seat].append(n)
    ended = await db.fetch("SELECT at FROM snapshots WHERE game_id = ?", (game_id,))
    away = {p.seat: p.away_user_id for p in (await store.seat_prefs(game_id)).values()}
    records = []
    for seat in seats:
        spells = held.get(seat.seat) or [(0, seat.user_id, seat.ai_kind)]
        if not held.get(seat.seat) and seat.user_id is None and away.get(seat.seat) is not None:
            spells = [(0, away[seat.seat], None), (len(moves[seat.seat]), None, seat.ai_kind)]
        records.append(_seat_record(seat.seat, ranks.get(seat.seat, len(seats)), spells, moves[seat.seat]))
    return GameRecord(game_id, row.game_key, row.guild_id, ended[0][0] if ended else row.updated_at,
                      tuple(records))


def _seat_record(seat: int, rank: int, spells: Sequence[tuple[int, int | None, str | None]],
                 moves: Sequence[int]) -> SeatRecord:
    """One seat from its holders' spells (from which move on each held it): a move is credited to the
    holder of its spell; moves before the first spell (AI seats opening the game) to the first holder."""
    made: dict[int, int] = {}
    for index, (_, user_id, _) in enumerate(spells):
        start = spells[index][0] if index else -1
        end = spells[index + 1][0] if index + 1 < len(spells) else None
        count = sum(1 for n in moves if n >= start and (end is None or n < end))
        if user_id is not None:
            made[user_id] = made.get(user_id, 0) + count
    humans = [user_id for _, user_id, _ in spells if user_id is not None]
    if not humans:
        return SeatRecord(seat, rank, len(moves), ai_level=spells[0][2] or "normal")
    # Gone: the human whose spell the AI's last spell followed (concede, timeouts for good, /seat ai).
    gone = spells[-2][1] if spells[-1][1] is None and len(spells) > 1 else None
    holders = tuple(Holder(user_id, made[user_id], user_id == gone) for user_id in dict.fromkeys(humans))
    return SeatRecord(seat, rank, len(moves), holders)


async def pending_games(store: Store, ended_since: float | None = None) -> list[int]:
    """Finished games not yet in the ledger, in the order they ended (`ended_since`: only those ended
    since then, for a frequent sweep: a game that ended since then was written since then, which the
    index games_over_by_update finds without reading every finished game)."""
    rows = await store.db.fetch(
        "SELECT g.id FROM games g LEFT JOIN snapshots p ON p.game_id = g.id WHERE g.status = 'over'"
        " AND NOT EXISTS (SELECT 1 FROM rated_games r WHERE r.game_id = g.id AND r.scope = 'global')"
        + (" AND g.updated_at >= ?" if ended_since is not None else "")
        + " ORDER BY coalesce(p.at, g.updated_at), g.id", () if ended_since is None else (ended_since,))
    return [r[0] for r in rows]


async def apply_game(store: Store, game_id: int) -> bool:
    """Apply a finished game's rating update in each of its scopes that has not had it yet; True if
    this call applied it anywhere (an unrated game is recorded in the ledger too, as unrated)."""
    record = await game_record(store, game_id)
    if record is None:
        row = await store.game(game_id)
        if row is None or row.status != "over":
            return False
        record = GameRecord(game_id, row.game_key, row.guild_id, row.updated_at, ())
    entrants, shares = lineup(record)
    rated = len(shares) >= 2
    now = store.now()
    applied = False
    async with store.db.transaction() as tx:
        await tx.take_turns(_RATINGS_LOCK)
        # Everyone's, the server's, and the server's running season's (migration 12), each once.
        for scope in (*record.scopes(), *await season_scopes(tx, record.guild_id, record.ended_at)):
            added = await tx.execute(
                "INSERT INTO rated_games (game_id, scope, rated, applied_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id, scope) DO NOTHING", (game_id, scope, int(rated), now))
            if added != 1:
                continue  # this scope had it already (another process, an earlier run)
            applied = True
            if not rated:
                continue
            users = [s.user_id for s in shares]
            marks = ", ".join("?" for _ in users)
            before = {r[0]: Rating(r[1], r[2], r[3]) for r in await tx.fetch(
                f"SELECT user_id, mu, sigma, games FROM ratings WHERE scope = ? AND game_key = ?"
                f" AND user_id IN ({marks})", (scope, record.game_key, *users))}
            after = rate_game(record, before)
            await tx.executemany(
                "INSERT INTO ratings (scope, game_key, user_id, mu, sigma, games, last_game_id, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (scope, game_key, user_id) DO UPDATE SET"
                " mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,"
                " last_game_id = excluded.last_game_id, updated_at = excluded.updated_at",
                [(scope, record.game_key, u, r.mu, r.sigma, r.games, game_id, now) for u, r in after.items()])
            await tx.executemany(
                "INSERT INTO rating_changes (game_id, scope, user_id, game_key, rank, weight, mu_before,"
                " sigma_before, mu, sigma, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(game_id, scope, s.user_id, record.game_key, entrants[s.index].rank, s.weight,
                  (before.get(s.user_id) or Rating()).mu, (before.get(s.user_id) or Rating()).sigma,
                  after[s.user_id].mu, after[s.user_id].sigma, record.ended_at) for s in shares])
    return applied


async def apply_pending(store: Store, ended_since: float | None = None) -> int:
    """Apply every pending finished game in the order they ended (the backfill, and the sweep after a
    crash); the number of games this call applied. Running it again changes nothing."""
    count = 0
    for game_id in await pending_games(store, ended_since):
        count += await apply_game(store, game_id)
    return count


async def rating(store: Store, scope: str, game_key: str, user_id: int) -> Rating:
    """A player's rating for a title in a scope (a new player's if they have none)."""
    rows = await store.db.fetch("SELECT mu, sigma, games FROM ratings WHERE scope = ? AND game_key = ? AND user_id = ?",
                                (scope, game_key, user_id))
    return Rating(*rows[0]) if rows else Rating()

