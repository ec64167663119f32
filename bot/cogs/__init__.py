"""The discord.py side of Junction: one cog per job (games, clock, admin, community), and the reply they share."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot import i18n, texts
from bot.db import DatabaseUnavailable, on_wait, track_writes, wrote
from bot.tables import DB_DOWN, SAVE_UNKNOWN, Refused
from rules.words import Msg

NO_MENTIONS = discord.AllowedMentions.none()
# Discord's answer to a second response to one interaction (a duplicate delivery answered already).
ALREADY_ACKNOWLEDGED = 40060
ANSWERED = "junction_answered"  # Interaction.extras key: the user has their answer

log = logging.getLogger("bot.cogs")

# Discord wants the first answer to an interaction within 3 s of sending it (the time in its id). One read
# late (a busy bot: bench/outbox_backlog.py) is deferred sooner, so that the defer's own request is made by
# DEFER_BY seconds after Discord sent it.
ANSWER_WINDOW = 3.0
DEFER_BY = 1.5


async def reply(interaction: discord.Interaction, text: str | Msg, names: Sequence[str] | None = None,
                **kwargs: Any) -> None:
    """An ephemeral answer in the user's language, clipped to one message, whether or not the
    interaction was deferred; it pings nobody unless `allowed_mentions` says otherwise.
    `text`: a message (translated here, its seats named by `names` after the translation), or text
    already in the user's language."""
    kwargs.setdefault("allowed_mentions", NO_MENTIONS)
    text = texts.clip(i18n.say(interaction.locale, text, names) if isinstance(text, Msg) else text)
    if kwargs.get("view") is not None:
        i18n.localize_view(kwargs["view"], interaction.locale)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)
    mark_answered(interaction)


def mark_answered(interaction: discord.Interaction) -> None:
    """The user has their answer (a failure after it is not answered again: see `answer_failure`)."""
    interaction.extras[ANSWERED] = True


def _answered(interaction: discord.Interaction) -> bool:
    kind = interaction.response.type
    deferred = (discord.InteractionResponseType.deferred_channel_message,
                discord.InteractionResponseType.deferred_message_update)
    return interaction.extras.get(ANSWERED, False) or (kind is not None and kind not in deferred)


async def answer_failure(interaction: discord.Interaction, error: BaseException) -> bool:
    """Answer, in one line, an interaction whose handler failed in a way the user should hear about,
    or stay quiet where nothing is wrong; True if `error` was such a failure (else the caller lets
    it be logged as a bug).

    The database out of reach: "nothing was changed" when that is known (the failing work wrote
    nothing, and nothing was committed before it in this interaction), else that it cannot tell
    yet; nothing more once the user has their answer (a failure while sending the posts a move
    owes: they stay owed and go out later). A second delivery of an interaction that was answered
    already: nothing to say, no error. A refusal (`Refused`: an illegal move, not your turn, no game
    here) is answered with its one-line reason in the reader's language, unless the interaction has
    its answer already (then it is only logged: nobody is answered twice).
    """
    if isinstance(error, Refused):
        if _answered(interaction):
            log.info("interaction %s refused after its answer: %s", interaction.id, error.reason)
        else:
            try:
                await reply(interaction, error.reason, error.names)
            except discord.HTTPException as failed:  # a repeated delivery another answer beat: fine
                if failed.code != ALREADY_ACKNOWLEDGED:
                    raise
                log.info("interaction %s was answered already (a repeated delivery): %s", interaction.id, failed)
        return True
    if isinstance(error, DatabaseUnavailable):
        log.warning("interaction %s: the database is out of reach (%s)", interaction.id, error)
        if not _answered(interaction):
            with contextlib.suppress(discord.HTTPException):
                await reply(interaction, Msg(DB_DOWN if error.committed is False and not wrote() else SAVE_UNKNOWN))
        return True
    if isinstance(error, discord.HTTPException) and error.code == ALREADY_ACKNOWLEDGED:
        log.info("interaction %s was answered already (a repeated delivery): %s", interaction.id, error)
        return True
    return False


def defer_in(interaction: discord.Interaction, after: float) -> float:
    """Seconds of work before deferring `interaction`: `after`, less if the bot read it late (its id's time
    against this host's clock: by DEFER_BY seconds from Discord sending it). An age outside Discord's window
    says a clock is off (or the answer is too late whatever it does): `after`, as if read at once."""
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    if not 0.0 <= age < ANSWER_WINDOW:
        return after
    return max(0.0, min(after, DEFER_BY - age))


def begin_interaction(interaction: discord.Interaction) -> None:
    """At the start of a handler: note the writes its work commits (`answer_failure` says "nothing
    was changed" only when none was), and defer the interaction before waiting for a database out of
    reach, so the answer may come after Discord's 3 s (a component's message stays as it is)."""
    track_writes()
    if interaction.type is discord.InteractionType.autocomplete:
        on_wait(None)
        return

    async def defer() -> None:
        if not interaction.response.is_done():
            with contextlib.suppress(discord.HTTPException, discord.InteractionResponded):
                if interaction.type is discord.InteractionType.component:
                    await interaction.response.defer()
                else:
                    await interaction.response.defer(ephemeral=True, thinking=True)

    on_wait(defer)


def answering_failures(callback: Any) -> Any:
    """For a component's callback: its error handler. The failures `answer_failure` knows (a refusal,
    the database out of reach) are answered, not only logged (discord.py hands what a dynamic item's
    callback raises to a view of its own, whose on_error only logs)."""

    async def guarded(self: Any, interaction: discord.Interaction) -> None:
        begin_interaction(interaction)
        try:
            await callback(self, interaction)
        except Exception as error:
            if not await answer_failure(interaction, error):
                raise

    guarded.__name__, guarded.__doc__ = callback.__name__, callback.__doc__
    return guarded
