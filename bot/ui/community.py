"""Leaderboards and histories in pages of at most PAGE_SIZE rows, with persistent ◀ ▶ buttons, and a finished
game's history entry (the Game record button of its final post, /game record).

Each page is read again from the store on each click (a restart loses nothing: the custom_id carries the
title, scope or member and the page). A page shown only to its reader is edited in place; a click on a
posted page answers the clicker with their own page, so one reader never turns the page for everyone.
Every text a reader sees comes from `t()`; names, numbers, dates and links are its parameters.
"""

from __future__ import annotations

from typing import Any, Literal, Self

import discord

from bot.cogs import NO_MENTIONS, answering_failures, reply
from bot.i18n import localize, localize_view, t
from bot.ratings import PROVISIONAL_GAMES
from bot.store import stats
from bot.texts import clip
from bot.ui.base import GameButton, refused
from bot.ui.listing import jump_url

MAX_PAGE = 999_999  # a custom_id's page has at most 6 digits (a million pages: 10 million players, 7 million games)
Mode = Literal["e", "n"]  # e: edit the reader's own page in place; n: answer the clicker with a new page
KEY = r"[a-z][a-z0-9_]{0,31}"
PROVISIONAL = "†"  # after a rating with fewer than PROVISIONAL_GAMES rated games
# The /game subcommands and option that show any finished game of the server (the games cog's, about history).
NUMBER_HELP = "A game of this server by its number (default: this channel's)"
REPORT_HELP = "The end report of a finished game: standings, details, every move"
RECORD_HELP = "A finished game's history entry: result, rating changes, links"
LABELS = ("◀ Previous", "Next ▶", "My place", "Game record")  # the buttons of this module
# A history line is up to about 250 characters (a long title, a link of three snowflakes, the winners' names
# up to NAMES_SHOWN): 7 of them and the head stay inside Discord's 2,000 in any language we speak.
HISTORY_PAGE = 7
NAMES_SHOWN = 48
MAX_CONTENT = 2000


def _store(interaction: discord.Interaction) -> Any:
    return interaction.client.tables.store  # type: ignore[attr-defined]


def _title(interaction: discord.Interaction, game_key: str, locale: Any) -> str | None:
    """A hosted game's title in the reader's language (None: not a game this bot hosts)."""
    definition = interaction.client.tables.games.get(game_key)  # type: ignore[attr-defined]
    return localize(locale, definition.title) if definition is not None else None


def mention(user_id: int) -> str:
    """A member as Discord shows them (their name; the answers ping nobody)."""
    return f"<@{user_id}>"


def stamp(at: float, style: str = "d") -> str:
    """A Discord timestamp: every reader sees it in their own time zone and language."""
    return f"<t:{int(at)}:{style}>"


def games_word(locale: Any, n: int) -> str:
    return t(locale, "{n} rated game", n=n) if n == 1 else t(locale, "{n} rated games", n=n)


def length_words(locale: Any, seconds: float) -> str:
    """How long a game took, in its largest whole unit."""
    minutes = max(int(seconds // 60), 0)
    if minutes < 60:
        return t(locale, "{n} min", n=minutes)
    if minutes < 48 * 60:
        return t(locale, "{n} h", n=minutes // 60)
    days = minutes // (24 * 60)
    return t(locale, "{n} day", n=days) if days == 1 else t(locale, "{n} days", n=days)


def signed(change: int) -> str:
    return f"+{change}" if change > 0 else f"−{-change}" if change < 0 else "±0"


async def _send(interaction: discord.Interaction, text: str, view: discord.ui.View | None, *, public: bool,
                edit: bool, locale: Any) -> None:
    """A page: edited in place (`edit`), posted in the channel (`public`), or an answer only the reader sees."""
    if view is not None:
        localize_view(view, locale)
    text = clip(text, MAX_CONTENT)  # a safety net: each page is sized to fit
    extra = {"view": view} if view is not None else {}
    if edit:
        await interaction.response.edit_message(content=text, view=view, allowed_mentions=NO_MENTIONS)
    elif public:
        await interaction.response.send_message(text, allowed_mentions=NO_MENTIONS, **extra)
    else:
        await reply(interaction, text, **extra)


def _page_of(page: int, pages: int) -> int:
    """The page shown: within the list (it may have shrunk since the button was made) and the custom_id's digits."""
    return min(max(page, 0), max(pages - 1, 0), MAX_PAGE)


# ---------------------------------------------------------------------------------------- leaderboards


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
    store, user_id = _store(interaction), interaction.user.id
    where = stats.guild_scope(interaction.guild_id) if scope == "server" else "global"
    title = _title(interaction, game_key, locale) or game_key
    total = await stats.board_size(store, where, game_key)
    mine = await stats.standing_of(store, where, game_key, user_id)
    pages = max(-(-total // stats.PAGE_SIZE), 1)
    mine_page = mine.position // stats.PAGE_SIZE if mine else None
    page = _page_of(mine_page if page is None and mine_page is not None else page or 0, pages)
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
        rating = await _rated_games(store, where, game_key, user_id)
        lines.append(t(locale, "You are not on this leaderboard yet: you have {have} of the {min} rated games it needs.",
                       have=rating, min=stats.MIN_RATED_GAMES))
    if any(r.provisional for r in [*rows, *([mine] if mine else [])]):
        lines.append(t(locale, "{mark} provisional: fewer than {n} rated games", mark=PROVISIONAL, n=PROVISIONAL_GAMES))
    return "\n".join(lines), page, pages, mine_page


async def _rated_games(store: Any, scope: str, game_key: str, user_id: int) -> int:
    rows = await store.db.fetch("SELECT games FROM ratings WHERE scope = ? AND game_key = ? AND user_id = ?",
                                (scope, game_key, user_id))
    return rows[0][0] if rows else 0


async def show_board(interaction: discord.Interaction, game_key: str, scope: str, *, page: int | None = 0,
                     post: bool = False, edit: bool = False) -> None:
    """A leaderboard page: `page` None opens the reader's own page (the first when they are not on it)."""
    locale = interaction.guild_locale if post and interaction.guild_locale else interaction.locale
    if _title(interaction, game_key, locale) is None:
        await reply(interaction, t(interaction.locale, "There is no game called {game} here.", game=game_key))
        return
    if scope == "server" and interaction.guild_id is None:
        await reply(interaction, t(interaction.locale, "A server's leaderboard is shown on that server."))
        return
    text, shown, pages, mine = await board_text(interaction, game_key, scope, page, locale)
    view = _board_buttons(game_key, scope, shown, pages, "n" if post else "e", mine)
    await _send(interaction, text, view if view.children else None, public=post, edit=edit, locale=locale)


# ---------------------------------------------------------------------------------------- histories


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
    title = _title(interaction, entry.game_key, locale) or entry.game_key
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
    if game_key is not None and _title(interaction, game_key, locale) is None:
        await reply(interaction, t(interaction.locale, "There is no game called {game} here.", game=game_key))
        return
    store = _store(interaction)
    total = await stats.history_size(store, interaction.guild_id, member, game_key)
    pages = max(-(-total // HISTORY_PAGE), 1)
    page = _page_of(page, pages)
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
    await _send(interaction, "\n".join(lines), view if view.children else None, public=post, edit=edit, locale=locale)


# ---------------------------------------------------------------------------------------- one game's record


async def record_text(interaction: discord.Interaction, game_id: int, locale: Any) -> str | None:
    """A finished game's history entry: title, number, end, length, each seat's place and score with the
    rating change on this server, the link to its final post, and the commands that show more of it."""
    store = _store(interaction)
    scope = stats.guild_scope(interaction.guild_id)
    found = await stats.entries(store, [game_id], scope)
    if not found:
        return None
    entry = found[0]
    title = _title(interaction, entry.game_key, locale) or entry.game_key
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
    row = await _store(interaction).game(game_id)
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


COMMUNITY_ITEMS = (BoardPage, HistoryPage, RecordButton)
