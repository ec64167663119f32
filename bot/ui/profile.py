"""/profile's answer: a member's reliability, figures per title on this server, recent results, a head-to-head, and
the rating-history chart (render/chart.py) with alt text that says the trend in words."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import discord

import locales
from bot.i18n import lang, t
from bot.store import stats
from bot.store.reliability import Reliability
from bot.ui.community import PROVISIONAL, length_words, mention, signed, stamp
from bot.ui.listing import jump_url
from render.chart import MAX_SERIES, Series, rating_chart

MAX_ALT = 1024  # Discord's limit on an attachment's description
MAX_CONTENT = 2000  # Discord's limit on a message's text


def turn_words(locale: Any, seconds: float) -> str:
    """An average time per turn: seconds under a minute, else as a game's length."""
    return t(locale, "{n} s", n=int(seconds)) if seconds < 60 else length_words(locale, seconds)


def _share(won: int, finished: int) -> str:
    return f"{round(100 * won / finished)}%" if finished else "–"


def title_lines(locale: Any, title: str, figures: stats.TitleStats) -> list[str]:
    """A title's two lines: the rating with the rank here (and across servers), then the counts."""
    rating = figures.rating
    if rating is None:
        head = t(locale, "**{title}** · not rated here yet", title=title)
    else:
        shown = f"{rating.display}{PROVISIONAL}" if rating.provisional else str(rating.display)
        if figures.rank is not None:
            head = t(locale, "**{title}** · rating **{rating}** · rank {rank} of {players} here",
                     title=title, rating=shown, rank=figures.rank, players=figures.players)
        else:
            head = t(locale, "**{title}** · rating **{rating}** · not ranked yet ({have} of {min} rated games)",
                     title=title, rating=shown, have=rating.games, min=stats.MIN_RATED_GAMES)
    if figures.global_rating is not None:
        head += " · " + t(locale, "{rating} across servers", rating=figures.global_rating.display)
    counts = t(locale, "{played} played · {finished} finished · {won} won ({share})", played=figures.played,
               finished=figures.finished, won=figures.won, share=_share(figures.won, figures.finished))
    if figures.turn_seconds is not None:
        counts += " · " + t(locale, "{time} a turn", time=turn_words(locale, figures.turn_seconds))
    counts += " · " + (t(locale, "{n} timeout", n=figures.timeouts) if figures.timeouts == 1
                       else t(locale, "{n} timeouts", n=figures.timeouts))
    return [head, counts]


def recent_line(locale: Any, title: str, game: stats.Played, change: int | None) -> str:
    link = f"[#{game.game_id} {title}]({jump_url(game.guild_id, game.place_id, game.message_id)})"
    if game.finished and game.rank is not None:
        result = t(locale, "place {rank} of {seats}", rank=game.rank, seats=game.seats)
    else:
        result = t(locale, "left before the end")
    line = f"• {link} · {stamp(game.ended_at)} · {result}"
    return line + (" · " + t(locale, "rating {change}", change=signed(change)) if change is not None else "")


def h2h_line(locale: Any, other: int, record: stats.HeadToHead) -> str:
    if not record.games:
        return t(locale, "Head-to-head against {member}: no finished game together here yet.", member=mention(other))
    return t(locale, "Head-to-head against {member}: {games} games · {wins} won · {losses} lost · {ties} tied",
             member=mention(other), games=record.games, wins=record.wins, losses=record.losses, ties=record.ties)


def trend_words(locale: Any, title: str, points: list[tuple[float, int]]) -> str:
    """One title's line of the chart in words: where it started and ended, over how many games, its best."""
    start, end, games, best = points[0][1], points[-1][1], len(points) - 1, max(v for _, v in points)
    if end > start:
        return t(locale, "{title}: rose from {start} to {end} over {n} rated games (highest {best}).",
                 title=title, start=start, end=end, n=games, best=best)
    if end < start:
        return t(locale, "{title}: fell from {start} to {end} over {n} rated games (highest {best}).",
                 title=title, start=start, end=end, n=games, best=best)
    return t(locale, "{title}: {end} after {n} rated games, where it started (highest {best}).",
             title=title, end=end, n=games, best=best)


def reliability_line(locale: Any, record: Reliability) -> str:
    """Games finished against games left to the AI, and timeouts, over every server (what a lobby's minimum checks)."""
    timeouts = (t(locale, "{n} timeout", n=record.timeouts) if record.timeouts == 1
                else t(locale, "{n} timeouts", n=record.timeouts))
    return t(locale, "Reliability **{percent}%** on all servers: {finished} finished · {abandoned} left to the AI · {timeouts}",
             percent=record.percent, finished=record.finished, abandoned=record.abandoned, timeouts=timeouts)


def profile_text(locale: Any, member_id: int, figures: stats.Profile, title: Callable[[str], str],
                 versus_line: str | None) -> str:
    """The profile in one message: the head, each title's two lines, the recent results, the head-to-head.
    When it would pass Discord's 2,000 characters (six long titles, five results with long links, a longer
    language), the oldest results go first; the rest always fits."""
    lines = [t(locale, "**Profile of {member}** on this server", member=mention(member_id)),
             reliability_line(locale, figures.reliability)]
    if not figures.titles:
        lines.append(t(locale, "No games played here yet."))
    else:
        if figures.favourite is not None and len(figures.titles) > 1:
            lines.append(t(locale, "Favourite game: {title}", title=title(figures.favourite)))
        for one in figures.titles:
            lines += title_lines(locale, title(one.game_key), one)
    recent = [recent_line(locale, title(g.game_key), g, figures.changes.get(g.game_id)) for g in figures.recent]
    tail = [versus_line] if versus_line else []
    while True:
        shown = [*lines, *([t(locale, "**Recent results**"), *recent] if recent else []), *tail]
        text = "\n".join(shown)
        if len(text) <= MAX_CONTENT or not recent:
            return text[:MAX_CONTENT]
        recent.pop()


async def profile_answer(interaction: discord.Interaction, member: discord.abc.User, game_key: str | None,
                         versus: discord.abc.User | None, locale: Any) -> tuple[str, list[discord.File]]:
    """The profile's text and its chart (no chart when no title has a rated game here)."""
    tables = interaction.client.tables  # type: ignore[attr-defined]
    store = tables.store
    figures = await stats.profile(store, member.id, interaction.guild_id, game_key)

    def title(key: str) -> str:
        definition = tables.games.get(key)
        return locales.gettext(lang(locale), definition.title, definition.key) if definition is not None else key

    versus_line = None
    if versus is not None and versus.id != member.id:
        versus_line = h2h_line(locale, versus.id, await stats.head_to_head(store, member.id, versus.id,
                                                                            interaction.guild_id, game_key))
    text = profile_text(locale, member.id, figures, title, versus_line)
    scope = stats.guild_scope(interaction.guild_id)
    series = []
    for one in figures.titles[:MAX_SERIES]:
        points = await stats.rating_history(store, member.id, scope, one.game_key)
        if len(points) > 1:
            series.append(Series(title(one.game_key), points))
    files: list[discord.File] = []
    if series:
        heading = t(locale, "Rating history on this server")
        png = await interaction.client.renderer.call(rating_chart, series, heading)  # type: ignore[attr-defined]
        alt = " ".join([heading + ":", *(trend_words(locale, s.title, list(s.points)) for s in series)])
        files.append(discord.File(io.BytesIO(png), filename="rating-history.png", description=alt[:MAX_ALT]))
    return text, files
