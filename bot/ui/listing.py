"""Long listings (/game list, /mygames): one line per game, in pages of whole lines, with persistent ◀ ▶ buttons."""

from __future__ import annotations

from typing import Any, Literal, Self

import discord

from bot import i18n
from bot.cogs import answering_failures, reply
from bot.tables import TableInfo, Tables
from rules.words import N_

LIMIT = 1900  # room under Discord's 2,000 characters for the page counter and a longer translation
MAX_PAGE = 999  # the custom_id's page has at most 3 digits
MAX_LISTED = 200  # games read for one listing; they are shown in pages of whole lines
Listing = Literal["guild", "mine"]


def paginate(head: str, lines: list[str], limit: int = LIMIT) -> list[list[str]]:
    """The lines in pages that each fit `limit` characters with the head; a line is never cut
    (a link cut in the middle is a dead link), and every page has at least one line."""
    pages: list[list[str]] = []
    page: list[str] = []
    size = len(head)
    for line in lines:
        if page and size + 1 + len(line) > limit:
            pages.append(page)
            page, size = [], len(head)
        page.append(line)
        size += 1 + len(line)
    if page or not pages:
        pages.append(page)
    return pages[: MAX_PAGE + 1]


def page_text(head: str, pages: list[list[str]], page: int) -> tuple[str, int]:
    """(text of the page, the page shown): a page past the end (the list got shorter) shows the last."""
    page = min(max(page, 0), len(pages) - 1)
    counter = f" ({page + 1}/{len(pages)})" if len(pages) > 1 else ""
    return "\n".join([head + counter, *pages[page]]), page


class ListPage(discord.ui.DynamicItem[discord.ui.Button],
               template=r"jn:list:(?P<listing>guild|mine):(?P<page>\d{1,3}):(?P<arrow>[pn])"):
    """Turns a listing's page. The listing is read again on each click (it may have changed), for the
    clicking member: a user's own games, or the games of the server the click comes from."""

    def __init__(self, listing: Listing, page: int, arrow: Literal["p", "n"], *, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(
            label=N_("◀ Previous") if arrow == "p" else N_("Next ▶"), style=discord.ButtonStyle.secondary,
            custom_id=f"jn:list:{listing}:{page}:{arrow}", disabled=disabled))
        self.listing: Listing = listing
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: Any) -> Self:
        return cls(match["listing"], int(match["page"]), match["arrow"])

    @answering_failures
    async def callback(self, interaction: discord.Interaction) -> None:
        tables: Tables = interaction.client.tables  # type: ignore[attr-defined]
        await turn_list_page(interaction, tables, self.listing, self.page)


def page_buttons(listing: Listing, page: int, pages: int) -> discord.ui.View | None:
    """◀ ▶ under a page (None for a single page). Each button carries the page it opens, so two
    buttons never share a custom_id; the ends are disabled."""
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(ListPage(listing, max(page - 1, 0), "p", disabled=page == 0))
    view.add_item(ListPage(listing, min(page + 1, pages - 1), "n", disabled=page >= pages - 1))
    return view


LIST_ITEMS = (ListPage,)


def jump_url(guild_id: int | None, place_id: int, message_id: int | None = None) -> str:
    """A link that opens the channel (or the message) in Discord."""
    base = f"https://discord.com/channels/{guild_id or '@me'}/{place_id}"
    return f"{base}/{message_id}" if message_id else base


def turn_words(locale: Any, info: TableInfo, user_id: int | None = None) -> str:
    """Where a game stands, for a listing: a lobby, your turn, or whom it waits for."""
    if info.row.status == "lobby":
        return i18n.t(locale, "lobby")
    if user_id is not None and info.seat_of(user_id) in info.to_act:
        return i18n.t(locale, "your turn")
    who = ", ".join(info.seats[s].name for s in info.to_act) or "-"
    return i18n.t(locale, "waiting for {who}", who=who)


async def list_lines(interaction: discord.Interaction, tables: Tables, listing: Listing) -> tuple[str, list[str]]:
    """(head, one line per game) of /game list (this server) or /mygames (the user's); no lines: none."""
    locale = interaction.locale
    if listing == "guild":
        rows = await tables.store.games_in_guild(interaction.guild_id, "lobby", "running", limit=MAX_LISTED)
        head = i18n.t(locale, "**Games on this server**")
    else:
        rows = (await tables.store.games_of_user(interaction.user.id, "lobby", "running"))[:MAX_LISTED]
        head = i18n.t(locale, "**Your games**")
    lines = []
    for row in rows:
        info = await tables.info(row.id)
        message = row.board_message_id or row.lobby_message_id
        link = f"• [#{row.id} {i18n.title(locale, info.definition)}]({jump_url(row.guild_id, row.place_id, message)})"
        if listing == "guild":
            since = row.board_posted_at or row.updated_at
            lines.append(f"{link} · {turn_words(locale, info)} · "
                         + i18n.t(locale, "since {when}", when=f"<t:{int(since)}:R>"))
            continue
        line = f"{link} · {turn_words(locale, info, interaction.user.id)}"
        mine = info.seat_of(interaction.user.id)
        deadline = info.deadlines.get(mine) if getattr(info, "deadlines", None) and mine is not None else None
        if deadline and mine in info.to_act:
            line += " · " + i18n.t(locale, "⏰ Time runs out {when}.", when=f"<t:{int(deadline)}:R>")
        lines.append(line)
    return head, lines

async def show_list(interaction: discord.Interaction, tables: Tables, listing: Listing) -> None:
    """The first page of a listing, with ◀ ▶ when it needs more than one."""
    head, lines = await list_lines(interaction, tables, listing)
    if not lines:
        empty = (N_("No running games or lobbies on this server.") if listing == "guild"
                 else N_("You have no running games or lobbies."))
        await reply(interaction, i18n.t(interaction.locale, empty))
        return
    pages = paginate(head, lines)
    text, _ = page_text(head, pages, 0)
    view = page_buttons(listing, 0, len(pages))
    await reply(interaction, text, **({"view": view} if view else {}))

async def turn_list_page(interaction: discord.Interaction, tables: Tables, listing: Listing, page: int) -> None:
    """◀ ▶ under a listing: the listing read again, the asked page shown in place of the old one."""
    if listing == "guild" and interaction.guild_id is None:
        await reply(interaction, i18n.t(interaction.locale, "No running games or lobbies on this server."))
        return
    head, lines = await list_lines(interaction, tables, listing)
    pages = paginate(head, lines)
    text, page = page_text(head, pages, page)
    view = page_buttons(listing, page, len(pages))
    if view is not None:
        i18n.localize_view(view, interaction.locale)
    await interaction.response.edit_message(content=text, view=view,
                                            allowed_mentions=discord.AllowedMentions.none())
