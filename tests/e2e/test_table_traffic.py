"""A whole game of each of the five games through the fake Discord: the channel gets a post per turn.

Two players (their moves are the greedy AI's choice for their seat, sent with /play) and one AI
seat added with the lobby's button. Counted from what the fake Discord holds, checked against the
move log replayed: new channel posts, pings of a player already in their turn, DMs per player.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest

from bot.app import create_bot
from rules.engine import ai_move, replay
from rules.registry import GAMES
from tests.bot.test_result_words import SNAKE, words_of
from tests.e2e.test_platform import pick_move, table_snapshot

# Short tables where the game has a length option.
GAME_OPTIONS = {
    "ttr_cards": "",
    "great_western": "",
    "trans_europa": "start_score=5",
    "off_the_rails": "game_length=13",
    "santa_fe": "",
}
MOVE = re.compile(r"game #\d+ · move (\d+)")


@dataclass
class Traffic:
    """What one game sent, with the turns it had (a turn: a seat starts being awaited)."""

    posts: int = 0
    edits: int = 0
    image_bytes: int = 0
    mentions: int = 0
    repings: list[str] = field(default_factory=list)  # mentions of a player already in their turn
    turns: dict[int, int] = field(default_factory=dict)  # seat -> turns begun
    clicks_per_turn: list[int] = field(default_factory=list)  # players' turns played with the picker
    clicks_per_decision: list[int] = field(default_factory=list)  # each decision on the panel
    dms: dict[int, int] = field(default_factory=dict)  # seat -> DMs received

    @property
    def total_turns(self) -> int:
        return sum(self.turns.values())


def awaited_after(key: str, num_seats: int, options, seed, moves) -> list[frozenset[int]]:
    definition = GAMES[key]
    state = replay(definition, num_seats, options, seed, [])
    awaited = [state.to_act()]
    for seat, notation in moves:
        state.apply(seat, notation)
        awaited.append(state.to_act())
    return awaited


def measure(fake, channel, users: list[int | None], awaited: list[frozenset[int]]) -> Traffic:
    """Count the channel's board posts and each player's DMs, and find every re-ping."""
    traffic = Traffic()
    for moment in range(1, len(awaited)):
        for seat in awaited[moment] - awaited[moment - 1]:
            traffic.turns[seat] = traffic.turns.get(seat, 0) + 1
    for seat in awaited[0]:
        traffic.turns[seat] = traffic.turns.get(seat, 0) + 1
    boards = [m for m in channel.messages if not m.ephemeral and MOVE.search(m.text)]
    shown: int | None = None  # the move count the channel showed last (the previous post's latest version)
    for post in boards:
        first = post.versions[0] if post.versions else post  # as created (edits never ping)
        made_at = int(MOVE.search(first.text)[1])
        traffic.posts += 1
        traffic.edits += post.edits
        traffic.image_bytes += sum(len(a.data) for a in first.attachments)
        for version in [*post.versions[1:], post] if post.versions else []:
            traffic.image_bytes += sum(len(a.data) for a in version.attachments)
        for user_id in first.pinged():
            traffic.mentions += 1
            seat = users.index(user_id)
            # Already in their turn: awaited at every moment from what the channel showed before to now.
            if shown is not None and all(seat in awaited[k] for k in range(shown, made_at + 1)):
                traffic.repings.append(f"seat {seat} at move {made_at} (shown: move {shown})")
        shown = int(MOVE.search(post.text)[1])
    for seat, user_id in enumerate(users):
        if user_id is not None:
            traffic.dms[seat] = len(fake.dms(fake.users[user_id]))
    return traffic


def _options(component: dict) -> list[dict]:
    """The options and buttons of a message's component rows, for printing a panel as a player sees it."""
    inner = component.get("components") or []
    found = [{"label": o["label"]} for c in inner for o in c.get("options", [])]
    return found + [{"label": c["label"]} for c in inner if c.get("type") == 2]


async def play_game(fake, tmp_path, key: str, restart_at: int | None = None, picker: bool = False,
                    show_panel: bool = False, ai_seat: bool = True):
    """Play `key` to its end with two players and (`ai_seat`) one normal AI seat; returns (traffic, snapshot).

    `picker`: decisions go through the board post's Take turn button and the move picker (each
    click counted: Take turn, each group opened, the move) instead of /play."""
    definition = GAMES[key]
    db = str(tmp_path / f"{key}.db")
    bot = await fake.start_bot(create_bot(db, render_workers=1, **fake.bot_kwargs()))
    bot.edit_interval = 0.02
    ann, bob = fake.user("Ann"), fake.user("Bob")
    by_id = {u.id: u for u in (ann, bob)}
    channel = fake.channel("games")
    options = {"game": key, "seats": "join"}
    if GAME_OPTIONS[key]:
        options["options"] = GAME_OPTIONS[key]
    await fake.slash(ann, channel, "game new", options=options)
    lobby = next(m for m in channel.messages if "Lobby open" in m.text)
    await fake.click(bob, lobby, label="Join")
    if ai_seat:
        level = await fake.click(ann, lobby, label="Add AI")  # the lobby's button asks which level
        assert (await fake.click(ann, level.reply, label="Normal")).text == "AI 1 (normal) takes a seat."
    await fake.click(ann, lobby, label="Start")
    await fake.wait_for(lambda: table_snapshot(db, definition)[4] == "running" and table_snapshot(db, definition)[2] == 0,
                        what="first board and welcome DMs")
    panels: dict[int, object] = {}  # seat -> its open turn panel (picker mode)
    decisions: list[int] = []  # clicks of each decision on a panel (groups opened + the move)
    greedy = definition.ai("greedy" if "greedy" in definition.ais else next(iter(definition.ais)))
    played = 0
    clicks: list[tuple[int, int, int]] = []  # (move number, seat, clicks) of each player decision
    while True:
        state, users, _, moves, status = table_snapshot(db, definition)
        if status != "running":
            break
        seat = min(s for s in state.to_act() if users[s] is not None)
        move = str(ai_move(state, seat, greedy))
        if picker:
            # The seat's turn panel stays open from decision to decision; Take turn opens one when
            # there is none (the last one closed when its turn passed).
            user = by_id[users[seat]]
            panel = panels.get(seat)
            opening = panel is None or not fake.message(panel.id).custom_ids()
            if opening:
                board = [m for m in channel.messages if not m.ephemeral and MOVE.search(m.text)][-1]
                panel = (await fake.click(user, board, label="Take turn")).reply
            ix, opened = await pick_move(fake, user, fake.message(panel.id), move, narrowings=12)
            panels[seat] = fake.message(panel.id)
            decisions.append(1 + opened)
            clicks.append((len(moves), seat, int(opening) + 1 + opened))
            assert f"`{move}`" in ix.text and "\n" not in ix.text.split("`")[0], ix.text
            if show_panel:
                print(f"--- {user.name}'s panel after {move}:\n{fake.message(panel.id).text}"
                      f"\n[{', '.join(o['label'] for c in fake.message(panel.id).components for o in _options(c))}]")
        else:
            ix = await fake.slash(by_id[users[seat]], channel, "play", options={"move": move})
            assert ix.text == f"You played `{move}`.", ix.text
        before = len(moves)
        await fake.wait_for(lambda n=before: len(table_snapshot(db, definition)[3]) > n
                            and table_snapshot(db, definition)[2] == 0, what=f"posts after {move}")
        played += 1
        if played == restart_at:
            bot = await fake.restart_bot(bot, create_bot(db, render_workers=1, **fake.bot_kwargs()))
            bot.edit_interval = 0.02
            # The first board post's buttons, from before the restart, still answer.
            first = next(m for m in channel.messages if not m.ephemeral and MOVE.search(m.text))
            hand = await fake.click(ann, first, label="My hand")
            assert hand.ephemeral and hand.reply.attachments and hand.reply.attachments[0].is_png, hand.text
    state, users, _, moves, status = table_snapshot(db, definition)
    assert status == "over" and state.is_over()
    awaited = awaited_after(key, len(users), state.options, state.seed, moves)
    traffic = measure(fake, channel, users, awaited)
    # A player's decisions belong to one turn while their seat stays awaited between them.
    turn_clicks: list[int] = []
    last: dict[int, int] = {}
    for n, seat, count in clicks:
        if seat in last and all(seat in awaited[k] for k in range(last[seat], n + 1)):
            turn_clicks[-1] += count
        else:
            turn_clicks.append(count)
        last[seat] = n
    traffic.clicks_per_turn = turn_clicks
    traffic.clicks_per_decision = decisions
    return traffic, (state, users, moves, channel, bot, db)


def engine_keys_shown(fake, channel, users: list[int | None]) -> list[str]:
    """Every snake_case token a player could read anywhere in the game: each version of each message in
    the channel (replies included), each player's DMs, alt texts and the text files attached."""
    messages = list(channel.messages)
    messages += [m for user_id in users if user_id is not None for m in fake.dms(fake.users[user_id])]
    found = []
    for message in messages:
        attachments = message.all_attachments()
        shown = [message.all_text(), *(a.description for a in attachments),
                 *(a.data.decode("utf-8", "replace") for a in attachments if a.filename.endswith(".txt"))]
        found += [f"{token!r} in {text[:80]!r}" for text in shown for token in SNAKE.findall(words_of(text))]
    return found


@pytest.mark.parametrize("key", sorted(GAME_OPTIONS))
async def test_a_whole_game_posts_per_turn_pings_once_and_dms_what_matters(fake_discord, tmp_path, key):
    fake = fake_discord
    traffic, (state, users, moves, channel, bot, db) = await play_game(fake, tmp_path, key, restart_at=12)
    rounds = 0  # counted as turns already: a round's first turn is a turn
    assert traffic.posts <= traffic.total_turns + rounds + 3, traffic
    for seat, count in traffic.dms.items():
        assert count <= traffic.turns.get(seat, 0) + 3, (seat, traffic)
    # Posts per turn, not per decision: fewer posts than moves whenever a turn had several decisions.
    assert traffic.posts <= len(moves) + 2
    final = [m for m in channel.messages if "Game over" in m.text]
    assert final and final[-1].attachments
    await fake.stop_bot(bot)
    assert traffic.repings == [], traffic
    assert engine_keys_shown(fake, channel, users) == []


async def test_off_the_rails_through_the_turn_panel(fake_discord, tmp_path, monkeypatch):
    """A whole game played by clicks only: Take turn once per turn, then the panel that stays open.
    One fixed two-player game. The bench plays new ones, with an AI seat too: 6.5 to 7 clicks per
    turn, median, in three runs. Most decisions take one click (the engine's shortcuts), so the
    median is mostly the number of decisions a turn has (up to four actions, end, the run's choices)
    plus Take turn."""
    import random
    import statistics

    monkeypatch.setattr(random, "SystemRandom", lambda: random.Random(11))  # the game's seed
    traffic, (state, users, moves, channel, bot, db) = await play_game(
        fake_discord, tmp_path, "off_the_rails", picker=True, show_panel=True, ai_seat=False)
    print("clicks per turn", traffic.clicks_per_turn, "per decision", traffic.clicks_per_decision)
    assert traffic.clicks_per_decision and max(traffic.clicks_per_decision) <= 3
    assert statistics.median(traffic.clicks_per_turn) <= 8, traffic.clicks_per_turn
    assert len(moves) > 40  # a whole game: several turns of every kind of decision
    assert engine_keys_shown(fake_discord, channel, users) == []
    await fake_discord.stop_bot(bot)
