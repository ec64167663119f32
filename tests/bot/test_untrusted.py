"""Untrusted text and ids (issue 12, finding 5): hostile display names never ping, forged or
overlong component ids and other servers' games are refused in one line, seat offers live server
side. Runs the real bot against the fake Discord (tests/e2e)."""

from __future__ import annotations

import pytest

from bot.store import Store
from bot.tables import Refused, Tables, safe_name
from bot.ui.base import INVALID_BUTTON, NOT_HERE
from tests.bot.guess_game import GAMES
from tests.e2e import conftest as e2e
from tests.e2e.test_platform import board_posts, make_bot, seats, started_game, store_fingerprint

fake_discord, log_guard = e2e.fake_discord, e2e.log_guard  # the e2e fixtures, used here too


def forged(fake, channel, custom_id):
    """A message of the bot's carrying a button with any custom_id, as a modified client could send."""
    body = {"content": "forged", "components": [
        {"type": 1, "components": [{"type": 2, "style": 2, "label": "forged", "custom_id": custom_id}]}]}
    return fake._create_message(channel, body, [])


def test_safe_name_cannot_mention():
    for name in ("<@123456789012345678>", "@everyone", "@here", "<@&42>", "<@!99>"):
        assert "@" in safe_name(name) and "@\u200b" in safe_name(name)
    assert safe_name("Ann\nsecond line") == "Ann second line"
    assert len(safe_name("x" * 500)) == 32 and safe_name("\n\t") == "Player"


async def test_a_hostile_display_name_pings_nobody(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "j.db")
    await fake.start_bot(make_bot(fake, db))
    ann, bob = fake.user("Ann"), fake.user("Bob")
    evil = fake.add_user(f"<@{bob.id}> @everyone <@&{fake.organizer_role_id}>")
    general = fake.channel("general")
    await started_game(fake, [ann, evil], general, options="rounds=1 span=20")
    for user in (ann, evil):
        await fake.slash(user, general, "play", options={"move": "bid 1"})
    await fake.wait_for(lambda: not store_fingerprint(db)[2], what="posts sent")
    await fake.drain()
    posts = [m for m in general.messages if not m.ephemeral]
    assert any(f"<@\u200b{bob.id}>" in m.text for m in posts)  # the name is shown, defused
    for message in posts:
        pinged = message.pinged()
        assert bob.id not in pinged and "everyone" not in pinged and fake.organizer_role_id not in pinged
        assert pinged <= {ann.id, evil.id}
    assert any(evil.id in m.pinged() or ann.id in m.pinged() for m in board_posts(general))  # turns still ping


async def test_forged_overlong_and_foreign_ids_get_one_line(fake_discord, tmp_path, log_guard):
    fake = fake_discord
    db = str(tmp_path / "j.db")
    bot = await fake.start_bot(make_bot(fake, db))
    ann, bob, dee = fake.user("Ann"), fake.user("Bob"), fake.user("Dee")
    general = fake.channel("general")
    await started_game(fake, [ann, bob], general, options="rounds=1 span=20")
    # Another server's game (ids are sequential: a forger guesses them easily).
    other = await bot.tables.create("guess", guild_id=fake.guild_id + 1, channel_id=1, thread_id=None,
                                    user_id=dee.id, user_name="Dee", options={}, seat_order="join", clock={})
    other_id = other.row.id
    cases = {
        f"jn:turn:{'9' * 92}": INVALID_BUTTON,
        "jn:turn:-1": INVALID_BUTTON,
        "jn:pick:1:99999999999999999999:": INVALID_BUTTON,
        "jn:lobby:explode:1": INVALID_BUTTON,
        f"jn:seat:1:99:{ann.id}:{dee.id}": INVALID_BUTTON,  # the old offer format: no seat from an id
        "jn:turn:424242": INVALID_BUTTON,  # no such game
        f"jn:turn:{other_id}": NOT_HERE,
        f"jn:hand:{other_id}": NOT_HERE,
        f"jn:lobby:join:{other_id}": NOT_HERE,
        f"jn:pick:{other_id}:0": NOT_HERE,
        f"jn:offer:{other_id}:1": NOT_HERE,
    }
    for custom_id, answer in cases.items():
        ix = await fake.click(dee, forged(fake, general, custom_id), custom_id=custom_id)
        assert ix.ephemeral and ix.text == answer, (custom_id, ix.text)
    assert len(await bot.tables.store.seats(other_id)) == 1  # nobody joined the other server's lobby
    # In DMs (no server), only a member seated in the game may use its buttons.
    ix = await fake.click(dee, forged(fake, fake.dm_channel(dee), "jn:hand:1"), custom_id="jn:hand:1")
    assert ix.ephemeral and ix.text == NOT_HERE
    ix = await fake.click(ann, forged(fake, fake.dm_channel(ann), "jn:hand:1"), custom_id="jn:hand:1")
    assert ix.ephemeral and "Your hand" in ix.text
    assert not log_guard.records


async def test_a_forged_accept_cannot_take_a_seat(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "j.db")
    bot = await fake.start_bot(make_bot(fake, db))
    ann, bob, cid, dee = (fake.user(n) for n in ("Ann", "Bob", "Cid", "Dee"))
    general = fake.channel("general")
    await started_game(fake, [ann, bob], general, options="rounds=1 span=20")
    ix = await fake.slash(ann, general, "seat give", options={"member": dee})
    offer = ix.reply
    [custom_id] = offer.custom_ids()
    assert custom_id.startswith("jn:offer:1:") and str(dee.id) not in custom_id  # nothing to edit in it
    # Cid forges the accept, and an old-style id naming himself as the taker: neither gives a seat.
    ix = await fake.click(cid, offer, custom_id=custom_id)
    assert ix.ephemeral and "offered to someone else" in ix.text
    old_style = f"jn:seat:1:0:{ann.id}:{cid.id}"
    ix = await fake.click(cid, forged(fake, general, old_style), custom_id=old_style)
    assert ix.text == INVALID_BUTTON
    assert seats(db)[0] == ann.id
    ix = await fake.click(dee, offer, custom_id=custom_id)
    assert ix.response_type == 7 and seats(db)[0] == dee.id
    # Once used, the same offer is gone, even for its taker (the button is forged back here).
    ix = await fake.click(dee, forged(fake, general, custom_id), custom_id=custom_id)
    assert "offer was used or has expired" in ix.text
    await fake.stop_bot(bot)


async def test_seat_offers_expire_and_are_used_once(tmp_path):
    now = [1000.0]
    store = await Store.open(str(tmp_path / "j.db"))
    try:
        tables = Tables(store, games=GAMES, now=lambda: now[0])
        info = await tables.create("guess", guild_id=1, channel_id=2, thread_id=None, user_id=10,
                                   user_name="Ann", options={}, seat_order="join", clock={})
        game_id = info.row.id
        await tables.join(game_id, 11, "Bob")
        await tables.start(game_id, 10)
        offer = await tables.offer_seat(game_id, 10, 12)
        now[0] += 25 * 3600  # a day and an hour later
        with pytest.raises(Refused):
            await tables.accept_seat_offer(game_id, offer, 12, "Cid")
        offer = await tables.offer_seat(game_id, 10, 12)
        with pytest.raises(Refused):
            await tables.accept_seat_offer(game_id, offer, 13, "Dee")  # not the taker
        _, giver = await tables.accept_seat_offer(game_id, offer, 12, "<@10>")
        assert giver == 10 and (await store.seats(game_id))[0].name == "<@\u200b10>"
        with pytest.raises(Refused):
            await tables.accept_seat_offer(game_id, offer, 12, "Cid")
    finally:
        await store.close()
