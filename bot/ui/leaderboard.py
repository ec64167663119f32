"""Leaderboards (/leaderboard): pages of PAGE_SIZE players by the rating they show, ties sharing a rank, the
reader's own row always shown, with persistent ◀ ▶ and My place buttons."""

from __future__ import annotations

from typing import Any, Self

import discord

from bot.cogs import answering_failures, reply
from bot.i18n import t
from bot.ratings import PROVISIONAL_GAMES
from bot.store import stats
from bot.ui.community import (
    KEY,
    LABELS,
    PROVISIONAL,
    Mode,
    games_word,
    mention,
    page_of,
    send_page,
    store_of,
    title_of,
)


class BoardPage(discord.ui.DynamicItem[discord.ui.Button],
                template=rf"jn:lb:(?P<game>{KEY}):(?P<scope>[gw]):(?P<page>\d{{1,6}}):(?P<mode>[en]):(?P<arrow>[pnm])"):
    """Turns a leaderboard's page (p, n), or opens the clicker's own page (m)."""

    LABELS = dict(zip("pnm", LABELS, strict=False))

    def __init__(self, game_key: str, scope: str, page: int, mode: Mode, arrow: str, *, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(
            label=self.LABELS[arrow], style=discord.ButtonStyle.secondary, disabled=disabled,
            custom_id=f"jn:lb:{game_key}:{scope}:{page}:{mode}:{arrow}"))
        self.game_key, self.scope, self.page, self.mode, self.arrow = game_key, scope, page, mode, arrow

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any) -> Self:
        return cls(match["game"], match["scope"], int(match["page"]), match["mode"], match["arrow"])

    @answering_failures
    async def callback(self, interaction: discord.Interaction) -> None:
        await show_board(interaction, self.game_key, "global" if self.scope == "w" else "server",
                         page=None if self.arrow == "m" else self.page, edit=self.mode == "e")


def _board_buttons(game_key: str, scope: str, page: int, pages: int, mode: Mode, mine: int | None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    letter = "w" if scope == "global" else "g"
    if pages > 1:
        view.add_item(BoardPage(game_key, letter, max(page - 1, 0), mode, "p", disabled=page == 0))
        view.add_item(BoardPage(game_key, letter, min(page + 1, pages - 1), mode, "n", disabled=page >= pages - 1))
    if mode == "n" or (mine is not None and mine != page):
        view.add_item(BoardPage(game_key, letter, 0, mode, "m"))
    return view


def board_row(locale: Any, standing: stats.Standing, tied: bool, *, you: bool = False) -> str:
    """One leaderboard row: rank (= when shared), the player, the rating (* provisional), rated games."""
    rank = f"={standing.rank}" if tied else str(standing.rank)
    rating = f"**{standing.display}**" + (PROVISIONAL if standing.provisional else "")
    text = t(locale, "{rank}. {player} · {rating} · {games}", rank=rank, player=mention(standing.user_id),
             rating=rating, games=games_word(locale, standing.games))
    return f"**→** {text}" if you else text


async def board_text(interaction: discord.Interaction, game_key: str, scope: str, page: int | None,
                     locale: Any) -> tuple[str, int, int, int | None]:
    """(text, page shown, pages, the viewer's page or None): the page's rows, the viewer's own row under
    them when it is elsewhere, and the provisional mark explained when a row has it."""
    store, user_id = store_of(interaction), interaction.user.id
    where = stats.guild_scope(interaction.guild_id) if scope == "server" else "global"
    title = title_of(interaction, game_key, locale) or game_key
    total = await stats.board_size(store, where, game_key)
    mine = await stats.standing_of(store, where, game_key, user_id)
    pages = max(-(-total // stats.PAGE_SIZE), 1)
    mine_page = mine.position // stats.PAGE_SIZE if mine else None
    page = page_of(mine_page if page is None and mine_page is not None else page or 0, pages)
    rows = await stats.board_page(store, where, game_key, page)
    head = (t(locale, "**{title}** · leaderboard of this server", title=title) if scope == "server"
            else t(locale, "**{title}** · leaderboard of all servers", title=title))
    counts = t(locale, "{n} players with at least {min} rated games", n=total, min=stats.MIN_RATED_GAMES)
    lines = [head, t(locale, "Page {page} of {pages} · {counts}", page=page + 1, pages=pages, counts=counts)]
    if not rows:
        lines.append(t(locale, "Nobody has {min} rated games of this title here yet.", min=stats.MIN_RATED_GAMES))
    for row in rows:
        lines.append(board_row(locale, row, row.tied, you=row.user_id == user_id))
    if mine is not None and mine_page != page:
        lines += ["…", t(locale, "Your place:") + " " + board_row(locale, mine, mine.tied, you=True)]
    elif mine is None:
        rating = await stats.rated_games(store, where, game_key, user_id)
        lines.append(t(locale, "You are not on this leaderboard yet: you have {have} of the {min} rated games it needs.",
                       have=rating, min=stats.MIN_RATED_GAMES))
    if any(r.provisional for r in [*rows, *([mine] if mine else [])]):
        lines.append(t(locale, "{mark} provisional: fewer than {n} rated games", mark=PROVISIONAL, n=PROVISIONAL_GAMES))
    return "\n".join(lines), page, pages, mine_page


async def show_board(interaction: discord.Interaction, game_key: str, scope: str, *, page: int | None = 0,
                     post: bool = False, edit: bool = False) -> None:
    """A leaderboard page: `page` None opens the reader's own page (the first when they are not on it)."""
    locale = interaction.guild_locale if post and interaction.guild_locale else interaction.locale
    if title_of(interaction, game_key, locale) is None:
        await reply(interaction, t(interaction.locale, "There is no game called {game} here.", game=game_key))
        return
    if scope == "server" and interaction.guild_id is None:
        await reply(interaction, t(interaction.locale, "A server's leaderboard is shown on that server."))
        return
    text, shown, pages, mine = await board_text(interaction, game_key, scope, page, locale)
    view = _board_buttons(game_key, scope, shown, pages, "n" if post else "e", mine)
    await send_page(interaction, text, view if view.children else None, public=post, edit=edit, locale=locale)


BOARD_ITEMS = (BoardPage,)
