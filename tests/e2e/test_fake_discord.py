"""Tests of the fake Discord itself, driving a tiny real discord.py bot defined here."""

from __future__ import annotations

import asyncio
import io
import logging
import re

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.e2e.conftest import LogGuard
from tests.e2e.fake_discord import FakeDiscord, FakeDiscordError, FakeMessage, FakeUser

MOVES = ["lay paris-lyon", "lay paris-brest", "lay pisa-roma", "pass"]


class JoinButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tb:join:(?P<gid>[0-9]+)"):
    """A persistent button whose custom_id carries a game id."""

    def __init__(self, gid: int) -> None:
        super().__init__(
            discord.ui.Button(label="Join", style=discord.ButtonStyle.primary, custom_id=f"tb:join:{gid}")
        )
        self.gid = gid

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> JoinButton:
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"{interaction.user.display_name} joined game {self.gid}")


class RollButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tb:roll:(?P<gid>[0-9]+)"):
    """Acknowledges with a deferred update, then posts and edits its own message."""

    def __init__(self, gid: int) -> None:
        super().__init__(discord.ui.Button(label="Roll", custom_id=f"tb:roll:{gid}"))
        self.gid = gid

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> RollButton:
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        assert interaction.channel is not None
        await interaction.channel.send(f"rolled {self.gid}")  # type: ignore[union-attr]
        await interaction.edit_original_response(content="rolled!")


class JaTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        return (
            "ロケールを表示"
            if locale is discord.Locale.japanese and string.message == "Echo locale"
            else None
        )


class ColourSelect(discord.ui.View):
    @discord.ui.select(
        custom_id="tb:colour", options=[discord.SelectOption(label=c, value=c) for c in ("red", "blue")]
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"picked {select.values[0]}", view=None)


class NameModal(discord.ui.Modal, title="Name"):
    name = discord.ui.TextInput(label="Your name", custom_id="tb:name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.name.value}", ephemeral=True)


def png_bytes() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 30, 30)).save(out, format="PNG", compress_level=1)
    return out.getvalue()


def make_bot(fake: FakeDiscord) -> commands.Bot:
    bot = commands.Bot(command_prefix="!", **fake.bot_kwargs())
    game = app_commands.Group(name="game", description="Games")
    admin = app_commands.Group(name="admin", description="Admin", parent=game)

    @game.command(name="new", description="New game")
    @app_commands.choices(kind=[app_commands.Choice(name="Trans Europa", value="trans_europa")])
    async def game_new(
        interaction: discord.Interaction,
        kind: app_commands.Choice[str],
        seats: app_commands.Range[int, 2, 5] = 3,
        thread: bool = False,
        rival: discord.Member | None = None,
        where: discord.TextChannel | None = None,
    ) -> None:
        gid = interaction.id % 100000
        view = discord.ui.View(timeout=None).add_item(JoinButton(gid)).add_item(RollButton(gid))
        text = f"{kind.value} for {seats} by {interaction.user.display_name} rival={rival and rival.display_name} where={where and where.name}"
        if thread:
            assert isinstance(interaction.channel, discord.TextChannel)
            t = await interaction.channel.create_thread(
                name=f"game {gid}", type=discord.ChannelType.public_thread
            )
            await t.send(text, view=view)
            await t.edit(auto_archive_duration=60)
            await interaction.response.send_message(f"game in {t.mention}")
        else:
            await interaction.response.send_message(text, view=view)

    @admin.command(name="reset", description="Reset")
    @app_commands.default_permissions(manage_guild=True)
    async def admin_reset(interaction: discord.Interaction, hard: bool) -> None:
        perms = interaction.permissions.manage_guild
        sent = await interaction.response.send_message(f"reset hard={hard} manage={perms}", ephemeral=True)
        original = await interaction.original_response()  # GET @original, parsed by discord.py
        same = sent.message_id == original.id == sent.resource.id  # type: ignore[union-attr]
        await interaction.followup.send(f"same={same} ephemeral={original.flags.ephemeral}", ephemeral=True)

    async def move_auto(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=m, value=m) for m in MOVES if current.lower() in m][:25]

    @app_commands.command(name="play", description="Play a move")
    @app_commands.autocomplete(move=move_auto)
    @app_commands.describe(move="The move")
    async def play(interaction: discord.Interaction, move: str) -> None:
        await interaction.response.send_message(f"played {move}", ephemeral=True)

    @app_commands.command(name="dm", description="DM someone")
    async def dm(interaction: discord.Interaction, user: discord.User) -> None:
        try:
            await user.send("psst", file=discord.File(io.BytesIO(png_bytes()), filename="hand.png"))
        except discord.Forbidden as e:
            await interaction.response.send_message(f"cannot DM ({e.code})", ephemeral=True)
        else:
            await interaction.response.send_message("sent", ephemeral=True)

    @app_commands.command(name="board", description="Board image")
    async def board(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "board", file=discord.File(io.BytesIO(png_bytes()), filename="board.png")
        )

    @app_commands.command(name="slow", description="Deferred reply")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True, ephemeral=True)
        await interaction.followup.send("done slowly")
        await interaction.followup.send("and one more")

    @app_commands.command(name="locale", description="Echo locale")
    async def locale(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"{interaction.locale.value} {interaction.guild_locale}")

    @app_commands.command(name="colour", description="Pick a colour")
    async def colour(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pick one", view=ColourSelect(), ephemeral=True)

    @app_commands.command(name="name", description="Modal")
    async def name(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @app_commands.command(name="settings", description="Organizers only")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def settings(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("settings", ephemeral=True)

    @app_commands.command(name="boom", description="Raises")
    async def boom(interaction: discord.Interaction) -> None:
        raise RuntimeError("kaboom")

    for cmd in (game, play, dm, board, slow, locale, colour, name, settings, boom):
        bot.tree.add_command(cmd)

    async def setup_hook() -> None:
        bot.add_dynamic_items(JoinButton, RollButton)
        await bot.tree.set_translator(JaTranslator())
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


@pytest.fixture
async def fake(fake_discord: FakeDiscord) -> FakeDiscord:
    await fake_discord.start_bot(make_bot(fake_discord))
    return fake_discord


async def test_login_sync_and_guild(fake: FakeDiscord) -> None:
    assert discord.http.Route.BASE.startswith("http://127.0.0.1:")
    names = sorted(c["name"] for c in fake.commands())
    assert names == ["board", "boom", "colour", "dm", "game", "locale", "name", "play", "settings", "slow"]
    game = fake.command("game")
    assert sorted((o["name"], o["type"]) for o in game["options"]) == [("admin", 2), ("new", 1)]
    assert fake.command("locale")["description_localizations"] == {"ja": "ロケールを表示"}
    bot = next(iter(fake._bots))
    guild = bot.get_guild(fake.guild_id)
    assert guild is not None and {c.name for c in guild.text_channels} == {"general", "games", "random"}
    # Intents.default() has no members intent, so members come from interactions or fetch_member.
    ann = await guild.fetch_member(fake.user("Ann").id)
    assert ann.guild_permissions.manage_guild and not ann.guild_permissions.administrator
    assert ann.display_name == "Ann" and guild.owner_id == fake.owner.id
    assert not (await guild.fetch_member(fake.user("Bob").id)).guild_permissions.manage_guild


async def test_slash_with_group_options_and_button(fake: FakeDiscord) -> None:
    ann, bob, general = fake.user("Ann"), fake.user("Bob"), fake.channel("general")
    ix = await fake.slash(
        ann,
        general,
        "game new",
        options={"kind": "trans_europa", "seats": 4, "rival": bob, "where": fake.channel("games")},
    )
    assert ix.response_type == 4 and not ix.ephemeral
    assert ix.content == "trans_europa for 4 by Ann rival=Bob where=games"
    msg = general.messages[-1]
    assert msg is ix.reply and msg.buttons()[0]["label"] == "Join"
    click = await fake.click(bob, msg, label="Join")
    assert click.content == f"Bob joined game {ix.id % 100000}"
    assert click.reply.interaction_metadata["user"]["id"] == str(bob.id)
    bot = next(iter(fake._bots))
    fetched = await bot.get_channel(general.id).fetch_message(click.reply.id)
    assert fetched.interaction_metadata.user.id == bob.id
    answer = await fetched.reply("noted")
    assert fake.message(answer.id).reference_id == click.reply.id
    with pytest.raises(FakeDiscordError):
        await fake.slash(ann, general, "game new", options={"kind": "chess"})
    with pytest.raises(FakeDiscordError):
        await fake.slash(ann, general, "game new", options={})
    with pytest.raises(FakeDiscordError, match="outside"):
        await fake.slash(ann, general, "game new", options={"kind": "trans_europa", "seats": 9})
    with pytest.raises(FakeDiscordError, match="has type"):
        await fake.slash(ann, general, "game new", options={"kind": "trans_europa", "seats": "4"})


async def test_subcommand_group_permissions_and_ephemeral(fake: FakeDiscord) -> None:
    general = fake.channel("general")
    ix = await fake.slash(fake.user("Ann"), general, "game admin reset", options={"hard": True})
    assert ix.ephemeral and ix.content == "reset hard=True manage=True"
    [follow] = await ix.wait_followups(1)
    assert follow.content == "same=True ephemeral=True" and follow.visible_to == fake.user("Ann").id
    assert ix.reply.visible_to == fake.user("Ann").id
    assert ix.reply not in general.visible_messages(fake.user("Bob"))
    ix = await fake.slash(fake.user("Bob"), general, "game admin reset", options={"hard": False})
    assert ix.content == "reset hard=False manage=False"
    await fake.drain()  # the command's follow-up is sent after the answer: wait for the handler
    assert [m.content for m in ix.followups] == ["same=True ephemeral=True"]


async def test_autocomplete(fake: FakeDiscord) -> None:
    choices = await fake.autocomplete(
        fake.user("Cid"), fake.channel("general"), "play", focused="move", value="lay p"
    )
    assert [c["value"] for c in choices] == ["lay paris-lyon", "lay paris-brest", "lay pisa-roma"]
    ix = await fake.slash(fake.user("Cid"), fake.channel("general"), "play", options={"move": "pass"})
    assert ix.content == "played pass"


async def test_dm_file_and_closed_dms(fake: FakeDiscord) -> None:
    ann, dee = fake.user("Ann"), fake.user("Dee")
    ix = await fake.slash(ann, fake.channel("general"), "dm", options={"user": dee})
    assert ix.content == "sent"
    [dm] = fake.dms(dee)
    assert dm.content == "psst" and dm.attachments[0].filename == "hand.png" and dm.attachments[0].is_png
    assert Image.open(io.BytesIO(dm.attachments[0].data)).size == (8, 8)
    assert dm in fake.seen_by(dee) and dm not in fake.seen_by(ann)
    dee.dms_closed = True
    ix = await fake.slash(ann, fake.channel("general"), "dm", options={"user": dee})
    assert ix.content == "cannot DM (50007)"
    assert fake.dm_failures == [dee.id]
    bot = next(iter(fake._bots))
    user = await bot.fetch_user(dee.id)
    with pytest.raises(discord.Forbidden) as err:
        await user.send("hi")
    assert err.value.code == 50007
    assert len(fake.dms(dee)) == 1
    ix = await fake.slash(dee, fake.dm_channel(dee), "locale")  # replies to her own interactions still work
    assert ix.content == "en-US None" and len(fake.dms(dee)) == 2


async def test_file_upload_deferred_followups_and_locale(fake: FakeDiscord) -> None:
    ann, general = fake.user("Ann"), fake.channel("general")
    ix = await fake.slash(ann, general, "board")
    assert ix.reply.attachments[0].is_png and ix.reply.attachments[0].filename == "board.png"
    ix = await fake.slash(ann, general, "slow")
    assert ix.response_type == 5
    await ix.wait_followups(2)
    assert ix.reply.content == "done slowly" and ix.ephemeral
    assert [m.content for m in ix.followups] == ["done slowly", "and one more"]
    ix = await fake.slash(ann, general, "locale", locale="ja")
    assert ix.content == "ja en-US"
    fake.guild_locale = "ja"
    ix = await fake.slash(ann, general, "locale")
    assert ix.content == "en-US ja"


async def test_select_modal_and_dm_interaction(fake: FakeDiscord) -> None:
    bob = fake.user("Bob")
    ix = await fake.slash(bob, fake.channel("games"), "colour")
    picker = ix.reply
    with pytest.raises(FakeDiscordError):  # only Bob sees his ephemeral picker
        await fake.select(fake.user("Ann"), picker, ["red"])
    assert picker in fake.seen_by(bob) and picker not in fake.seen_by(fake.user("Ann"))
    sel = await fake.select(bob, picker, ["blue"])
    assert (
        sel.response_type == 7
        and sel.reply is picker
        and picker.content == "picked blue"
        and not picker.components
    )
    ix = await fake.slash(bob, fake.dm_channel(bob), "name")
    assert ix.response_type == 9 and ix.modal["title"] == "Name"
    sub = await fake.submit_modal(bob, ix, {"tb:name": "Bobby"})
    assert sub.content == "hello Bobby" and sub.channel.is_dm


async def test_thread_creation_and_edit(fake: FakeDiscord) -> None:
    ann, general = fake.user("Ann"), fake.channel("general")
    ix = await fake.slash(ann, general, "game new", options={"kind": "trans_europa", "thread": True})
    [thread] = fake.threads
    assert ix.content == f"game in <#{thread.id}>"
    assert thread.parent_id == general.id and thread.auto_archive_duration == 60
    post = thread.messages[0]
    bot = next(iter(fake._bots))
    assert bot.get_channel(thread.id) is not None  # THREAD_CREATE reached the cache
    click = await fake.click(fake.user("Cid"), post, label="Join")
    assert click.channel is thread and click.content.startswith("Cid joined")


async def test_concurrent_clicks(fake: FakeDiscord) -> None:
    ix = await fake.slash(
        fake.user("Ann"), fake.channel("general"), "game new", options={"kind": "trans_europa"}
    )
    users = [fake.user(n) for n in ("Bob", "Cid", "Dee")]
    clicks = await asyncio.gather(*(fake.click(u, ix.reply, label="Join") for u in users))
    assert sorted(c.content.split()[0] for c in clicks) == ["Bob", "Cid", "Dee"]


async def test_restart_keeps_dynamic_buttons(fake: FakeDiscord) -> None:
    general = fake.channel("general")
    ix = await fake.slash(fake.user("Ann"), general, "game new", options={"kind": "trans_europa"})
    old = next(iter(fake._bots))
    await fake.restart_bot(old, make_bot(fake))
    assert old.is_closed()
    click = await fake.click(fake.user("Dee"), ix.reply, label="Join")
    assert click.content == f"Dee joined game {ix.id % 100000}"


async def test_error_guard_records_command_exception(fake: FakeDiscord, log_guard: LogGuard) -> None:
    ix = await fake.slash(fake.user("Ann"), fake.channel("general"), "boom", wait=False)
    await fake.wait_for(lambda: log_guard.records)
    with pytest.raises(pytest.fail.Exception, match="kaboom"):
        log_guard.check()  # what the fixture does at teardown: the test would fail
    records = log_guard.take()  # taken, so this test passes
    assert any(r.levelno == logging.ERROR and r.exc_info and "kaboom" in str(r.exc_info[1]) for r in records)
    assert not ix.answered


async def test_permissions_and_contexts_are_enforced(fake: FakeDiscord) -> None:
    ix = await fake.slash(fake.user("Ann"), fake.channel("general"), "settings")
    assert ix.content == "settings"
    with pytest.raises(FakeDiscordError, match="lacks the permissions"):
        await fake.slash(fake.user("Bob"), fake.channel("general"), "settings")
    with pytest.raises(FakeDiscordError, match="guild-only"):
        await fake.slash(fake.user("Ann"), fake.dm_channel(fake.user("Ann")), "settings")


async def test_deferred_update_then_post_and_edit(fake: FakeDiscord) -> None:
    general = fake.channel("general")
    ix = await fake.slash(fake.user("Ann"), general, "game new", options={"kind": "trans_europa"})
    lobby = ix.reply
    roll = await fake.click(fake.user("Bob"), lobby, label="Roll")
    assert roll.response_type == 6
    post = await fake.wait_message(general, lambda m: m.content.startswith("rolled"), since=roll.id)
    assert post.content == f"rolled {ix.id % 100000}"
    await fake.wait_for(lambda: lobby.content == "rolled!")
    assert lobby.edits == 1 and lobby.buttons()  # edit without view keeps the buttons
    assert lobby.versions[0].content.startswith("trans_europa") and "trans_europa" in lobby.all_text()


async def test_rest_odds_and_ends(fake: FakeDiscord) -> None:
    bot = next(iter(fake._bots))
    channel = bot.get_channel(fake.channel("random").id)
    assert isinstance(channel, discord.TextChannel)
    sent = [await channel.send(f"m{i}") for i in range(3)]
    await sent[0].pin()
    await sent[1].add_reaction("✅")
    history = [m.content async for m in channel.history(limit=None)]
    assert history == ["m2", "m1", "m0"]
    assert fake.message(sent[0].id).pinned and fake.reactions == [(sent[1].id, "✅")]
    with pytest.raises(discord.HTTPException) as err:
        await channel.send("x" * 2001)
    assert err.value.code == 50035
    await sent[2].delete()
    assert [m.content for m in fake.channel("random").messages] == ["m0", "m1"]
    with pytest.raises(AssertionError, match="timed out"):
        await fake.wait_for(lambda: False, timeout=0.05)


async def test_world_changes_and_interaction_window(fake: FakeDiscord, log_guard: LogGuard) -> None:
    general = fake.channel("general")
    ix = await fake.slash(
        fake.user("Ann"), general, "game new", options={"kind": "trans_europa", "thread": True}
    )
    [thread] = fake.threads
    await fake.archive_thread(thread, locked=False)
    bot = next(iter(fake._bots))
    assert bot.get_channel(thread.id) is None  # discord.py drops archived threads from its cache
    fetched = await bot.fetch_channel(thread.id)
    assert isinstance(fetched, discord.Thread) and fetched.archived
    await fetched.send("wakes it up")
    assert not thread.archived and thread.messages[-1].content == "wakes it up"
    await fetched.delete()
    assert not fake.threads and fake.channels[thread.id].deleted
    await fake.delete_message(ix.reply)
    assert ix.reply.deleted and ix.reply not in fake.all_messages
    with pytest.raises(FakeDiscordError):
        await fake.click(fake.user("Bob"), ix.reply, label="Join")
    fake.interaction_window = 0.0  # every callback is now "too late": the bot's reply fails with 10062
    late = await fake.slash(fake.user("Ann"), general, "locale", wait=False)
    await fake.wait_for(lambda: log_guard.records)
    [record] = log_guard.take()
    assert (
        isinstance(record.exc_info[1].__cause__, discord.NotFound)
        and record.exc_info[1].__cause__.code == 10062
    )
    assert not late.answered


async def test_interaction_tokens_expire_after_15_minutes(fake: FakeDiscord) -> None:
    ix = await fake.slash(fake.user("Ann"), fake.channel("general"), "locale")
    bot = next(iter(fake._bots))
    hook = discord.Webhook.partial(fake.application_id, ix.token, client=bot)
    await hook.send("still in time")
    assert ix.followups[-1].content == "still in time"
    fake.advance(15 * 60 + 1)
    with pytest.raises(discord.HTTPException) as err:
        await hook.send("too late")
    assert err.value.status == 401 and err.value.code == 50027
    with pytest.raises(discord.HTTPException) as err:
        await hook.edit_message(ix.reply.id, content="too late")
    assert err.value.status == 401 and err.value.code == 50027
    fresh = await fake.slash(fake.user("Ann"), fake.channel("general"), "locale")  # a new token lives again
    await discord.Webhook.partial(fake.application_id, fresh.token, client=bot).send("fresh")
    assert fresh.followups[-1].content == "fresh"


async def test_components_v2_layout_posts(fake: FakeDiscord) -> None:
    """A LayoutView post (components v2): its words are its text displays, its mentions ping by
    allowed_mentions, its gallery shows the uploaded file, and an edit keeps the flag."""
    bot = next(iter(fake._bots))
    channel = bot.get_channel(fake.channel("random").id)
    assert isinstance(channel, discord.TextChannel)
    ann, bob = fake.user("Ann"), fake.user("Bob")

    def layout(turn: str) -> discord.ui.LayoutView:
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(discord.ui.Container(
            discord.ui.TextDisplay("**Game** · move 3"),
            discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://board.png", description="the map")),
            discord.ui.TextDisplay(turn),
            discord.ui.ActionRow(JoinButton(7)),
            accent_colour=0x0072B2))
        return view

    sent = await channel.send(view=layout(f"To act: {ann.mention} (not {bob.mention})"),
                              file=discord.File(io.BytesIO(png_bytes()), filename="board.png"),
                              allowed_mentions=discord.AllowedMentions(users=[discord.Object(ann.id)]))
    post = fake.message(sent.id)
    assert post.is_v2 and post.content == "" and post.text == f"**Game** · move 3\nTo act: {ann.mention} (not {bob.mention})"
    assert post.pinged() == {ann.id}  # a mention in a text display pings, as allowed_mentions says
    assert [a.filename for a in post.shown_attachments] == ["board.png"]
    assert post.gallery()[0]["description"] == "the map" and post.buttons()[0]["custom_id"] == "tb:join:7"
    assert post.components[0]["accent_color"] == 0x0072B2
    await sent.edit(view=layout("To act: nobody"), attachments=[discord.File(io.BytesIO(png_bytes()), filename="board.png")])
    assert post.is_v2 and post.text.endswith("To act: nobody") and post.edits == 1 and len(post.attachments) == 1
    again = await channel.fetch_message(sent.id)  # discord.py reads the layout back
    assert isinstance(again.components[0], discord.Container)
    # A classic post becomes a layout by an edit that clears its content (content=None), as the
    # bot's in-place board edit does for a post made before the layout.
    classic = await channel.send("old words", file=discord.File(io.BytesIO(png_bytes()), filename="board.png"))
    with pytest.raises(discord.HTTPException, match="must be reset"):
        await classic.edit(view=layout("To act: Ann"))
    await classic.edit(content=None, view=layout("To act: Ann"),
                       attachments=[discord.File(io.BytesIO(png_bytes()), filename="board.png")])
    upgraded = fake.message(classic.id)
    assert upgraded.is_v2 and upgraded.text == "**Game** · move 3\nTo act: Ann" and upgraded.content == ""


async def test_components_v2_refuses_what_discord_refuses(fake: FakeDiscord) -> None:
    """Payloads real Discord answers 400 to (docs cited in fake_discord.py) are refused with 50035."""
    bot = next(iter(fake._bots))
    channel_id = fake.channel("random").id
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
    v2 = 1 << 15

    def text(content: str) -> dict:
        return {"type": 10, "content": content}

    async def refused(payload: dict, why: str) -> None:
        with pytest.raises(discord.HTTPException) as err:
            await bot.http.request(route, json=payload)
        assert err.value.status == 400 and err.value.code == 50035 and why in str(err.value), err.value

    ok = await bot.http.request(route, json={"flags": v2, "components": [text("hello")]})
    await refused({"flags": v2, "content": "hi", "components": [text("hello")]}, "content cannot be sent")
    await refused({"flags": v2, "embeds": [{"title": "x"}], "components": [text("hello")]}, "embeds cannot")
    await refused({"flags": v2, "components": [text(str(i)) for i in range(41)]}, "at most 40 components")
    nested = [{"type": 17, "components": [text(str(i)) for i in range(39)]}]  # 40 with the container: fine
    await bot.http.request(route, json={"flags": v2, "components": nested})
    nested[0]["components"].append(text("one more"))  # nested components count too
    await refused({"flags": v2, "components": nested}, "at most 40 components")
    await bot.http.request(route, json={"flags": v2, "components": [text("x" * 2000), text("y" * 2000)]})
    await refused({"flags": v2, "components": [text("x" * 2000), text("y" * 2001)]}, "at most 4000 characters")
    item = {"media": {"url": "https://example.com/a.png"}}
    await bot.http.request(route, json={"flags": v2, "components": [{"type": 12, "items": [item] * 10}]})
    await refused({"flags": v2, "components": [{"type": 12, "items": [item] * 11}]}, "1 to 10 items")
    await refused({"flags": v2, "components": [{"type": 12, "items": []}]}, "1 to 10 items")
    await refused({"flags": v2, "components": [{"type": 12, "items": [{**item, "description": "d" * 1025}]}]},
                  "description longer than 1024")
    await refused({"flags": v2, "components": [{"type": 17, "accent_color": 0x1000000, "components": [text("a")]}]},
                  "accent_color")
    await refused({"flags": v2, "components": [{"type": 12, "items": [{"media": {"url": "attachment://board.png"}}]}]},
                  "attachment://board.png is not a file")
    await refused({"components": [text("no flag")]}, "needs the IS_COMPONENTS_V2 flag")
    await refused({"flags": v2, "components": [{**text("a"), "id": 7}, {**text("b"), "id": 7}]}, "ids must be unique")
    edit = discord.http.Route("PATCH", "/channels/{channel_id}/messages/{message_id}",
                              channel_id=channel_id, message_id=ok["id"])
    with pytest.raises(discord.HTTPException, match="cannot be removed"):
        await bot.http.request(edit, json={"flags": 0, "content": "classic again"})
    with pytest.raises(discord.HTTPException, match="content cannot be sent"):
        await bot.http.request(edit, json={"content": "words"})  # the flag stays, so content stays refused
    classic = await bot.http.request(route, json={"content": "old post"})
    to_v2 = discord.http.Route("PATCH", "/channels/{channel_id}/messages/{message_id}",
                               channel_id=channel_id, message_id=classic["id"])
    with pytest.raises(discord.HTTPException, match="must be reset"):
        await bot.http.request(to_v2, json={"flags": v2, "components": [text("new")]})
    await bot.http.request(to_v2, json={"flags": v2, "content": None, "components": [text("new")]})
    assert fake.message(int(classic["id"])).text == "new"


def test_an_earlier_version_keeps_who_its_creation_pinged() -> None:
    """`versions[0].pinged()` is who the post notified when it was made: the snapshot an edit keeps
    carries the creation's allowed_mentions (without them every mention of the text would count)."""
    author = FakeUser(id=9, name="Junction", admin=False, dms_closed=False, bot=True)
    made = FakeMessage(1, 2, 3, author, "To act: <@11>, <@12>", allowed_mentions={"parse": [], "users": ["12"]},
                       nonce="b1")
    before_edit = made.snapshot()
    assert before_edit.pinged() == made.pinged() == {12}
    assert before_edit.nonce == "b1"


async def test_an_attachments_alt_text_is_at_most_1024_characters(fake: FakeDiscord) -> None:
    """Discord's attachment request structure: a file's description (alt text) holds at most 1024 characters."""
    bot = next(iter(fake._bots))
    channel = bot.get_channel(fake.channel("random").id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send(file=discord.File(io.BytesIO(b"\x89PNG"), filename="a.png", description="d" * 1024))
    assert fake.message(sent.id).attachments[0].description == "d" * 1024
    with pytest.raises(discord.HTTPException) as err:
        await channel.send(file=discord.File(io.BytesIO(b"\x89PNG"), filename="b.png", description="d" * 1025))
    assert err.value.code == 50035
def test_command_registration_limits_are_discords():
    from tests.e2e.fake_discord import _validate_command

    leaf = {"type": 1, "name": "start", "description": "Start"}
    group = {"type": 2, "name": "season", "description": "Seasons", "options": [leaf]}
    assert _validate_command({"name": "admin", "description": "Admin", "options": [group]}) == []
    deeper = {"type": 2, "name": "more", "description": "More", "options": [leaf]}
    assert _validate_command({"name": "admin", "description": "Admin",
                              "options": [{**group, "options": [deeper]}]})
    assert _validate_command({"name": "Admin", "description": "Admin"})
    assert _validate_command({"name": "admin", "description": "x" * 101})
    assert _validate_command({"name": "admin", "description": "Admin",
                              "options": [{"type": 3, "name": f"o{i}", "description": "o"} for i in range(26)]})
