"""A small fake Discord (REST + gateway on 127.0.0.1) that the real discord.py 2.7.1 client runs against.

Quick start (fixtures live in ``tests/e2e/conftest.py``)::

    async def test_x(fake_discord, tmp_path):           # server running, Route.BASE/gateway patched
        fake = fake_discord
        bot = await fake.start_bot(create_bot(db, **fake.bot_kwargs()))   # login, sync, READY
        ann, general = fake.user("Ann"), fake.channel("general")
        ix = await fake.slash(ann, general, "game new", options={"game": "trans_europa"})
        assert ix.response_type == 4 and "Lobby" in ix.content
        lobby = general.messages[-1]
        ix = await fake.click(fake.user("Bob"), lobby, label="Join")
        post = await fake.wait_message(general, lambda m: m.attachments, since=ix.id)
        bot = await fake.restart_bot(bot, create_bot(db, **fake.bot_kwargs()))   # same fake data

The world (deterministic snowflake ids unless ``clocked_ids``, no clock):
    one guild ``fake.guild_id`` ("Junction Test", ``fake.guild_locale`` = "en-US"),
    text channels ``general``, ``games``, ``random`` (``fake.channel(name)``),
    users Ann, Bob, Cid, Dee (``fake.user(name)`` -> :class:`FakeUser`; Ann has the role
    "Organizer" with Manage Server, the others only @everyone); ``fake.add_user(name, admin=False,
    dms_closed=False)`` adds more. ``user.dms_closed = True``: every DM the bot starts to that user
    fails with HTTP 403, code 50007 (discord.Forbidden); replies to the user's own interactions work.

Bot construction: pass ``**fake.bot_kwargs()`` (``intents=Intents.default()``,
``chunk_guilds_at_startup=False``, ``guild_ready_timeout=0.05``) to ``commands.Bot``
(``start_bot`` refuses a bot without them: startup would wait seconds). No members intent, as in
production: members come from interaction payloads or ``guild.fetch_member``.

Interactions (async; each sends INTERACTION_CREATE over the gateway and returns a
:class:`FakeInteraction`; by default it returns once the bot *answered*; ``wait=False`` returns
right after dispatch, then ``await ix.wait()``; ``locale="ja"`` sets the user's locale):
    ``slash(user, channel, "game new", options={...})``  (type 2). The command must be registered
        (tree.sync); option types come from the registered JSON, so groups/subcommands, choices,
        required options, guild-only commands in DMs and default_member_permissions are checked as
        Discord's client does (FakeDiscordError). Values: str/int/bool/float, FakeUser, FakeChannel.
    ``autocomplete(user, channel, "play", focused="move", value="lay p", options={...})`` -> the
        list of ``{"name", "value"}`` choices the bot answered (callback type 8, at most 25).
    ``click(user, message, custom_id=None, label=None)``  (component type 2; by custom_id, or by
        label: exact, else case-insensitive substring; disabled buttons, deleted messages and other
        users' ephemeral messages are refused).
    ``select(user, message, values, custom_id=None)``  (component type 3; values are checked
        against the options).
    ``submit_modal(user, ix_that_opened_the_modal, {custom_id: text})``  (type 5).
    ``channel`` may be a thread or a DM: ``fake.dm_channel(user)`` (no guild: ``user`` instead of
    ``member``, no ``guild_locale``).

"Answered": callback types 4, 7, 8, 9 at the callback; types 5 (deferred "thinking") and 6 (deferred
update) once the original response (for 6: the component's message) is edited or a follow-up is sent
(the first follow-up after a "thinking" becomes the original response, as on Discord), so what the
bot changed is there when a call returns, however long its work took. :class:`FakeInteraction`: ``response_type`` (4 message,
5 deferred, 6 deferred update, 7 update, 8 autocomplete, 9 modal), ``reply`` (final visible
reply: the original response or the updated component message, else the first follow-up),
``content``, ``ephemeral``, ``followups``, ``choices``, ``modal``, ``message`` (the clicked one),
``latency`` (perf_counter seconds from dispatch to answer, for benches), ``wait_followups(n)``.
After a 6, ``reply`` is the first follow-up if there is one, else the edited message.

State to inspect (plain Python objects, updated live):
    ``channel.messages`` (live, oldest first; include ephemeral replies: ``msg.ephemeral``,
    ``msg.visible_to``), ``channel.visible_messages(user)``, ``fake.dms(user)``,
    ``fake.all_messages`` (every channel, thread and DM), ``fake.dm_failures`` (user ids refused with
    50007), ``fake.message(id)``, ``fake.threads``, ``fake.commands(guild_id=None)`` /
    ``fake.command("game")`` (registered JSON incl. localizations), ``fake.interactions``,
    ``fake.requests`` (``(method, path)`` log), ``fake.reactions``.
    :class:`FakeMessage`: ``content``, ``embeds``, ``components``, ``attachments``
    (:class:`FakeAttachment`: ``filename``, ``data`` bytes, ``is_png``,
    ``description`` = alt text), ``flags``, ``ephemeral``,
    ``edits``, ``deleted``, ``pinned``, ``thread``, ``text`` (what a reader reads: the content, then
    every text display's content; read posts through it, a components v2 post has no content),
    ``every_text()`` (content + embed + every component text: labels, options...), ``is_v2``,
    ``gallery()`` (media gallery items), ``shown_attachments`` (a v2 message shows only the files
    its components name), ``versions`` (snapshots before each edit), ``all_text()`` /
    ``all_attachments()`` (over every version: for secrecy checks), ``buttons()``,
    ``component(custom_id=|label=)``, ``custom_ids()`` (at any depth: containers, rows, sections).
    ``fake.seen_by(user)``: every live message that user can see (channels, threads, own
    ephemerals, own DMs).
    Message bodies are checked against Discord's limits (2000 chars, 5 rows of 5, 25 select
    options, 100-char custom ids and values, 80-char labels, embed limits): HTTP 400, code 50035.
    Components v2 (flag 1 << 15, discord.py's LayoutView) too: no content/embeds with the flag, at
    most 40 components counting nested ones, 4000 characters across text displays, galleries of 1-10
    items with alt text up to 1024, container children and accent colour, attachment:// names that
    exist, and an edit never drops the flag (sources in the comment above V2_FLAG).
    Application commands too, when synced: names, descriptions, 25 options and choices, the nesting of
    subcommand groups (command > group > subcommand) and 4000 characters per command (_validate_command).

Waiting (never sleep): ``await fake.wait_for(lambda: ..., timeout=10, what="...")`` re-checks a
predicate after every REST request the bot makes and every 20 ms, returns its value;
``await fake.wait_message(channel, predicate, since=ix.id)`` returns the newest live message newer
than ``since``; ``await fake.drain()`` returns once no discord.py handler task (command,
autocomplete, view, dynamic item, modal, event listener) is running; ``await fake.sync()``
returns once the bot parsed every gateway event sent so far.

Changing the world: ``await fake.delete_message(msg)`` (MESSAGE_DELETE),
``await fake.archive_thread(thread, locked=False)`` (THREAD_UPDATE; discord.py then drops the
thread from its cache: use ``fetch_channel``), ``fake.interaction_window = 3.0`` (callbacks later
than that get 404 / 10062 like Discord; off by default because CI is slow).
``fake.clocked_ids = True``: snowflakes made from then on carry the wall-clock time they were made, as
Discord's do (``interaction.created_at``); ``fake.interaction_age = 2.0``: interactions reach the bot 2 s after
Discord made them (their id's time and the window start that much earlier).
Interaction tokens live ``fake.token_lifetime`` seconds (Discord: 15 minutes); ``fake.advance(seconds)``
ages every token sent so far without waiting. After that, follow-ups and webhook edits through the
token answer HTTP 401, code 50027 (Invalid Webhook Token), and an ephemeral message an interaction
made can no longer be changed, not by a later click's update either (the same 401): its buttons
still send interactions, which the bot can answer with a new message.

Bots: ``await fake.start_bot(bot)`` (runs ``bot.start`` in a task, returns the bot once ready),
``await fake.stop_bot(bot, drain=True)`` (drain, then ``bot.close()``; ``drain=False`` closes
mid-work like a killed process), ``await fake.restart_bot(old, new, drain=True)``; the fixture
stops leftovers (drained). Unknown routes and exceptions inside the fake are recorded in
``fake.errors``, and the fixture fails the test on them.

Exactly once: message creates honour ``nonce`` with ``enforce_nonce`` as Discord does (the same
author, channel and nonce within ``fake.nonce_window`` seconds returns the earlier message and
creates nothing; ``fake.nonce_hits`` counts those; a nonce over 25 chars is a 400).
``fake.fail_after_create(times=1, status=502, where=None)`` creates the next matching message and
answers with that error (``fake.failed_after_create``); ``fake.on_created(msg)``, if set, runs
after a bot message is created and before the answer (a test can SIGKILL a bot process there). ``msg.pinged()``: who a message notified,
from its text (content and text displays) and the ``allowed_mentions`` it was sent with.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import itertools
import json
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
import yarl
from aiohttp import web

API_PREFIX = "/api/v10"
TOKEN = "fake-bot-token"
TIMESTAMP = "2026-01-01T00:00:00.000000+00:00"
DISCORD_EPOCH_MS = 1420070400000

# Permission bits used for the fake guild (see discord.Permissions).
PERM_EVERYONE = (
    (1 << 10)  # view channel
    | (1 << 11)  # send messages
    | (1 << 14)  # embed links
    | (1 << 15)  # attach files
    | (1 << 16)  # read message history
    | (1 << 6)  # add reactions
    | (1 << 31)  # use application commands
    | (1 << 38)  # send messages in threads
    | (1 << 35)  # create public threads
)
PERM_MANAGE_GUILD = 1 << 5
PERM_BOT = (
    PERM_EVERYONE | (1 << 13) | (1 << 34) | (1 << 36)
)  # + manage messages, manage threads, private threads

# Name prefixes of the asyncio tasks discord.py 2.7 runs handlers in (tree.py, ui/view.py,
# ui/modal.py, client.py).
HANDLER_TASKS = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-dynamic-item-",
    "discord-ui-modal-dispatch-",
    "discord.py: ",
)


class FakeDiscordError(Exception):
    """A test asked the fake for something Discord would not allow (unknown command, no such button)."""


class _HTTPError(Exception):
    """Raised inside a REST handler to answer with a Discord-shaped JSON error."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py only parses JSON when Content-Type is exactly "application/json" (no charset).
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


@dataclass(eq=False)
class FakeUser:
    id: int
    name: str
    admin: bool = False
    dms_closed: bool = False
    bot: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name.lower(),
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(eq=False)
class FakeAttachment:
    id: int
    filename: str
    data: bytes
    content_type: str
    url: str
    description: str = ""  # alt text, from the body's "attachments" entry of the upload

    @property
    def is_png(self) -> bool:
        return self.data.startswith(b"\x89PNG\r\n\x1a\n")

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            **({"description": self.description} if self.description else {}),
        }


def _walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, depth first, through action rows, sections, containers and labels."""
    for comp in components:
        yield comp
        yield from _walk_components(comp.get("components", []))
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                yield from _walk_components([comp[key]])


# Components V2 (IS_COMPONENTS_V2, 1 << 15). Sources, Discord's developer docs:
#  [ref]  https://discord.com/developers/docs/components/reference (developers/components/reference.mdx):
#         the flag "can't be removed" once sent; content and embeds no longer work; poll and stickers
#         are disabled; attachments don't show unless exposed through components; "up to 40 total
#         components"; Section 1-3 text displays + a button or thumbnail accessory; Media Gallery 1-10
#         items, each description (alt text) max 1024 characters; Thumbnail description max 1024;
#         Container children are action rows, text displays, sections, media galleries, separators,
#         files; accent_color RGB 0x000000-0xFFFFFF; Separator spacing 1 or 2; a File only takes
#         attachment://<filename>; an Action Row holds up to 5 buttons or one select; a component
#         id "must be unique within the message".
#  [msg]  https://discord.com/developers/docs/resources/message (developers/resources/message.mdx),
#         Create Message: "When the flag IS_COMPONENTS_V2 is set, the message can only contain
#         components. Providing content, embeds, sticker_ids, poll, or shared_client_theme will fail
#         with a 400 BAD REQUEST"; Edit Message: IS_COMPONENTS_V2 "can only be set", and when it is
#         set the used content/embeds must be reset to empty (null / []) or the edit fails with 400.
#  [text] 4000 characters of text across all the message's text displays: Discord's Components V2
#         change log (2025-04-22), as discord.py 2.7.1 states it in LayoutView.content_length ("a
#         maximum of 4000 display characters across all its items").
V2_FLAG = 1 << 15
V2_MAX_COMPONENTS = 40  # [ref]
V2_MAX_TEXT = 4000  # [text]
V2_ONLY_TYPES = {9, 10, 11, 12, 13, 14, 17}  # section, text display, thumbnail, gallery, file, separator, container
V2_TOP_LEVEL = {1, 9, 10, 12, 13, 14, 17}  # [ref] "top-level" components of a message
CONTAINER_CHILDREN = {1, 9, 10, 12, 13, 14}  # [ref] Container Child Components
MAX_ALT_TEXT = 1024  # [ref] media gallery item / thumbnail description


def _count_components(components: list[dict[str, Any]]) -> int:
    """Every component, nested ones and section accessories included, as Discord counts toward 40."""
    return sum(1 for _ in _walk_components(components))


def _v2_problems(body: dict[str, Any], comps: list[dict[str, Any]]) -> list[str]:
    problems = []
    if body.get("content"):
        problems.append("content cannot be sent with IS_COMPONENTS_V2 (use a text display)")
    if body.get("embeds"):
        problems.append("embeds cannot be sent with IS_COMPONENTS_V2")
    if body.get("sticker_ids") or body.get("poll"):
        problems.append("sticker_ids and poll cannot be sent with IS_COMPONENTS_V2")
    total = _count_components(comps)
    if total > V2_MAX_COMPONENTS:
        problems.append(f"a components v2 message holds at most {V2_MAX_COMPONENTS} components ({total})")
    text = sum(len(str(c.get("content") or "")) for c in _walk_components(comps) if c.get("type") == 10)
    if text > V2_MAX_TEXT:
        problems.append(f"text displays hold at most {V2_MAX_TEXT} characters in all ({text})")
    ids = [c["id"] for c in _walk_components(comps) if c.get("id")]  # 0 or absent: Discord assigns one
    if len(ids) != len(set(ids)):
        problems.append("component ids must be unique within the message")  # [ref] Anatomy of a Component
    for c in comps:
        if c.get("type") not in V2_TOP_LEVEL:
            problems.append(f"component type {c.get('type')} cannot be top-level")
    for c in _walk_components(comps):
        kind = c.get("type")
        if kind == 17:
            colour = c.get("accent_color")
            if colour is not None and (type(colour) is not int or not 0 <= colour <= 0xFFFFFF):
                problems.append(f"accent_color {colour!r} must be an RGB integer 0x000000-0xFFFFFF")
            for child in c.get("components") or []:
                if child.get("type") not in CONTAINER_CHILDREN:
                    problems.append(f"a container cannot hold component type {child.get('type')}")
        elif kind == 9:
            children = c.get("components") or []
            if not 1 <= len(children) <= 3 or any(ch.get("type") != 10 for ch in children):
                problems.append("a section holds 1 to 3 text displays")
            if (c.get("accessory") or {}).get("type") not in (2, 11):
                problems.append("a section needs a button or thumbnail accessory")
        elif kind == 10:
            if not isinstance(c.get("content"), str) or not c["content"]:
                problems.append("a text display needs content")
        elif kind == 12:
            items = c.get("items") or []
            if not 1 <= len(items) <= 10:
                problems.append(f"a media gallery holds 1 to 10 items ({len(items)})")
            for item in items:
                if not str((item.get("media") or {}).get("url") or ""):
                    problems.append("a media gallery item needs media.url")
                if len(item.get("description") or "") > MAX_ALT_TEXT:
                    problems.append(f"media gallery item description longer than {MAX_ALT_TEXT}")
        elif kind == 11:
            if not str((c.get("media") or {}).get("url") or ""):
                problems.append("a thumbnail needs media.url")
            if len(c.get("description") or "") > MAX_ALT_TEXT:
                problems.append(f"thumbnail description longer than {MAX_ALT_TEXT}")
        elif kind == 13:
            if not str((c.get("file") or {}).get("url") or "").startswith("attachment://"):
                problems.append("a file component only takes attachment://<filename>")
        elif kind == 14 and c.get("spacing", 1) not in (1, 2):
            problems.append("separator spacing is 1 or 2")
    return problems


def media_refs(components: list[dict[str, Any]]) -> list[str]:
    """The file names a message's components show (attachment://<filename>), in order."""
    urls = []
    for c in _walk_components(components):
        urls += [str((item.get("media") or {}).get("url") or "") for item in c.get("items") or []]
        urls += [str((c.get(key) or {}).get("url") or "") for key in ("media", "file") if isinstance(c.get(key), dict)]
    return [u[len("attachment://"):] for u in urls if u.startswith("attachment://")]


# Application command registration (Discord's "Application Commands" docs: "Application Command Naming",
# "Application Command Object", "Subcommands and Subcommand Groups"): names 1-32 characters of the naming
# regex, lowercase where a letter has a lowercase form; descriptions 1-100; at most 25 options per
# command, subcommand group or subcommand, and 25 choices per option; a subcommand group only at the top
# level and holding only subcommands, a subcommand holding no subcommand or group (nesting is at most
# command > group > subcommand); at most 4000 characters over every name, description and choice name and
# value of a command. A violation answers 400 / 50035 like a bad message body.
_COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


def _validate_command(cmd: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    total = 0

    def named(item: dict[str, Any], where: str) -> None:
        nonlocal total
        name, description = str(item.get("name", "")), str(item.get("description", ""))
        if not _COMMAND_NAME.match(name) or name != name.lower():
            problems.append(f"{where}: name {name!r} is not 1-32 lowercase characters of the naming rule")
        if not 1 <= len(description) <= 100:
            problems.append(f"{where}: description must be 1-100 characters")
        total += len(name) + len(description)

    def options(item: dict[str, Any], where: str, depth: int) -> None:
        nonlocal total
        opts = item.get("options") or []
        if len(opts) > 25:
            problems.append(f"{where}: at most 25 options")
        for opt in opts:
            kind = opt.get("type")
            here = f"{where} {opt.get('name')}"
            named(opt, here)
            if kind == 2 and depth != 0:
                problems.append(f"{here}: a subcommand group may appear only at the top level")
            if kind == 1 and depth > 1:
                problems.append(f"{here}: subcommands nest at most command > group > subcommand")
            if depth == 1 and item.get("type") == 2 and kind != 1:
                problems.append(f"{here}: a subcommand group holds only subcommands")
            if kind in (1, 2):
                options(opt, here, depth + 1)
            choices = opt.get("choices") or []
            if len(choices) > 25:
                problems.append(f"{here}: at most 25 choices")
            total += sum(len(str(c.get("name", ""))) + len(str(c.get("value", ""))) for c in choices)

    named(cmd, str(cmd.get("name")))
    options(cmd, str(cmd.get("name")), 0)
    if total > 4000:
        problems.append(f"{cmd.get('name')}: more than 4000 characters in names, descriptions and choices")
    return problems


def _validate_body(body: dict[str, Any], n_files: int) -> None:
    """Discord's documented limits for a message body; violations answer 400 / 50035 like Discord."""
    problems = []
    if len(body.get("content") or "") > 2000:
        problems.append("content must be 2000 or fewer in length")
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        problems.append("embeds must be 10 or fewer")
    for e in embeds:
        if (
            len(e.get("title", "")) > 256
            or len(e.get("description", "")) > 4096
            or len(e.get("fields", [])) > 25
        ):
            problems.append("embed title/description/fields too long")
        for f in e.get("fields", []):
            if not f.get("name") or not f.get("value") or len(f["name"]) > 256 or len(f["value"]) > 1024:
                problems.append("embed field name (1-256) / value (1-1024)")
    comps = body.get("components") or []
    v2 = bool(int(body.get("flags") or 0) & V2_FLAG)
    if v2:
        problems += _v2_problems(body, comps)
    elif len(comps) > 5:
        problems.append("components must be 5 or fewer action rows")
    seen: set[str] = set()
    for c in _walk_components(comps):
        if not v2 and c.get("type") in V2_ONLY_TYPES:
            problems.append(f"component type {c.get('type')} needs the IS_COMPONENTS_V2 flag")
        if c.get("type") == 1:
            row = c.get("components", [])
            if not 1 <= len(row) <= 5 or (any(x.get("type") != 2 for x in row) and len(row) != 1):
                problems.append("an action row holds 1 to 5 buttons or one select")
        if "custom_id" in c:
            if not 1 <= len(c["custom_id"]) <= 100:
                problems.append(f"custom_id {c['custom_id']!r} must be 1-100 characters")
            if c["custom_id"] in seen:
                problems.append(f"duplicate custom_id {c['custom_id']!r}")
            seen.add(c["custom_id"])
        if len(str(c.get("label") or "")) > 80:
            problems.append(f"label {c['label']!r} longer than 80")
        if c.get("type") == 2 and c.get("style") != 5 and c.get("style") != 6 and "custom_id" not in c:
            problems.append("a button needs a custom_id")
        if c.get("type") == 3:
            opts = c.get("options", [])
            if not 1 <= len(opts) <= 25:
                problems.append(f"select {c.get('custom_id')!r} must have 1-25 options")
            for o in opts:
                if not 1 <= len(o.get("label", "")) <= 100 or not 1 <= len(o.get("value", "")) <= 100:
                    problems.append("select option label/value must be 1-100 characters")
                if len(o.get("description", "") or "") > 100:
                    problems.append("select option description longer than 100")
    if n_files > 10:
        problems.append("at most 10 files")
    if problems:
        raise _HTTPError(400, 50035, "Invalid Form Body: " + "; ".join(dict.fromkeys(problems)))


def _check_media_refs(body: dict[str, Any], filenames: list[str]) -> None:
    """A v2 component naming attachment://<filename> must name a file the message has after the
    request. (Discord would show an empty item; the fake refuses so a test notices.)"""
    if not int(body.get("flags") or 0) & V2_FLAG:
        return
    missing = [name for name in media_refs(body.get("components") or []) if name not in filenames]
    if missing:
        raise _HTTPError(400, 50035, f"Invalid Form Body: attachment://{missing[0]} is not a file of the message "
                         f"(it has {filenames})")


@dataclass(eq=False)
class FakeMessage:
    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    visible_to: int | None = None  # user id for ephemeral messages
    interaction_id: int | None = None
    webhook_id: int | None = None
    deleted: bool = False
    edits: int = 0
    thread: FakeChannel | None = None
    reactions: list[str] = field(default_factory=list)
    pinned: bool = False
    reference_id: int | None = None  # the message this one replies to
    interaction_metadata: dict[str, Any] | None = None
    versions: list[FakeMessage] = field(default_factory=list)  # snapshots before each edit, oldest first
    nonce: str | None = None
    allowed_mentions: dict[str, Any] | None = None  # as sent at creation (None: Discord parses all)

    def snapshot(self) -> FakeMessage:
        """This version as it stands, for `versions` before an edit: with how it was sent (its nonce and
        allowed_mentions), so `versions[0].pinged()` tells who the message notified at creation."""
        return FakeMessage(
            self.id,
            self.channel_id,
            self.guild_id,
            self.author,
            self.content,
            copy.deepcopy(self.embeds),
            copy.deepcopy(self.components),
            list(self.attachments),
            self.flags,
            self.type,
            self.visible_to,
            nonce=self.nonce,
            allowed_mentions=copy.deepcopy(self.allowed_mentions),
        )

    def pinged(self) -> set[int | str]:
        """Who this message notified when it was created, by Discord's rules: user and role ids,
        and "everyone" for @everyone/@here. Without allowed_mentions every mention pings; with it,
        a kind pings only if in `parse`, or if its id is listed in `users`/`roles`."""
        # Mentions in text displays ping like content does, by the same allowed_mentions [ref Text Display].
        text = self.text
        users = {int(u) for u in re.findall(r"<@!?(\d+)>", text)}
        roles = {int(r) for r in re.findall(r"<@&(\d+)>", text)}
        everyone = re.search(r"@(everyone|here)\b", text) is not None
        rules = self.allowed_mentions
        if rules is None:
            return users | roles | ({"everyone"} if everyone else set())
        parse = set(rules.get("parse") or ())
        out: set[int | str] = set()
        out |= users if "users" in parse else users & {int(u) for u in rules.get("users") or ()}
        out |= roles if "roles" in parse else roles & {int(r) for r in rules.get("roles") or ()}
        if everyone and "everyone" in parse:
            out.add("everyone")
        return out

    def all_text(self) -> str:
        """every_text() of every version this message ever had (an edit must not hide an earlier leak)."""
        return "\n".join(v.every_text() for v in [*self.versions, self])

    @property
    def text(self) -> str:
        """What a reader sees as the message's words: the content, then every text display's content
        (components v2, depth first, in order), one per line. A classic message's text is its content."""
        shown = [str(c.get("content") or "") for c in _walk_components(self.components) if c.get("type") == 10]
        return "\n".join(p for p in [self.content, *shown] if p)

    @property
    def is_v2(self) -> bool:
        return bool(self.flags & V2_FLAG)

    @property
    def shown_attachments(self) -> list[FakeAttachment]:
        """The attachments a reader sees: all of a classic message's; of a v2 message only those its
        components show (attachment://<filename>) [ref: "Attachments won't show by default"]."""
        if not self.is_v2:
            return list(self.attachments)
        names = media_refs(self.components)
        return [a for a in self.attachments if a.filename in names]

    def gallery(self) -> list[dict[str, Any]]:
        """The media gallery items of the message (components v2), in order."""
        return [item for c in _walk_components(self.components) if c.get("type") == 12 for item in c.get("items", [])]

    def all_attachments(self) -> list[FakeAttachment]:
        """Attachments of every version, without repeats."""
        seen: dict[int, FakeAttachment] = {}
        for v in [*self.versions, self]:
            for a in v.attachments:
                seen.setdefault(a.id, a)
        return list(seen.values())

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & 64)

    @property
    def loading(self) -> bool:
        return bool(self.flags & 128)

    def every_text(self) -> str:
        """Content plus every text field of the embeds and components (for secrecy checks)."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title", ""), e.get("description", "")]
            parts += [e.get("author", {}).get("name", ""), e.get("footer", {}).get("text", "")]
            for f in e.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
        for c in _walk_components(self.components):
            parts += [str(c.get(k, "")) for k in ("label", "content", "placeholder")]
            parts += [o.get("label", "") + " " + o.get("description", "") for o in c.get("options", [])]
        return "\n".join(p for p in parts if p)

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in _walk_components(self.components) if c.get("type") == 2]

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in _walk_components(self.components) if "custom_id" in c]

    def component(self, custom_id: str | None = None, label: str | None = None) -> dict[str, Any]:
        """The component with this custom_id, or the first whose label equals (or else contains) label."""
        comps = list(_walk_components(self.components))
        if custom_id is not None:
            found = [c for c in comps if c.get("custom_id") == custom_id]
        elif label is not None:
            found = [c for c in comps if c.get("label") == label] or [
                c for c in comps if label.lower() in str(c.get("label", "")).lower()
            ]
        else:
            raise FakeDiscordError("component(): give custom_id or label")
        if not found:
            have = [(c.get("label"), c.get("custom_id")) for c in comps if "custom_id" in c]
            raise FakeDiscordError(f"no component {custom_id or label!r} on message {self.id}; it has {have}")
        return found[0]

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "attachments": [a.payload() for a in self.attachments],
            "flags": self.flags,
            "type": self.type,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "pinned": self.pinned,
            "timestamp": TIMESTAMP,
            "edited_timestamp": TIMESTAMP if self.edits else None,
            "reactions": [{"emoji": {"id": None, "name": r}, "count": 1, "me": True} for r in self.reactions],
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.thread is not None:
            data["thread"] = self.thread.payload()
        if self.reference_id is not None:
            data["message_reference"] = {
                "type": 0,
                "message_id": str(self.reference_id),
                "channel_id": str(self.channel_id),
            }
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        return data


@dataclass(eq=False)
class FakeChannel:
    id: int
    name: str
    type: int  # 0 text, 1 DM, 11 public thread, 12 private thread
    guild_id: int | None = None
    parent_id: int | None = None
    recipient: FakeUser | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    position: int = 0
    all_messages: list[FakeMessage] = field(default_factory=list)
    member_ids: set[int] = field(default_factory=set)
    deleted: bool = False

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    @property
    def is_dm(self) -> bool:
        return self.type == 1

    @property
    def messages(self) -> list[FakeMessage]:
        """Messages not deleted, oldest first (ephemeral ones included; check msg.ephemeral)."""
        return [m for m in self.all_messages if not m.deleted]

    def visible_messages(self, user: FakeUser) -> list[FakeMessage]:
        return [m for m in self.messages if m.visible_to in (None, user.id)]

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self) -> dict[str, Any]:
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": 1,
                "recipients": [self.recipient.payload()],
                "last_message_id": None,
            }
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "guild_id": str(self.guild_id),
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "parent_id": str(self.parent_id) if self.parent_id else None,
        }
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id),
                message_count=len(self.messages),
                total_message_sent=len(self.all_messages),
                member_count=len(self.member_ids),
                flags=0,
                thread_metadata={
                    "archived": self.archived,
                    "locked": self.locked,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": TIMESTAMP,
                    "invitable": True,
                },
            )
        return data


@dataclass(eq=False)
class FakeInteraction:
    """One interaction sent to the bot and everything the bot answered to it."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    payload: dict[str, Any]
    message: FakeMessage | None = None  # the message a component was on
    response_type: int | None = None
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    sent_at: float = 0.0
    born: float = 0.0  # sent_at on the fake's shifted clock (token lifetime, `advance`)
    answered_at: float | None = None
    responded_at: float | None = None  # the first callback (an answer or a defer): Discord's 3 s window
    shards: list[int] = field(default_factory=list)  # the shard ids it was delivered to (sharded bots)
    _answered: asyncio.Event = field(default_factory=asyncio.Event)
    _changed: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def answered(self) -> bool:
        return self._answered.is_set()

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch to answer (perf_counter clock), or None."""
        return None if self.answered_at is None else self.answered_at - self.sent_at

    @property
    def reply(self) -> FakeMessage | None:
        """The final visible reply: the original response (or updated message), else the first follow-up."""
        if self.response_type == 6 and self.followups:
            return self.followups[0]  # after a deferred update, the bot speaks through follow-ups
        if self.original is not None and not self.original.loading:
            return self.original
        return self.followups[0] if self.followups else None

    @property
    def content(self) -> str:
        return self.reply.content if self.reply is not None else ""

    @property
    def text(self) -> str:
        return self.reply.text if self.reply is not None else ""

    @property
    def ephemeral(self) -> bool:
        return self.reply is not None and self.reply.ephemeral

    def _mark_answered(self) -> None:
        if not self._answered.is_set():
            self.answered_at = time.perf_counter()
            self._answered.set()

    async def wait(self, timeout: float = 10.0) -> FakeInteraction:
        """Wait until the bot answered (see module docstring); AssertionError on timeout."""
        try:
            await asyncio.wait_for(self._answered.wait(), timeout)
        except TimeoutError:
            raise AssertionError(
                f"bot did not answer interaction {self.id} (type {self.type}, {self._describe()}) "
                f"within {timeout}s; callback type so far: {self.response_type}"
            ) from None
        return self

    async def wait_followups(self, n: int = 1, timeout: float = 10.0) -> list[FakeMessage]:
        """Wait until at least n follow-up messages were sent; returns them."""
        deadline = time.monotonic() + timeout
        while len(self.followups) < n:
            self._changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"interaction {self.id}: {len(self.followups)} follow-ups, wanted {n}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)
        return self.followups

    def _describe(self) -> str:
        data = self.payload.get("data", {})
        return str(data.get("name") or data.get("custom_id"))


@dataclass
class _Conn:
    ws: web.WebSocketResponse
    seq: int = 0
    identified: bool = False
    acked_seq: int = 0  # highest sequence the client reported in a heartbeat
    beat: asyncio.Event = field(default_factory=asyncio.Event)
    shard: tuple[int, int] | None = None  # [shard_id, num_shards] from IDENTIFY; None: unsharded


def shard_of(guild_id: int | None, num_shards: int) -> int:
    """Discord's sharding formula: a guild's events go to shard (guild_id >> 22) % num_shards; events
    without a guild (DMs) go to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % num_shards


class FakeDiscord:
    """The fake server and its test-facing API (see the module docstring)."""

    def __init__(self, *, guild_id: int | None = None, shard_count: int = 1) -> None:
        """`guild_id`: the guild's snowflake (to place it on a chosen shard); `shard_count`: what
        GET /gateway/bot recommends (AutoShardedBot without shard ids starts that many)."""
        self._ids = itertools.count(1)
        self.clocked_ids = False  # True: snowflakes carry the time they were made, as Discord's do (next_id)
        self._clock0 = (time.time(), time.perf_counter())
        # Seconds between Discord making an interaction and sending it to the bot (a slow gateway, a bot
        # that reads its socket late): its snowflake's time and Discord's 3 s window start that much earlier.
        self.interaction_age = 0.0
        self.shard_count = shard_count
        self.requests: list[tuple[str, str]] = []
        self.errors: list[str] = []
        self.lost_requests = 0  # requests cut off by the death of the bot that sent them
        # What Discord refused the bot: (error code, "METHOD path"), e.g. 40060 for a second answer
        # to one interaction (a repeated delivery).
        self.refusals: list[tuple[int, str]] = []
        self.port: int = 0
        self._runner: web.AppRunner | None = None
        self._conns: list[_Conn] = []
        self._bots: dict[discord.Client, asyncio.Task[None]] = {}
        self._waiters: list[asyncio.Event] = []
        self._saved: tuple[str, yarl.URL] | None = None

        self.application_id = self.next_id()
        self.bot_user = FakeUser(self.next_id(), "Junction", bot=True)
        self.guild_id = guild_id if guild_id is not None else self.next_id()
        self.guild_name = "Junction Test"
        self.guild_locale = "en-US"
        self.organizer_role_id = self.next_id()
        self.bot_role_id = self.next_id()
        # Owner of the guild and the application: not a player, because discord.py grants a guild
        # owner every permission, which would hide permission bugs.
        self.owner = FakeUser(self.next_id(), "Owner")
        self.users: dict[int, FakeUser] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages_by_id: dict[int, FakeMessage] = {}
        self.attachments: dict[int, FakeAttachment] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self._by_token: dict[str, FakeInteraction] = {}
        self.global_commands: dict[str, dict[str, Any]] = {}
        self.guild_commands: dict[int, dict[str, dict[str, Any]]] = {}
        self._command_ids: dict[tuple[int | None, str], int] = {}
        self.dm_failures: list[int] = []
        # Seconds within which the first callback must arrive (Discord: 3); None = not enforced,
        # because CI machines are slow. Set it in a test to check the bot defers where needed.
        self.interaction_window: float | None = None
        self.token_lifetime = 15 * 60.0
        self.time_shift = 0.0  # seconds added to every interaction's age (advance)
        self.reactions: list[tuple[int, str]] = []
        # Message nonces (enforce_nonce): (channel, author, nonce) -> (message, monotonic time).
        self._nonces: dict[tuple[int, int, str], tuple[FakeMessage, float]] = {}
        self.nonce_window = 300.0  # Discord: "the past few minutes"
        self.nonce_hits = 0  # creates answered with an earlier message
        self._fail_after_create: list[tuple[int, Callable[[FakeMessage], bool] | None]] = []
        self.failed_after_create: list[FakeMessage] = []  # created, but answered with an error
        self.on_created: Callable[[FakeMessage], Any] | None = None  # called before the answer
        self._outage: tuple[int, Callable[[str, str], bool]] | None = None
        self.outage_answers = 0  # requests answered with the outage's error (see outage())
        for i, name in enumerate(("general", "games", "random")):
            ch = FakeChannel(self.next_id(), name, 0, guild_id=self.guild_id, position=i)
            self.channels[ch.id] = ch
        for name in ("Ann", "Bob", "Cid", "Dee"):
            self.add_user(name, admin=(name == "Ann"))

    # ----------------------------------------------------------------- world

    def next_id(self, ago: float = 0.0) -> int:
        """A snowflake: a timestamp part plus a counter. Deterministic by default (a fixed timestamp, so
        transcripts repeat); with `clocked_ids`, the wall-clock time `ago` seconds before now, as Discord
        stamps an id (discord.py reads `created_at` from it), on a clock that never steps back."""
        ms = 1_767_225_600_000
        if self.clocked_ids:
            wall, perf = self._clock0
            ms = int((wall + time.perf_counter() - perf - ago) * 1000)
        return ((ms - DISCORD_EPOCH_MS) << 22) + next(self._ids)

    def add_user(self, name: str, *, admin: bool = False, dms_closed: bool = False) -> FakeUser:
        user = FakeUser(self.next_id(), name, admin=admin, dms_closed=dms_closed)
        self.users[user.id] = user
        return user

    def user(self, name: str) -> FakeUser:
        for u in self.users.values():
            if u.name == name:
                return u
        raise KeyError(name)

    def channel(self, name: str) -> FakeChannel:
        for c in self.channels.values():
            if c.name == name and not c.is_dm:
                return c
        raise KeyError(name)

    @property
    def threads(self) -> list[FakeChannel]:
        """Threads not deleted, in creation order."""
        return [c for c in self.channels.values() if c.is_thread and not c.deleted]

    def message(self, message_id: int) -> FakeMessage:
        return self.messages_by_id[int(message_id)]

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        for c in self.channels.values():
            if c.is_dm and c.recipient is user:
                return c
        ch = FakeChannel(self.next_id(), f"dm-{user.name}", 1, recipient=user)
        self.channels[ch.id] = ch
        return ch

    def dms(self, user: FakeUser) -> list[FakeMessage]:
        """Messages in the DM channel between the bot and user (sent by the bot or as replies there)."""
        return self.dm_channel(user).messages

    def seen_by(self, user: FakeUser) -> list[FakeMessage]:
        """Every live message user can see: guild channels and threads (ephemeral only their own)
        and their own DMs. For secrecy checks, look at each message's all_text() and
        all_attachments()."""
        return [
            m
            for m in self.all_messages
            if m.visible_to in (None, user.id)
            and (not self.channels[m.channel_id].is_dm or self.channels[m.channel_id].recipient is user)
        ]

    @property
    def all_messages(self) -> list[FakeMessage]:
        """Every live message in every channel, thread and DM, in creation order."""
        return sorted((m for m in self.messages_by_id.values() if not m.deleted), key=lambda m: m.id)

    async def delete_message(self, message: FakeMessage) -> None:
        """A moderator deletes a message (the bot gets MESSAGE_DELETE)."""
        message.deleted = True
        data = {"id": str(message.id), "channel_id": str(message.channel_id)}
        if message.guild_id is not None:
            data["guild_id"] = str(message.guild_id)
        await self.dispatch("MESSAGE_DELETE", data, sync=True)
        self._notify()

    async def archive_thread(self, thread: FakeChannel, *, locked: bool = False) -> None:
        """Discord (or a moderator) archives a thread (the bot gets THREAD_UPDATE)."""
        thread.archived, thread.locked = True, locked
        await self.dispatch("THREAD_UPDATE", thread.payload(), sync=True)
        self._notify()

    def commands(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        """Registered commands (global, or for a guild), as the bot sent them plus ids."""
        table = self.global_commands if guild_id is None else self.guild_commands.get(guild_id, {})
        return list(table.values())

    def command(self, name: str) -> dict[str, Any]:
        table = {**self.global_commands, **self.guild_commands.get(self.guild_id, {})}
        if name not in table:
            raise FakeDiscordError(f"command {name!r} is not registered (did the bot run tree.sync?)")
        return table[name]

    def member_permissions(self, user: FakeUser) -> int:
        return PERM_EVERYONE | (PERM_MANAGE_GUILD if user.admin else 0)

    def member_payload(self, user: FakeUser, *, with_user: bool = True) -> dict[str, Any]:
        roles = [str(self.organizer_role_id)] if user.admin else []
        if user is self.bot_user:
            roles = [str(self.bot_role_id)]
        data: dict[str, Any] = {
            "roles": roles,
            "joined_at": TIMESTAMP,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "pending": False,
            "permissions": str(self.member_permissions(user)),
        }
        if with_user:
            data["user"] = user.payload()
        return data

    def guild_payload(self) -> dict[str, Any]:
        members = [self.member_payload(u) for u in [self.bot_user, *self.users.values()]]
        return {
            "id": str(self.guild_id),
            "name": self.guild_name,
            "icon": None,
            "owner_id": str(self.owner.id),
            "preferred_locale": self.guild_locale,
            "features": [],
            "unavailable": False,
            "member_count": len(members),
            "large": False,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "system_channel_flags": 0,
            "roles": [
                {
                    "id": str(self.guild_id),
                    "name": "@everyone",
                    "permissions": str(PERM_EVERYONE),
                    "position": 0,
                },
                {
                    "id": str(self.organizer_role_id),
                    "name": "Organizer",
                    "permissions": str(PERM_MANAGE_GUILD),
                    "position": 1,
                },
                {
                    "id": str(self.bot_role_id),
                    "name": "Junction",
                    "permissions": str(PERM_BOT),
                    "position": 2,
                    "managed": True,
                },
            ],
            "channels": [c.payload() for c in self.channels.values() if c.type == 0],
            "threads": [c.payload() for c in self.threads if not c.archived],  # as Discord: active only
            "members": members,
            "voice_states": [],
            "presences": [],
            "emojis": [],
            "stickers": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "joined_at": TIMESTAMP,
        }

    # ------------------------------------------------------------ lifecycle

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        """Start the server on a free port and point discord.py at it."""
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{cid}/{aid}/{filename}", self._get_attachment)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[union-attr]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        # Never call discord.http._set_api_version: it would reset BASE to discord.com.
        discord.http.Route.BASE = self.base_url + API_PREFIX
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{self.port}/gateway")

    async def stop(self) -> None:
        """Stop every bot still running, close the server, restore discord.py's URLs."""
        for bot in list(self._bots):
            await self.stop_bot(bot)
        for conn in list(self._conns):
            await conn.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._saved is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            self._saved = None

    @staticmethod
    def bot_kwargs() -> dict[str, Any]:
        """Keyword arguments every Bot run against the fake needs (merge into your own)."""
        return {
            "intents": discord.Intents.default(),
            "chunk_guilds_at_startup": False,
            "guild_ready_timeout": 0.05,
        }

    async def start_bot(self, bot: discord.Client, timeout: float = 20.0) -> discord.Client:
        """Run bot.start() in a task and return once it is ready (login + sync + READY + GUILD_CREATE)."""
        state = bot._connection
        if state.guild_ready_timeout > 1.0 or state._chunk_guilds:
            raise FakeDiscordError(
                "build the bot with **fake.bot_kwargs() (short guild_ready_timeout, no chunking)"
            )
        task = asyncio.create_task(bot.start(TOKEN), name=f"fake-discord-bot-{id(bot)}")
        self._bots[bot] = task
        ready = asyncio.create_task(self._ready(bot))
        done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            if task in done:
                self._bots.pop(bot, None)
                # Closed as `async with bot:` closes it (python -m bot): what its start opened (a database
                # connection's thread) would keep the test process from exiting.
                with contextlib.suppress(Exception):
                    await bot.close()
                task.result()  # re-raise the startup error
                raise AssertionError("bot.start() returned before the bot was ready")
            raise AssertionError(f"bot not ready after {timeout}s")
        return bot

    @staticmethod
    async def _ready(bot: discord.Client) -> None:
        # wait_until_ready() raises until login() has set the client up, and a bot may do its own
        # async work first (open its database): wait for that, then for READY.
        while not isinstance(getattr(bot, "_ready", None), asyncio.Event):
            await asyncio.sleep(0.01)
        await bot.wait_until_ready()

    async def drain(self, timeout: float = 10.0) -> None:
        """Wait until discord.py has no interaction or event handler task running.

        Covers slash commands, autocomplete, views, dynamic items, modals and event listeners
        (discord.py names those tasks); work a handler hands to its own create_task is not seen.
        """
        deadline = time.monotonic() + timeout
        quiet_rounds = 0
        while quiet_rounds < 2:  # a finishing handler may schedule another one: look twice
            me = asyncio.current_task()
            busy = {
                t
                for t in asyncio.all_tasks()
                if t is not me and not t.done() and t.get_name().startswith(HANDLER_TASKS)
            }
            if not busy:
                quiet_rounds += 1
                await asyncio.sleep(0)
                continue
            quiet_rounds = 0
            left = deadline - time.monotonic()
            if left <= 0:
                names = sorted(t.get_name() for t in busy)
                raise AssertionError(f"bot handlers still running after {timeout}s: {names}")
            await asyncio.wait(busy, timeout=left)

    async def stop_bot(self, bot: discord.Client, *, drain: bool = True) -> None:
        """Close the bot and wait for its task to end.

        By default first waits (drain) for running handlers, so a test that ends right after an
        answer does not cut off the bot's follow-up work; drain=False closes at once, mid-work,
        like a killed process.
        """
        task = self._bots.pop(bot, None)
        try:
            if drain and not bot.is_closed():
                await self.drain()
        finally:
            await bot.close()
        if task is not None:
            try:
                await asyncio.wait_for(task, 10)
            except (asyncio.CancelledError, TimeoutError):
                task.cancel()

    async def restart_bot(
        self, old: discord.Client, new: discord.Client, *, drain: bool = True
    ) -> discord.Client:
        """Stop old (see stop_bot) and start new against the same data (a restart)."""
        await self.stop_bot(old, drain=drain)
        return await self.start_bot(new)

    # --------------------------------------------------------------- waiting

    def _notify(self) -> None:
        for ev in self._waiters:
            ev.set()

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0, what: str = "") -> Any:
        """Wait until predicate() is truthy; returns its value.

        The predicate is checked after every REST request the bot makes and every 20 ms (for state
        outside the fake, e.g. log records or the bot's database).
        """
        ev = asyncio.Event()
        self._waiters.append(ev)
        deadline = time.monotonic() + timeout
        try:
            while True:
                ev.clear()
                value = predicate()
                if value:
                    return value
                left = deadline - time.monotonic()
                if left <= 0:
                    recent = ", ".join(f"{m} {p}" for m, p in self.requests[-6:])
                    raise AssertionError(
                        f"fake_discord.wait_for timed out after {timeout}s {what}; last requests: {recent}"
                    )
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(ev.wait(), min(left, 0.02))
        finally:
            self._waiters.remove(ev)

    async def wait_message(
        self,
        channel: FakeChannel,
        predicate: Callable[[FakeMessage], Any] = lambda m: True,
        *,
        since: int = 0,
        timeout: float = 10.0,
    ) -> FakeMessage:
        """Wait for the newest live message in channel with id > since (e.g. an interaction's id) matching predicate."""

        def find() -> FakeMessage | None:
            return next((m for m in reversed(channel.messages) if m.id > since and predicate(m)), None)

        return await self.wait_for(find, timeout, what=f"for a message in {channel.name}")

    # --------------------------------------------------------------- gateway

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        conn = _Conn(ws)
        self._conns.append(conn)
        try:
            await ws.send_str(
                json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
            )
            async for msg in ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    continue
                data = json.loads(msg.data)
                op = data.get("op")
                if op == 1:
                    conn.acked_seq = max(conn.acked_seq, data.get("d") or 0)
                    conn.beat.set()
                    await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
                elif op == 2:
                    if data["d"].get("token") != TOKEN:
                        await ws.close(code=4004, message=b"Authentication failed.")
                        break
                    shard = data["d"].get("shard")
                    if shard is not None:
                        shard_id, num_shards = int(shard[0]), int(shard[1])
                        if not 0 <= shard_id < num_shards:
                            await ws.close(code=4010, message=b"Invalid shard.")
                            break
                        conn.shard = (shard_id, num_shards)
                    await self._identify(conn)
                elif op == 6:
                    # No resume support: tell the client to start a fresh session.
                    await ws.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
        finally:
            self._conns.remove(conn)
        return ws

    async def _send_dispatch(self, conn: _Conn, event: str, data: dict[str, Any]) -> None:
        conn.seq += 1
        # A bot closing at this moment just misses the event, as it would on Discord.
        with contextlib.suppress(ConnectionResetError, RuntimeError):
            await conn.ws.send_str(json.dumps({"op": 0, "s": conn.seq, "t": event, "d": data}))

    @staticmethod
    def _serves(conn: _Conn, guild_id: int | None) -> bool:
        """Whether an event of this guild (None: a DM) goes to this connection."""
        return conn.shard is None or conn.shard[0] == shard_of(guild_id, conn.shard[1])

    def shards_connected(self) -> set[int]:
        """Shard ids with an identified, open connection (unsharded connections count as shard 0)."""
        return {c.shard[0] if c.shard else 0 for c in self._conns if c.identified and not c.ws.closed}

    async def _identify(self, conn: _Conn) -> None:
        mine = self._serves(conn, self.guild_id)
        ready = {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(self.guild_id), "unavailable": True}] if mine else [],
            "session_id": f"session-{self.next_id()}",
            "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
        }
        if conn.shard is not None:
            ready["shard"] = list(conn.shard)
        await self._send_dispatch(conn, "READY", ready)
        if mine:
            await self._send_dispatch(conn, "GUILD_CREATE", self.guild_payload())
        conn.identified = True

    async def dispatch(self, event: str, data: dict[str, Any], *, sync: bool = False) -> list[int]:
        """Send a gateway DISPATCH event to every identified bot connection whose shard serves the
        event's guild (DMs: shard 0), then sync() if asked; returns the shard ids it went to."""
        raw_guild = data.get("guild_id")
        guild_id = int(raw_guild) if raw_guild is not None else None
        sent = []
        for conn in list(self._conns):
            if conn.identified and not conn.ws.closed and self._serves(conn, guild_id):
                await self._send_dispatch(conn, event, data)
                sent.append(conn.shard[0] if conn.shard else 0)
        if sync:
            await self.sync()
        return sent

    async def sync(self, timeout: float = 10.0) -> None:
        """Return once every connected bot has parsed all events sent so far (its cache is up to date).

        Asks for a heartbeat (op 1): discord.py answers in order, with the last sequence it read,
        and parses each event synchronously before reading the next. Each call costs the client
        one gateway send, and discord.py allows 110 per minute per connection, so use it sparingly.
        """
        for conn in list(self._conns):
            if not conn.identified or conn.ws.closed:
                continue
            target = conn.seq
            await conn.ws.send_str(json.dumps({"op": 1, "d": None, "s": None, "t": None}))
            deadline = time.monotonic() + timeout
            while conn.acked_seq < target and not conn.ws.closed:
                conn.beat.clear()
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"bot did not confirm gateway event {target} within {timeout}s")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(conn.beat.wait(), left)

    # ------------------------------------------------------------------ REST

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        try:
            return await handler(request)
        except _HTTPError as e:
            self.refusals.append((e.code, f"{request.method} {request.path}"))
            return _json({"code": e.code, "message": e.message}, e.status)
        except web.HTTPException:
            raise
        except ConnectionResetError:  # the bot died while sending the request (a SIGKILL): nobody to answer
            self.lost_requests += 1
            return _json({"code": 0, "message": "connection lost"}, 400)
        except Exception as e:  # a bug in the fake: record it, answer 400 so discord.py does not retry
            self.errors.append(f"{request.method} {request.path}: {type(e).__name__}: {e}")
            return _json({"code": 0, "message": f"fake discord error: {e}"}, 400)
        finally:
            self._notify()

    async def _get_attachment(self, request: web.Request) -> web.Response:
        att = self.attachments.get(int(request.match_info["aid"]))
        if att is None:
            raise web.HTTPNotFound()
        return web.Response(body=att.data, content_type=att.content_type)

    async def _read_body(self, request: web.Request) -> tuple[dict[str, Any], list[tuple[str, bytes]]]:
        """JSON body, or multipart payload_json plus files[n] parts."""
        if request.content_type.startswith("multipart/"):
            payload: dict[str, Any] = {}
            files: dict[int, tuple[str, bytes]] = {}
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                assert isinstance(part, aiohttp.BodyPartReader)
                name = part.name or ""
                if name == "payload_json":
                    payload = json.loads(await part.text())
                elif m := re.fullmatch(r"files\[(\d+)\]", name):
                    files[int(m.group(1))] = (part.filename or f"file{m.group(1)}", bytes(await part.read()))
            return payload, [files[i] for i in sorted(files)]
        raw = await request.read()
        return (json.loads(raw) if raw else {}), []

    def outage(self, status: int | None = 503, where: Callable[[str, str], bool] | None = None) -> None:
        """Until `outage(None)`, every REST request matching `where(method, path)` (default: creating,
        editing or deleting a message, in a channel or a DM) is answered with HTTP `status` and does
        nothing: Discord failing the bot's posts while interactions still arrive. discord.py retries
        500/502/504 by itself (about 25 s over five tries) and raises at once on 503."""
        def messages(method: str, path: str) -> bool:
            return method in ("POST", "PATCH", "DELETE") and re.fullmatch(r"/channels/\d+/messages(/\d+)?", path) is not None

        self._outage = None if status is None else (status, where or messages)

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = request.path[len(API_PREFIX) :]
        self.requests.append((request.method, path))
        if request.headers.get("Authorization") not in (f"Bot {TOKEN}", None):
            raise _HTTPError(401, 0, "401: Unauthorized")
        if self._outage is not None and self._outage[1](request.method, path):
            self.outage_answers += 1
            raise _HTTPError(self._outage[0], 0, f"{self._outage[0]}: injected outage")
        body, files = await self._read_body(request)
        for method, pattern, handler in self._routes():
            if method != request.method:
                continue
            m = re.fullmatch(pattern, path)
            if m:
                result = await handler(request, body, files, *m.groups())
                if result is None:
                    return web.Response(status=204)
                return _json(result)
        self.errors.append(f"unhandled route {request.method} {path}")
        raise _HTTPError(404, 0, f"404: Not Found (fake has no route {request.method} {path})")

    def _routes(self) -> list[tuple[str, str, Callable[..., Any]]]:
        s = r"(\d+)"
        t = r"([^/]+)"
        return [
            ("GET", "/users/@me", self._h_me),
            ("GET", "/oauth2/applications/@me", self._h_app),
            ("GET", "/gateway", self._h_gateway),
            ("GET", "/gateway/bot", self._h_gateway),
            ("PUT", f"/applications/{s}/commands", self._h_put_commands),
            ("GET", f"/applications/{s}/commands", self._h_get_commands),
            ("PUT", f"/applications/{s}/guilds/{s}/commands", self._h_put_guild_commands),
            ("GET", f"/applications/{s}/guilds/{s}/commands", self._h_get_guild_commands),
            ("POST", "/users/@me/channels", self._h_open_dm),
            ("GET", f"/users/{s}", self._h_get_user),
            ("GET", f"/channels/{s}", self._h_get_channel),
            ("PATCH", f"/channels/{s}", self._h_patch_channel),
            ("DELETE", f"/channels/{s}", self._h_delete_channel),
            ("POST", f"/channels/{s}/typing", self._h_typing),
            ("POST", f"/channels/{s}/messages", self._h_post_message),
            ("GET", f"/channels/{s}/messages", self._h_history),
            ("GET", f"/channels/{s}/messages/{s}", self._h_get_message),
            ("PATCH", f"/channels/{s}/messages/{s}", self._h_patch_message),
            ("DELETE", f"/channels/{s}/messages/{s}", self._h_delete_message),
            ("PUT", f"/channels/{s}/messages/{s}/reactions/{t}/@me", self._h_react),
            ("PUT", f"/channels/{s}/messages/pins/{s}", self._h_pin),
            ("DELETE", f"/channels/{s}/messages/pins/{s}", self._h_unpin),
            ("POST", f"/channels/{s}/messages/{s}/threads", self._h_thread_from_message),
            ("POST", f"/channels/{s}/threads", self._h_thread),
            ("PUT", f"/channels/{s}/thread-members/{t}", self._h_thread_member),
            ("DELETE", f"/channels/{s}/thread-members/{t}", self._h_thread_member_remove),
            ("GET", f"/guilds/{s}/members/{s}", self._h_get_member),
            ("POST", f"/interactions/{s}/{t}/callback", self._h_callback),
            ("POST", f"/webhooks/{s}/{t}", self._h_followup),
            ("GET", f"/webhooks/{s}/{t}/messages/{t}", self._h_get_webhook_message),
            ("PATCH", f"/webhooks/{s}/{t}/messages/{t}", self._h_patch_webhook_message),
            ("DELETE", f"/webhooks/{s}/{t}/messages/{t}", self._h_delete_webhook_message),
        ]

    # -- login and commands

    async def _h_me(self, request: web.Request, body: Any, files: Any) -> dict[str, Any]:
        return {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0}

    async def _h_app(self, request: web.Request, body: Any, files: Any) -> dict[str, Any]:
        owner = self.owner
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": owner.payload(),
            "verify_key": "0" * 64,
            "flags": 0,
            "bot": self.bot_user.payload(),
        }

    async def _h_gateway(self, request: web.Request, body: Any, files: Any) -> dict[str, Any]:
        url = f"ws://127.0.0.1:{self.port}/gateway"
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return {"url": url, "shards": self.shard_count, "session_start_limit": limit}

    def _store_commands(self, guild_id: int | None, body: list[dict[str, Any]]) -> list[dict[str, Any]]:
        problems = [problem for cmd in body for problem in _validate_command(cmd)]
        if problems:
            raise _HTTPError(400, 50035, "Invalid Form Body: " + "; ".join(problems))
        table: dict[str, dict[str, Any]] = {}
        for cmd in body:
            key = (guild_id, cmd["name"])
            cid = self._command_ids.setdefault(key, self.next_id())  # ids stay stable across syncs
            stored = {
                "type": 1,
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "nsfw": False,
                **copy.deepcopy(cmd),
                "id": str(cid),
                "application_id": str(self.application_id),
                "version": str(self.next_id()),
            }
            if guild_id is not None:
                stored["guild_id"] = str(guild_id)
            table[cmd["name"]] = stored
        if guild_id is None:
            self.global_commands = table
        else:
            self.guild_commands[guild_id] = table
        return list(table.values())

    async def _h_put_commands(self, request: web.Request, body: Any, files: Any, app: str) -> Any:
        return self._store_commands(None, body)

    async def _h_get_commands(self, request: web.Request, body: Any, files: Any, app: str) -> Any:
        return self.commands()

    async def _h_put_guild_commands(
        self, request: web.Request, body: Any, files: Any, app: str, gid: str
    ) -> Any:
        return self._store_commands(int(gid), body)

    async def _h_get_guild_commands(
        self, request: web.Request, body: Any, files: Any, app: str, gid: str
    ) -> Any:
        return self.commands(int(gid))

    # -- users, channels, DMs

    def _get_user(self, uid: int | str) -> FakeUser:
        uid = int(uid)
        if uid == self.bot_user.id:
            return self.bot_user
        if uid not in self.users:
            raise _HTTPError(404, 10013, "Unknown User")
        return self.users[uid]

    def _get_chan(self, cid: int | str) -> FakeChannel:
        ch = self.channels.get(int(cid))
        if ch is None or ch.deleted:
            raise _HTTPError(404, 10003, "Unknown Channel")
        return ch

    def _get_msg(self, ch: FakeChannel, mid: int | str) -> FakeMessage:
        msg = self.messages_by_id.get(int(mid))
        if msg is None or msg.deleted or msg.channel_id != ch.id:
            raise _HTTPError(404, 10008, "Unknown Message")
        return msg

    async def _h_open_dm(self, request: web.Request, body: Any, files: Any) -> Any:
        return self.dm_channel(self._get_user(body["recipient_id"])).payload()

    async def _h_get_user(self, request: web.Request, body: Any, files: Any, uid: str) -> Any:
        return self._get_user(uid).payload()

    async def _h_get_member(self, request: web.Request, body: Any, files: Any, gid: str, uid: str) -> Any:
        return self.member_payload(self._get_user(uid))

    async def _h_get_channel(self, request: web.Request, body: Any, files: Any, cid: str) -> Any:
        return self._get_chan(cid).payload()

    async def _h_patch_channel(self, request: web.Request, body: Any, files: Any, cid: str) -> Any:
        ch = self._get_chan(cid)
        for key in ("name", "archived", "locked", "auto_archive_duration"):
            if key in body:
                setattr(ch, key, body[key])
        data = ch.payload()
        await self.dispatch("THREAD_UPDATE" if ch.is_thread else "CHANNEL_UPDATE", data)
        return data

    async def _h_delete_channel(self, request: web.Request, body: Any, files: Any, cid: str) -> Any:
        ch = self._get_chan(cid)
        if not ch.is_thread:
            raise _HTTPError(403, 50013, "Missing Permissions")  # the bot only ever deletes its threads
        ch.deleted = True
        for m in ch.all_messages:  # Discord deletes a thread with its messages
            m.deleted = True
        data = {
            "id": str(ch.id),
            "guild_id": str(ch.guild_id),
            "parent_id": str(ch.parent_id),
            "type": ch.type,
        }
        await self.dispatch("THREAD_DELETE", data)
        return ch.payload()

    async def _h_typing(self, request: web.Request, body: Any, files: Any, cid: str) -> None:
        self._get_chan(cid)
        return None

    # -- messages

    def _new_attachments(
        self, channel_id: int, files: list[tuple[str, bytes]], body: dict[str, Any] | None = None
    ) -> list[FakeAttachment]:
        # New uploads are listed in body["attachments"] by their index as id (kept ones by snowflake).
        described = {
            int(a["id"]): a.get("description") or ""
            for a in (body or {}).get("attachments") or []
            if int(a["id"]) < 1 << 22
        }
        # [att] Discord's Attachment request structure (developers/resources/message.mdx): "description
        # (alt text) for the file (max 1024 characters)"; a longer one is refused like any bad body field.
        if any(len(text) > MAX_ALT_TEXT for text in described.values()):
            raise _HTTPError(400, 50035, f"Invalid Form Body: attachment description longer than {MAX_ALT_TEXT}")
        out = []
        for index, (filename, data) in enumerate(files):
            aid = self.next_id()
            ctype = "image/png" if data.startswith(b"\x89PNG") else "application/octet-stream"
            url = f"{self.base_url}/attachments/{channel_id}/{aid}/{filename}"
            att = FakeAttachment(aid, filename, data, ctype, url, described.get(index, ""))
            self.attachments[aid] = att
            out.append(att)
        return out

    def _create_message(
        self,
        ch: FakeChannel,
        body: dict[str, Any],
        files: list[tuple[str, bytes]],
        *,
        interaction: FakeInteraction | None = None,
    ) -> FakeMessage:
        # Interaction replies are webhook messages: closed DMs only stop messages the bot starts.
        if interaction is None and ch.is_dm and ch.recipient is not None and ch.recipient.dms_closed:
            self.dm_failures.append(ch.recipient.id)
            raise _HTTPError(403, 50007, "Cannot send messages to this user")
        _validate_body(body, len(files))
        _check_media_refs(body, [name for name, _ in files])
        if ch.is_thread and ch.archived:
            if ch.locked:
                raise _HTTPError(400, 50083, "Thread is archived")
            ch.archived = False  # Discord unarchives a thread when someone posts in it
        flags = int(body.get("flags") or 0)
        msg = FakeMessage(
            id=self.next_id(),
            channel_id=ch.id,
            guild_id=ch.guild_id,
            author=self.bot_user,
            content=body.get("content") or "",
            embeds=body.get("embeds") or [],
            components=body.get("components") or [],
            attachments=self._new_attachments(ch.id, files, body),
            flags=flags,
            type=0 if interaction is None else 20,
            nonce=None if body.get("nonce") is None else str(body["nonce"]),
            allowed_mentions=body.get("allowed_mentions"),
        )
        ref = body.get("message_reference")
        if ref and ref.get("message_id"):
            msg.reference_id = int(ref["message_id"])
        if interaction is not None:
            msg.interaction_id = interaction.id
            msg.webhook_id = self.application_id
            msg.interaction_metadata = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.payload(),
                "authorizing_integration_owners": interaction.payload.get(
                    "authorizing_integration_owners", {}
                ),
            }
            if interaction.message is not None:
                msg.interaction_metadata["interacted_message_id"] = str(interaction.message.id)
            if msg.ephemeral:
                msg.visible_to = interaction.user.id
        ch.all_messages.append(msg)
        self.messages_by_id[msg.id] = msg
        return msg

    def _edit_message(self, msg: FakeMessage, body: dict[str, Any], files: list[tuple[str, bytes]]) -> None:
        if msg.deleted:
            raise _HTTPError(404, 10008, "Unknown Message")
        flags = body.get("flags")
        if flags is not None and msg.flags & V2_FLAG and not int(flags) & V2_FLAG:
            # [ref] [msg]: IS_COMPONENTS_V2 "can only be set"; once sent it cannot be removed.
            raise _HTTPError(400, 50035, "Invalid Form Body: the IS_COMPONENTS_V2 flag cannot be removed")
        merged = {"flags": msg.flags if flags is None else int(flags) | (msg.flags & V2_FLAG), **{
            k: v for k, v in body.items() if k != "flags"}}
        _validate_body(merged, len(files))
        if merged["flags"] & V2_FLAG and not msg.flags & V2_FLAG and (
            (msg.content and "content" not in body) or (msg.embeds and "embeds" not in body)
        ):
            # [msg] Edit Message: turning a classic message into v2 must reset its content and embeds.
            raise _HTTPError(400, 50035, "Invalid Form Body: content and embeds must be reset to set IS_COMPONENTS_V2")
        if "attachments" in body:
            kept_ids = {int(a["id"]) for a in body["attachments"] if int(a["id"]) >= 1 << 22}
            kept_names = [a.filename for a in msg.attachments if a.id in kept_ids]
        else:
            kept_names = [a.filename for a in msg.attachments]
        if merged["flags"] & V2_FLAG:
            _check_media_refs({"components": body.get("components", msg.components), "flags": merged["flags"]},
                              kept_names + [name for name, _ in files])
        if not msg.loading:  # the empty "thinking" placeholder is not a version anyone read
            msg.versions.append(msg.snapshot())
        if "content" in body:
            msg.content = body["content"] or ""
        if "embeds" in body:
            msg.embeds = body["embeds"] or []
        if "components" in body:
            msg.components = body["components"] or []
        if "flags" in body and body["flags"] is not None:
            # Only "suppress embeds" and components v2 may change on edit; ephemeral stays as it was.
            msg.flags = (msg.flags & (64 | 128)) | (int(body["flags"]) & ~(64 | 128))
        new = self._new_attachments(msg.channel_id, files, body)
        if "attachments" in body:
            kept = {int(a["id"]) for a in body["attachments"] if int(a["id"]) >= 1 << 22}
            msg.attachments = [a for a in msg.attachments if a.id in kept] + new
        else:
            msg.attachments += new
        msg.flags &= ~128  # an edit resolves a "thinking" message
        msg.edits += 1

    def fail_after_create(self, times: int = 1, status: int = 502,
                          where: Callable[[FakeMessage], bool] | None = None) -> None:
        """The next `times` messages the bot creates (matching `where`) are created, then answered
        with HTTP `status` instead of the message, as when Discord's gateway fails after the write.
        discord.py retries 500/502/504 by itself; only a nonce makes that retry safe."""
        self._fail_after_create.extend([(status, where)] * times)

    async def _h_post_message(self, request: web.Request, body: Any, files: Any, cid: str) -> Any:
        ch = self._get_chan(cid)
        nonce = body.get("nonce")
        if nonce is not None and len(str(nonce)) > 25:
            raise _HTTPError(400, 50035, "Invalid Form Body: nonce must be 25 characters or fewer")
        key = (ch.id, self.bot_user.id, str(nonce))
        if nonce is not None and body.get("enforce_nonce"):
            # Discord: with enforce_nonce, a message the same author created in the last few minutes
            # with this nonce is returned as it is, and nothing new is created.
            earlier = self._nonces.get(key)
            if earlier is not None and time.monotonic() - earlier[1] <= self.nonce_window:
                self.nonce_hits += 1
                return earlier[0].payload()
        msg = self._create_message(ch, body, files)
        if nonce is not None:
            self._nonces[key] = (msg, time.monotonic())
        if self.on_created is not None:
            self.on_created(msg)  # e.g. SIGKILL the bot after the write, before it hears back
        for index, (status, where) in enumerate(self._fail_after_create):
            if where is None or where(msg):
                del self._fail_after_create[index]
                self.failed_after_create.append(msg)
                raise _HTTPError(status, 0, f"{status}: injected failure after the message was created")
        return msg.payload()

    async def _h_history(self, request: web.Request, body: Any, files: Any, cid: str) -> Any:
        q = request.query
        limit = min(int(q.get("limit", 50)), 100)
        msgs = [m for m in self._get_chan(cid).messages if not m.ephemeral]
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])][:limit]
        return [m.payload() for m in reversed(msgs)][:limit]  # newest first, as Discord answers

    async def _h_get_message(self, request: web.Request, body: Any, files: Any, cid: str, mid: str) -> Any:
        msg = self._get_msg(self._get_chan(cid), mid)
        if msg.ephemeral:
            raise _HTTPError(404, 10008, "Unknown Message")
        return msg.payload()

    async def _h_patch_message(self, request: web.Request, body: Any, files: Any, cid: str, mid: str) -> Any:
        msg = self._get_msg(self._get_chan(cid), mid)
        if msg.ephemeral:  # only the interaction webhook can edit an ephemeral message
            raise _HTTPError(404, 10008, "Unknown Message")
        self._edit_message(msg, body, files)
        return msg.payload()

    async def _h_delete_message(
        self, request: web.Request, body: Any, files: Any, cid: str, mid: str
    ) -> None:
        self._get_msg(self._get_chan(cid), mid).deleted = True
        return None

    async def _h_react(
        self, request: web.Request, body: Any, files: Any, cid: str, mid: str, emoji: str
    ) -> None:
        from urllib.parse import unquote

        msg = self._get_msg(self._get_chan(cid), mid)
        name = unquote(emoji)
        msg.reactions.append(name)
        self.reactions.append((msg.id, name))
        return None

    async def _h_pin(self, request: web.Request, body: Any, files: Any, cid: str, mid: str) -> None:
        self._get_msg(self._get_chan(cid), mid).pinned = True
        return None

    async def _h_unpin(self, request: web.Request, body: Any, files: Any, cid: str, mid: str) -> None:
        self._get_msg(self._get_chan(cid), mid).pinned = False
        return None

    # -- threads

    async def _new_thread(self, parent: FakeChannel, body: dict[str, Any], thread_id: int) -> FakeChannel:
        if parent.type != 0:
            raise _HTTPError(400, 50024, "Cannot execute action on this channel type")
        thread = FakeChannel(
            thread_id,
            body.get("name", "thread"),
            int(body.get("type") or 11),
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=self.bot_user.id,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
        )
        thread.member_ids.add(self.bot_user.id)
        self.channels[thread.id] = thread
        # Synced, so the thread is in the bot's cache when create_thread returns.
        await self.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True}, sync=True)
        return thread

    async def _h_thread(self, request: web.Request, body: Any, files: Any, cid: str) -> Any:
        thread = await self._new_thread(self._get_chan(cid), body, self.next_id())
        return thread.payload()

    async def _h_thread_from_message(
        self, request: web.Request, body: Any, files: Any, cid: str, mid: str
    ) -> Any:
        parent = self._get_chan(cid)
        msg = self._get_msg(parent, mid)
        if msg.thread is not None:
            raise _HTTPError(400, 160004, "A thread has already been created for this message")
        body = {**body, "type": 11}
        msg.thread = await self._new_thread(parent, body, msg.id)  # Discord reuses the message id
        return msg.thread.payload()

    async def _h_thread_member(self, request: web.Request, body: Any, files: Any, cid: str, uid: str) -> None:
        ch = self._get_chan(cid)
        ch.member_ids.add(self.bot_user.id if uid == "@me" else self._get_user(uid).id)
        return None

    async def _h_thread_member_remove(
        self, request: web.Request, body: Any, files: Any, cid: str, uid: str
    ) -> None:
        ch = self._get_chan(cid)
        ch.member_ids.discard(self.bot_user.id if uid == "@me" else int(uid))
        return None

    # -- interactions: callback and webhooks

    def advance(self, seconds: float) -> None:
        """Age every interaction token by `seconds` (the 15-minute lifetime), without waiting."""
        self.time_shift += seconds

    def _expired(self, ix: FakeInteraction) -> bool:
        return time.perf_counter() + self.time_shift - ix.born > self.token_lifetime

    def _ix_by_token(self, token: str) -> FakeInteraction:
        ix = self._by_token.get(token)
        if ix is None:
            raise _HTTPError(404, 10015, "Unknown Webhook")
        if self._expired(ix):
            raise _HTTPError(401, 50027, "Invalid Webhook Token")
        return ix

    def _check_changeable(self, msg: FakeMessage) -> None:
        """An ephemeral message lives by the token of the interaction that made it."""
        maker = self.interactions.get(msg.interaction_id) if msg.interaction_id is not None else None
        if msg.ephemeral and maker is not None and self._expired(maker):
            raise _HTTPError(401, 50027, "Invalid Webhook Token")

    async def _h_callback(self, request: web.Request, body: Any, files: Any, iid: str, token: str) -> Any:
        ix = self._ix_by_token(token)
        if ix.id != int(iid):
            raise _HTTPError(404, 10062, "Unknown interaction")
        if ix.response_type is not None:
            raise _HTTPError(400, 40060, "Interaction has already been acknowledged.")
        if self.interaction_window is not None and time.perf_counter() - ix.sent_at > self.interaction_window:
            raise _HTTPError(404, 10062, "Unknown interaction")
        rtype = int(body["type"])
        data = body.get("data") or {}
        resource: dict[str, Any] = {"type": rtype}
        ix.responded_at = time.perf_counter()
        message: FakeMessage | None = None
        if rtype == 4:
            message = self._create_message(ix.channel, data, files, interaction=ix)
            ix.original = message
        elif rtype == 5:
            # The "thinking" message: loading until the bot edits it or sends a follow-up.
            message = self._create_message(
                ix.channel, {"flags": (int(data.get("flags") or 0) & 64) | 128}, [], interaction=ix
            )
            ix.original = message
        elif rtype in (6, 7):
            if ix.message is None:
                raise _HTTPError(
                    400, 40043, "Interaction response type only valid for component interactions"
                )
            if rtype == 7:
                self._check_changeable(ix.message)
            ix.original = ix.message
            if rtype == 7:
                self._edit_message(ix.message, data, files)
                message = ix.message
        elif rtype == 8:
            if ix.type != 4:
                raise _HTTPError(400, 50035, "Autocomplete result for a non-autocomplete interaction")
            choices = data.get("choices") or []
            if len(choices) > 25:
                raise _HTTPError(400, 50035, "Invalid Form Body: choices must be 25 or fewer in length.")
            for c in choices:
                if not 1 <= len(c.get("name", "")) <= 100 or len(str(c.get("value", ""))) > 100:
                    raise _HTTPError(
                        400, 50035, f"Invalid Form Body: choice {c!r} name 1-100, value up to 100"
                    )
            ix.choices = choices
        elif rtype == 9:
            ix.modal = data
        else:
            raise _HTTPError(400, 50035, f"fake does not support callback type {rtype}")
        ix.response_type = rtype
        if rtype not in (5, 6):  # a deferral is answered by the edit or the follow-up after it
            ix._mark_answered()
        ix._changed.set()
        if message is not None and rtype != 5:
            resource["message"] = message.payload()
        return {
            "interaction": {
                "id": str(ix.id),
                "type": ix.type,
                "response_message_id": str(ix.original.id) if ix.original else None,
                "response_message_loading": rtype == 5,
                "response_message_ephemeral": bool(ix.original and ix.original.ephemeral),
            },
            "resource": resource,
        }

    def _webhook_message(self, ix: FakeInteraction, ref: str) -> FakeMessage:
        if ref == "@original":
            if ix.original is None:
                raise _HTTPError(404, 10008, "Unknown Message")
            return ix.original
        msg = self.messages_by_id.get(int(ref))
        if msg is None or msg.deleted or (msg is not ix.original and msg not in ix.followups):
            raise _HTTPError(404, 10008, "Unknown Message")
        return msg

    async def _h_followup(self, request: web.Request, body: Any, files: Any, app: str, token: str) -> Any:
        ix = self._ix_by_token(token)
        if ix.response_type is None:
            raise _HTTPError(404, 10015, "Unknown Webhook")  # a follow-up needs an acknowledged interaction
        if ix.original is not None and ix.original.loading:
            # Discord turns the first follow-up after a deferred "thinking" reply into that reply.
            msg = ix.original
            ephemeral = msg.flags & 64
            self._edit_message(msg, body, files)
            msg.flags |= ephemeral
        else:
            msg = self._create_message(ix.channel, body, files, interaction=ix)
        ix.followups.append(msg)
        ix._mark_answered()
        ix._changed.set()
        return msg.payload() if request.query.get("wait") in ("1", "true", "True") else None

    async def _h_get_webhook_message(
        self, request: web.Request, body: Any, files: Any, app: str, token: str, ref: str
    ) -> Any:
        return self._webhook_message(self._ix_by_token(token), ref).payload()

    async def _h_patch_webhook_message(
        self, request: web.Request, body: Any, files: Any, app: str, token: str, ref: str
    ) -> Any:
        ix = self._ix_by_token(token)
        msg = self._webhook_message(ix, ref)
        self._check_changeable(msg)
        self._edit_message(msg, body, files)
        if msg is ix.original:
            ix._mark_answered()
        ix._changed.set()
        return msg.payload()

    async def _h_delete_webhook_message(
        self, request: web.Request, body: Any, files: Any, app: str, token: str, ref: str
    ) -> None:
        self._webhook_message(self._ix_by_token(token), ref).deleted = True
        return None

    # ------------------------------------------------------ test-facing API

    def _base_interaction(
        self, itype: int, user: FakeUser, channel: FakeChannel, data: dict[str, Any], locale: str
    ) -> tuple[int, str, dict[str, Any]]:
        iid = self.next_id(ago=self.interaction_age)
        token = f"ixtoken-{iid}"
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "token": token,
            "version": 1,
            "data": data,
            "locale": locale,
            "channel_id": str(channel.id),
            "channel": {**channel.payload(), "permissions": str(self.member_permissions(user))},
            "app_permissions": str(PERM_BOT),
            "attachment_size_limit": 25 * 1024 * 1024,
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)},
        }
        if channel.is_dm:
            payload["user"] = user.payload()
            payload["context"] = 1
        else:
            payload["guild_id"] = str(self.guild_id)
            payload["guild_locale"] = self.guild_locale
            payload["guild"] = {"id": str(self.guild_id), "locale": self.guild_locale, "features": []}
            payload["member"] = self.member_payload(user)
            payload["context"] = 0
        return iid, token, payload

    async def _send_interaction(
        self,
        itype: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        *,
        locale: str,
        message: FakeMessage | None = None,
        wait: bool,
        timeout: float,
    ) -> FakeInteraction:
        if not any(c.identified and not c.ws.closed for c in self._conns):
            raise FakeDiscordError(
                "no bot is connected to the fake gateway (await fake.start_bot(bot) first)"
            )
        iid, token, payload = self._base_interaction(itype, user, channel, data, locale)
        if message is not None:
            payload["message"] = message.payload()
        ix = FakeInteraction(iid, token, itype, user, channel, payload, message=message)
        self.interactions[iid] = ix
        self._by_token[token] = ix
        ix.sent_at = time.perf_counter() - self.interaction_age  # when Discord made it
        ix.born = ix.sent_at + self.time_shift
        ix.shards = await self.dispatch("INTERACTION_CREATE", payload)
        if wait:
            await ix.wait(timeout)
        return ix

    def _resolve_command(
        self, words: list[str], channel: FakeChannel, user: FakeUser
    ) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
        """Registered command, the nesting path ([group], [subcommand]) and the leaf's option specs.

        Refuses what Discord's client would not let the user send: unknown commands, guild-only
        commands in DMs, commands whose default_member_permissions the member lacks.
        """
        table = dict(self.global_commands)
        if not channel.is_dm:
            table.update(self.guild_commands.get(self.guild_id, {}))
        cmd = table.get(words[0])
        if cmd is None:
            raise FakeDiscordError(
                f"command {words[0]!r} is not registered (did the bot run tree.sync?); have {sorted(table)}"
            )
        if channel.is_dm and (
            cmd.get("dm_permission") is False or 1 not in (cmd.get("contexts") or [0, 1, 2])
        ):
            raise FakeDiscordError(f"/{words[0]} is guild-only; Discord does not offer it in DMs")
        needed = cmd.get("default_member_permissions")
        if needed is not None and not channel.is_dm:
            needed = int(needed)
            if self.member_permissions(user) & needed != needed:
                raise FakeDiscordError(
                    f"{user.name} lacks the permissions {needed} that /{words[0]} requires"
                )
        path: list[dict[str, Any]] = []
        specs = cmd.get("options") or []
        for word in words[1:]:
            sub = next((o for o in specs if o["name"] == word and o["type"] in (1, 2)), None)
            if sub is None:
                raise FakeDiscordError(f"/{' '.join(words)}: no subcommand {word!r}")
            path.append(sub)
            specs = sub.get("options") or []
        if any(o["type"] in (1, 2) for o in specs):
            raise FakeDiscordError(f"/{' '.join(words)} is a group; name a subcommand")
        return cmd, path, specs

    def _option(
        self,
        spec: dict[str, Any] | None,
        name: str,
        value: Any,
        resolved: dict[str, dict[str, Any]],
        *,
        check: bool,
        in_guild: bool,
    ) -> dict[str, Any]:
        if isinstance(value, FakeUser):
            otype, raw = 6, str(value.id)
            resolved.setdefault("users", {})[raw] = value.payload()
            if in_guild:  # in DMs Discord resolves users only
                resolved.setdefault("members", {})[raw] = self.member_payload(value, with_user=False)
        elif isinstance(value, FakeChannel):
            otype, raw = 7, str(value.id)
            resolved.setdefault("channels", {})[raw] = {**value.payload(), "permissions": str(PERM_EVERYONE)}
        elif isinstance(value, bool):
            otype, raw = 5, value
        elif isinstance(value, int):
            otype, raw = 4, value
        elif isinstance(value, float):
            otype, raw = 10, value
        else:
            otype, raw = 3, str(value)
        if spec is not None:
            if check and spec["type"] != otype and not (spec["type"] == 10 and otype == 4):
                raise FakeDiscordError(f"option {name!r} has type {spec['type']}, the test gave {value!r}")
            otype = spec["type"]
            choices = spec.get("choices")
            if check and choices and raw not in [c["value"] for c in choices]:
                raise FakeDiscordError(
                    f"option {name!r}: {raw!r} is not one of {[c['value'] for c in choices]}"
                )
            lo, hi = spec.get("min_value"), spec.get("max_value")
            if check and otype in (4, 10) and (lo is not None and raw < lo or hi is not None and raw > hi):
                raise FakeDiscordError(
                    f"option {name!r}: {raw} outside [{spec.get('min_value')}, {spec.get('max_value')}]"
                )
            if (
                check
                and otype == 3
                and not spec.get("min_length", 0) <= len(raw) <= spec.get("max_length", 6000)
            ):
                raise FakeDiscordError(f"option {name!r}: length of {raw!r} outside the allowed range")
        return {"name": name, "type": otype, "value": raw}

    def _command_data(
        self,
        user: FakeUser,
        name: str,
        channel: FakeChannel,
        options: dict[str, Any],
        focused: str | None = None,
        value: str = "",
    ) -> dict[str, Any]:
        words = name.strip().lstrip("/").split()
        cmd, path, specs = self._resolve_command(words, channel, user)
        by_name = {o["name"]: o for o in specs}
        for key in options:
            if key not in by_name:
                raise FakeDiscordError(f"/{name}: unknown option {key!r}; it has {sorted(by_name)}")
        if focused is None:
            missing = [o["name"] for o in specs if o.get("required") and o["name"] not in options]
            if missing:
                raise FakeDiscordError(f"/{name}: missing required options {missing}")
        elif focused not in by_name or not by_name[focused].get("autocomplete"):
            raise FakeDiscordError(f"/{name}: option {focused!r} has no autocomplete")
        resolved: dict[str, dict[str, Any]] = {}
        leaf = [
            self._option(by_name[k], k, v, resolved, check=True, in_guild=not channel.is_dm)
            for k, v in options.items()
            if k != focused
        ]
        if focused is not None:
            # While typing, Discord sends the raw text as the value, whatever the option type.
            leaf.append({"name": focused, "type": by_name[focused]["type"], "value": value, "focused": True})
        opts = leaf
        for sub in reversed(path):
            opts = [{"name": sub["name"], "type": sub["type"], "options": opts}]
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        if "guild_id" in cmd:
            data["guild_id"] = cmd["guild_id"]
        return data

    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        options: dict[str, Any] | None = None,
        *,
        locale: str = "en-US",
        wait: bool = True,
        timeout: float = 10.0,
    ) -> FakeInteraction:
        """Invoke a slash command ("game new") as user in channel (a guild channel, thread or DM)."""
        data = self._command_data(user, name, channel, options or {})
        return await self._send_interaction(2, user, channel, data, locale=locale, wait=wait, timeout=timeout)

    async def autocomplete(
        self,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        focused: str,
        value: str = "",
        options: dict[str, Any] | None = None,
        *,
        locale: str = "en-US",
        timeout: float = 10.0,
    ) -> list[dict[str, Any]]:
        """Ask the bot for autocomplete choices while user types value into option focused; returns the choices."""
        data = self._command_data(user, name, channel, options or {}, focused=focused, value=value)
        ix = await self._send_interaction(4, user, channel, data, locale=locale, wait=True, timeout=timeout)
        if ix.response_type != 8 or ix.choices is None:
            raise AssertionError(f"autocomplete answered with callback type {ix.response_type}")
        return ix.choices

    def _check_component(self, user: FakeUser, message: FakeMessage, comp: dict[str, Any]) -> None:
        if message.deleted:
            raise FakeDiscordError(f"message {message.id} was deleted")
        if message.visible_to not in (None, user.id):
            raise FakeDiscordError(f"{user.name} cannot see ephemeral message {message.id}")
        if comp.get("disabled"):
            raise FakeDiscordError(f"component {comp.get('label') or comp.get('custom_id')!r} is disabled")

    async def click(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        locale: str = "en-US",
        wait: bool = True,
        timeout: float = 10.0,
    ) -> FakeInteraction:
        """Click the button (found by custom_id or label) on a stored message."""
        comp = message.component(custom_id=custom_id, label=label)
        if comp.get("type") != 2 or "custom_id" not in comp:
            raise FakeDiscordError(f"{comp} is not a clickable button")
        self._check_component(user, message, comp)
        data = {"custom_id": comp["custom_id"], "component_type": 2}
        channel = self.channels[message.channel_id]
        return await self._send_interaction(
            3, user, channel, data, locale=locale, message=message, wait=wait, timeout=timeout
        )

    async def select(
        self,
        user: FakeUser,
        message: FakeMessage,
        values: list[str],
        custom_id: str | None = None,
        *,
        locale: str = "en-US",
        wait: bool = True,
        timeout: float = 10.0,
    ) -> FakeInteraction:
        """Choose values in a string select (the message's only select if custom_id is None)."""
        if custom_id is None:
            selects = [c for c in _walk_components(message.components) if c.get("type") == 3]
            if len(selects) != 1:
                raise FakeDiscordError(
                    f"message {message.id} has {len(selects)} string selects; give custom_id"
                )
            comp = selects[0]
        else:
            comp = message.component(custom_id=custom_id)
        if comp.get("type") != 3:
            raise FakeDiscordError(f"{comp.get('custom_id')!r} is not a string select")
        self._check_component(user, message, comp)
        allowed = [o["value"] for o in comp.get("options", [])]
        bad = [v for v in values if v not in allowed]
        if bad or not comp.get("min_values", 1) <= len(values) <= comp.get("max_values", 1):
            raise FakeDiscordError(f"select {comp['custom_id']!r}: {values} not allowed (options {allowed})")
        data = {"custom_id": comp["custom_id"], "component_type": 3, "values": list(values)}
        channel = self.channels[message.channel_id]
        return await self._send_interaction(
            3, user, channel, data, locale=locale, message=message, wait=wait, timeout=timeout
        )

    async def submit_modal(
        self,
        user: FakeUser,
        opened_by: FakeInteraction,
        values: dict[str, str],
        *,
        locale: str = "en-US",
        wait: bool = True,
        timeout: float = 10.0,
    ) -> FakeInteraction:
        """Submit the modal the bot opened in answer to opened_by, with text input values by custom_id."""
        if opened_by.modal is None:
            raise FakeDiscordError(f"interaction {opened_by.id} did not open a modal")

        def fill(comps: list[dict[str, Any]]) -> list[dict[str, Any]]:
            out = []
            for c in comps:
                if c["type"] == 1:
                    out.append({"type": 1, "components": fill(c.get("components", []))})
                elif c["type"] == 18:
                    out.append({"type": 18, "component": fill([c["component"]])[0]})
                elif c["type"] == 4:
                    out.append(
                        {
                            "type": 4,
                            "custom_id": c["custom_id"],
                            "value": values.get(c["custom_id"], c.get("value", "")),
                        }
                    )
                else:
                    out.append(
                        {
                            "type": c["type"],
                            "custom_id": c.get("custom_id"),
                            "values": values.get(c.get("custom_id", ""), []),
                        }
                    )
            return out

        data = {
            "custom_id": opened_by.modal["custom_id"],
            "components": fill(opened_by.modal.get("components", [])),
        }
        return await self._send_interaction(
            5,
            user,
            opened_by.channel,
            data,
            locale=locale,
            message=opened_by.message,
            wait=wait,
            timeout=timeout,
        )
