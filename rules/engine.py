"""The engine contract shared by every game: definitions, options, moves, events, state, AI."""

from __future__ import annotations

import hashlib
import json
import random
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from rules.words import Msg, Term, as_msg

# --------------------------------------------------------------------------- errors


class IllegalMove(Exception):
    """A move the rules refuse. `reason` is one line a player can read: a message (rules.words.Msg), or
    English with seat names as {sN} from before messages. `str()` of the exception is the English line."""

    def __init__(self, reason: str | Msg) -> None:
        if not isinstance(reason, Msg):
            reason = " ".join(reason.splitlines())  # one line, whatever a quoted input carried
        super().__init__(" ".join(str(reason).splitlines()))
        self.reason = reason


# --------------------------------------------------------------------------- reading move text

# The longest move text any game reads. Real notations stay far below it (the longest, a Ticket to Ride
# yard of a hoarded hand, is about 200 characters); refusing longer text first keeps every reader's
# work bounded whatever a player pastes.
MAX_MOVE_TEXT = 1000
TOO_LONG = Msg("That move is too long.")

# A number in move text: ASCII digits only (str.isdigit also accepts '²' and other digits int() refuses)
# and at most 6 of them, so no reader ever builds a huge int or repeats something a billion times.
_NUMBER = re.compile(r"[0-9]{1,6}")


def check_move_text(text: str) -> str:
    """The text itself if a reader may look at it; IllegalMove for text longer than any move."""
    if len(text) > MAX_MOVE_TEXT:
        raise IllegalMove(TOO_LONG)
    return text


def quote(text: str, limit: int = 40) -> str:
    """Typed text as a refusal may echo it: one line, spaces collapsed, at most `limit` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def read_number(word: str) -> int | None:
    """The value of a word of 1 to 6 ASCII digits, else None (never an exception)."""
    return int(word) if _NUMBER.fullmatch(word) else None


# --------------------------------------------------------------------------- seat names

_SEAT_TOKEN = re.compile(r"\{s(\d+)\}")


def seat_token(seat: int) -> str:
    """How engine texts name a seat; the bot swaps in the player's name with `name_seats`."""
    return f"{{s{seat}}}"


def name_seats(text: str | Msg, names: list[str] | tuple[str, ...] | None = None) -> str:
    """Replace every {sN} in an engine text (a message: its English) by the seat's name (default "Seat N+1")."""
    text = str(text)

    def one(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        if names is not None and seat < len(names):
            return names[seat]
        return f"Seat {seat + 1}"

    return _SEAT_TOKEN.sub(one, text)


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class Option:
    """A typed table option. kind is "bool", "choice" or "int"."""

    key: str
    kind: str
    default: Any
    description: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("bool", "choice", "int"):
            raise ValueError(f"bad option kind {self.kind!r}")
        self.validate(self.default)

    def validate(self, value: Any) -> Any:
        """Return the value in its canonical type, or raise ValueError with a readable reason (a message)."""
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("on", "true", "yes", "1", "off", "false", "no", "0"):
                return value.lower() in ("on", "true", "yes", "1")
            raise ValueError(Msg("{key} must be on or off", key=self.key))
        if self.kind == "choice":
            text = str(value).lower()
            if text not in self.choices:
                raise ValueError(Msg("{key} must be one of: {choices}", key=self.key, choices=", ".join(self.choices)))
            return text
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise ValueError(Msg("{key} must be a whole number", key=self.key)) from None
        if isinstance(value, bool) or (isinstance(value, float) and value != number):
            raise ValueError(Msg("{key} must be a whole number", key=self.key))
        if (self.minimum is not None and number < self.minimum) or (
            self.maximum is not None and number > self.maximum
        ):
            raise ValueError(Msg("{key} must be between {minimum} and {maximum}", key=self.key, minimum=self.minimum,
                                 maximum=self.maximum))
        return number


# --------------------------------------------------------------------------- moves and events


class Move:
    """Base for a game's moves. str(move) is the canonical notation; equal notation means equal move.

    Games subclass it (usually as frozen dataclasses) and give `__str__`.
    """

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))

    def __lt__(self, other: Move) -> bool:
        return str(self) < str(other)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {str(self)!r}>"


@dataclass(frozen=True)
class Event:
    """One line of what happened. seats=None: everyone sees it; otherwise only those seats.

    `text` is a message (rules.words.Msg; `str()` gives the English with {sN} seat tokens), or English text
    from before messages. `msg` is always a message."""

    text: Msg | str
    seats: frozenset[int] | None = None

    @property
    def msg(self) -> Msg:
        return as_msg(self.text)

    def visible_to(self, seat: int | None) -> bool:
        return self.seats is None or (seat is not None and seat in self.seats)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"text": str(self.text), "seats": None if self.seats is None else sorted(self.seats)}
        if isinstance(self.text, Msg):
            data["msg"] = self.text.to_json()
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        seats = data.get("seats")
        text = Msg.from_json(data["msg"]) if "msg" in data else data["text"]
        return cls(text, None if seats is None else frozenset(seats))


def public(text: str | Msg) -> Event:
    return Event(text)


def private(seat: int, text: str | Msg) -> Event:
    return Event(text, frozenset((seat,)))


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class SeatResult:
    """One seat's final line: score, its breakdown (category -> points, summing to score), rank."""

    seat: int
    score: int
    breakdown: dict[str, int]
    rank: int
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "score": self.score,
            "breakdown": dict(self.breakdown),
            "rank": self.rank,
            "details": self.details,
        }


@dataclass(frozen=True)
class Result:
    """Final standings, ordered by rank (ties share a rank: 1, 1, 3)."""

    seats: tuple[SeatResult, ...]
    ended_by: str = ""
    # The player's words for each breakdown category, detail key and `ended_by` (the keys stay stable for
    # code, renderers and stored games): a message id (an `N_` label) or a message with parameters ("round
    # {round}", "After round {round}: ..."). A key without a label is its own message id.
    labels: Mapping[str, str | Msg] = field(default_factory=dict)
    # False when the details were public all along (the bot then does not call them "revealed").
    details_secret: bool = True

    def to_json(self) -> dict[str, Any]:
        """JSON: `labels` in English (what older readers show); `label_msgs` the labels that are messages with
        parameters, as message JSON (bot.words.result_label reads them)."""
        data = {"seats": [s.to_json() for s in self.seats], "ended_by": self.ended_by,
                "labels": {key: str(value) for key, value in self.labels.items()},
                "details_secret": self.details_secret}
        msgs = {key: value.to_json() for key, value in self.labels.items() if isinstance(value, Msg)}
        if msgs:
            data["label_msgs"] = msgs
        return data

    def score_of(self, seat: int) -> int:
        return next(s.score for s in self.seats if s.seat == seat)

    def rank_of(self, seat: int) -> int:
        return next(s.rank for s in self.seats if s.seat == seat)


def rank_by(keys: Mapping[int, tuple]) -> dict[int, int]:
    """Competition ranking (1, 1, 3) from sort keys where larger is better."""
    order = sorted(keys, key=lambda s: keys[s], reverse=True)
    ranks: dict[int, int] = {}
    for position, seat in enumerate(order):
        if position and keys[seat] == keys[order[position - 1]]:
            ranks[seat] = ranks[order[position - 1]]
        else:
            ranks[seat] = position + 1
    return ranks


# --------------------------------------------------------------------------- RNG


def rng_to_json(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_json(data: list[Any]) -> random.Random:
    rng = random.Random()
    rng.setstate((data[0], tuple(data[1]), data[2]))
    return rng


def derived_seed(*parts: object) -> int:
    """A stable 64-bit seed from any parts (Python's hash() is salted per process; this is not)."""
    digest = hashlib.sha256(json.dumps([str(p) for p in parts]).encode()).digest()
    return int.from_bytes(digest[:8], "big")


# --------------------------------------------------------------------------- state


class GameState(ABC):
    """One game in progress. Pure: no I/O, no clock; all chance from the RNG it carries.

    Every subclass keeps `key`, `num_seats`, `options`, `seed` and `moves_applied` (the number of
    decisions applied with `apply`, forced moves not counted) and implements the abstract methods.
    """

    key: ClassVar[str]
    num_seats: int
    options: dict[str, Any]
    seed: int
    moves_applied: int
    rng: random.Random

    def __init__(self, num_seats: int, options: Mapping[str, Any], seed: int) -> None:
        """The table settings every game keeps, and the game's RNG seeded from the table's seed."""
        self.num_seats = num_seats
        self.options = dict(options)
        self.seed = seed
        self.moves_applied = 0
        self.rng = random.Random(seed)

    # -- whose decision and which

    @abstractmethod
    def to_act(self) -> frozenset[int]:
        """Seats whose decision is awaited (several in simultaneous steps); empty when over."""

    @abstractmethod
    def legal_moves(self, seat: int) -> list[Move]:
        """Every legal move of the seat, each once, sorted by notation; [] if it is not to act."""

    def shortcuts(self, seat: int) -> list[Move]:
        """A few legal moves the seat most likely wants next, for a picker to offer at the top in one
        click (e.g. track ahead of one's carts); every one is also in legal_moves. Optional."""
        return []

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """Read a move from text (lenient: case, spaces, aliases). Raise IllegalMove if unreadable."""

    @abstractmethod
    def _apply(self, seat: int, move: Move) -> list[Event]:
        """Check and apply one move. Must raise IllegalMove before changing anything."""

    # -- what players see

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """JSON-safe view; None is the public view. Must include the keys of `base_view`."""

    def view_without_hints(self, seat: int) -> dict[str, Any]:
        """view(seat) without its hints: values the seat could work out from the rest of its view,
        given for convenience, some costly to compute (Trans Europa's tracks still needed, an exact
        Steiner tree). The bot compares these to tell whether a private view holds news. Every
        other key as in view(seat); by default, view(seat) itself."""
        return self.view(seat)

    @abstractmethod
    def result(self) -> Result | None:
        """Final standings once the game is over, else None."""

    # -- persistence

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """Everything, RNG included, as JSON-safe data; from_json(to_json()) is an equal state."""

    @classmethod
    @abstractmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameState: ...

    def base_json(self) -> dict[str, Any]:
        """The keys every `to_json` starts with: the game, the table settings, the count of moves, the RNG."""
        return {
            "key": self.key,
            "num_seats": self.num_seats,
            "options": dict(self.options),
            "seed": self.seed,
            "moves_applied": self.moves_applied,
            "rng": rng_to_json(self.rng),
        }

    @classmethod
    def from_base_json(cls, data: Mapping[str, Any]) -> Self:
        """A state restored as far as `base_json` goes; the game's `from_json` sets the rest."""
        state = cls(int(data["num_seats"]), dict(data["options"]), int(data["seed"]))
        state.moves_applied = int(data["moves_applied"])
        state.rng = rng_from_json(data["rng"])
        return state

    # -- provided

    def apply(self, seat: int, move: Move | str) -> list[Event]:
        """Apply one decision of `seat` (a Move or its notation); IllegalMove leaves no trace."""
        acting = self.to_act()
        if not acting:
            raise IllegalMove(Msg("The game is over."))
        if seat not in acting:
            raise IllegalMove(Msg("It is not your turn."))
        if isinstance(move, str):
            move = self.parse_move(check_move_text(move))
        elif not isinstance(move, Move):
            raise IllegalMove(Msg("That is not a move."))
        events = self._apply(seat, move)
        self.moves_applied += 1
        return events

    def is_over(self) -> bool:
        return not self.to_act()

    def opening_events(self) -> list[Event]:
        """What the setup did (the deal, the start player...), for the first post of a new game.

        Only a freshly created state has them: they are history, not part of the saved state.
        """
        return list(getattr(self, "_opening_events", ()))

    def timeout_move(self, seat: int) -> Move | None:
        """The move that skips this seat's pending decision where the rules allow it, else None."""
        return None

    def base_view(self, seat: int | None) -> dict[str, Any]:
        """The keys every view starts with, so the bot can read any game's view the same way."""
        return {
            "game": self.key,
            "seat": seat,
            "num_seats": self.num_seats,
            "to_act": sorted(self.to_act()),
            "over": self.is_over(),
            "moves_applied": self.moves_applied,
        }

    def copy(self) -> GameState:
        return type(self).from_json(json.loads(json.dumps(self.to_json())))

    def determinize(self, seat: int, rng: random.Random) -> GameState:
        """A full state `seat` cannot tell from this one, with everything hidden from it resampled.

        What a search AI plays its rollouts in, so it never reads a secret: `world.view(seat)` equals
        `self.view(seat)`, while other seats' hidden cards, the order of face-down decks and the game's
        RNG are drawn from `rng` among the possibilities the seat's knowledge allows. Hidden things must
        be pooled in an order that does not depend on the hidden values (sort them) before `rng`
        shuffles them, so two states that differ only in secrets give the same worlds for the same rng.
        Games with hidden information override this; the default refuses rather than leak.
        """
        raise NotImplementedError(f"{self.key} cannot resample its hidden information yet")

    def reseeded_copy(self, rng: random.Random) -> GameState:
        """A copy whose future chance (the game's RNG) is drawn from `rng`: where `determinize` starts."""
        world = self.copy()
        world.rng = random.Random(rng.getrandbits(64))
        return world

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]


# --------------------------------------------------------------------------- AI


AI_LEVELS = ("easy", "normal", "hard")
DEFAULT_AI_LEVEL = "normal"
# AI kinds stored by tables created before the levels existed.
AI_ALIASES = {"random": "easy", "greedy": "normal"}


class AIPlayer(ABC):
    """A legal-move player. It sees only its own seat's view and draws from its own RNG."""

    name: ClassVar[str]

    @abstractmethod
    def choose(self, view: dict[str, Any], legal: list[Move], rng: random.Random) -> Move: ...

    def decide(self, state: GameState, seat: int, legal: list[Move], rng: random.Random) -> Move:
        """The move for `seat` in `state`. Policies read only the seat's view; a search AI
        (rules.search) overrides this to sample worlds with `state.determinize(seat, rng)`, which
        hands it nothing the view does not allow."""
        return self.choose(state.view(seat), legal, rng)


class RandomAI(AIPlayer):
    name = "random"

    def choose(self, view: dict[str, Any], legal: list[Move], rng: random.Random) -> Move:
        return rng.choice(legal)


def ai_rng(seed: int, seat: int, move_number: int) -> random.Random:
    """The AI's own RNG, from the game seed, the seat and the move number, never the game's RNG."""
    return random.Random(derived_seed("ai", seed, seat, move_number))


# --------------------------------------------------------------------------- definitions


@dataclass(frozen=True)
class GameDefinition:
    """What the registry knows about a game."""

    key: str
    title: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    state_class: type[GameState]
    create: Callable[[int, dict[str, Any], int], GameState]
    ais: Mapping[str, Callable[[], AIPlayer]]
    summary: str = ""

    def option(self, key: str) -> Option:
        for option in self.options:
            if option.key == key:
                return option
        raise ValueError(Msg("{title} has no option {key}", title=Term(self.title), key=repr(key)))

    def resolve_options(self, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Defaults filled in, every value validated; ValueError names the first bad one."""
        given = dict(given or {})
        resolved = {}
        for option in self.options:
            resolved[option.key] = option.validate(given.pop(option.key, option.default))
        if given:
            raise ValueError(Msg("{title} has no option {key}", title=Term(self.title), key=repr(sorted(given)[0])))
        return resolved

    def new_game(self, num_seats: int, options: Mapping[str, Any] | None = None, seed: int = 0) -> GameState:
        if not self.min_players <= num_seats <= self.max_players:
            raise ValueError(Msg("{title} takes {min} to {max} players", title=Term(self.title), min=self.min_players,
                                 max=self.max_players))
        return self.create(num_seats, self.resolve_options(options), seed)

    def from_json(self, data: Mapping[str, Any]) -> GameState:
        return self.state_class.from_json(data)

    def ai(self, name: str = DEFAULT_AI_LEVEL) -> AIPlayer:
        """The player of a level ("easy", "normal", "hard"); old kind names ("greedy", "random") still
        load; an unknown name falls back to the easiest player the game has."""
        factory = self.ais.get(name) or self.ais.get(AI_ALIASES.get(name, "")) or self.ais.get("easy")
        return (factory or self.ais.get("random") or RandomAI)()


def ai_move(state: GameState, seat: int, player: AIPlayer) -> Move:
    """The move `player` makes for `seat` now (deterministic for the same state)."""
    legal = state.legal_moves(seat)
    if not legal:
        raise IllegalMove(Msg("No legal move."))
    rng = ai_rng(state.seed, seat, state.moves_applied)
    return player.decide(state, seat, legal, rng)


def play_out(
    state: GameState,
    players: Mapping[int, AIPlayer],
    max_moves: int = 100_000,
    on_move: Callable[[int, Move, list[Event]], None] | None = None,
) -> list[tuple[int, str]]:
    """Let AI players act until the game ends (or a seat without a player must act).

    Returns the (seat, notation) log. Simultaneous steps are played in seat order.
    """
    log: list[tuple[int, str]] = []
    for _ in range(max_moves):
        waiting = sorted(s for s in state.to_act() if s in players)
        if not waiting:
            break
        seat = waiting[0]
        move = ai_move(state, seat, players[seat])
        events = state.apply(seat, move)
        log.append((seat, str(move)))
        if on_move is not None:
            on_move(seat, move, events)
    return log


def replay(definition: GameDefinition, num_seats: int, options: Mapping[str, Any], seed: int,
           moves: Iterable[tuple[int, str]]) -> GameState:
    """Rebuild a state from its table settings and move log."""
    state = definition.new_game(num_seats, options, seed)
    for seat, text in moves:
        state.apply(seat, text)
    return state
