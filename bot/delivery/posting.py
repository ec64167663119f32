"""What every Discord post of a game shares: pings, nonces, the board post's layout, post languages."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord

from bot import i18n
from bot.store import OutboxRow
from bot.tables import TableInfo
from bot.ui.components import board_layout
from bot.words import Stored, from_json
from render.kit import seat_colour
from rules.words import Msg

if TYPE_CHECKING:
    from bot.app import JunctionBot

NO_MENTIONS = discord.AllowedMentions.none()
# Lines of one earlier-moves post when a backlog does not fit the board post (room left for the
# header and for a translation that runs longer than the English).
BACKLOG_CHUNK = 1700


def mentioning(*user_ids: int | None) -> discord.AllowedMentions:
    """Pings for exactly these users: a name like `<@id>` or `@everyone` in a post pings nobody."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(u) for u in dict.fromkeys(user_ids) if u is not None])


def split_backlog(lines: list[str], budget: int, last_budget: int) -> list[list[str]]:
    """Lines in order, grouped into posts: the last group (the board post) within `last_budget`
    characters, each earlier one within `budget`. Nothing is dropped: a line longer than a post is
    cut into pieces. Always at least one group (maybe empty)."""
    def size(group: list[str]) -> int:
        return sum(len(line) + 3 for line in group)  # "• " and the newline

    pieces = [line[i:i + budget - 3] for line in lines for i in range(0, max(len(line), 1), budget - 3)]
    last: list[str] = []
    while pieces and size([pieces[-1], *last]) <= last_budget:
        last.insert(0, pieces.pop())
    groups: list[list[str]] = []
    for piece in pieces:
        if groups and size([*groups[-1], piece]) <= budget:
            groups[-1].append(piece)
        else:
            groups.append([piece])
    return [*groups, last]


def said_first(row: OutboxRow, before: list[str]) -> list[str]:
    """The lines of an owed board row that follow `before` (what the posts before it said): its
    `fresh` last lines (the rest sums up the turn before it); rows that only add their own lines
    (the deal, a cancel) say all of theirs; rows owed before `fresh` existed, what does not repeat
    the end of `before`."""
    lines = list(row.payload.get("lines", []))
    if "fresh" in row.payload:
        return lines[len(lines) - row.payload["fresh"]:] if row.payload["fresh"] else []
    if not row.payload.get("edit") and "ping" not in row.payload:
        return lines
    overlap = max((k for k in range(min(len(lines), len(before)) + 1) if before[len(before) - k:] == lines[:k]),
                  default=0)
    return lines[overlap:]


RECAP = "(recap) {line}"  # the id of a line a post shows again (see recap)


def recap(line: Stored) -> Stored:
    """A line an earlier post of the game already showed, marked in the post that shows it again (a
    new post's recap of the turn its edits showed, a round end's post): each event line is said in
    exactly one post, and said again only marked as a recap (issue 29)."""
    if isinstance(line, dict) and line.get("id") == RECAP:
        return line
    return Msg("(recap) {line}", line=from_json(line)).to_json()


def unmarked(line: Stored) -> Stored:
    """A line as it was owed, without its recap mark."""
    if isinstance(line, dict) and line.get("id") == RECAP:
        value = line["p"]["line"]
        return value["msg"] if isinstance(value, dict) else value
    return line


def recap_marked(lines: list[Stored], fresh: int | None, shown: dict[str, Any] | None) -> list[Stored]:
    """A new post's lines (an owed row's: the turn before it summed up, then its `fresh` last lines),
    those the live post already shows marked as a recap: the leading lines of the summary that
    the live post's decisions of its turn added (`shown`: its board_words; `own`, how many of its
    lines come before them: a post that collapsed a backlog may show some of them already).
    What no post showed yet (edits a crash or a backlog skipped) stays unmarked."""
    if fresh is None or not shown or not shown.get("lines"):
        return lines
    summary = lines[:len(lines) - fresh]
    seen = [unmarked(line) for line in shown["lines"]]
    added = seen[shown["own"]:] if "own" in shown else seen
    count = max(k for k in range(min(len(summary), len(added)) + 1) if added[len(added) - k:] == summary[:k])
    return [*(recap(line) for line in lines[:count]), *lines[count:]]


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, digit = divmod(number, 36)
        out = digits[digit] + out
        if not number:
            return out


def post_nonce(kind: str, batch: int, info: TableInfo) -> str:
    """The nonce stem of an outbox batch: stable across restarts, and salted with the game's creation
    time so a fresh database (whose row ids start again at 1) never reuses a recent nonce. Parts add
    at most 5 characters; Discord allows 25."""
    salt = int(info.row.created_at * 1000) % 36**6
    return f"j{kind}{_base36(batch)}.{_base36(salt)}"



def accent_colour(info: TableInfo) -> int | None:
    """The board post's accent: the colour of the one seat to act (the winner's once the game is
    over), as its pieces have on the board; none while several seats choose at once."""
    if info.row.status == "over" and info.row.result and info.row.result.get("seats"):
        standings = info.row.result["seats"]
        first = min(line.get("rank", 1) for line in standings)
        seats = [line["seat"] for line in standings if line.get("rank", 1) == first]  # a shared win: no colour
    else:
        seats = list(info.to_act) if info.row.status == "running" else []
    if len(seats) != 1:
        return None
    red, green, blue = seat_colour(seats[0])
    return red << 16 | green << 8 | blue


def board_post(info: TableInfo, locale: Any, story: str, turn: str,
               files: list[discord.File] | list[discord.Attachment]) -> discord.ui.LayoutView:
    """The board post's layout around these (already localized) texts; images among `files` (new
    uploads, or the post's attachments when it keeps them) are shown in its gallery with their alt
    text, other files (the end-of-game log) as downloads."""
    images = [(f.filename, f.description or "") for f in files if f.filename.endswith(".png")]
    others = [f.filename for f in files if not f.filename.endswith(".png")]
    return i18n.localize_view(board_layout(info.row.id, info.row.status != "running", story=story, turn=turn,
                                           accent=accent_colour(info), images=images, files=others,
                                           rematch=info.row.status == "over",
                                           buttons=info.row.board_message_id is not None or info.moves > 0
                                           or info.row.status != "cancelled"), locale)


def image_file(data: bytes, name: str, description: str | None = None) -> discord.File:
    """An image attachment; `description` is its alt text for screen readers."""
    return discord.File(io.BytesIO(data), filename=name, description=description)



def stamp(at: float, style: str = "R") -> str:
    """A Discord timestamp: every reader sees it in their own time zone (R: "in 3 hours")."""
    return f"<t:{int(at)}:{style}>"


class Places:
    """The language of a server's public posts: the one an admin chose (`languages`, kept in memory
    because every board post asks; filled and updated by the admin cog), else the server's Discord
    locale."""

    def __init__(self, bot: JunctionBot) -> None:
        self.bot = bot
        self.languages: dict[int, str] = {}

    def post_language(self, guild_id: int | None) -> str | None:
        return self.languages.get(guild_id) if guild_id else None

    def locale(self, guild_id: int | None) -> Any:
        chosen = self.post_language(guild_id)
        if chosen:
            return chosen
        guild = self.bot.get_guild(guild_id) if guild_id else None
        return guild.preferred_locale if guild is not None else None
