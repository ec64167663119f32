"""Histories (/history) in pages of HISTORY_PAGE finished games with persistent ◀ ▶ buttons, and one finished
game's record: its history entry (the Game record button under its final post, /game record)."""

from __future__ import annotations

from typing import Any, Self

import discord

from bot.cogs import answering_failures, reply
from bot.i18n import t
from bot.store import stats
from bot.texts import clip
from bot.ui.base import GameButton, refused
from bot.ui.community import (
    HISTORY_PAGE,
    KEY,
    LABELS,
    NAMES_SHOWN,
    Mode,
    length_words,
    mention,
    page_of,
    send_page,
    signed,
    stamp,
    store_of,
    title_of,
)
from bot.ui.listing import jump_url


class HistoryPage(discord.ui.DynamicItem[discord.ui.Button],
                  template=rf"jn:hist:(?P<member>\d{{1,20}}):(?P<game>{KEY}|-):(?P<page>\d{{1,6}}):(?P<mode>[en]):(?P<arrow>[pn])"):
    """Turns a history's page; member 0 is the whole server."""

    def __init__(self, member: int, game_key: str | None, page: int, mode: Mode, arrow: str, *,
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(
            label="◀ Previous" if arrow == "p" else "Next ▶", style=discord.ButtonStyle.secondary, disabled=disabled,
            custom_id=f"jn:hist:{member}:{game_key or '-'}:{page}:{mode}:{arrow}"))
        self.member, self.game_key, self.page, self.mode = member, game_key, page, mode

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any) -> Self:
        game = match["game"]
        return cls(int(match["member"]), None if game == "-" else game, int(match["page"]), match["mode"],
                   match["arrow"])

    @answering_failures
    async def callback(self, interaction: discord.Interaction) -> None:
        await show_history(interaction, self.member or None, self.game_key, page=self.page, edit=self.mode == "e")


def history_line(interaction: discord.Interaction, locale: Any, entry: stats.Entry, member: int | None) -> str:
    """One finished game: its number and title linked to its final post, the day it ended, the result
    (the member's place, or the winners), how long it took."""
    title = title_of(interaction, entry.game_key, locale) or entry.game_key
    link = f"[#{entry.game_id} {title}]({jump_url(entry.guild_id, entry.place_id, entry.message_id)})"
    seats = len(entry.standings)
    mine = next((s for s in entry.standings if member is not None and s[1] == member), None)
    if mine is not None:
        result = t(locale, "place {rank} of {seats}", rank=mine[2], seats=seats)
    else:
        winners = clip(", ".join(s[0] for s in entry.standings if s[2] == 1), NAMES_SHOWN)
        result = t(locale, "won by {names}", names=winners) if winners else t(locale, "no result")
    length = (t(locale, "{moves} moves in {time}", moves=entry.moves,
                time=length_words(locale, entry.ended_at - entry.started_at))
              if entry.started_at is not None else t(locale, "{moves} moves", moves=entry.moves))
    return f"• {link} · {stamp(entry.ended_at)} · {result} · {length}"


async def show_history(interaction: discord.Interaction, member: int | None, game_key: str | None, *,
                       page: int = 0, post: bool = False, edit: bool = False) -> None:
    """A page of this server's finished games (a member's, of one title), the latest end first."""
    locale = interaction.guild_locale if post and interaction.guild_locale else interaction.locale
    if interaction.guild_id is None:
        await reply(interaction, t(interaction.locale, "A server's history is shown on that server."))
        return
    if game_key is not None and title_of(interaction, game_key, locale) is None:
        await reply(interaction, t(interaction.locale, "There is no game called {game} here.", game=game_key))
        return
    store = store_of(interaction)
    total = await stats.history_size(store, interaction.guild_id, member, game_key)
    pages = max(-(-total // HISTORY_PAGE), 1)
    page = page_of(page, pages)
    listed = await stats.history_page(store, interaction.guild_id, member, game_key, page, HISTORY_PAGE)
    head = (t(locale, "**Finished games of {member}**", member=mention(member)) if member is not None
            else t(locale, "**Finished games on this server**"))
    lines = [head, t(locale, "Page {page} of {pages} · {n} games", page=page + 1, pages=pages, n=total)]
    lines += [history_line(interaction, locale, entry, member) for entry in listed]
    if not listed:
        lines.append(t(locale, "No finished games yet."))
    else:
        lines.append(t(locale, "The record of one game: `/game record number:`"))
    view = discord.ui.View(timeout=None)
    mode: Mode = "n" if post else "e"
    if pages > 1:
        view.add_item(HistoryPage(member or 0, game_key, max(page - 1, 0), mode, "p", disabled=page == 0))
        view.add_item(HistoryPage(member or 0, game_key, min(page + 1, pages - 1), mode, "n",
                                  disabled=page >= pages - 1))
    await send_page(interaction, "\n".join(lines), view if view.children else None, public=post, edit=edit, locale=locale)


async def record_text(interaction: discord.Interaction, game_id: int, locale: Any) -> str | None:
    """A finished game's history entry: title, number, end, length, each seat's place and score with the
    rating change on this server, the link to its final post, and the commands that show more of it."""
    store = store_of(interaction)
    scope = stats.guild_scope(interaction.guild_id)
    found = await stats.entries(store, [game_id], scope)
    if not found:
        return None
    entry = found[0]
    title = title_of(interaction, entry.game_key, locale) or entry.game_key
    lines = [t(locale, "**{title}** · game #{id} · ended {when}", title=title, id=game_id,
               when=stamp(entry.ended_at, "f"))]
    if entry.started_at is not None:
        lines.append(t(locale, "{moves} moves in {time}", moves=entry.moves,
                       time=length_words(locale, entry.ended_at - entry.started_at)))
    for name, user, rank, score in entry.standings:
        line = t(locale, "{rank}. {name}: {score}", rank=rank, name=name, score=score)
        if user is not None and user in entry.changes:
            line += " · " + t(locale, "rating {change}", change=signed(entry.changes[user]))
        lines.append(line)
    if entry.message_id is not None:
        lines.append(t(locale, "[Final post]({link})", link=jump_url(entry.guild_id, entry.place_id, entry.message_id)))
    lines.append(t(locale, "Replay: `/game replay number:{id}` · moves: `/game log number:{id}`"
                   " · report: `/game report number:{id}`", id=game_id))
    return "\n".join(lines)


def no_such_game(locale: Any, game_id: int) -> str:
    return t(locale, "There is no game #{id} on this server.", id=game_id)


def not_ended(locale: Any, game_id: int) -> str:
    return t(locale, "Game #{id} has not ended yet.", id=game_id)


def report_words(locale: Any, game_id: int) -> str:
    """The words beside a finished game's end report (a file)."""
    return t(locale, "The end report of game #{id}: the final standings, what was revealed, every move.", id=game_id)


async def show_record(interaction: discord.Interaction, game_id: int) -> None:
    """A finished game's history entry, for the reader only (refused for a game of another server)."""
    row = await store_of(interaction).game(game_id)
    if row is None or row.guild_id != interaction.guild_id:
        await reply(interaction, no_such_game(interaction.locale, game_id))
        return
    if row.status != "over":
        await reply(interaction, not_ended(interaction.locale, game_id))
        return
    await reply(interaction, await record_text(interaction, game_id, interaction.locale) or "")


class RecordButton(GameButton, kind="rec", label=LABELS[3]):
    """Under a final post: the game's history entry, for the clicker only."""

    @answering_failures
    async def callback(self, interaction: discord.Interaction) -> None:
        if await refused(interaction, self.game_id):
            return
        await show_record(interaction, self.game_id)


HISTORY_ITEMS = (HistoryPage, RecordButton)
