"""Where and how a server lets a game start: its settings, allowed channels, thread rule, the bot's permissions."""

from __future__ import annotations

from typing import Any

import discord

from bot import i18n
from bot.tables import Tables
from rules.words import N_


async def guild_settings(tables: Tables, guild_id: int | None) -> dict[str, Any]:
    """A server's settings as an admin set them (none outside a server)."""
    return await tables.store.guild_settings(guild_id) if guild_id else {}


def missing_permissions(perms: discord.Permissions, *, thread: bool, in_thread: bool) -> list[str]:
    """The bot permissions a new game here lacks, by their names in Discord's settings."""
    needed = [("view_channel", N_("View Channel")), ("attach_files", N_("Attach Files"))]
    needed.append(("send_messages_in_threads", N_("Send Messages in Threads")) if in_thread
                  else ("send_messages", N_("Send Messages")))
    if thread:
        needed += [("create_public_threads", N_("Create Public Threads")),
                   ("send_messages_in_threads", N_("Send Messages in Threads"))]
    seen: list[str] = []
    for attribute, label in needed:
        if not getattr(perms, attribute) and label not in seen:
            seen.append(label)
    return seen


async def new_game_policy(tables: Tables, interaction: discord.Interaction, thread: bool) -> tuple[str | None, bool]:
    """(refusal, thread) for /game new here: allowed channels, the thread rule, the bot's permissions."""
    locale = interaction.locale
    settings = await guild_settings(tables, interaction.guild_id)
    channel = interaction.channel
    in_thread = isinstance(channel, discord.Thread)
    home = channel.parent_id if isinstance(channel, discord.Thread) else interaction.channel_id
    allowed = settings.get("game_channels") or []
    if allowed and home not in allowed and interaction.channel_id not in allowed:
        listed = ", ".join(f"<#{c}>" for c in allowed)
        return i18n.t(locale, "Games cannot be started in this channel. A server admin allows them in: "
                              "{channels}.", channels=listed), thread
    mode = settings.get("threads", "choice")
    if mode == "always" and not in_thread:
        thread = True
        if not isinstance(channel, discord.TextChannel):
            return i18n.t(locale, "On this server games are played in threads only, and I cannot open one "
                                  "here."), thread
    elif mode == "never":
        thread = False
    if interaction.guild_id is not None:
        missing = missing_permissions(interaction.app_permissions, thread=thread, in_thread=in_thread)
        if missing:
            key = (N_("I cannot open a thread here: I need the **{permissions}** permission in this channel.")
                   if thread and any(m in ("Create Public Threads", "Send Messages in Threads") for m in missing)
                   else N_("I cannot post here: I need the **{permissions}** permission in this channel."))
            return i18n.t(locale, key, permissions="**, **".join(i18n.t(locale, m) for m in missing)), thread
    return None, thread
