"""Rating math for finished games (openskill's Plackett-Luce): a game's record in, each human's new rating out; no I/O.

The rules (docs/ratings.md explains why):
- A game is rated when at least two humans take part in it. Every seat is one entrant of a free-for-all
  ranked by the game's result, ties kept as ties.
- A seat the AI played from the start is an opponent with a fixed anchor rating for its level; it is
  never updated.
- A human whose seat the AI holds at the end (conceded, timed out for good, /seat ai without coming
  back) ranks last, below every seat, whatever the AI made of the seat afterwards.
- Several humans on one seat (a hand-over): each is rated as if they had played the seat alone, and
  the change is scaled by their share of the seat's moves.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

from rules.engine import AI_ALIASES

# One model for every title: openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300).
MODEL = PlackettLuce()
BASE_MU = MODEL.mu
BASE_SIGMA = MODEL.sigma

# The fixed ratings of AI opponents, by level: what the AI levels' measured results against each other
# suggest (hard beats normal in 52-84% of 4-player games, normal beats easy clearly), with a small
# sigma so that a game against them moves the human, not the anchor's uncertainty.
AI_ANCHORS: Mapping[str, tuple[float, float]] = {
    "easy": (18.0, 2.0),
    "normal": (24.0, 2.0),
    "hard": (28.0, 2.0),
}

# Display: openskill's ordinal (mu - 3 sigma, the rating the player is 99.7% likely to be above),
# scaled so that a new player shows 1000 and a game's swing reads like an Elo's (tens of points).
DISPLAY_Z = 3.0
DISPLAY_ALPHA = 24.0
DISPLAY_TARGET = 1000.0
PROVISIONAL_GAMES = 5  # a rating shows a provisional mark until this many rated games


@dataclass(frozen=True)
class Rating:
    """A player's rating for one title in one scope."""

    mu: float = BASE_MU
    sigma: float = BASE_SIGMA
    games: int = 0  # rated games so far

    @property
    def display(self) -> int:
        return display_value(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def display_value(mu: float, sigma: float) -> int:
    """The one number players see: mu - 3 sigma, scaled (a new player: 1000)."""
    return round(MODEL.rating(mu=mu, sigma=sigma).ordinal(z=DISPLAY_Z, alpha=DISPLAY_ALPHA, target=DISPLAY_TARGET))


@dataclass(frozen=True)
class Holder:
    """A human who held a seat: the moves of the seat made while they held it, and whether they are
    gone (the AI holds their seat at the end because they left it: concede, timeouts, /seat ai)."""

    user_id: int
    moves: int
    gone: bool = False


@dataclass(frozen=True)
class SeatRecord:
    """One seat of a finished game: its rank in the result (1 = first, ties share a rank), its total
    moves, the humans who held it, and the AI level if the AI played it from the start."""

    seat: int
    rank: int
    moves: int
    holders: tuple[Holder, ...] = ()
    ai_level: str | None = None  # set only for a seat no human ever held


@dataclass(frozen=True)
class GameRecord:
    game_id: int
    game_key: str
    guild_id: int | None
    ended_at: float
    seats: tuple[SeatRecord, ...]

    def scopes(self) -> tuple[str, ...]:
        """The rating scopes the game counts in, once each: everyone's, and its server's."""
        return ("global",) if self.guild_id is None else ("global", f"guild:{self.guild_id}")


@dataclass(frozen=True)
class Entrant:
    """One entrant of the free-for-all given to openskill: a human (user_id) or an AI anchor."""

    rank: int
    user_id: int | None = None
    anchor: tuple[float, float] | None = None


@dataclass(frozen=True)
class Share:
    """A human's part in the game: their seat's place in the lineup and the share of it they played."""

    user_id: int
    index: int  # their entrant in the lineup
    weight: float  # 0 < weight <= 1


def lineup(record: GameRecord) -> tuple[list[Entrant], list[Share]]:
    """The game as openskill's free-for-all: entrants with ranks, and each rated human's place and share.

    Each seat still played at the end is one entrant, represented by the human who made most of its
    moves (or its AI anchor); humans who are gone are entrants of their own, tied last. A human on a
    seat who is not its representative is rated in a lineup of their own (see rate_game)."""
    entrants: list[Entrant] = []
    shares: list[Share] = []
    gone: list[int] = []
    seen: set[int] = set()
    for seat in record.seats:
        if seat.ai_level is not None and not seat.holders:
            level = AI_ALIASES.get(seat.ai_level, seat.ai_level)
            entrants.append(Entrant(seat.rank, anchor=AI_ANCHORS.get(level, AI_ANCHORS["normal"])))
            continue
        for holder in seat.holders:
            if holder.gone and holder.user_id not in seen:
                seen.add(holder.user_id)
                gone.append(holder.user_id)
        staying = [h for h in seat.holders if not h.gone and h.user_id not in seen and (h.moves > 0 or seat.moves == 0)]
        if not staying:
            continue  # nobody played it to the end but the AI stand-in: not an opponent of its own
        staying.sort(key=lambda h: -h.moves)  # stable: the earlier holder wins a tie
        index = len(entrants)
        entrants.append(Entrant(seat.rank, user_id=staying[0].user_id))
        for holder in staying:
            seen.add(holder.user_id)
            weight = 1.0 if seat.moves == 0 else holder.moves / seat.moves
            shares.append(Share(holder.user_id, index, weight / (1.0 if seat.moves else len(staying))))
    last = max((e.rank for e in entrants), default=0) + 1
    for user_id in gone:
        shares.append(Share(user_id, len(entrants), 1.0))
        entrants.append(Entrant(last, user_id=user_id))
    return entrants, shares


def is_rated(record: GameRecord) -> bool:
    """Rated: at least two humans took part (made a move, or left their seat to the AI)."""
    return len(lineup(record)[1]) >= 2


def _rate(entrants: list[Entrant], ratings: Mapping[int, Rating]) -> list[tuple[float, float]]:
    """openskill's Plackett-Luce update of a free-for-all: each entrant's new (mu, sigma)."""
    teams = []
    for entrant in entrants:
        if entrant.anchor is not None:
            mu, sigma = entrant.anchor
        else:
            rating = ratings.get(entrant.user_id) or Rating()
            mu, sigma = rating.mu, rating.sigma
        teams.append([MODEL.rating(mu=mu, sigma=sigma)])
    rated = MODEL.rate(teams, ranks=[float(e.rank) for e in entrants])
    return [(team[0].mu, team[0].sigma) for team in rated]


def rate_game(record: GameRecord, ratings: Mapping[int, Rating]) -> dict[int, Rating]:
    """Each rated human's new rating after the game (empty when the game is not rated).

    `ratings`: the humans' ratings before the game (a missing one is a new player). One openskill
    update of the lineup gives every representative's change; a human who shared a seat is
    substituted for its representative in a lineup of their own. Each change is scaled by the human's
    share of the seat's moves (mu moves by that part of its change, sigma's variance likewise), so a
    player who played the whole game gets exactly openskill's result."""
    entrants, shares = lineup(record)
    if len(shares) < 2:
        return {}
    main = _rate(entrants, ratings)
    updated: dict[int, Rating] = {}
    for share in shares:
        if entrants[share.index].user_id == share.user_id:
            mu, sigma = main[share.index]
        else:
            own = list(entrants)
            own[share.index] = Entrant(entrants[share.index].rank, user_id=share.user_id)
            mu, sigma = _rate(own, ratings)[share.index]
        before = ratings.get(share.user_id) or Rating()
        if share.weight < 1.0:
            mu = before.mu + share.weight * (mu - before.mu)
            sigma = math.sqrt(before.sigma ** 2 + share.weight * (sigma ** 2 - before.sigma ** 2))
        updated[share.user_id] = Rating(mu, sigma, before.games + 1)
    return updated
