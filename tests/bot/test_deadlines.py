"""Turn clocks in the service: reminders, timeouts, strikes, restarts, vacation, quiet hours, seats."""

from __future__ import annotations

import dataclasses
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.scheduler import Scheduler
from bot.store import MIGRATIONS, Store, UserPrefs
from bot.tables import (
    NOT_SEATED,
    Refused,
    Tables,
    in_quiet,
    out_of_quiet,
    parse_tz,
    reminder_points,
)
from bot.words import result_label, say
from tests.bot.guess_game import DEFINITION, GuessState, Pass

ANN, BOB, CID, DEE = 1, 2, 3, 4
NAMES = {ANN: "Ann", BOB: "Bob", CID: "Cid", DEE: "Dee"}
HOUR = 3600.0
T0 = 1_800_000_000.0  # 2027-01-15 08:00 UTC


def said(lines, names=("Ann", "Bob", "Cid", "Dee")) -> list[str]:
    """An outcome's lines (messages) as an English reader sees them."""
    return [say(line, "en", list(names)) for line in lines]


class Clock:
    """A clock tests move by hand (never a real wait)."""

    def __init__(self, at: float = T0) -> None:
        self.at = at

    def __call__(self) -> float:
        return self.at

    def advance(self, hours: float) -> None:
        self.at += hours * HOUR


class SkipGuess(GuessState):
    """Guess where a turn in the guessing phase may be skipped (a pass); bids may not."""

    def timeout_move(self, seat: int):
        return Pass() if self.phase == "guess" and seat in self.to_act() else None


SKIP_DEFINITION = dataclasses.replace(DEFINITION, state_class=SkipGuess,
                                      create=lambda n, options, seed: SkipGuess(n, options, seed))
GAMES = {"guess": SKIP_DEFINITION}


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def timed(store, clock):
    tables = Tables(store, games=GAMES, now=clock)
    await tables.load()
    return tables


async def start(tables: Tables, users=(ANN, BOB), channel=50, rounds=1, **clock_options) -> int:
    info = await tables.create("guess", guild_id=9, channel_id=channel, user_id=users[0], user_name=NAMES[users[0]],
                               seat_order="join", options={"rounds": rounds}, clock=clock_options or None)
    for user in users[1:]:
        await tables.join(info.row.id, user, NAMES[user])
    await tables.start(info.row.id, users[0])
    return info.row.id


async def posts(tables: Tables, game_id: int, kind: str):
    owed = [p for p in await tables.owed_posts(game_id) if p.kind == kind]
    await tables.posts_done([p.id for p in await tables.owed_posts(game_id)])
    return owed


async def test_clock_settings_are_validated_and_guild_defaults_apply(timed, store):
    with pytest.raises(Refused, match="ai, skip or end"):
        await timed.create("guess", guild_id=9, channel_id=1, user_id=ANN, user_name="Ann",
                           clock={"timeout_action": "panic"})
    with pytest.raises(Refused, match="0 \\(off\\) to 720"):
        await timed.create("guess", guild_id=9, channel_id=1, user_id=ANN, user_name="Ann", clock={"turn_hours": 999})
    await store.set_guild_settings(9, {"turn_hours": 48, "timeout_action": "end", "unrelated": 1})
    info = await timed.create("guess", guild_id=9, channel_id=2, user_id=ANN, user_name="Ann",
                              clock={"timeout_action": "skip"})
    assert (info.row.turn_hours, info.row.timeout_action, info.row.max_timeouts) == (48, "skip", 3)


async def test_reminders_at_half_time_and_an_hour_before_then_the_ai_plays(timed, store, clock):
    game_id = await start(timed)
    assert await store.schema_version() == len(MIGRATIONS)
    info = await timed.info(game_id)
    assert info.deadlines == {0: T0 + 24 * HOUR, 1: T0 + 24 * HOUR}
    await posts(timed, game_id, "board")
    await timed.play(game_id, ANN, "bid 1")  # Ann's clock stops; Bob's runs on
    assert (await timed.info(game_id)).deadlines == {1: T0 + 24 * HOUR}
    assert await timed.due_times() == {game_id: T0 + 12 * HOUR}
    clock.advance(11.9)
    assert await timed.fire_due(game_id) is None
    clock.advance(0.1)
    outcome = await timed.fire_due(game_id)
    assert outcome.reminded == (1,)
    [remind] = await posts(timed, game_id, "remind")
    assert remind.seat == 1 and remind.payload == {"deadline": T0 + 24 * HOUR, "channel": True}
    assert await timed.fire_due(game_id) is None  # fired once
    clock.advance(11)
    outcome = await timed.fire_due(game_id)
    [remind] = await posts(timed, game_id, "remind")
    assert remind.payload["channel"] is False  # one channel mention per turn
    assert await timed.due_times() == {game_id: T0 + 24 * HOUR}
    clock.advance(1)
    outcome = await timed.fire_due(game_id)
    assert outcome.applied[0][0] == 1 and outcome.applied[0][1].startswith("bid ")
    assert "Time ran out for Bob: the AI played for them." in said(outcome.public_lines)
    moves = await store.moves(game_id)
    assert [(m.seat, m.notation) for m in moves][:2] == [(0, "bid 1"), outcome.applied[0]]
    # The guessing turn that follows has its own fresh clock.
    info = await timed.info(game_id)
    assert info.deadlines == {info.to_act[0]: clock() + 24 * HOUR}
    assert (await store.seat_prefs(game_id))[1].timeouts == 1


async def test_skip_where_the_rules_allow_else_the_ai(timed, store, clock):
    game_id = await start(timed, turn_hours=2, timeout_action="skip")
    clock.advance(2)
    outcome = await timed.fire_due(game_id)  # bids cannot be skipped: the AI bids for both
    assert sorted(s for s, _ in outcome.applied) == [0, 1]
    assert all(n.startswith("bid") for _, n in outcome.applied)
    assert "Time ran out for Ann: the AI played for them." in said(outcome.public_lines)
    clock.advance(2)
    outcome = await timed.fire_due(game_id)  # Ann's guess turn: skipped with a pass
    assert outcome.applied == ((0, "pass"),)
    assert "Time ran out for Ann: their turn is skipped." in said(outcome.public_lines)


async def test_end_action_ends_with_current_standings(timed, store, clock):
    game_id = await start(timed, turn_hours=5, timeout_action="end")
    clock.advance(5)
    outcome = await timed.fire_due(game_id)
    assert outcome.status == "over"
    row = await store.game(game_id)
    assert row.status == "over" and [s["seat"] for s in row.result["seats"]] == [0, 1]
    # How it ended and the standings' category are messages, said in the reader's language with the names.
    ended = result_label(row.result, row.result["ended_by"])
    assert "the game ends with the current standings" in say(ended, "en", ["Ann", "Bob"])
    assert "Ann" in say(ended, "de", ["Ann", "Bob"]) and "aktuellen Stand" in say(ended, "de", ["Ann", "Bob"])
    assert say(result_label(row.result, "points"), "ja") == "得点"
    assert await timed.due_times() == {}
    with pytest.raises(Refused):
        await timed.play(game_id, ANN, "bid 1")


async def test_strikes_hand_the_seat_to_the_ai_and_seat_back_returns_it(timed, store, clock):
    game_id = await start(timed, users=(ANN, BOB, CID), rounds=2, turn_hours=1, max_timeouts=2,
                          timeout_action="skip")
    await timed.play(game_id, ANN, "bid 1")
    await timed.play(game_id, BOB, "bid 1")
    clock.advance(1)
    outcome = await timed.fire_due(game_id)  # Cid's bid: strike 1
    assert [s for s, _ in outcome.applied] == [2]
    await timed.play(game_id, ANN, "pass")
    await timed.play(game_id, BOB, "pass")
    clock.advance(1)
    outcome = await timed.fire_due(game_id)  # Cid's guess: strike 2, the AI takes the seat
    assert "Cid timed out 2 times in a row: the AI takes the seat for good (Cid can take it back with /seat back)." \
        in said(outcome.public_lines)
    seats = await store.seats(game_id)
    assert seats[2].user_id is None and seats[2].name == "Cid (AI)"
    with pytest.raises(Refused, match="no seat with the AI"):
        await timed.seat_back(game_id, DEE)
    outcome = await timed.seat_back(game_id, CID)
    assert "Cid takes their seat back from the AI." in said(outcome.public_lines)
    assert (await store.seats(game_id))[2].user_id == CID


async def test_own_move_resets_the_timeouts_in_a_row(timed, store, clock):
    game_id = await start(timed, users=(ANN, BOB), turn_hours=1, max_timeouts=2, timeout_action="skip")
    await timed.play(game_id, ANN, "bid 1")
    clock.advance(1)
    await timed.fire_due(game_id)  # Bob's bid: strike 1
    await timed.play(game_id, ANN, "pass")
    await timed.play(game_id, BOB, "pass")  # his own move: the run ends
    assert (await store.seat_prefs(game_id))[1].timeouts == 0


async def test_restart_with_pending_and_past_deadlines_fires_each_once(db_path, clock):
    store = await Store.open(db_path)
    tables = Tables(store, games=GAMES, now=clock)
    await tables.load()
    soon = await start(tables, channel=1, turn_hours=2)
    later = await start(tables, channel=2, turn_hours=30)
    await store.close()
    clock.advance(3)  # `soon` timed out while the bot was down; `later` is due at half time (15 h)
    store = await Store.open(db_path)
    tables = Tables(store, games=GAMES, now=clock)
    await tables.load()
    due = await tables.due_times()
    assert due == {soon: T0 + 1 * HOUR, later: T0 + 15 * HOUR}  # 2 h turns: one reminder, at 1 h
    assert tables.loaded() == frozenset()  # scheduling needs no game state
    fired = []
    scheduler = Scheduler(lambda g: fired.append(g) or tables.fire_due(g), clock)
    tables.on_clocks = scheduler.schedule
    for game_id, at in due.items():
        scheduler.schedule(game_id, at)
    assert await scheduler.run_due() == [soon]
    assert await scheduler.run_due() == []
    moves = await store.moves(soon)
    assert sorted(m.seat for m in moves) == [0, 1]
    # The deadline passed: no late reminder for the turn that is over.
    assert not [p for p in await tables.owed_posts(soon) if p.kind == "remind"]
    assert scheduler.due(later) == T0 + 15 * HOUR and scheduler.due(soon) == T0 + 3 * HOUR + 1 * HOUR
    await store.close()
    # Another restart: the timeout is not applied again.
    store = await Store.open(db_path)
    tables = Tables(store, games=GAMES, now=clock)
    await tables.load()
    assert await tables.fire_due(soon) is None
    assert len(await store.moves(soon)) == 2
    await store.close()


async def test_vacation_moves_the_deadline_and_has_an_allowance(timed, store, clock):
    game_id = await start(timed, turn_hours=10, vacation_hours=24)
    until = await timed.pause_clock(game_id, BOB, 20)
    assert until == T0 + 20 * HOUR
    assert (await timed.info(game_id)).deadlines == {0: T0 + 10 * HOUR, 1: T0 + 30 * HOUR}
    with pytest.raises(Refused, match="at most 4 more hours"):
        await timed.pause_clock(game_id, BOB, 5)
    clock.advance(10)
    outcome = await timed.fire_due(game_id)  # Ann timed out; Bob is on vacation
    assert [s for s, _ in outcome.applied] == [0]
    # Bob's reminders wait for his return: none during the vacation.
    clock.advance(9)
    assert not [p for p in await timed.owed_posts(game_id) if p.kind == "remind"]
    clock.advance(-14)  # back to T0 + 5 h: ending the vacation early gives back the unused hours
    back = await timed.resume_clock(game_id, BOB)
    assert back == pytest.approx(15)
    assert (await timed.info(game_id)).deadlines == {1: T0 + 15 * HOUR}
    with pytest.raises(Refused, match="not paused"):
        await timed.resume_clock(game_id, BOB)


def test_quiet_hours_and_time_zones():
    tokyo = UserPrefs(ANN, "Asia/Tokyo", 22 * 60, 7 * 60)
    night = datetime(2027, 1, 15, 23, 30, tzinfo=ZoneInfo("Asia/Tokyo")).timestamp()
    noon = datetime(2027, 1, 15, 12, 0, tzinfo=ZoneInfo("Asia/Tokyo")).timestamp()
    assert in_quiet(night, tokyo) and not in_quiet(noon, tokyo)
    assert out_of_quiet(night, tokyo) == datetime(2027, 1, 16, 7, 0, tzinfo=ZoneInfo("Asia/Tokyo")).timestamp()
    assert out_of_quiet(noon, tokyo) == noon
    assert not in_quiet(night, UserPrefs(ANN, "Asia/Tokyo", 9 * 60, 9 * 60))  # start == end: off
    assert parse_tz("+09:00").utcoffset(None).total_seconds() == 9 * HOUR
    assert parse_tz("UTC-5").utcoffset(None).total_seconds() == -5 * HOUR
    with pytest.raises(Refused, match="Unknown time zone"):
        parse_tz("Mars/Olympus")
    assert reminder_points(0, 24 * HOUR) == [12 * HOUR, 23 * HOUR]
    assert reminder_points(0, HOUR) == [HOUR / 2]  # "an hour before" is the start itself: dropped


async def test_quiet_hours_hold_reminders_and_move_a_deadline_to_their_end(timed, store, clock):
    # T0 is 08:00 UTC = 17:00 in Tokyo. Bob's quiet hours there: 22:00-07:00.
    await timed.set_quiet_hours(BOB, "Asia/Tokyo", "22", "07:00")
    game_id = await start(timed, turn_hours=7)  # deadline 00:00 Tokyo: inside -> moved to 07:00
    info = await timed.info(game_id)
    assert info.deadlines[0] == T0 + 7 * HOUR and info.deadlines[1] == T0 + 14 * HOUR
    # Bob's reminders: half time of 17:00..07:00 is 00:00 (quiet) -> 07:00 = the deadline: dropped;
    # one hour before is 06:00 (quiet) -> dropped too. Ann (no quiet hours) is reminded normally.
    clock.advance(3.5)
    await timed.fire_due(game_id)
    assert [p.seat for p in await posts(timed, game_id, "remind")] == [0]
    with pytest.raises(Refused, match="HH or HH:MM"):
        await timed.set_quiet_hours(BOB, "Asia/Tokyo", "25", "7")


async def test_muted_seat_gets_no_reminder_but_still_times_out(timed, store, clock):
    game_id = await start(timed, turn_hours=4)
    await timed.set_muted(game_id, BOB, True)
    await timed.play(game_id, ANN, "bid 2")
    clock.advance(3.5)
    await timed.fire_due(game_id)
    assert not await posts(timed, game_id, "remind")
    clock.advance(0.5)
    outcome = await timed.fire_due(game_id)
    assert [s for s, _ in outcome.applied][:1] == [1]


async def test_no_timer_means_no_clock(timed, clock):
    game_id = await start(timed, turn_hours=0)
    assert (await timed.info(game_id)).deadlines == {}
    assert await timed.due_times() == {}
    with pytest.raises(Refused, match="no turn timer"):
        await timed.pause_clock(game_id, ANN, 1)


async def test_hand_over_moves_the_secrets_to_the_new_holder(timed, store, clock):
    game_id = await start(timed)
    await posts(timed, game_id, "dm")
    seat, ann_view, _ = await timed.private_view(game_id, ANN)
    with pytest.raises(Refused, match="already holds a seat"):
        await timed.check_hand_over(game_id, ANN, BOB)
    assert await timed.check_hand_over(game_id, ANN, DEE) == 0
    outcome = await timed.hand_over(game_id, 0, ANN, DEE, "Dee")
    assert "Ann handed their seat to Dee." in said(outcome.public_lines)
    dms = await posts(timed, game_id, "dm")
    assert [(p.seat, p.payload.get("welcome")) for p in dms] == [(0, True)]
    seat_dee, dee_view, _ = await timed.private_view(game_id, DEE)
    assert seat_dee == 0 and dee_view["secret"] == ann_view["secret"]
    with pytest.raises(Refused, match=NOT_SEATED):
        await timed.private_view(game_id, ANN)
    with pytest.raises(Refused, match="no longer valid"):
        await timed.hand_over(game_id, 0, ANN, CID, "Cid")  # an old offer
    assert (await timed.info(game_id)).deadlines[0] == T0 + 24 * HOUR  # the clock goes on
    await timed.play(game_id, DEE, "bid 3")


async def test_seat_to_ai_plays_at_once_and_is_refused_twice(timed, store, clock):
    game_id = await start(timed)
    outcome = await timed.seat_to_ai(game_id, BOB)
    assert [s for s, _ in outcome.applied] == [1]
    with pytest.raises(Refused, match=NOT_SEATED):
        await timed.seat_to_ai(game_id, BOB)
    assert (await timed.info(game_id)).deadlines.keys() == {0}


async def test_since_last_turn_tells_the_moves_the_seat_may_see(timed, store, clock):
    game_id = await start(timed, users=(ANN, BOB, CID), rounds=2)
    for user in (ANN, BOB, CID):
        await timed.play(game_id, user, "bid 1")
    await timed.play(game_id, ANN, "pass")
    await timed.play(game_id, BOB, "guess s1 2")
    report = await timed.since_last_turn(game_id, CID)
    lines = said(report.lines, report.names)
    assert report.moves == 2 and lines[0] == "Ann: `pass` — Ann passes."
    assert lines[1].startswith(("Bob: ", "Bob — ")) and "Bob guesses Ann: " in lines[1]
    assert len(report.views) == 3 and all(v["seat"] is None for v in report.views)
    ann = await timed.since_last_turn(game_id, ANN)
    assert ann.moves == 1 and "holds" not in " ".join(said(ann.lines, ann.names))  # Bob's secret news is not Ann's
    # A secret bid: others read "has bid", never the amount; the bidder sees their own.
    await timed.play(game_id, CID, "pass")  # round 1 ends, round 2 bids begin
    await timed.play(game_id, ANN, "bid 3")
    bob = await timed.since_last_turn(game_id, BOB)
    assert "Ann — Ann has bid." in said(bob.lines, bob.names) and not any("bid 3" in line for line in said(bob.lines, bob.names))
    dms = [p for p in await timed.owed_posts(game_id) if p.kind == "dm" and p.seat == 2]
    assert dms and dms[-1].payload.get("since") is True  # Cid's turn came after others moved


async def test_scheduler_fires_due_games_once_in_order(clock):
    fired = []

    async def fire(game_id):
        fired.append((clock(), game_id))

    scheduler = Scheduler(fire, clock)
    scheduler.schedule(1, T0 + 5)
    scheduler.schedule(2, T0 + 1)
    scheduler.schedule(3, T0 + 9)
    scheduler.schedule(3, None)
    assert scheduler.next_due() == (T0 + 1, 2)
    assert await scheduler.run_due() == []
    clock.at = T0 + 6
    assert await scheduler.run_due() == [2, 1]
    assert await scheduler.run_due() == [] and scheduler.pending() == 0


async def test_concede_stops_the_clock_and_cannot_be_taken_back(timed, store, clock):
    game_id = await start(timed)
    outcome = await timed.leave(game_id, BOB)  # /game leave in a running game concedes
    assert "Bob left the game; the AI plays their seat." in said(outcome.public_lines)
    assert (await timed.info(game_id)).deadlines.keys() == {0}
    with pytest.raises(Refused, match="no seat with the AI"):
        await timed.seat_back(game_id, BOB)


async def test_a_version_1_database_migrates_and_its_games_keep_no_timer(sqlite_path, clock):
    import sqlite3

    db_path = sqlite_path
    with sqlite3.connect(db_path) as raw:
        raw.executescript(MIGRATIONS[0] + "CREATE TABLE schema_version (version INTEGER NOT NULL);"
                          "INSERT INTO schema_version VALUES (1);"
                          "INSERT INTO games (game_key, seed, status, channel_id, creator_id, created_at, updated_at)"
                          " VALUES ('guess', 1, 'lobby', 5, 1, 0, 0);")
    store = await Store.open(db_path)
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        row = await store.game(1)
        assert (row.turn_hours, row.timeout_action, row.max_timeouts, row.vacation_hours) == (0, "ai", 3, 72)
        assert await store.next_due_by_game() == {}
    finally:
        await store.close()


async def test_scheduler_retries_a_failed_game_later_without_starving_others(clock):
    calls = []

    async def fire(game_id):
        calls.append(game_id)
        if game_id == 1:
            raise RuntimeError("boom")

    scheduler = Scheduler(fire, clock)
    scheduler.schedule(1, T0 - 10)
    scheduler.schedule(2, T0 - 5)
    assert await scheduler.run_due() == [1, 2] and calls == [1, 2]
    assert scheduler.due(1) == T0 + 60 and scheduler.due(2) is None


def test_since_strip_is_one_small_image():
    from io import BytesIO

    from PIL import Image

    from render.replay import STRIP_HEIGHT
    from render.replay import strip as strip_png
    from tests.bot.guess_game import _png

    data = strip_png([_png("a"), _png("b"), _png("c")])
    image = Image.open(BytesIO(data))
    assert image.height == STRIP_HEIGHT and image.width < 3 * 700 and len(data) < 60_000


@pytest.mark.parametrize("action", ["skip", "ai", "end"])
async def test_every_registered_game_survives_a_timeout(store, clock, action):
    """Each real engine: a human's time runs out, the table's action is taken, the log replays."""
    from rules.engine import replay
    from rules.registry import GAMES as REAL

    tables = Tables(store, games=REAL, now=clock)
    await tables.load()
    for channel, (key, definition) in enumerate(sorted(REAL.items()), start=100):
        info = await tables.create(key, guild_id=9, channel_id=channel, user_id=ANN, user_name="Ann", seat_order="join",
                                   seed=7, clock={"turn_hours": 1, "timeout_action": action})
        for _ in range(definition.min_players - 1):
            await tables.add_ai(info.row.id, ANN)
        await tables.start(info.row.id, ANN)
        clock.advance(1)
        outcome = await tables.fire_due(info.row.id)
        assert outcome is not None and any(line.startswith("Time ran out for Ann") for line in said(outcome.public_lines)), key
        if action == "end":
            row = await store.game(info.row.id)
            assert row.status == "over" and len(row.result["seats"]) == definition.min_players, key
            continue
        if action == "skip" and "their turn is skipped." in " ".join(said(outcome.public_lines)):
            state = definition.new_game(definition.min_players, info.row.options, 7)
            assert str(state.timeout_move(0)) == outcome.applied[0][1], key
        row = await store.game(info.row.id)
        moves = [(m.seat, m.notation) for m in await store.moves(info.row.id)]
        rebuilt = replay(definition, definition.min_players, row.options, row.seed, moves)
        assert rebuilt.to_json() == (await store.snapshot(info.row.id))[1], key


async def test_a_turn_of_several_decisions_runs_on_one_clock(store, clock):
    """Trans Europa: a turn of two tracks is two decisions. The second keeps the first's deadline (one
    small decision per timer period must not stall a game); the next turn gets a clock of its own."""
    from rules.registry import GAMES as REAL

    tables = Tables(store, games=REAL, now=clock)
    await tables.load()
    info = await tables.create("trans_europa", guild_id=9, channel_id=300, user_id=ANN, user_name="Ann",
                               seat_order="join", seed=3, clock={"turn_hours": 24})
    await tables.join(info.row.id, BOB, "Bob")
    await tables.start(info.row.id, ANN)
    game_id = info.row.id
    kept = renewed = 0
    for _ in range(40):
        info = await tables.info(game_id)
        seat = min(info.to_act)
        user = info.seats[seat].user_id
        before = info.deadlines[seat]
        clock.advance(2)
        _, _, moves = await tables.legal_moves(game_id, user)
        await tables.play(game_id, user, next(m for m in moves if m.startswith("lay")) if any(
            m.startswith("lay") for m in moves) else moves[0])
        info = await tables.info(game_id)
        if seat in info.to_act:  # the same seat still deciding: its turn goes on
            assert info.deadlines[seat] == before
            kept += 1
        else:  # the next seat's turn begins now, with the full timer
            other = min(info.to_act)
            assert info.deadlines[other] == clock() + 24 * HOUR
            renewed += 1
    assert kept >= 5 and renewed >= 5
