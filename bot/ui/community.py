"""What the community answers share (/leaderboard, /history, a game's record; /profile): the words for numbers,
times, members and links, and how a page is sent: edited in place, posted, or answered to its reader only.

A page is read again from the store on each click (a restart loses nothing: the custom_id carries the title,
scope or member and the page). A page shown only to its reader is edited in place; a click on a posted page
answers the clicker with their own page, so one reader never turns the page for everyone. Every text a
reader sees comes from `t()`; names, numbers, dates and links are its parameters.
"""

from __future__ import annotations

from typing import Any, Literal

import discord

import locales
from bot.cogs import NO_MENTIONS, reply
from bot.i18n import lang, localize_view, t, tn
from bot.texts import clip

MAX_PAGE = 999_999  # a custom_id's page has at most 6 digits (a million pages: 10 million players, 7 million games)
Mode = Literal["e", "n"]  # e: edit the reader's own page in place; n: answer the clicker with a new page
KEY = r"[a-z][a-z0-9_]{0,31}"
PROVISIONAL = "†"  # after a rating with fewer than PROVISIONAL_GAMES rated games
# The /game subcommands and option that show any finished game of the server (the games cog's, about history).
NUMBER_HELP = "A game of this server by its number (default: this channel's)"
REPORT_HELP = "The end report of a finished game: standings, details, every move"
RECORD_HELP = "A finished game's history entry: result, rating changes, links"
LABELS = ("◀ Previous", "Next ▶", "My place", "Game record")  # the buttons of the leaderboard and history pages
# A history line is up to about 250 characters (a long title, a link of three snowflakes, the winners' names
# up to NAMES_SHOWN): 7 of them and the head stay inside Discord's 2,000 in any language we speak.
HISTORY_PAGE = 7
NAMES_SHOWN = 48
MAX_CONTENT = 2000


def store_of(interaction: discord.Interaction) -> Any:
    return interaction.client.tables.store  # type: ignore[attr-defined]


def title_of(interaction: discord.Interaction, game_key: str, locale: Any) -> str | None:
    """A hosted game's title in the reader's language (None: not a game this bot hosts)."""
    definition = interaction.client.tables.games.get(game_key)  # type: ignore[attr-defined]
    return locales.gettext(lang(locale), definition.title, definition.key) if definition is not None else None


def mention(user_id: int) -> str:
    """A member as Discord shows them (their name; the answers ping nobody)."""
    return f"<@{user_id}>"


def stamp(at: float, style: str = "d") -> str:
    """A Discord timestamp: every reader sees it in their own time zone and language."""
    return f"<t:{int(at)}:{style}>"


def games_word(locale: Any, n: int) -> str:
    return tn(locale, "{n} rated game", "{n} rated games", n=n)


def length_words(locale: Any, seconds: float) -> str:
    """How long a game took, in its largest whole unit."""
    minutes = max(int(seconds // 60), 0)
    if minutes < 60:
        return t(locale, "{n} min", n=minutes)
    if minutes < 48 * 60:
        return t(locale, "{n} h", n=minutes // 60)
    days = minutes // (24 * 60)
    return tn(locale, "{n} day", "{n} days", n=days)


def signed(change: int) -> str:
    return f"+{change}" if change > 0 else f"−{-change}" if change < 0 else "±0"


async def send_page(interaction: discord.Interaction, text: str, view: discord.ui.View | None, *, public: bool,
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


def page_of(page: int, pages: int) -> int:
    """The page shown: within the list (it may have shrunk since the button was made) and the custom_id's digits."""
    return min(max(page, 0), max(pages - 1, 0), MAX_PAGE)
