"""`/clock dms`: each player chooses which DMs they get (all, only when their turn begins, none), in
every game, across restarts; `/hand` and My hand stay whatever they chose."""

from __future__ import annotations

from tests.e2e.test_platform import board_posts, make_bot, open_table


async def test_a_player_who_chose_no_dms_gets_a_welcome_in_words_and_my_hand_still_works(fake_discord, tmp_path):
    fake, db = fake_discord, str(tmp_path / "j.db")
    bot = await fake.start_bot(make_bot(fake, db))
    ann, bob, cid = fake.user("Ann"), fake.user("Bob"), fake.user("Cid")
    general = fake.channel("general")
    ix = await fake.slash(ann, general, "clock dms", options={"send": "off"})
    assert ix.ephemeral and ix.content.startswith("You get no DMs"), ix.content
    ix = await fake.slash(bob, general, "clock dms", options={"send": "turn"}, locale="ja")
    assert ix.content.startswith("DM は手番が来たときだけ届きます"), ix.content
    bot = await fake.restart_bot(bot, make_bot(fake, db))  # the choice is stored
    lobby = await open_table(fake, general, [ann, bob, cid], options="rounds=1", seats="join")
    await fake.click(ann, lobby, label="Start")
    await fake.wait_for(lambda: board_posts(general) and fake.dms(cid) and fake.dms(bob), what="welcome DMs")
    await fake.drain()
    welcome = fake.dms(ann)
    print(welcome[0].content)
    assert len(welcome) == 1 and "You chose no DMs" in welcome[0].content and not welcome[0].attachments
    assert fake.dms(cid)[0].attachments  # Cid kept the default: the welcome with his hand
    hand = await fake.click(ann, board_posts(general)[-1], label="My hand")
    assert hand.ephemeral and hand.reply.attachments and hand.reply.attachments[0].is_png
    commands = {c["name"]: c for c in fake.commands()}
    dms = next(o for o in commands["clock"]["options"] if o["name"] == "dms")
    assert dms["description_localizations"]["ja"] == "すべてのゲームで受け取る DM の種類"
    await fake.stop_bot(bot)
