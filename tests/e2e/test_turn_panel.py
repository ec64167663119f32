"""The turn panel: Take turn opens it, it updates in place decision after decision (with the board
and an Undo button where the rules have one), closes with a one-line summary when the turn passes,
and after its 15 minutes says it expired and hands over a Take turn button for a fresh one."""

from __future__ import annotations

import pytest

from bot.app import create_bot
from bot.cogs.games import PANEL_EXPIRED
from rules.registry import GAMES
from tests.e2e.test_platform import pick_move, table_snapshot

OTR = GAMES["off_the_rails"]


async def start_off_the_rails(fake, db, **settings):
    bot = await fake.start_bot(create_bot(db, render_workers=0, **settings, **fake.bot_kwargs()))
    ann, bob, channel = fake.user("Ann"), fake.user("Bob"), fake.channel("games")
    await fake.slash(ann, channel, "game new", options={"game": "off_the_rails", "seats": "join"})
    lobby = next(m for m in channel.messages if "Lobby open" in m.content)
    await fake.click(bob, lobby, label="Join")
    await fake.click(ann, lobby, label="Start")
    await fake.wait_for(lambda: table_snapshot(db, OTR)[4] == "running" and table_snapshot(db, OTR)[2] == 0,
                        what="first board")
    return bot, {ann.id: ann, bob.id: bob}, channel


def board_post(channel):
    return [m for m in channel.messages if not m.ephemeral and "game #" in m.text and m.buttons()][-1]


async def open_panel(fake, db, locale="en-US", **settings):
    """A new two-player game: (bot, channel, state, seat to act, its player, the panel Take turn opened)."""
    bot, users, channel = await start_off_the_rails(fake, db, **settings)
    state, seat_users, *_ = table_snapshot(db, OTR)
    seat = min(state.to_act())
    player = users[seat_users[seat]]
    panel = (await fake.click(player, board_post(channel), label="Take turn", locale=locale)).reply
    return bot, channel, state, seat, player, panel


@pytest.mark.parametrize("defer_after", [1.0, 0.0], ids=["answered", "every answer deferred"])
async def test_the_panel_stays_open_offers_undo_and_closes_with_a_summary(fake_discord, tmp_path, defer_after):
    """Also with every answer deferred first (a slow machine: the work outlasts the defer delay): the panel
    read after a select is the edited one."""
    fake, db = fake_discord, str(tmp_path / "j.db")
    bot, channel, state, seat, player, panel = await open_panel(fake, db, defer_after=defer_after)
    assert panel.ephemeral and "to choose from" in panel.content
    lay = next(str(m) for m in state.legal_moves(seat) if str(m).startswith("lay"))
    ix, opened = await pick_move(fake, player, panel, lay)
    assert opened + 1 <= 3
    panel = fake.message(panel.id)
    print(panel.content)
    assert ix.reply.id == panel.id and panel.content.startswith(f"You played `{lay}`.")
    assert panel.attachments and panel.attachments[0].is_png  # the board as it is now
    assert any(b.get("label") == "Undo" for b in panel.buttons())
    await fake.click(player, panel, label="Undo")
    panel = fake.message(panel.id)
    assert panel.content.startswith("You played `undo`.") and not any(
        m.startswith("undo") for m in map(str, table_snapshot(db, OTR)[0].legal_moves(seat)))
    # The rest of the turn on the same panel (the lay again, then end), until it closes itself.
    played = [lay]
    while panel.custom_ids():
        legal = [str(m) for m in table_snapshot(db, OTR)[0].legal_moves(seat)]
        move = lay if lay in legal and len(played) == 1 else "end" if "end" in legal else legal[0]
        ix, opened = await pick_move(fake, player, panel, move)
        played.append(move)
        assert opened + 1 <= 3
        panel = fake.message(panel.id)
    print(panel.content)
    # The undone lay is not part of the turn.
    decisions = ", ".join(f"`{m}`" for m in played[1:])
    assert panel.content == f"Your turn in **Off the Rails** (game #1) is over: {decisions}.", panel.content
    assert "\n" not in panel.content and not panel.attachments
    assert seat not in table_snapshot(db, OTR)[0].to_act()
    await fake.stop_bot(bot)


async def test_an_expired_panel_says_so_and_take_turn_opens_a_fresh_one(fake_discord, tmp_path):
    fake, db = fake_discord, str(tmp_path / "j.db")
    bot, channel, state, seat, player, panel = await open_panel(fake, db)
    before = panel.content
    fake.advance(16 * 60)  # Discord: an interaction token lives 15 minutes
    group = next(o["value"] for o in panel.component(custom_id=panel.custom_ids()[0])["options"]
                 if o["value"].startswith("g:"))
    ix = await fake.select(player, panel, [group])
    print(ix.content)
    assert ix.reply.id != panel.id and ix.ephemeral and ix.content == PANEL_EXPIRED
    assert fake.message(panel.id).content == before  # Discord refused to change it
    fresh = (await fake.click(player, ix.reply, label="Take turn")).reply
    assert fresh.ephemeral and "to choose from" in fresh.content
    lay = next(str(m) for m in table_snapshot(db, OTR)[0].legal_moves(seat) if str(m).startswith("lay"))
    ix, _ = await pick_move(fake, player, fresh, lay)
    assert ix.reply.id == fresh.id and fake.message(fresh.id).content.startswith(f"You played `{lay}`.")
    # A decision on an expired panel counts, and a new message says what it did.
    fake.advance(16 * 60)
    ix, _ = await pick_move(fake, player, fake.message(fresh.id), "end")
    print(ix.content)
    assert table_snapshot(db, OTR)[3][-1][1] == "end"
    assert ix.reply.id != fresh.id and ix.content == f"Your turn in **Off the Rails** (game #1) is over: `{lay}`, `end`."
    await fake.stop_bot(bot)


async def test_the_panel_speaks_the_players_language(fake_discord, tmp_path):
    fake, db = fake_discord, str(tmp_path / "j.db")
    bot, channel, state, seat, player, panel = await open_panel(fake, db, locale="ja")
    lay = next(str(m) for m in state.legal_moves(seat) if str(m).startswith("lay"))
    ix, _ = await pick_move(fake, player, panel, lay, locale="ja")
    text = fake.message(panel.id).content
    print(text)
    assert text.startswith(f"`{lay}` を指しました。") and "候補" in text and "lays" not in text
    assert any(b.get("label") == "取り消す" for b in fake.message(panel.id).buttons())
    await fake.stop_bot(bot)
