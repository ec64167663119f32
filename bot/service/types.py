"""The service's words and data: refusals, the outcome of a call, a table and a live game (everyone imports these)."""

from __future__ import annotations

from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from bot.store import ClockRow, GameRow, SeatPrefs, SeatRow, UserPrefs
from rules.engine import GameDefinition, GameState
from rules.words import N_, Items, Msg, Seat

# The game the current task is working on, set whenever the service touches one: the bot translates
# with that game's Japanese catalog, so the same English in two games never takes the other's words.
CURRENT_GAME: ContextVar[str | None] = ContextVar("junction_current_game", default=None)

NOT_YOUR_TURN = N_("It is not your turn.")
STALE_MOVE = N_("That move is no longer possible.")
NOT_SEATED = N_("You are not playing in this game.")
NOT_RUNNING = N_("This game is not running.")
NOT_LOBBY = N_("This game has already started.")
MOVE_FAILED = N_("Something went wrong on our side and your move was not played; the game is as it was. Try again.")
# The database cannot be reached (a restart, a failover, a network cut), and the work was not
# committed: the same line for every command and button.
DB_DOWN = N_("Junction can't reach its database right now; nothing was changed, try again in a minute.")
# The connection was lost during a move's COMMIT and the database could not be asked since.
MOVE_UNKNOWN = N_("Junction lost its database connection while saving your move and cannot tell yet whether it was"
                " played. Look at the game in a minute before you play again.")
# The same for any other change (a start, a seat, a setting).
SAVE_UNKNOWN = N_("Junction lost its database connection while saving this and cannot tell yet whether it was"
                " saved. Look again in a minute before you try again.")
START_FAILED = N_("Something went wrong on our side and the game did not start. Try again.")
DAMAGED = N_("Game #{id} cannot be loaded: its saved state and its move log are both damaged."
           " A server admin can end it with /admin end.")

class Refused(Exception):
    """A request the service refuses; `reason` is one line for the player: a message (a plain str is a
    message id without parameters), translated where it is answered, its seats named by `names`."""

    def __init__(self, reason: Msg | str, names: list[str] | tuple[str, ...] | None = None) -> None:
        super().__init__(str(reason))
        self.reason = reason if isinstance(reason, Msg) else Msg(reason)
        self.names = None if names is None else list(names)


class Repeated(Refused):
    """An interaction that already led to a move (a client or gateway retry): nothing to answer."""

    def __init__(self) -> None:
        super().__init__(N_("That move was already played."))


@dataclass(frozen=True)
class Outcome:
    """What one service call changed, for the adapter to turn into posts (also kept in the outbox)."""

    game_id: int
    applied: tuple[tuple[int, str], ...] = ()  # (seat, notation) in order, AI moves included
    public_lines: tuple[str, ...] = ()
    private_lines: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    to_act: tuple[int, ...] = ()
    status: str = "running"
    reminded: tuple[int, ...] = ()  # seats sent a turn reminder (clock events)
    # Seats awaited before and after these moves, never released in between: their turn goes on
    # (the next decision of the same turn; a turn panel stays open for it).
    turn_goes_on: frozenset[int] = frozenset()


@dataclass
class Table:
    """A game's row, definition and seats, with who sits where (shared by TableInfo and LiveGame)."""

    row: GameRow
    definition: GameDefinition
    seats: list[SeatRow]

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)


@dataclass
class TableInfo(Table):
    """A snapshot of one table for status lines and lobby messages."""

    to_act: tuple[int, ...] = ()
    moves: int = 0
    deadlines: dict[int, float] = field(default_factory=dict)  # seat -> turn deadline (epoch seconds)
    # A lobby's: its minimum reliability in percent, and what it is a rematch of (bot.store.lobbies'
    # Rematch and the invited players' Invites; None and () for an ordinary lobby).
    min_reliability: int | None = None
    rematch: Any = None
    invites: tuple[Any, ...] = ()


@dataclass
class LiveGame(Table):
    """A running game held in memory while in play."""

    state: GameState
    seat_moves: list[int]  # decisions made per seat: the staleness token of pickers
    # A digest of the private part each seat was last owed by DM (stored with the DM's outbox row,
    # loaded with the game: a restart does not send an unchanged hand again).
    dm_sent: dict[int, str] = field(default_factory=dict)
    clocks: dict[int, ClockRow] = field(default_factory=dict)  # as stored, or as about to be stored
    # The clocks as last written to (or read from) the store; None: unknown. A commit whose clocks
    # equal these does not write them again.
    stored_clocks: dict[int, ClockRow] | None = None
    prefs: dict[int, SeatPrefs] = field(default_factory=dict)  # as stored
    user_prefs: dict[int, UserPrefs] = field(default_factory=dict)  # quiet hours of the seated users
    version: int = -1  # the game's stored version this copy matches (-1: unknown, reload before use)
    # The words of the board post in the channel: the previous turn summed up (fixed when the post
    # is made) and this turn's lines so far (grown by each edit); stored with the moves.
    post_summary: list[str] = field(default_factory=list)
    post_lines: list[str] = field(default_factory=list)
    dm_news: dict[int, list[str]] = field(default_factory=dict)  # private news waiting for its seat's next DM


MAX_NAME = 32  # Discord's own display-name limit


def safe_name(name: str) -> str:
    """A display name as it may appear in posts: it can never mention anyone (`<@id>`, `<@&role>`,
    `@everyone` lose their power: a zero-width space follows each @), nor break a line."""
    name = "".join(ch if ch.isprintable() else " " for ch in name).strip()
    return (name.replace("@", "@\u200b")[:MAX_NAME] or "Player").strip()


@dataclass(frozen=True)
class SinceReport:
    """What happened since a seat last acted: lines in words, and public views to draw (oldest first)."""

    seat: int
    lines: tuple[str, ...]
    views: tuple[dict[str, Any], ...]
    names: tuple[str, ...]
    moves: int


def not_your_turn(live: LiveGame) -> Refused:
    """The refusal names whose decision it is ("it is Blue's decision", as the specs have it)."""
    waiting = sorted(live.state.to_act())
    if not waiting:
        return Refused(NOT_YOUR_TURN)
    return Refused(Msg("It is not your turn. Waiting for {who}.", who=Items([Seat(s) for s in waiting], "comma")),
                   live.names)
