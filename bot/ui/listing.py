"""Long listings (/game list, /mygames) in pages of whole lines, with persistent ◀ ▶ buttons."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Self

import discord

from bot.cogs import answering_failures

if TYPE_CHECKING:
    from bot.cogs.admin import AdminCog

LIMIT = 1900  # room under Discord's 2,000 characters for the page counter and a longer translation
MAX_PAGE = 999  # the custom_id's page has at most 3 digits
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
            label="◀ Previous" if arrow == "p" else "Next ▶", style=discord.ButtonStyle.secondary,
            custom_id=f"jn:list:{listing}:{page}:{arrow}", disabled=disabled))
        self.listing: Listing = listing
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: Any) -> Self:
        return cls(match["listing"], int(match["page"]), match["arrow"])

    @answering_failures
    async def callback(self, interaction: discord.Interaction) -> None:
        admin: AdminCog = interaction.client.get_cog("AdminCog")  # type: ignore[assignment]
        await admin.turn_list_page(interaction, self.listing, self.page)


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
