"""Leaderboards (/leaderboard, /season standings): pages of PAGE_SIZE players by the rating they show, ties
sharing a rank, the reader's own row always shown, with persistent ◀ ▶ and My place buttons. One view for
every ranked list: this server's, all servers', and a season's of this server (its scope `season:<id>`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Self

import discord

from bot.cogs import answering_failures, reply
from bot.i18n import t
from bot.ratings import PROVISIONAL_GAMES
from bot.store import stats
from bot.store.seasons import Season, running_season, season, season_numbered, seasons_of
from bot.ui.community import (
    KEY,
    LABELS,
    PROVISIONAL,
    Mode,
    games_word,
    mention,
    page_of,
    send_page,
    stamp,
    store_of,
    title_of,
)


@dataclass(frozen=True)
class Board:
    """Which leaderboard: `kind` server, global or season (then `season` is one of this server's)."""

    kind: str
    season: Season | None = None

    @property
    def letter(self) -> str:
        """The board in a button's custom_id: g (this server), w (all servers), s<id> (a season)."""
        return f"s{self.season.id}" if self.season is not None else "w" if self.kind == "global" else "g"

    def scope(self, guild_id: int | None) -> str:
        """The ratings scope it ranks."""
        if self.season is not None:
            return self.season.scope
        return "global" if self.kind == "global" else stats.guild_scope(guild_id)

    def head(self, locale: Any, title: str) -> str:
        if self.season is None:
            return (t(locale, "**{title}** · leaderboard of this server", title=title) if self.kind == "server"
                    else t(locale, "**{title}** · leaderboard of all servers", title=title))
        values = {"title": title, "number": self.season.number, "end": stamp(self.season.ends_at, "R")}
        if self.season.status == "running":
            return t(locale, "**{title}** · season {number} of this server · ends {end}", **values)
        return t(locale, "**{title}** · season {number} of this server · ended {end}", **values)


async def board_of(interaction: discord.Interaction, letter: str) -> Board | None:
    """A button's board (None: a season that is not this server's)."""
    if not letter.startswith("s"):
        return Board("global" if letter == "w" else "server")
    found = await season(store_of(interaction), int(letter[1:]))
    return Board("season", found) if found is not None and found.guild_id == interaction.guild_id else None


CURRENT = "current"  # the `season` option's value for the running season


async def chosen_board(interaction: discord.Interaction, scope: str, season_value: str | None) -> Board | None:
    """The board the command's options name (`season`: "current" or a season number of this server); None after
    a one-line refusal to the reader."""
    if season_value is None:
        return Board(scope)
    locale, store = interaction.locale, store_of(interaction)
    if scope == "global" or interaction.guild_id is None:
        await reply(interaction, t(locale, "A season's leaderboard is this server's: leave out scope:all servers."))
        return None
    value = season_value.strip().lower().lstrip("#")
    if value in ("", CURRENT):
        found = await running_season(store, interaction.guild_id)
        if found is None:
            await reply(interaction, t(locale, "No season is running on this server."))
            return None
    else:
        found = await season_numbered(store, interaction.guild_id, int(value)) if value.isdigit() and len(value) < 10 else None
        if found is None:
            await reply(interaction, t(locale, "There is no season {season} on this server.", season=season_value))
            return None
    return Board("season", found)


async def season_choices(interaction: discord.Interaction, typed: str) -> list[tuple[str, str]]:
    """The `season` option's suggestions as (name, value): the running season, then the latest by number."""
    locale = interaction.locale
    found = await seasons_of(store_of(interaction), interaction.guild_id) if interaction.guild_id else []
    choices = [(t(locale, "the running season"), CURRENT)] if any(s.status == "running" for s in found) else []
    choices += [(t(locale, "season {number}", number=s.number), str(s.number)) for s in found]
    typed = typed.strip().lower()
    return [(name, value) for name, value in choices if typed in name.lower() or typed in value][:25]


class BoardPage(discord.ui.DynamicItem[discord.ui.Button],
                template=rf"jn:lb:(?P<game>{KEY}):(?P<scope>[gw]|s\d{{1,18}}):(?P<page>\d{{1,6}}):(?P<mode>[en]):(?P<arrow>[pnm])"):
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
        board = await board_of(interaction, self.scope)
        if board is None:
            await reply(interaction, t(interaction.locale, "That season is not one of this server's."))
            return
        await show_board(interaction, self.game_key, board, page=None if self.arrow == "m" else self.page,
                         edit=self.mode == "e")


def _board_buttons(game_key: str, board: Board, page: int, pages: int, mode: Mode, mine: int | None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    letter = board.letter
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


async def board_text(interaction: discord.Interaction, game_key: str, board: Board, page: int | None,
                     locale: Any) -> tuple[str, int, int, int | None]:
    """(text, page shown, pages, the viewer's page or None): the page's rows, the viewer's own row under
    them when it is elsewhere, and the provisional mark explained when a row has it."""
    store, user_id = store_of(interaction), interaction.user.id
    where = board.scope(interaction.guild_id)
    title = title_of(interaction, game_key, locale) or game_key
    total = await stats.board_size(store, where, game_key)
    mine = await stats.standing_of(store, where, game_key, user_id)
    pages = max(-(-total // stats.PAGE_SIZE), 1)
    mine_page = mine.position // stats.PAGE_SIZE if mine else None
    page = page_of(mine_page if page is None and mine_page is not None else page or 0, pages)
    rows = await stats.board_page(store, where, game_key, page)
    head = board.head(locale, title)
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


async def show_board(interaction: discord.Interaction, game_key: str, board: Board, *, page: int | None = 0,
                     post: bool = False, edit: bool = False) -> None:
    """A leaderboard page: `page` None opens the reader's own page (the first when they are not on it)."""
    locale = interaction.guild_locale if post and interaction.guild_locale else interaction.locale
    if title_of(interaction, game_key, locale) is None:
        await reply(interaction, t(interaction.locale, "There is no game called {game} here.", game=game_key))
        return
    if board.kind != "global" and interaction.guild_id is None:
        await reply(interaction, t(interaction.locale, "A server's leaderboard is shown on that server."))
        return
    text, shown, pages, mine = await board_text(interaction, game_key, board, page, locale)
    view = _board_buttons(game_key, board, shown, pages, "n" if post else "e", mine)
    await send_page(interaction, text, view if view.children else None, public=post, edit=edit, locale=locale)


BOARD_ITEMS = (BoardPage,)
