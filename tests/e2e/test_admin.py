"""Server admin commands, /game list, /mygames and missing bot permissions, through the fake Discord."""

from __future__ import annotations

import json
import sqlite3

from tests.e2e import fake_discord as fake_module
from tests.e2e.fake_discord import PERM_EVERYONE
from tests.e2e.test_platform import board_posts, make_bot, seats, state_of

REFUSED = "You need the **Manage Server** permission"


def guild_settings(db):
    with sqlite3.connect(db) as raw:
        row = raw.execute("SELECT settings FROM guild_settings").fetchone()
    return json.loads(row[0]) if row else {}


def status_of(db, game_id=1):
    with sqlite3.connect(db) as raw:
        return raw.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()[0]


async def admin_calls(fake, user, channel, target):
    """One call of each admin command (settings without options only shows them)."""
    return {
        "settings": await fake.slash(user, channel, "admin settings"),
        "stats": await fake.slash(user, channel, "admin stats"),
        "kick": await fake.slash(user, channel, "admin kick", options={"user": target, "game": 1}),
        "end": await fake.slash(user, channel, "admin end", options={"game": 1}),
    }


async def test_admin_commands_refuse_without_permission_and_work_with_it(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "admin.db")
    await fake.start_bot(make_bot(fake, db))
    ann, bob, cid = fake.user("Ann"), fake.user("Bob"), fake.user("Cid")  # Ann has Manage Server
    general, games = fake.channel("general"), fake.channel("games")
    admin = fake.command("admin")
    assert admin["default_member_permissions"] is None  # visible to role-based admins too

    # Ann limits games to #games, with a 48 h timer that skips, never in threads.
    ix = await fake.slash(ann, general, "admin settings", options={
        "channels": f"{games.mention} ", "timer_hours": 48, "timeout": "skip", "threads": "never"})
    assert ix.ephemeral and ix.text.startswith("Settings saved.")
    assert f"Games may start in: {games.mention}" in ix.text and "Default turn timer: 48 h" in ix.text
    assert guild_settings(db) == {"game_channels": [games.id], "turn_hours": 48, "timeout_action": "skip",
                                  "threads": "never"}
    ix = await fake.slash(bob, general, "game new", options={"game": "guess"})
    assert ix.text == f"Games cannot be started in this channel. A server admin allows them in: {games.mention}."
    ix = await fake.slash(bob, games, "game new", options={"game": "guess", "thread": True, "seats": "join"})
    assert "Lobby for Guess opened (game #1)" in ix.text and not fake.threads  # threads: never
    await fake.slash(cid, games, "game join")
    await fake.slash(ann, games, "game join")
    await fake.slash(bob, games, "game start")
    await fake.wait_for(lambda: board_posts(games), what="first board")

    # Without the permission: a clear refusal for each command, and nothing changes.
    for name, ix in (await admin_calls(fake, cid, games, bob)).items():
        assert ix.ephemeral and ix.text == f"{REFUSED} to use this command.", (name, ix.text)
    assert status_of(db) == "running" and None not in seats(db)

    # /game list and /mygames for anyone.
    ix = await fake.slash(cid, games, "game list")
    assert "**Games on this server**" in ix.text and "#1 Guess" in ix.text
    assert f"https://discord.com/channels/{fake.guild_id}/{games.id}/" in ix.text and "<t:" in ix.text
    assert "waiting for Bob, Cid, Ann" in ix.text  # the bid step: everyone acts
    ix = await fake.slash(bob, fake.dm_channel(bob), "mygames")
    assert "**Your games**" in ix.text and "#1 Guess" in ix.text and "your turn" in ix.text

    # With it: stats, kick (the AI takes Cid's seat), end (final standings, hands revealed).
    ix = await fake.slash(ann, games, "admin stats")
    assert "Games: 1 · running 1 · lobbies 0" in ix.text and "players: 3" in ix.text
    assert "By game: Guess 1" in ix.text
    choices = await fake.autocomplete(ann, games, "admin end", focused="game", value="")
    assert choices == [{"name": "#1 Guess (running)", "value": 1}]
    ix = await fake.slash(ann, games, "admin kick", options={"user": cid, "game": 1})
    assert ix.text == "Cid was removed from game #1; the AI plays their seat."
    assert seats(db)[1] is None  # join order: Bob, Cid, Ann
    await fake.wait_for(lambda: any("Cid left the game" in m.text for m in board_posts(games)), what="kick post")
    ix = await fake.slash(ann, games, "admin kick", options={"user": cid, "game": 1})
    assert ix.text == "Cid is not playing in game #1."
    ix = await fake.slash(ann, games, "admin end", options={"game": 1})
    assert ix.text == "Game #1 ended."
    assert status_of(db) == "over" and state_of(db).is_over() is False  # stopped early, as it stood
    final = await fake.wait_for(lambda: next((m for m in board_posts(games) if "Game over" in m.text), None),
                                what="final post")
    assert "A server admin ended the game" in final.text
    assert {a.filename for a in final.attachments} >= {"board.png", "game-1-log.txt", "hand-1.png"}
    ix = await fake.slash(ann, games, "admin end", options={"game": 1})
    assert ix.text == "Game #1 is already finished."
    ix = await fake.slash(ann, games, "admin end", options={"game": 99})
    assert ix.text == "There is no game #99 on this server."
    ix = await fake.slash(ann, games, "game list")
    assert ix.text == "No running games or lobbies on this server."
    ix = await fake.slash(ann, games, "admin settings", options={"channels": "any", "threads": "always"})
    assert "Games may start in: any channel" in ix.text and guild_settings(db)["game_channels"] == []
    assert "Threads: always in a thread" in ix.text
    ix = await fake.slash(cid, general, "game new", options={"game": "guess"})  # no thread asked: one anyway
    [thread] = fake.threads
    assert f"Lobby for Guess opened in {thread.mention} (game #2)" in ix.text
    assert any("Lobby open" in m.text for m in thread.messages)


async def test_an_admin_role_grants_the_commands_without_manage_server(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "role.db")
    bot = await fake.start_bot(make_bot(fake, db))
    ann, bob, general = fake.user("Ann"), fake.user("Bob"), fake.channel("general")
    # Ann keeps the Organizer role but loses Manage Server; the server named that role as admin role.
    fake.member_permissions = lambda user: PERM_EVERYONE
    ix = await fake.slash(ann, general, "admin stats")
    assert ix.text == f"{REFUSED} to use this command."
    await bot.store.set_guild_settings(fake.guild_id, {"admin_role": fake.organizer_role_id})
    ix = await fake.slash(ann, general, "admin stats")
    assert ix.text.startswith("**Junction on this server**")
    ix = await fake.slash(bob, general, "admin stats")
    assert ix.text == f"{REFUSED} (or the admin role <@&{fake.organizer_role_id}>) to use this command."
    ix = await fake.slash(ann, general, "admin settings", options={"clear_role": True})
    assert "Admin role: none (Manage Server only)" in ix.text
    ix = await fake.slash(ann, general, "admin stats")
    assert ix.text == f"{REFUSED} to use this command."


async def test_missing_bot_permissions_are_said_not_swallowed(fake_discord, tmp_path, monkeypatch):
    fake = fake_discord
    db = str(tmp_path / "perm.db")
    await fake.start_bot(make_bot(fake, db))
    ann, general = fake.user("Ann"), fake.channel("general")
    monkeypatch.setattr(fake_module, "PERM_BOT", fake_module.PERM_BOT & ~(1 << 15))  # no Attach Files
    ix = await fake.slash(ann, general, "game new", options={"game": "guess"})
    assert ix.text == "I cannot post here: I need the **Attach Files** permission in this channel."
    monkeypatch.setattr(fake_module, "PERM_BOT", fake_module.PERM_BOT | (1 << 15))
    monkeypatch.setattr(fake_module, "PERM_BOT", fake_module.PERM_BOT & ~(1 << 35))  # no Create Public Threads
    ix = await fake.slash(ann, general, "game new", options={"game": "guess", "thread": True})
    assert ix.text == "I cannot open a thread here: I need the **Create Public Threads** permission in this channel."
    assert not fake.threads
    ix = await fake.slash(ann, general, "game new", options={"game": "guess"})  # no thread: fine
    assert "Lobby for Guess opened" in ix.text
