"""Santa Fe's game state: setup, the round steps, track laying, bonuses, views and the end."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from rules.engine import (
    Event,
    GameState,
    IllegalMove,
    Move,
    Result,
    SeatResult,
    rank_by,
)
from rules.santa_fe.board import BOARD, RAILROADS
from rules.santa_fe.moves import Branch, BuyTile, Draw, EngineerChoice, Exchange, Lay, Pass, Play
from rules.santa_fe.notation import parse, why_illegal
from rules.words import N_, Items, Msg, Plural, Seat, Term, Verbatim

ADVANCED_START_MONEY = 5
BASIC_START_MONEY = 2
ENGINEER_PRICE = 4
HAND_SIZE = 5
ENGINEER_HAND_LIMIT = 4
DEALT_CITIES = 4
MAX_LINES = 3
TILE_PRICE = 1


def rr_name(rr: str) -> str:
    return rr.upper()


def automatic(line: Msg, auto: bool) -> Msg:
    """A line the engine says about a forced move it made for the seat gets the tag " (automatic)"."""
    return Msg("{line} (automatic)", line=line) if auto else line


# How a list of this game's lines separates its items (Items kind "comma": bonuses, scores, buyers).
N_(", ")

# The result's detail key in a player's words (the catalogs translate the words).
RESULT_LABELS = {"value_7_cards": N_("city cards of value 7")}
# Breakdown categories besides the played city cards (named by the board's city names and numbers).
CATEGORIES = (N_("money"),)
# How the game ended, in words for the standings (the state keeps the spec's code, E1-E3).
ENDINGS = {
    "E1": N_("The game ended: every track tile was laid."),
    "E2": N_("The game ended: a player could not lay any track."),
    "E3": N_("The game ended: everyone passed in a lay pass."),
}


class SantaFeState(GameState):
    """The whole game. Lanes are stored per section: None (empty) or [rr, line, from_city, tiles]."""

    key = "santa_fe"

    # ------------------------------------------------------------------ construction

    def __init__(self, num_seats: int, options: Mapping[str, Any], seed: int) -> None:
        super().__init__(num_seats, options, seed)
        n = num_seats
        self.round = 0
        self.phase = "choose"
        self.first = 0
        self.turn = 0  # position in turn order (0 = first player) during turn-order steps
        self.placements_left = 0
        self.pass_laid = False  # did any seat lay a tile in the current lay pass (E3)
        start = ADVANCED_START_MONEY if self.advanced else BASIC_START_MONEY
        self.money = [start] * n
        # Money in and out by category; money == start + sum(ledger) is checked by the tests.
        self.ledger: list[dict[str, int]] = [{} for _ in range(n)]
        self.engineer = [False] * n
        self.hand_limit = [HAND_SIZE] * n
        self.cities: list[list[str]] = [[] for _ in range(n)]
        self.dt = [0] * n
        self.branch: list[str | None] = [None] * n
        self.played: list[list[str]] = [[] for _ in range(n)]
        self.engineer_choice: list[bool | None] = [None] * n
        self.choice: list[str | None] = [None] * n  # secret until the reveal
        self.chosen = [False] * n
        self.round_city: list[str | None] = [None] * n
        self.round_dt = [False] * n
        self.round_branch: list[str | None] = [None] * n
        self.branch_used = [False] * n
        self.exchange_done = [False] * n
        self.exchanged = [0] * n  # this round, public count
        self.exchange_history: list[list[dict[str, Any]]] = [[] for _ in range(n)]
        self.discarded: list[list[str]] = [[] for _ in range(n)]  # face down: owner only
        self.deck: list[str] = []  # deck[0] is the top
        self.dt_pile = 0
        self.dt_in_play = 0  # played this round, back to the pile at clean-up
        self.dt_box = 0
        self.branch_piles = {rr: BOARD.branch_per_railroad for rr in RAILROADS}
        self.branch_removed = 0
        self.engineers_left = BOARD.engineers if self.advanced else 0
        self.supply = {rr: BOARD.railroads[rr].tiles for rr in RAILROADS}
        self.bought: list[dict[str, int]] = [dict.fromkeys(RAILROADS, 0) for _ in range(n)]
        self.lanes: dict[int, list[list[Any] | None]] = {
            sid: [None] * section.lanes for sid, section in BOARD.sections.items()
        }
        self.lines: dict[str, list[dict[str, Any]]] = {
            rr: [{"at": BOARD.railroads[rr].start_city}] for rr in RAILROADS
        }
        self.connected: dict[str, list[str]] = {rr: [BOARD.railroads[rr].start_city] for rr in RAILROADS}
        self.ended_by = ""
        self.log: list[list[Any]] = []  # events of the last apply: [text, seats or None]
        self.last_tiles: list[list[Any]] = []  # [section, lane, space, rr] laid in the last apply

    @property
    def advanced(self) -> bool:
        return bool(self.options.get("advanced", False))

    @property
    def tile_buying(self) -> bool:
        return bool(self.options.get("tile_buying", False))

    @classmethod
    def create(cls, num_seats: int, options: Mapping[str, Any], seed: int) -> SantaFeState:
        state = cls(num_seats, options, seed)
        rng = state.rng
        deck = list(BOARD.city_cards)
        rng.shuffle(deck)
        for seat in range(num_seats):
            state.cities[seat] = sorted(deck[:DEALT_CITIES])
            del deck[:DEALT_CITIES]
            state.dt[seat] = 1
        state.deck = deck
        in_play = BOARD.dt_by_players[num_seats]
        state.dt_pile = in_play - num_seats
        state.dt_box = BOARD.dt_in_box - in_play
        state.first = rng.randrange(num_seats)  # D6
        events: list[Event] = [Event(Msg("{who} is the first player.", who=Seat(state.first)))]
        if state.advanced:
            state.phase = "engineer"
        else:
            state._start_round(events)
        state._advance(events)
        state._remember(events)
        # Also for the bot's first post (GameState.opening_events), as every other game gives its setup.
        state._opening_events = events
        return state

    # ------------------------------------------------------------------ small helpers

    def order(self) -> list[int]:
        return [(self.first + k) % self.num_seats for k in range(self.num_seats)]

    def current(self) -> int:
        return (self.first + self.turn) % self.num_seats

    def hand_size(self, seat: int) -> int:
        return len(self.cities[seat]) + self.dt[seat] + (1 if self.branch[seat] else 0)

    def bought_phase(self) -> bool:
        """Option tile_buying: every colour's supply is empty, only bought tiles can be laid (D16)."""
        return self.tile_buying and not any(self.supply.values())

    def _pay(self, seat: int, amount: int, category: str) -> None:
        self.money[seat] -= amount
        self.ledger[seat][category] = self.ledger[seat].get(category, 0) - amount

    def _earn(self, seat: int, amount: int, category: str) -> None:
        self.money[seat] += amount
        self.ledger[seat][category] = self.ledger[seat].get(category, 0) + amount

    def _remember(self, events: list[Event]) -> None:
        """The last apply's events as message data (the view's log; the images translate them)."""
        self.log = [[e.msg.to_json(), None if e.seats is None else sorted(e.seats)] for e in events]

    def railroads_at(self, city: str) -> list[str]:
        return [rr for rr in RAILROADS if city in self.connected[rr]]

    def card_points(self, city: str) -> int:
        return BOARD.cities[city].value * len(self.railroads_at(city))

    # ------------------------------------------------------------------ board model (section 4)

    def rr_on(self, sid: int, rr: str) -> bool:
        return any(lane is not None and lane[0] == rr for lane in self.lanes[sid])

    def free_lane(self, sid: int) -> int | None:
        for index, lane in enumerate(self.lanes[sid]):
            if lane is None:
                return index
        return None

    def is_open(self, rr: str, sid: int, city: str) -> bool:
        section = BOARD.sections[sid]
        return city in (section.a, section.b) and not self.rr_on(sid, rr) and self.free_lane(sid) is not None

    def _blocked_reason(self, rr: str, sid: int) -> Msg:
        """Why section sid is not open to rr (it is assumed not to be)."""
        name = BOARD.section_name(sid)
        if self.rr_on(sid, rr):
            return Msg("{rr} already has track on {section}.", rr=rr_name(rr), section=name)
        if BOARD.sections[sid].double:
            return Msg("Both lanes of {section} are taken.", section=name)
        lane = self.lanes[sid][0]
        assert lane is not None
        if lane[3] < BOARD.sections[sid].spaces:
            return Msg("{section} is already being built by {rr}.", section=name, rr=rr_name(lane[0]))
        return Msg("{section} is already built by {rr}.", section=name, rr=rr_name(lane[0]))

    def tiles_for(self, seat: int, rr: str) -> int:
        """Tiles of rr this seat may lay now: the supply, or its own bought tiles in the bought phase."""
        return self.bought[seat][rr] if self.bought_phase() else self.supply[rr]

    def _target(self, move: Lay | Branch) -> tuple[int, int, str, int]:
        """(section, lane, from_city, space index from that city) the tile would go to, or IllegalMove.

        Board rules only: no tile count, branch card or money check.
        """
        rr = move.rr
        if isinstance(move, Lay):
            lines = self.lines[rr]
            if not 1 <= move.line <= len(lines):
                raise IllegalMove(Msg("{rr} has no line {n}.", rr=rr_name(rr), n=move.line))
            head = lines[move.line - 1]
            if "sec" in head:
                sid, lane_index = head["sec"], head["lane"]
                lane = self.lanes[sid][lane_index]
                assert lane is not None
                far = BOARD.sections[sid].other(lane[2])
                if move.city != far:
                    raise IllegalMove(Msg("{rr} line {n} must continue toward {city}.", rr=rr_name(rr),
                                          n=move.line, city=BOARD.name(far)))
                return sid, lane_index, lane[2], lane[3]
            start = head["at"]
        else:
            if len(self.lines[rr]) >= MAX_LINES:
                raise IllegalMove(Msg("{rr} already has {n} lines.", rr=rr_name(rr), n=MAX_LINES))
            start = move.start
            if start not in self.connected[rr]:
                raise IllegalMove(Msg("{rr} is not connected to {city}.", rr=rr_name(rr), city=BOARD.name(start)))
        sid = BOARD.between.get(frozenset((start, move.city)))
        if sid is None:
            raise IllegalMove(Msg("There is no section from {a} to {b}.", a=BOARD.name(start), b=BOARD.name(move.city)))
        if not self.is_open(rr, sid, start):
            raise IllegalMove(self._blocked_reason(rr, sid))
        lane_index = self.free_lane(sid)
        assert lane_index is not None
        return sid, lane_index, start, 0

    def space_cost(self, seat: int, sid: int, from_city: str, index: int) -> int:
        """Terrain cost of the space that receives the tile (advanced game only)."""
        if not self.advanced:
            return 0
        terrain = BOARD.sections[sid].terrain_from(from_city, index)
        table = BOARD.terrain_cost_engineer if self.engineer[seat] else BOARD.terrain_cost
        return table[terrain]

    def _can_branch(self, seat: int) -> str | None:
        rr = self.round_branch[seat]
        return rr if rr is not None and not self.branch_used[seat] else None

    def possible_placements(self, seat: int) -> list[tuple[Move, int]]:
        """Every lay/branch the board and the seat's tiles allow, with its cost; money ignored."""
        found: list[tuple[Move, int]] = []
        lanes, sections, at_city = self.lanes, BOARD.sections, BOARD.at_city
        tiles = self.bought[seat] if self.bought_phase() else self.supply

        def open_here(rr: str, city: str) -> list[int]:
            # Inlined is_open: this is the engine's hottest loop.
            result = []
            for sid in at_city[city]:
                section_lanes = lanes[sid]
                if None in section_lanes and not any(
                    lane is not None and lane[0] == rr for lane in section_lanes
                ):
                    result.append(sid)
            return result

        for rr in RAILROADS:
            if tiles[rr] <= 0:
                continue
            for number, head in enumerate(self.lines[rr], start=1):
                if "sec" in head:
                    sid = head["sec"]
                    lane = lanes[sid][head["lane"]]
                    assert lane is not None
                    far = sections[sid].other(lane[2])
                    found.append((Lay(rr, number, far), self.space_cost(seat, sid, lane[2], lane[3])))
                    continue
                city = head["at"]
                for sid in open_here(rr, city):
                    found.append(
                        (Lay(rr, number, sections[sid].other(city)), self.space_cost(seat, sid, city, 0))
                    )
        rr = self._can_branch(seat)
        if rr is not None and tiles[rr] > 0 and len(self.lines[rr]) < MAX_LINES:
            for city in self.connected[rr]:
                for sid in open_here(rr, city):
                    found.append(
                        (Branch(rr, city, sections[sid].other(city)), self.space_cost(seat, sid, city, 0))
                    )
        return found

    def pass_allowed(self) -> bool:
        return self.advanced or self.bought_phase()

    def placement_moves(self, seat: int, possible: list[tuple[Move, int]] | None = None) -> list[Move]:
        if possible is None:
            possible = self.possible_placements(seat)
        moves: set[Move] = {m for m, cost in possible if cost <= self.money[seat]}
        if self.pass_allowed():
            moves.add(Pass())
        return sorted(moves, key=str)

    # ------------------------------------------------------------------ laying a tile

    def put_tile(self, rr: str, move: Lay | Branch) -> str | None:
        """Put one tile for the move on the board (no supply, card or money handling).

        Returns the city the tile connected rr to for the first time, if any.
        """
        sid, lane_index, from_city, index = self._target(move)
        section = BOARD.sections[sid]
        if isinstance(move, Branch):
            self.lines[rr].append({"at": move.start})
            number = len(self.lines[rr])
        else:
            number = move.line
        lane = self.lanes[sid][lane_index]
        if lane is None:
            lane = [rr, number, from_city, 0]
            self.lanes[sid][lane_index] = lane
        lane[3] += 1
        self.last_tiles.append([sid, lane_index, index, rr])
        far = section.other(from_city)
        if lane[3] < section.spaces:
            self.lines[rr][number - 1] = {"sec": sid, "lane": lane_index}
            return None
        self.lines[rr][number - 1] = {"at": far}
        if far in self.connected[rr]:
            return None
        self.connected[rr].append(far)
        return far

    def _place(self, seat: int, move: Move, events: list[Event], auto: bool = False) -> None:
        """Apply a validated placement (lay, branch or pass) and its money."""
        self.placements_left -= 1
        if isinstance(move, Pass):
            events.append(Event(automatic(Msg("{who} passes.", who=Seat(seat)), auto)))
            return
        assert isinstance(move, Lay | Branch)
        rr = move.rr
        sid, lane_index, from_city, index = self._target(move)
        cost = self.space_cost(seat, sid, from_city, index)
        if cost:
            self._pay(seat, cost, "terrain")
        far = BOARD.sections[sid].other(from_city)
        first_ever = not self.railroads_at(far)
        reached = self.put_tile(rr, move)
        if self.bought_phase():
            self.bought[seat][rr] -= 1
        else:
            self.supply[rr] -= 1
        self.pass_laid = True
        if isinstance(move, Branch):
            # The branch card is spent at once (removed from the game).
            self.branch_used[seat] = True
            self.branch_removed += 1
        section = BOARD.sections[sid]
        lane = self.lanes[sid][lane_index]
        assert lane is not None
        where = {"who": Seat(seat), "rr": rr_name(rr), "city": BOARD.name(far), "section": BOARD.section_name(sid),
                 "done": lane[3], "spaces": section.spaces}
        if isinstance(move, Branch) and cost:
            text = Msg("{who} starts {rr} line {line} at {start} toward {city} ({section} {done}/{spaces}), "
                       "pays ${cost}.", line=len(self.lines[rr]), start=BOARD.name(move.start), cost=cost, **where)
        elif isinstance(move, Branch):
            text = Msg("{who} starts {rr} line {line} at {start} toward {city} ({section} {done}/{spaces}).",
                       line=len(self.lines[rr]), start=BOARD.name(move.start), **where)
        elif cost:
            text = Msg("{who} lays {rr} {line} toward {city} ({section} {done}/{spaces}), pays ${cost}.",
                       line=move.line, cost=cost, **where)
        else:
            text = Msg("{who} lays {rr} {line} toward {city} ({section} {done}/{spaces}).", line=move.line, **where)
        events.append(Event(automatic(text, auto)))
        if reached is not None:
            multiplier = BOARD.bonus_multiplier if self.round_dt[seat] else 1
            bonus = 0
            parts: list[Msg] = []
            if first_ever and BOARD.cities[reached].value > 0:
                bonus += BOARD.bonus_first * multiplier
                parts.append(Msg("${money} first to {city}", money=BOARD.bonus_first * multiplier,
                                 city=BOARD.name(reached)))
                self._earn(seat, BOARD.bonus_first * multiplier, "first")
            if BOARD.railroads[rr].bonus_city == reached:
                bonus += BOARD.bonus_railroad * multiplier
                parts.append(Msg("${money} {rr} bonus", money=BOARD.bonus_railroad * multiplier, rr=rr_name(rr)))
                self._earn(seat, BOARD.bonus_railroad * multiplier, "railroad")
            if bonus:
                events.append(Event(Msg("{rr} reaches {city}. {who} earns ${bonus} ({parts}).", rr=rr_name(rr),
                                        city=BOARD.name(reached), who=Seat(seat), bonus=bonus,
                                        parts=Items(parts, "comma"))))
            else:
                events.append(Event(Msg("{rr} reaches {city}.", rr=rr_name(rr), city=BOARD.name(reached))))
        if not any(self.supply.values()) and not (
            self.tile_buying and any(sum(b.values()) for b in self.bought)
        ):
            self._end("E1", events, Msg("Game over: The last track tile has been laid."))

    # ------------------------------------------------------------------ card choice (5.0, 5.1)

    def plays(self, seat: int) -> list[Play]:
        """Legal plays of step 5.1 from the seat's hand."""
        cards: list[str] = sorted(set(self.cities[seat]))
        if self.dt[seat] and self.round > 1:
            cards.append("double")
        branch = self.branch[seat]
        return sorted((Play(card, branch) for card in cards), key=str)

    def choosers(self) -> list[int]:
        # Same as "plays(s) is not empty", without building the moves (to_act asks this a lot).
        return [
            s
            for s in range(self.num_seats)
            if not self.chosen[s] and (self.cities[s] or (self.dt[s] and self.round > 1))
        ]

    def _choose(self, seat: int, move: Play, events: list[Event], auto: bool = False) -> None:
        self.choice[seat] = str(move)
        self.chosen[seat] = True
        events.append(Event(automatic(Msg("{who} has chosen.", who=Seat(seat)), auto)))
        events.append(Event(Msg("Your choice: {move}.", move=str(move)), frozenset((seat,))))

    def _reveal(self, events: list[Event]) -> None:
        parts: list[Msg] = []
        for seat in self.order():
            text = self.choice[seat]
            if text is None:
                if self.branch[seat] is not None:
                    # D8: a branch card that cannot be paired leaves the game.
                    parts.append(Msg("{who} plays nothing (branch card {rr} discarded)", who=Seat(seat),
                                     rr=rr_name(self.branch[seat])))
                    self.branch[seat] = None
                    self.branch_removed += 1
                else:
                    parts.append(Msg("{who} plays nothing", who=Seat(seat)))
                continue
            move = self.parse_play(text)
            if move.card == "double":
                self.dt[seat] -= 1
                self.round_dt[seat] = True
                self.dt_in_play += 1
                shown = None
            else:
                self.cities[seat].remove(move.card)
                self.played[seat].append(move.card)
                self.round_city[seat] = move.card
                shown = BOARD.name(move.card)
            if move.branch:
                self.branch[seat] = None
                self.round_branch[seat] = move.branch
            parts.append(self._shown_play(seat, shown, move.branch))
        plays = Items(parts, sep=N_("; "))
        events.append(Event(Msg("Round {n} reveal: {plays}.", n=self.round, plays=plays)))
        self.choice = [None] * self.num_seats
        self.phase = "lay1"
        self._begin_pass()

    @staticmethod
    def _shown_play(seat: int, city: str | None, branch: str | None) -> Msg:
        """What a seat's revealed play says: a city (None: a double-turn card), with its branch card."""
        if city is None and branch:
            return Msg("{who} plays a double-turn card + {rr} branch card", who=Seat(seat), rr=rr_name(branch))
        if city is None:
            return Msg("{who} plays a double-turn card", who=Seat(seat))
        if branch:
            return Msg("{who} plays {card}", who=Seat(seat),
                       card=Msg("{card} + {rr} branch card", card=city, rr=rr_name(branch)))
        return Msg("{who} plays {card}", who=Seat(seat), card=city)

    def parse_play(self, text: str) -> Play:
        tokens = text.split()
        return Play(tokens[1], tokens[3] if len(tokens) > 3 else None)

    def _start_round(self, events: list[Event]) -> None:
        if self.round:
            self.first = (self.first + 1) % self.num_seats
        self.round += 1
        n = self.num_seats
        self.phase = "choose"
        self.chosen = [False] * n
        self.choice = [None] * n
        self.round_city = [None] * n
        self.round_dt = [False] * n
        self.round_branch = [None] * n
        self.branch_used = [False] * n
        self.exchange_done = [False] * n
        self.exchanged = [0] * n
        events.append(Event(Msg("Round {n} begins; {who} is first player.", n=self.round, who=Seat(self.first))))

    def _begin_pass(self) -> None:
        self.turn = 0
        self.pass_laid = False
        self.placements_left = 2 if self.round_dt[self.current()] else 1

    # ------------------------------------------------------------------ exchange (5.3)

    def exchange_moves(self, seat: int) -> list[Exchange]:
        """Every sub-multiset of the hand's city cards no larger than the deck."""
        counts = Counter(self.cities[seat])
        options: list[tuple[str, ...]] = [()]
        for city in sorted(counts):
            options = [o + (city,) * k for o in options for k in range(counts[city] + 1)]
        return sorted((Exchange(tuple(sorted(o))) for o in options if len(o) <= len(self.deck)), key=str)

    def _exchange(self, seat: int, move: Exchange, events: list[Event], auto: bool = False) -> None:
        self.exchange_done[seat] = True
        if not move.cities:
            events.append(Event(automatic(Msg("{who} exchanges no cards.", who=Seat(seat)), auto)))
            return
        for city in move.cities:
            self.cities[seat].remove(city)
            self.discarded[seat].append(city)
        drawn = self.deck[: len(move.cities)]
        del self.deck[: len(move.cities)]
        self.cities[seat] = sorted(self.cities[seat] + drawn)
        self.exchanged[seat] = len(drawn)
        self.exchange_history[seat].append({"round": self.round, "out": list(move.cities), "in": drawn})
        events.append(Event(Plural("{who} exchanged {n} card.", "{who} exchanged {n} cards.", n=len(drawn),
                                   who=Seat(seat))))
        events.append(Event(Msg("You discarded {out} and drew {drawn}.",
                                out=Items((BOARD.name(c) for c in move.cities), "comma"),
                                drawn=Items((BOARD.name(c) for c in drawn), "comma")), frozenset((seat,))))

    # ------------------------------------------------------------------ draw (5.6) and buy (5.7)

    def branch_price(self) -> int:
        return 2 if self.advanced else 1

    def draw_moves(self, seat: int) -> list[Draw]:
        if self.hand_size(seat) >= self.hand_limit[seat]:
            return []
        moves = []
        if self.deck:
            moves.append(Draw("city"))
        if self.dt_pile:
            moves.append(Draw("double"))
        if self.advanced and not self.engineer[seat] and self.engineers_left:
            moves.append(Draw("engineer"))
        free = bool(moves)
        if self.branch[seat] is None and self.money[seat] >= self.branch_price():
            moves += [Draw("branch", rr) for rr in RAILROADS if self.branch_piles[rr]]
            if not free:
                # D11: a branch card costs money, so it is never forced; the seat may stop here.
                moves.append(Draw("none"))
        return sorted(moves, key=str)

    def _draw(self, seat: int, move: Draw, events: list[Event], auto: bool = False) -> None:
        if move.kind == "none":
            # Only paid draws were left (D11): the seat's draw step ends with its hand below the limit.
            self.turn += 1
            events.append(Event(Msg("{who} stops drawing this round.", who=Seat(seat))))
        elif move.kind == "city":
            city = self.deck.pop(0)
            self.cities[seat] = sorted(self.cities[seat] + [city])
            events.append(Event(automatic(Msg("{who} draws a city card.", who=Seat(seat)), auto)))
            events.append(Event(Msg("You drew {city}.", city=BOARD.name(city)), frozenset((seat,))))
        elif move.kind == "double":
            self.dt_pile -= 1
            self.dt[seat] += 1
            events.append(Event(automatic(Msg("{who} draws a double-turn card.", who=Seat(seat)), auto)))
        elif move.kind == "branch":
            assert move.rr is not None
            self.branch_piles[move.rr] -= 1
            self.branch[seat] = move.rr
            self._pay(seat, self.branch_price(), "branch")
            events.append(Event(automatic(Msg("{who} pays ${price} for a {rr} branch card.", who=Seat(seat),
                                              price=self.branch_price(), rr=rr_name(move.rr)), auto)))
        else:
            self.engineers_left -= 1
            self.engineer[seat] = True
            self.hand_limit[seat] = ENGINEER_HAND_LIMIT
            events.append(Event(automatic(Msg("{who} takes an engineer; hand limit is now {n}.", who=Seat(seat),
                                              n=ENGINEER_HAND_LIMIT), auto)))

    def buy_moves(self, seat: int) -> list[BuyTile]:
        moves = [BuyTile(None)]
        if self.money[seat] >= TILE_PRICE:
            moves += [BuyTile(rr) for rr in RAILROADS if self.supply[rr]]
        return sorted(moves, key=str)

    def _buy(self, seat: int, move: BuyTile, events: list[Event], auto: bool = False) -> None:
        if move.rr is None:
            events.append(Event(automatic(Msg("{who} buys nothing.", who=Seat(seat)), auto)))
            return
        self._pay(seat, TILE_PRICE, "tiles")
        self.supply[move.rr] -= 1
        self.bought[seat][move.rr] += 1
        events.append(Event(automatic(Msg("{who} buys a {rr} tile for ${price}.", who=Seat(seat), rr=rr_name(move.rr),
                                          price=TILE_PRICE), auto)))

    # ------------------------------------------------------------------ flow

    def _end(self, code: str, events: list[Event], why: Msg) -> None:
        """The game ends (`why`: the line that says so)."""
        self.phase = "over"
        self.ended_by = code
        events.append(Event(why))
        result = self.result()
        assert result is not None
        scores = Items((Msg("{who} {score}", who=Seat(r.seat), score=r.score) for r in result.seats), "comma")
        events.append(Event(Msg("Final scores: {scores}.", scores=scores)))

    def _cleanup(self, events: list[Event]) -> None:
        for seat in range(self.num_seats):
            if self.round_branch[seat] is not None and not self.branch_used[seat]:
                self.branch_removed += 1
                events.append(Event(Msg("{who}'s unused {rr} branch card leaves the game.", who=Seat(seat),
                                        rr=rr_name(self.round_branch[seat]))))
                self.round_branch[seat] = None
        self.dt_pile += self.dt_in_play
        self.dt_in_play = 0
        self.phase = "draw"
        self.turn = 0

    def _advance(self, events: list[Event]) -> None:
        """Run automatic steps and forced moves (D17) until a real decision is awaited or the end."""
        n = self.num_seats
        while self.phase != "over":
            if self.phase == "engineer":
                if any(c is None for c in self.engineer_choice):
                    return
                buyers = [s for s in range(n) if self.engineer_choice[s]]
                for seat in buyers:
                    self._pay(seat, ENGINEER_PRICE, "engineer")
                    self.engineer[seat] = True
                    self.engineers_left -= 1
                names = Items((Seat(s) for s in buyers), "comma") if buyers else Term(N_("nobody"))
                events.append(Event(Msg("Engineers bought by: {who}.", who=names)))
                self._start_round(events)
                continue
            if self.phase == "choose":
                waiting = self.choosers()
                # Only choices whose forcedness everyone can see are automatic (one city card or none).
                forced = [s for s in waiting if len(self.plays(s)) == 1 and len(self.cities[s]) <= 1]
                if forced:
                    for seat in forced:
                        self._choose(seat, self.plays(seat)[0], events, auto=True)
                    continue
                if waiting:
                    return
                self._reveal(events)
                continue
            if self.phase == "exchange":
                waiting = [s for s in range(n) if self.round_dt[s] and not self.exchange_done[s]]
                forced = [s for s in waiting if not self.cities[s] or not self.deck]
                if forced:
                    for seat in forced:
                        self._exchange(seat, Exchange(()), events, auto=True)
                    continue
                if waiting:
                    return
                self.phase = "lay2"
                self._begin_pass()
                continue
            if self.phase in ("lay1", "lay2"):
                if self.placements_left <= 0:
                    self.turn += 1
                    if self.turn < n:
                        self.placements_left = 2 if self.round_dt[self.current()] else 1
                        continue
                    if not self.pass_laid:
                        self._end("E3", events, Msg("Game over: every seat passed in this lay pass."))
                        return
                    if self.phase == "lay1" and any(self.round_dt):
                        self.phase = "exchange"
                    elif self.phase == "lay1":
                        self.phase = "lay2"
                        self._begin_pass()
                    else:
                        self._cleanup(events)
                    continue
                seat = self.current()
                possible = self.possible_placements(seat)
                if not possible and not self.bought_phase():
                    self._end("E2", events, Msg("Game over: {who} cannot lay any track.", who=Seat(seat)))
                    return
                legal = self.placement_moves(seat, possible)
                if len(legal) == 1:
                    self._place(seat, legal[0], events, auto=True)
                    continue
                return
            if self.phase == "draw":
                if self.turn >= n:
                    if self.tile_buying:
                        self.phase = "buy"
                        self.turn = 0
                    else:
                        self._start_round(events)
                    continue
                seat = self.current()
                draws = self.draw_moves(seat)
                if not draws:
                    self.turn += 1
                    continue
                if len(draws) == 1:
                    self._draw(seat, draws[0], events, auto=True)
                    continue
                return
            if self.phase == "buy":
                if self.turn >= n:
                    self._start_round(events)
                    continue
                seat = self.current()
                buys = self.buy_moves(seat)
                if len(buys) == 1:
                    self._buy(seat, buys[0], events, auto=True)
                    self.turn += 1
                    continue
                return

    # ------------------------------------------------------------------ contract

    def to_act(self) -> frozenset[int]:
        if self.phase == "over":
            return frozenset()
        if self.phase == "engineer":
            return frozenset(s for s in range(self.num_seats) if self.engineer_choice[s] is None)
        if self.phase == "choose":
            return frozenset(self.choosers())
        if self.phase == "exchange":
            return frozenset(
                s for s in range(self.num_seats) if self.round_dt[s] and not self.exchange_done[s]
            )
        return frozenset((self.current(),))

    def legal_moves(self, seat: int) -> list[Move]:
        if seat not in self.to_act():
            return []
        if self.phase == "engineer":
            moves: list[Move] = [EngineerChoice(False)]
            if self.money[seat] >= ENGINEER_PRICE and self.engineers_left:
                moves.append(EngineerChoice(True))
            return sorted(moves, key=str)
        if self.phase == "choose":
            return list(self.plays(seat))
        if self.phase == "exchange":
            return list(self.exchange_moves(seat))
        if self.phase in ("lay1", "lay2"):
            return self.placement_moves(seat)
        if self.phase == "draw":
            return list(self.draw_moves(seat))
        return list(self.buy_moves(seat))

    def parse_move(self, text: str) -> Move:
        return parse(self, text)

    def _apply(self, seat: int, move: Move) -> list[Event]:
        legal = self.legal_moves(seat)
        if move not in legal:
            raise IllegalMove(self.why_illegal(seat, move))
        # Moves are equal by notation; go on with the engine's own object, whatever was handed in.
        move = legal[legal.index(move)]
        events: list[Event] = []
        self.last_tiles = []
        if isinstance(move, EngineerChoice):
            self.engineer_choice[seat] = move.buy
            events.append(Event(Msg("{who} has decided about the engineer.", who=Seat(seat))))
            events.append(Event(Msg("Your choice: {move}.", move=str(move)), frozenset((seat,))))
        elif isinstance(move, Play):
            self._choose(seat, move, events)
        elif isinstance(move, Exchange):
            self._exchange(seat, move, events)
        elif isinstance(move, Lay | Branch | Pass):
            self._place(seat, move, events)
        elif isinstance(move, Draw):
            self._draw(seat, move, events)
        elif isinstance(move, BuyTile):
            self._buy(seat, move, events)
            self.turn += 1
        self._advance(events)
        self._remember(events)
        return events

    def why_illegal(self, seat: int, move: Move) -> Msg:
        return why_illegal(self, seat, move)

    def timeout_move(self, seat: int) -> Move | None:
        legal = self.legal_moves(seat)
        for skip in (Pass(), Exchange(()), EngineerChoice(False), Draw("none"), BuyTile(None)):
            if skip in legal:
                return skip
        return None

    # ------------------------------------------------------------------ sampled worlds (search AI)

    def determinize(self, seat: int, rng: random.Random) -> SantaFeState:
        """Everything `seat` cannot see resampled: other hands, the deck, face-down discards,
        choices not yet revealed, and the RNG.

        The city cards nobody has shown `seat` (the deck, other hands, others' discards) are pooled,
        sorted, shuffled with `rng` and dealt back in the public counts. A hidden card choice
        becomes a random play from the new hand (with the seat's branch card, as the rules force),
        a hidden engineer answer a random affordable one.
        """
        world = self.reseeded_copy(rng)
        assert isinstance(world, SantaFeState)
        others = [s for s in range(self.num_seats) if s != seat]
        pool = sorted([*self.deck, *(c for s in others for c in (*self.cities[s], *self.discarded[s]))])
        rng.shuffle(pool)
        for other in others:
            held = len(self.cities[other])
            world.cities[other] = sorted(pool[:held])
            del pool[:held]
            gone = len(self.discarded[other])
            world.discarded[other] = pool[:gone]
            del pool[:gone]
            # Which cards went out and came in is the owner's secret; the counts stay public.
            world.exchange_history[other] = [
                {"round": h["round"], "out": [], "in": []} for h in self.exchange_history[other]
            ]
            if self.phase == "choose" and self.chosen[other] and self.choice[other] is not None:
                world.choice[other] = str(rng.choice(world.plays(other)))
            if self.phase == "engineer" and self.engineer_choice[other] is not None:
                can_buy = self.money[other] >= ENGINEER_PRICE and self.engineers_left > 0
                world.engineer_choice[other] = can_buy and rng.random() < 0.5
        world.deck = pool
        # Private lines of the last events belong to their seats only.
        world.log = [[text, seats] for text, seats in self.log if seats is None or seat in seats]
        return world

    # ------------------------------------------------------------------ scoring

    def score_parts(self, seat: int) -> dict[str, int]:
        parts = {"money": self.money[seat]}
        for city, copies in sorted(Counter(self.played[seat]).items()):
            rails = len(self.railroads_at(city))
            label = f"{BOARD.name(city)} ({BOARD.cities[city].value}x{rails})"
            parts[label if copies == 1 else f"{copies}x {label}"] = copies * self.card_points(city)
        return parts

    def result(self) -> Result | None:
        if self.phase != "over":
            return None
        scores = {s: sum(self.score_parts(s).values()) for s in range(self.num_seats)}
        sevens = {
            s: sum(1 for c in self.played[s] if BOARD.cities[c].value == 7) for s in range(self.num_seats)
        }
        ranks = rank_by({s: (scores[s], sevens[s]) for s in range(self.num_seats)})
        seats = tuple(
            SeatResult(s, scores[s], self.score_parts(s), ranks[s], {"value_7_cards": sevens[s]})
            for s in sorted(range(self.num_seats), key=lambda s: (ranks[s], s))
        )
        # A played city's category is named by the board's city name and its numbers: shown as it is.
        cities = {key: Verbatim(key) for line in seats for key in line.breakdown if key not in CATEGORIES}
        return Result(seats, ENDINGS.get(self.ended_by, self.ended_by), labels={**RESULT_LABELS, **cities})

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None) -> dict[str, Any]:
        from rules.santa_fe.views import build_view

        return build_view(self, seat)

    # ------------------------------------------------------------------ persistence

    _FIELDS = (
        "round",
        "phase",
        "first",
        "turn",
        "placements_left",
        "pass_laid",
        "money",
        "ledger",
        "engineer",
        "hand_limit",
        "cities",
        "dt",
        "branch",
        "played",
        "engineer_choice",
        "choice",
        "chosen",
        "round_city",
        "round_dt",
        "round_branch",
        "branch_used",
        "exchange_done",
        "exchanged",
        "exchange_history",
        "discarded",
        "deck",
        "dt_pile",
        "dt_in_play",
        "dt_box",
        "branch_piles",
        "branch_removed",
        "engineers_left",
        "supply",
        "bought",
        "lines",
        "connected",
        "ended_by",
        "log",
        "last_tiles",
    )

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            **self.base_json(),
            "lanes": {str(sid): lanes for sid, lanes in self.lanes.items()},
        }
        for name in self._FIELDS:
            data[name] = getattr(self, name)
        # A JSON round trip is a deep copy, and much faster than copy.deepcopy.
        return json.loads(json.dumps(data))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SantaFeState:
        data = json.loads(json.dumps(dict(data)))
        state = cls.from_base_json(data)
        # Keep section order: views list lanes in this order.
        state.lanes = {
            int(sid): lanes for sid, lanes in sorted(data["lanes"].items(), key=lambda kv: int(kv[0]))
        }
        for name in cls._FIELDS:
            setattr(state, name, data[name])
        return state
