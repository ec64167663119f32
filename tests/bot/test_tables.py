"""The game-host service against a real store and the Guess test game."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.store import Store
from bot.tables import NOT_SEATED, NOT_YOUR_TURN, STALE_MOVE, Refused, Tables
from bot.words import say
from rules.engine import replay
from tests.bot.guess_game import DEFINITION, GAMES

ANN, BOB, CID, DAN = 1, 2, 3, 4
NAMES = {ANN: "Ann", BOB: "Bob", CID: "Cid", DAN: "Dan"}


def said(lines, names=("Ann", "Bob", "Cid")) -> list[str]:
    """Stored lines (messages) as an English reader sees them."""
    return [say(line, "en", list(names)) for line in lines]


async def lobby(tables: Tables, users=(ANN, BOB, CID), channel=50, **kw) -> int:
    info = await tables.create("guess", guild_id=9, channel_id=channel, user_id=users[0],
                               user_name=NAMES[users[0]], **kw)
    for user in users[1:]:
        await tables.join(info.row.id, user, NAMES[user])
    return info.row.id


async def play_one(tables: Tables, game_id: int, rng: random.Random) -> tuple[int, str]:
    """Let the first human to act make a random legal move through the service."""
    info = await tables.info(game_id)
    seat = info.to_act[0]
    user = info.seats[seat].user_id
    _, token, legal = await tables.legal_moves(game_id, user)
    move = rng.choice(legal)
    await tables.play(game_id, user, move, token=token)
    return seat, move


async def snapshot_state(store: Store, game_id: int):
    n, data = await store.snapshot(game_id)
    return n, DEFINITION.from_json(data)


async def test_lobby_join_leave_ai_and_start_rules(tables):
    game_id = await lobby(tables, users=(ANN,), options={"rounds": "1", "open_bids": "on"})
    info = await tables.info(game_id)
    assert info.row.options == {"rounds": 1, "span": 3, "open_bids": True, "pace": "calm"}
    assert await tables.open_game_at(50) == game_id
    with pytest.raises(Refused, match="Guess needs 2 to 4 players; there are 1."):
        await tables.start(game_id, ANN)
    await tables.join(game_id, BOB, "Bob")
    with pytest.raises(Refused, match="already joined"):
        await tables.join(game_id, BOB, "Bob")
    await tables.add_ai(game_id, ANN)
    await tables.add_ai(game_id, BOB)
    with pytest.raises(Refused, match="full"):
        await tables.join(game_id, CID, "Cid")
    assert [s.name for s in (await tables.info(game_id)).seats] == ["Ann", "Bob", "AI 1", "AI 2"]
    await tables.remove_ai(game_id, ANN)
    await tables.leave(game_id, BOB)
    info = await tables.info(game_id)
    assert [(s.seat, s.name) for s in info.seats] == [(0, "Ann"), (1, "AI 1")]
    with pytest.raises(Refused, match=NOT_SEATED):
        await tables.start(game_id, CID)
    with pytest.raises(Refused, match="open game"):
        await tables.create("guess", guild_id=9, channel_id=50, user_id=CID, user_name="Cid")


async def test_bad_options_are_refused(tables):
    with pytest.raises(Refused, match="span must be between 2 and 30"):
        await tables.create("guess", guild_id=9, channel_id=1, user_id=ANN, user_name="Ann", options={"span": 99})
    with pytest.raises(Refused, match="no option 'colour'"):
        await tables.create("guess", guild_id=9, channel_id=1, user_id=ANN, user_name="Ann",
                            options={"colour": "red"})
    with pytest.raises(Refused, match="Unknown game"):
        await tables.create("chess", guild_id=9, channel_id=1, user_id=ANN, user_name="Ann")


async def test_seat_order_shuffle_is_by_seed_and_join_keeps_order(tables):
    orders = []
    for channel, order in ((60, "join"), (61, "shuffle"), (62, "shuffle")):
        game_id = await lobby(tables, users=(ANN, BOB, CID, DAN), channel=channel, seat_order=order, seed=5)
        await tables.start(game_id, ANN)
        orders.append([s.user_id for s in (await tables.info(game_id)).seats])
    assert orders[0] == [ANN, BOB, CID, DAN]
    assert orders[1] == orders[2]  # same seed, same shuffle
    assert sorted(orders[1]) == [ANN, BOB, CID, DAN]


async def test_full_game_log_replays_to_snapshot_and_posts_are_owed(tables, store):
    game_id = await lobby(tables, seed=11)
    start = await tables.start(game_id, ANN)
    assert start.to_act == (0, 1, 2)  # simultaneous bids
    owed = await tables.owed_posts(game_id)
    assert [(p.kind, p.seat) for p in owed] == [("board", None), ("dm", 0), ("dm", 1), ("dm", 2)]
    await tables.posts_done([p.id for p in owed])
    rng = random.Random(3)
    played = []
    while (await tables.info(game_id)).row.status == "running":
        played.append(await play_one(tables, game_id, rng))
    row = (await tables.info(game_id)).row
    assert row.status == "over" and row.result is not None
    assert game_id not in tables.loaded() and await tables.open_game_at(50) is None
    moves = await store.moves(game_id)
    assert [(m.seat, m.notation) for m in moves] == played
    n, final = await snapshot_state(store, game_id)
    assert n == len(played)
    assert replay(DEFINITION, 3, row.options, row.seed, played) == final
    board_posts = [p for p in await tables.owed_posts(game_id) if p.kind == "board"]
    assert len(board_posts) == len(played)
    assert "result" in board_posts[-1].payload
    assert said(board_posts[-1].payload["result"])[0].startswith("1. ")
    log = await tables.log(game_id)
    assert said(log)[0].startswith("1. ") and len(log) == len(played)


async def test_refusals_change_nothing(tables, store):
    game_id = await lobby(tables, seed=2)
    await tables.start(game_id, ANN)
    info = await tables.info(game_id)
    users = [s.user_id for s in info.seats]
    for user in users:  # all bid; then seat 0 is to act
        await tables.play(game_id, user, "bid 1")
    before = (await store.snapshot(game_id), len(await store.moves(game_id)), len(await store.pending_posts()))
    first, second = users[0], users[1]
    _, token, _ = await tables.legal_moves(game_id, first)
    cases = [
        (DAN, "pass", None, NOT_SEATED),
        (second, "pass", None, f"{NOT_YOUR_TURN} Waiting for {info.seats[0].name}."),
        (first, "jump 3", None, "I cannot read 'jump 3'"),
        (first, "bid 2", None, "Bidding is over; guess or pass."),
        (first, "guess s1 1", None, f"{info.seats[0].name} cannot guess that seat."),
        (first, "pass", token + 1, STALE_MOVE),
    ]
    for user, text, tok, reason in cases:
        with pytest.raises(Refused) as refused:
            await tables.play(game_id, user, text, token=tok)
        shown = say(refused.value.reason, "en", refused.value.names)
        assert reason in shown
        assert "{s" not in shown
    after = (await store.snapshot(game_id), len(await store.moves(game_id)), len(await store.pending_posts()))
    assert after == before


async def test_two_clicks_at_once_apply_one_move(tables, store):
    game_id = await lobby(tables, users=(ANN, BOB), seed=4)
    await tables.start(game_id, ANN)
    _, token, _ = await tables.legal_moves(game_id, ANN)
    results = await asyncio.gather(
        tables.play(game_id, ANN, "bid 2", token=token),
        tables.play(game_id, ANN, "bid 2", token=token),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, Refused)]
    assert len(applied) == 1 and len(refused) == 1
    assert say(refused[0].reason, "en", refused[0].names).startswith((NOT_YOUR_TURN, STALE_MOVE))
    assert [m.notation for m in await store.moves(game_id)] == ["bid 2"]


async def test_restart_continues_lazily_with_nothing_lost_or_doubled(db_path):
    store = await Store.open(db_path)
    tables = Tables(store, games=GAMES)
    game_id = await lobby(tables, seed=8)
    await tables.start(game_id, ANN)
    rng = random.Random(1)
    played = [await play_one(tables, game_id, rng) for _ in range(4)]
    await store.close()

    store = await Store.open(db_path)
    tables = Tables(store, games=GAMES)
    assert await tables.load() == []  # no AI owes a move, so no state needs loading at start
    assert tables.loaded() == frozenset()  # only the index is loaded at start
    assert await tables.open_game_at(50) == game_id
    info = await tables.info(game_id)  # first use loads the state
    assert tables.loaded() == {game_id}
    assert info.moves == 4
    # A picker opened before the restart still carries a valid token.
    user = info.seats[info.to_act[0]].user_id
    _, token, legal = await tables.legal_moves(game_id, user)
    played.append((info.to_act[0], legal[0]))
    await tables.play(game_id, user, legal[0], token=token)
    with pytest.raises(Refused):
        await tables.play(game_id, user, legal[0], token=token)
    while (await tables.info(game_id)).row.status == "running":
        played.append(await play_one(tables, game_id, rng))
    assert [(m.seat, m.notation) for m in await store.moves(game_id)] == played
    row = (await tables.info(game_id)).row
    _, final = await snapshot_state(store, game_id)
    assert replay(DEFINITION, 3, row.options, row.seed, played) == final
    await store.close()


async def test_ai_seats_play_until_a_human_must_act(tables, store):
    game_id = await lobby(tables, users=(ANN,), seat_order="join", seed=6)
    await tables.add_ai(game_id, ANN)
    await tables.add_ai(game_id, ANN)
    start = await tables.start(game_id, ANN)
    # Everyone bids at once: the AIs bid at the start, Ann is left.
    assert start.to_act == (0,)
    assert [seat for seat, _ in start.applied] == [1, 2]
    outcome = await tables.play(game_id, ANN, "bid 0")
    assert outcome.to_act == (0,)  # bids done, then Ann's guessing turn comes first
    outcome = await tables.play(game_id, ANN, "pass")
    # The AIs took their turns: round 2 bidding, where they bid at once again, Ann is left.
    assert {seat for seat, _ in outcome.applied} == {0, 1, 2}
    assert outcome.to_act == (0,)
    assert any("Round 1 ends" in line for line in said(outcome.public_lines))
    moves = await store.moves(game_id)
    assert len(moves) == 2 + 1 + 1 + 2 + 2


async def test_dms_owed_only_for_changed_private_views_and_no_secret_in_public_lines(tables):
    game_id = await lobby(tables, seed=13, seat_order="join")
    await tables.start(game_id, ANN)
    await tables.posts_done([p.id for p in await tables.owed_posts()])
    outcome = await tables.play(game_id, ANN, "bid 3")
    assert {seat: said(lines) for seat, lines in outcome.private_lines.items()} == {0: ["You bid 3."]}
    assert said(outcome.public_lines) == ["Ann has bid."]
    owed = await tables.owed_posts(game_id)
    # Her own bid is no news worth a DM now: it waits for her next DM, as her turn begins. The bid
    # edits the round's post (Bob and Cid are still to bid).
    assert [(p.kind, p.seat, p.payload.get("edit")) for p in owed] == [("board", None, True)]
    assert all("3" not in line for p in owed if p.kind == "board" for line in said(p.payload["lines"]))
    await tables.posts_done([p.id for p in owed])
    await tables.play(game_id, BOB, "bid 1")
    assert [(p.kind, p.seat) for p in await tables.owed_posts(game_id)] == [("board", None)]
    await tables.play(game_id, CID, "bid 2")  # the bids are done: Ann's guessing turn begins
    owed = await tables.owed_posts(game_id)
    assert [(p.kind, p.seat) for p in owed if p.kind == "board" and "ping" in p.payload] == [("board", None)]
    assert [p.payload.get("ping") for p in owed if p.kind == "board"][-1] == [0]
    ann_dms = [p for p in owed if p.kind == "dm" and p.seat == 0]
    assert len(ann_dms) == 1 and "You bid 3." in said(ann_dms[0].payload["lines"])
    assert all("You bid 3." not in said(p.payload["lines"]) for p in owed if p.kind == "dm" and p.seat != 0)


async def test_concede_hands_the_seat_to_the_ai_and_last_human_ends_it(tables, store):
    game_id = await lobby(tables, users=(ANN, BOB), seat_order="join", seed=3)
    await tables.start(game_id, ANN)
    outcome = await tables.leave(game_id, BOB)
    assert outcome.applied == ((1, outcome.applied[0][1]),)  # the AI made Bob's bid
    assert "Bob left the game; the AI plays their seat." in said(outcome.public_lines)
    assert (await tables.info(game_id)).seats[1].name == "Bob (AI)"
    outcome = await tables.concede(game_id, ANN)
    assert outcome.status == "cancelled"
    assert (await store.game(game_id)).status == "cancelled"
    with pytest.raises(Refused):
        await tables.play(game_id, ANN, "pass")


async def test_cancel_is_for_the_creator_or_a_moderator(tables):
    game_id = await lobby(tables)
    with pytest.raises(Refused, match="Only the player who created"):
        await tables.cancel(game_id, BOB)
    await tables.cancel(game_id, BOB, admin=True)
    assert await tables.open_game_at(50) is None
    with pytest.raises(Refused):
        await tables.join(game_id, DAN, "Dan")


async def test_resume_plays_the_ai_turns_a_crash_left_owed(db_path):
    store = await Store.open(db_path)
    tables = Tables(store, games=GAMES)
    game_id = await lobby(tables, users=(ANN, BOB), seat_order="join", seed=9)
    await tables.start(game_id, ANN)
    # As if Bob's seat had been handed to the AI and the bot died before the AI moved.
    seats = await store.seats(game_id)
    await store.replace_seats(game_id, [seats[0], type(seats[1])(1, None, "random", "Bob (AI)")])
    await store.close()

    store = await Store.open(db_path)
    tables = Tables(store, games=GAMES)
    assert await tables.load() == [game_id]
    outcome = await tables.resume(game_id)
    assert outcome is not None and [seat for seat, _ in outcome.applied] == [1]
    assert await tables.resume(game_id) is None  # nothing owed any more: Ann must act
    assert [m.seat for m in await store.moves(game_id)] == [1]
    await store.close()


async def test_a_move_is_applied_off_the_event_loop_and_readers_see_the_state_before_it(tables, monkeypatch):
    """A slow engine call (a Ticket to Ride scoring of a huge hand) must not stop the loop: here the
    move cannot finish until a coroutine on the loop lets it, which only happens if apply runs off it.
    Meanwhile another reader of the game sees the state before the move, never half of it."""
    import threading

    game_id = await lobby(tables, users=(ANN, BOB))
    await tables.start(game_id, ANN)
    info = await tables.info(game_id)
    user = info.seats[info.to_act[0]].user_id
    _, token, legal = await tables.legal_moves(game_id, user)
    state_class = DEFINITION.state_class
    original = state_class.apply
    entered, release = threading.Event(), threading.Event()

    def slow_apply(self, seat, move):
        entered.set()
        release.wait(10)
        return original(self, seat, move)

    monkeypatch.setattr(state_class, "apply", slow_apply)
    before = await tables.public_view(game_id)
    move = asyncio.ensure_future(tables.play(game_id, user, legal[0], token=token))
    while not entered.is_set():
        await asyncio.sleep(0.01)
    assert await tables.public_view(game_id) == before  # the loop answers, with the state before the move
    release.set()
    outcome = await move
    assert outcome.applied[0] == (info.to_act[0], legal[0])
    assert release.is_set()


async def test_each_players_choice_of_dms_decides_which_dms_are_owed_and_survives_a_restart(db_path):
    store = await Store.open(db_path)
    tables = Tables(store, games=GAMES)
    await tables.set_dms(BOB, "turn")
    await tables.set_dms(CID, "off")
    with pytest.raises(Refused):
        await tables.set_dms(ANN, "sometimes")
    await tables.set_quiet_hours(BOB, "Asia/Tokyo", "22", "07")  # quiet hours leave the choice as it is
    game_id = await lobby(tables, seed=13, seat_order="join")
    await tables.start(game_id, ANN)
    welcome = {p.seat: p.payload for p in await tables.owed_posts(game_id) if p.kind == "dm"}
    assert welcome[0]["welcome"] and welcome[1]["welcome"] and "digest" in welcome[1]  # Bob bids now: his turn
    assert welcome[2] == {"lines": [], "welcome": True, "dms": "off"}  # Cid: words only, no hand
    await tables.posts_done([p.id for p in await tables.owed_posts()])
    await store.close()

    store = await Store.open(db_path)  # the choices are stored, not only remembered
    tables = Tables(store, games=GAMES)
    await tables.load()
    assert [(await store.user_prefs(u)).dms for u in (ANN, BOB, CID)] == ["all", "turn", "off"]
    assert (await store.user_prefs(BOB)).tz == "Asia/Tokyo"
    rng = random.Random(3)
    dms: dict[int, list[dict]] = {0: [], 1: [], 2: []}
    while (await tables.info(game_id)).row.status == "running":
        await play_one(tables, game_id, rng)
        owed = await tables.owed_posts(game_id)
        for post in owed:
            if post.kind == "dm":
                dms[post.seat].append(post.payload)
            assert not (post.kind == "remind" and post.seat == 2 and post.payload.get("dm", True))
        await tables.posts_done([p.id for p in owed])
    assert dms[2] == []  # off: nothing after the welcome
    assert dms[0] and dms[1]  # all and turn: a DM when their turn begins
    assert all(p.get("since") or p["lines"] or p.get("digest") for p in dms[1])
    await store.close()


async def test_choosing_dms_off_mid_game_stops_them_and_turn_skips_the_end(tables, store):
    game_id = await lobby(tables, seed=13, seat_order="join")
    await tables.start(game_id, ANN)
    await tables.posts_done([p.id for p in await tables.owed_posts()])
    await tables.set_dms(ANN, "off")  # in the middle of the game: the loaded game follows it
    await tables.set_dms(BOB, "turn")
    rng = random.Random(5)
    seen: list[tuple[int, bool]] = []  # (seat, the game was over by then)
    while (await tables.info(game_id)).row.status == "running":
        await play_one(tables, game_id, rng)
        over = (await tables.info(game_id)).row.status == "over"
        owed = await tables.owed_posts(game_id)
        seen += [(p.seat, over) for p in owed if p.kind == "dm"]
        await tables.posts_done([p.id for p in owed])
    assert all(seat != 0 for seat, _ in seen)
    assert (2, True) in seen and (1, True) not in seen  # Cid (all) gets the end by DM, Bob (turn) not


async def test_a_move_computes_only_the_private_views_its_dms_need(tables, monkeypatch):
    """A private view can cost milliseconds (Trans Europa's tracks still needed): a batch computes
    the views of the seats whose turn begins (their DM's digest), each once, not every human
    seat's before and after every batch (issue 29: that was most of a busy bot's work)."""
    import bot.service.owed as owed

    asked: list[int] = []
    real = owed.secret_part

    def counted(state, seat, public_view):
        asked.append(seat)
        return real(state, seat, public_view)

    game_id = await lobby(tables, seed=13, seat_order="join")
    await tables.start(game_id, ANN)
    monkeypatch.setattr(owed, "secret_part", counted)
    rng = random.Random(5)
    computed = 0
    for _ in range(12):
        asked.clear()
        if not (await tables.info(game_id)).to_act:
            break
        seat, _ = await play_one(tables, game_id, rng)
        info = await tables.info(game_id)
        # The seats whose turn begins; at the end, everyone (the final DM).
        owed = set(info.to_act) - {seat} if info.row.status == "running" else {0, 1, 2}
        assert len(asked) == len(set(asked)) and set(asked) <= owed, (asked, owed)
        computed += len(asked)
    assert computed  # the DMs still carry their digest
