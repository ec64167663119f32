"""The game state of Great Western Railway: loading, auction, resolution, build, income, end."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules.engine import (
    Event,
    GameState,
    IllegalMove,
    Move,
    Result,
    public,
    quote,
)
from rules.great_western import board
from rules.great_western.board import CITIES, CONNECTABLE, LONDON, TRAINS, Route
from rules.great_western.moves import DONE, Bid, Connect, Done, parse
from rules.great_western.scoring import final_result
from rules.words import N_, Items, Msg, Plural, Seat, Term

PHASES = ("auction", "build", "over")
# The auction has no pass (5.2): the bidder's `done`/`pass` or a connection gets this, not a build reason.
AUCTION_FIRST = Msg("The auction is on and there is no pass: bid on a train (`bid t<train> <cubes>`).")
# A rank in the final line and on the images (at most 4 players).
ORDINALS = {1: N_("1st"), 2: N_("2nd"), 3: N_("3rd"), 4: N_("4th")}


def ordinal(n: int) -> Term:
    """A rank as a word the catalogs translate ("1st")."""
    return Term(ORDINALS.get(n, f"{n}th"))


def turn_to_bid(seat: int) -> Msg:
    return Msg("It is {who}'s turn to bid.", who=Seat(seat))


def turn_to_build(seat: int | None) -> Msg:
    return Msg("Bidding is over this round; it is {who}'s turn to build.", who=Seat(seat if seat is not None else 0))


NOT_YOUR_BUILD = Msg("It is not your turn to build.")


def car_load(number: int, passenger: bool, n: int) -> Msg:
    """The cubes a roll put on one car: "car 3 (F) ×2"."""
    if passenger:
        return Msg("car {n} (P) ×{m}", n=number, m=n) if n > 1 else Msg("car {n} (P)", n=number)
    return Msg("car {n} (F) ×{m}", n=number, m=n) if n > 1 else Msg("car {n} (F)", n=number)


def connected(seat: int, city: str, path: list[str] | tuple[str, ...], links: int, fees: int,
              pay: Mapping[str, int]) -> Msg:
    """The line of a connection: where from, by which cities, what it cost and how it was paid."""
    parts: list[Msg] = []
    if pay["passengers"]:
        parts.append(Plural("{n} passenger", "{n} passengers", n=pay["passengers"]))
    if pay["freight"]:
        parts.append(Msg("{n} freight", n=pay["freight"]))
    if pay["available"]:
        parts.append(Msg("{n} available", n=pay["available"]))
    said = dict(who=Seat(seat), city=CITIES[city].name, start=CITIES[path[0]].name, links=links, fees=fees,
                people=CITIES[city].people, pay=Items(parts, "comma"))
    via = [CITIES[c].name for c in path[1:-1]]
    if via:
        return Msg("{who} connects {city} from {start} via {via}: links {links}, fees {fees}, people {people} "
                   "({pay}).", via=Items(via, "comma"), **said)
    return Msg("{who} connects {city} from {start}: links {links}, fees {fees}, people {people} ({pay}).", **said)


class GreatWesternState(GameState):
    key = "great_western"

    def __init__(self, num_seats: int, options: Mapping[str, Any], seed: int) -> None:
        super().__init__(num_seats, options, seed)
        self.round = 1
        self.phase = "auction"
        self.start_player = 0
        self.owners: dict[str, int] = {}
        self.available = [board.AVAILABLE_AT_START] * num_seats
        self.unavailable = [board.UNAVAILABLE_AT_START] * num_seats
        # Per train in play (index = train id - 1):
        self.dice: list[list[int]] = [[] for _ in range(num_seats)]
        self.loads: list[list[int]] = [[0] * 5 for _ in range(num_seats)]  # cubes per car
        self.load_colour: list[int | None] = [None] * num_seats  # None = black cubes
        self.keys: list[list[int]] = [[] for _ in range(num_seats)]
        self.bids: list[list[int] | None] = [None] * num_seats  # [seat, amount]
        self.owner: list[int | None] = [None] * num_seats  # winner, after resolution
        self.paid: list[int] = [0] * num_seats
        self.order: list[int] = []  # train ids in build order
        self.bidder = 0
        self.build_pos = 0
        self.ended_by = ""
        # What the last decision did, for the image: seat, notation, route (city ids).
        self.last: dict[str, Any] | None = None
        # Events of setup and round-1 loading (not persisted; new_game has no other way to return them).

    # ------------------------------------------------------------------ basic queries

    @property
    def round_limit(self) -> int:
        return int(self.options.get("round_limit", 40))

    def train_ids(self) -> range:
        return range(1, self.num_seats + 1)

    def passengers(self, train_id: int) -> int:
        cars = TRAINS[train_id - 1].cars
        return sum(n for car, n in zip(cars, self.loads[train_id - 1], strict=True) if car.passenger)

    def freight(self, train_id: int) -> int:
        cars = TRAINS[train_id - 1].cars
        return sum(n for car, n in zip(cars, self.loads[train_id - 1], strict=True) if not car.passenger)

    def cities_of(self, seat: int) -> list[str]:
        """The seat's connected cities (London not included), by id."""
        return sorted(c for c, s in self.owners.items() if s == seat)

    def gold_of(self, seat: int) -> int:
        return sum(CITIES[c].gold for c in self.cities_of(seat))

    def builder_train(self) -> int | None:
        if self.phase != "build" or self.build_pos >= len(self.order):
            return None
        return self.order[self.build_pos]

    def builder(self) -> int | None:
        train = self.builder_train()
        return None if train is None else self.owner[train - 1]

    def train_of(self, seat: int) -> int | None:
        """The train the seat won this round (after resolution)."""
        for train in self.train_ids():
            if self.owner[train - 1] == seat:
                return train
        return None

    def black_on_trains(self) -> int:
        return sum(sum(self.loads[t]) for t in range(self.num_seats) if self.load_colour[t] is None)

    def black_supply(self) -> int:
        return board.BLACK_CUBES - self.black_on_trains()

    def seat_cubes_on_train(self, seat: int) -> int:
        return sum(sum(self.loads[t]) for t in range(self.num_seats) if self.load_colour[t] == seat)

    def seat_bid(self, seat: int) -> int:
        return sum(b[1] for b in self.bids if b is not None and b[0] == seat)

    def holds_bid(self, seat: int) -> bool:
        return any(b is not None and b[0] == seat for b in self.bids)

    # ------------------------------------------------------------------ contract

    def to_act(self) -> frozenset[int]:
        if self.phase == "auction":
            return frozenset((self.bidder,))
        if self.phase == "build":
            builder = self.builder()
            return frozenset() if builder is None else frozenset((builder,))
        return frozenset()

    def legal_moves(self, seat: int) -> list[Move]:
        if seat not in self.to_act():
            return []
        # Sorted by notation as the engine contract asks (so `bid t1 10` comes before `bid t1 2`);
        # the bot's picker groups them by train anyway.
        if self.phase == "auction":
            return sorted(self._legal_bids(seat), key=str)
        connects: list[Move] = [Connect(city) for city in sorted(self.affordable(seat))]
        return sorted(connects + [DONE], key=str)

    def _legal_bids(self, seat: int) -> list[Move]:
        avail = self.available[seat]
        if avail == 0:
            # Guard only (D27): cannot happen, but a seat must still be able to take a train.
            free = [t for t in self.train_ids() if self.bids[t - 1] is None]
            return [Bid(free[0], 0)] if free else []
        moves: list[Move] = []
        for train in self.train_ids():
            bid = self.bids[train - 1]
            lowest = 1 if bid is None else bid[1] + 1
            moves.extend(Bid(train, amount) for amount in range(lowest, avail + 1))
        return moves

    def parse_move(self, text: str) -> Move:
        return parse(text)

    def apply(self, seat: int, move: Move | str) -> list[Event]:
        """As the base, with the spec's reasons when a seat acts out of turn."""
        if self.to_act() and seat not in self.to_act():
            # Parsed first, so unreadable text gets the reader's reason; the move's kind picks the wording.
            parsed = self.parse_move(move) if isinstance(move, str) else move
            if self.phase == "auction":
                raise IllegalMove(turn_to_bid(self.bidder))
            if not isinstance(parsed, Bid):
                raise IllegalMove(NOT_YOUR_BUILD)
            raise IllegalMove(turn_to_build(self.builder()))
        return super().apply(seat, move)

    # ------------------------------------------------------------------ routes and costs

    def routes(self, seat: int) -> dict[str, Route]:
        return board.routes_for(seat, self.owners)

    def payable(self, seat: int, people: int) -> tuple[int, int, int]:
        """(freight, available, spare passengers) that could pay a route after `people` passengers."""
        train = self.train_of(seat)
        p = 0 if train is None else self.passengers(train)
        f = 0 if train is None else self.freight(train)
        return f, self.available[seat], max(p - people, 0)

    def connect_problem(self, seat: int, city: str, route: Route | None) -> Msg | None:
        """Why the seat cannot connect the city now (one line), or None if it can."""
        name = CITIES[city].name
        if city == LONDON:
            return Msg("London cannot be connected.")
        if city in self.owners:
            return Msg("{city} already has a cube.", city=name)
        if route is None:
            return Msg("No route to {city}: every way there passes through an empty city.", city=name)
        train = self.train_of(seat)
        p = 0 if train is None else self.passengers(train)
        people = CITIES[city].people
        if people > p:
            return Plural("{city} needs {n} passenger; your train carries {p}.",
                          "{city} needs {n} passengers; your train carries {p}.", city=name, n=people, p=p)
        f, a, spare = self.payable(seat, people)
        if route.cost > f + a + spare:
            return Msg(
                "{city}'s route costs {cost}; you can pay at most {most} (freight {f}, available {a}, "
                "spare passengers {s}).", city=name, cost=route.cost, most=f + a + spare, f=f, a=a, s=spare,
            )
        return None

    def affordable(self, seat: int) -> dict[str, Route]:
        routes = self.routes(seat)
        return {c: r for c, r in routes.items() if self.connect_problem(seat, c, r) is None}

    def payment(self, seat: int, city: str, route: Route) -> dict[str, int]:
        """How a connection is paid (D14): people from passengers; route from freight, available, spare."""
        people = CITIES[city].people
        f, a, _spare = self.payable(seat, people)
        freight = min(f, route.cost)
        available = min(a, route.cost - freight)
        spare = route.cost - freight - available
        return {"passengers": people + spare, "freight": freight, "available": available}

    # ------------------------------------------------------------------ applying moves

    def _apply(self, seat: int, move: Move) -> list[Event]:
        if isinstance(move, Bid):
            events = self._bid(seat, move)
        elif isinstance(move, Connect):
            events = self._connect(seat, move.city)
        elif isinstance(move, Done):
            events = self._done(seat, forced=False)
        else:
            raise IllegalMove(Msg("Unknown move {move}.", move=str(move)))
        events.extend(self._advance())
        return events

    def _check_bid(self, seat: int, move: Bid) -> None:
        if self.phase != "auction":
            raise IllegalMove(turn_to_build(self.builder()))
        if seat != self.bidder:
            raise IllegalMove(turn_to_bid(self.bidder))
        if not 1 <= move.train <= self.num_seats:
            raise IllegalMove(Msg("Train {train} is not in play with {n} players.", train=move.train,
                                  n=self.num_seats))
        if self.available[seat] == 0:
            legal = self._legal_bids(seat)
            if move not in legal:
                raise IllegalMove(Msg("You have no available cubes: take {move}.", move=str(legal[0])))
            return
        if move.amount < 1:
            raise IllegalMove(Msg("A bid must be at least 1 cube."))
        bid = self.bids[move.train - 1]
        if bid is not None and move.amount <= bid[1]:
            raise IllegalMove(Msg("Train {train} already has a bid of {bid}; bid at least {least}.",
                                  train=move.train, bid=bid[1], least=bid[1] + 1))
        if move.amount > self.available[seat]:
            raise IllegalMove(Plural("You have only {n} available cube.", "You have only {n} available cubes.",
                                     n=self.available[seat]))

    def _bid(self, seat: int, move: Bid, forced: bool = False) -> list[Event]:
        self._check_bid(seat, move)
        old = self.bids[move.train - 1]
        self.available[seat] -= move.amount
        self.bids[move.train - 1] = [seat, move.amount]
        said = dict(who=Seat(seat), bid=move.amount, train=move.train)
        if old is not None:
            self.available[old[0]] += old[1]
            said.update(other=Seat(old[0]), n=old[1])
            if forced:
                text = Plural("{who} has one legal bid: {bid} on t{train}; {other}'s {n} cube returns.",
                              "{who} has one legal bid: {bid} on t{train}; {other}'s {n} cubes return.", **said)
            else:
                text = Plural("{who} bids {bid} on t{train}; {other}'s {n} cube returns.",
                              "{who} bids {bid} on t{train}; {other}'s {n} cubes return.", **said)
        elif forced:
            text = Msg("{who} has one legal bid: {bid} on t{train}.", **said)
        else:
            text = Msg("{who} bids {bid} on t{train}.", **said)
        self.last = {"seat": seat, "move": str(move), "route": []}
        events = [public(text)]
        # The next bidder is the first seat after this one, in seat order, that holds no bid.
        for step in range(1, self.num_seats + 1):
            candidate = (seat + step) % self.num_seats
            if not self.holds_bid(candidate):
                self.bidder = candidate
                break
        else:
            events.extend(self._resolve())
        return events

    def _connect(self, seat: int, city: str) -> list[Event]:
        if self.phase == "auction":
            raise IllegalMove(AUCTION_FIRST)
        if seat != self.builder():
            raise IllegalMove(NOT_YOUR_BUILD)
        if city not in CITIES:  # a hand-built move: the reader only ever names a real city
            raise IllegalMove(Msg("There is no city called '{text}'.", text=quote(str(city))))
        route = self.routes(seat).get(city)
        problem = self.connect_problem(seat, city, route)
        if problem is not None:
            raise IllegalMove(problem)
        assert route is not None
        pay = self.payment(seat, city, route)
        train = self.train_of(seat)
        assert train is not None
        self._take_from_train(train, passenger=True, count=pay["passengers"])
        self._take_from_train(train, passenger=False, count=pay["freight"])
        self.available[seat] -= pay["available"]
        spent = pay["passengers"] + pay["freight"] + pay["available"]
        self.unavailable[seat] += spent - 1  # one cube stays on the city
        self.owners[city] = seat
        self.last = {"seat": seat, "move": f"connect {city}", "route": list(route.path)}
        events = [public(connected(seat, city, route.path, route.links, route.fees, pay))]
        if all(c in self.owners for c in CONNECTABLE):
            events.extend(self._end_all_connected())
        return events

    def _take_from_train(self, train_id: int, passenger: bool, count: int) -> None:
        """Remove cubes from the rearmost cars of the kind first (only the picture depends on it)."""
        cars = TRAINS[train_id - 1].cars
        loads = self.loads[train_id - 1]
        for position in reversed(range(len(cars))):
            if count == 0:
                break
            if cars[position].passenger == passenger:
                taken = min(count, loads[position])
                loads[position] -= taken
                count -= taken
        assert count == 0, "payment took more cubes than the train carries"

    def _done(self, seat: int, forced: bool) -> list[Event]:
        if self.phase == "auction":
            raise IllegalMove(AUCTION_FIRST)
        if seat != self.builder():
            raise IllegalMove(NOT_YOUR_BUILD)
        train = self.builder_train()
        assert train is not None
        left = sum(self.loads[train - 1])
        self.available[seat] += left
        self.loads[train - 1] = [0] * 5
        self.build_pos += 1
        said = dict(who=Seat(seat), n=left, train=train)
        if forced and left:
            text = Plural("{who} cannot afford any city (done); {n} cube from t{train} returns to available.",
                          "{who} cannot afford any city (done); {n} cubes from t{train} return to available.",
                          **said)
        elif forced:
            text = Msg("{who} cannot afford any city (done).", who=Seat(seat))
        elif left:
            text = Plural("{who} is done; {n} cube from t{train} returns to available.",
                          "{who} is done; {n} cubes from t{train} return to available.", **said)
        else:
            text = Msg("{who} is done.", who=Seat(seat))
        if not forced:
            self.last = {"seat": seat, "move": "done", "route": []}
        return [public(text)]

    # ------------------------------------------------------------------ automatic steps

    def _advance(self) -> list[Event]:
        """Run forced moves and automatic steps until a real decision is awaited (D24)."""
        events: list[Event] = []
        while True:
            if self.phase == "auction":
                legal = self._legal_bids(self.bidder)
                if len(legal) != 1:
                    return events
                move = legal[0]
                assert isinstance(move, Bid)
                events.extend(self._bid(self.bidder, move, forced=True))
            elif self.phase == "build":
                builder = self.builder()
                if builder is None:
                    events.extend(self._income())
                elif not self.affordable(builder):
                    events.extend(self._done(builder, forced=True))
                else:
                    return events
            else:
                return events

    def _load(self, dice_by_train: Mapping[int, list[int]] | None = None) -> list[Event]:
        """5.1: roll 3 dice per train in play, put black cubes, fix the build order.

        `dice_by_train` replaces the roll (tests build the spec's positions with it).
        """
        events = []
        for train in self.train_ids():
            spec = TRAINS[train - 1]
            if dice_by_train is None:
                dice = [self.rng.randint(1, 6) for _ in range(board.DICE_PER_TRAIN)]
            else:
                dice = list(dice_by_train[train])
            loads = [0] * 5
            for die in dice:
                if die >= 2:
                    loads[spec.position_of(die)] += 1
            index = train - 1
            self.dice[index] = dice
            self.loads[index] = loads
            self.load_colour[index] = None
            self.keys[index] = board.build_key(spec, loads)
            self.bids[index] = None
            self.owner[index] = None
            self.paid[index] = 0
            cars = [car_load(car.number, car.passenger, n) for car, n in zip(spec.cars, loads, strict=True) if n]
            said = dict(train=train, dice=" ".join(map(str, dice)),
                        cars=Items(cars, "and", english=", ") if cars else Msg("nothing"))
            if train == 1:
                events.append(public(Msg("Round {n} — t{train} rolls {dice}: {cars}.", n=self.round, **said)))
            else:
                events.append(public(Msg("t{train} rolls {dice}: {cars}.", **said)))
        self.order = board.build_order({t: self.keys[t - 1] for t in self.train_ids()})
        self.phase = "auction"
        self.bidder = self.start_player
        self.build_pos = 0
        trains = Items(["t" + str(t) for t in self.order], "comma")
        events.append(public(Msg("Build order: {trains}.", trains=trains)))
        return events

    def _resolve(self) -> list[Event]:
        """5.3: winning bids to the unavailable stock, then each winner reloads its train (D10)."""
        won = []
        for train, bid in zip(self.train_ids(), self.bids, strict=True):
            if bid:
                notation = f"t{train}"  # a value, never a word of the catalog
                won.append(Msg("{train} {who} {n}", train=notation, who=Seat(bid[0]), n=bid[1]))
        events = [public(Msg("Auction: {bids}.", bids=Items(won, "comma")))]
        for index, bid in enumerate(self.bids):
            assert bid is not None
            self.owner[index] = bid[0]
            self.paid[index] = bid[1]
            self.unavailable[bid[0]] += bid[1]
            self.bids[index] = None
        for train in self.train_ids():
            index = train - 1
            seat = self.owner[index]
            assert seat is not None
            cars = TRAINS[index].cars
            new = [0] * 5
            lost = 0
            refill = [p for p in range(5) if cars[p].passenger] + [
                p for p in range(5) if not cars[p].passenger
            ]
            for position in refill:
                for _ in range(self.loads[index][position]):
                    if self.unavailable[seat] > 0:
                        self.unavailable[seat] -= 1
                        new[position] += 1
                    else:
                        lost += 1
            self.loads[index] = new
            self.load_colour[index] = seat
            if lost:
                events.append(public(Plural("{who}'s {n} unreplaced black cube is lost.",
                                            "{who}'s {n} unreplaced black cubes are lost.", who=Seat(seat), n=lost)))
        self.phase = "build"
        self.build_pos = 0
        return events

    def _income(self) -> list[Event]:
        """5.5: income from the track, limited by the unavailable stock; then round end or next round."""
        parts, short = [], []
        for seat in range(self.num_seats):
            due = board.income_for(1 + len(self.cities_of(seat)))
            got = min(due, self.unavailable[seat])
            self.unavailable[seat] -= got
            self.available[seat] += got
            gain = f"+{got}"
            parts.append(Msg("{who} {n}", who=Seat(seat), n=gain))
            if got < due:
                short.append(Msg("{who} {n}", who=Seat(seat), n=due - got))
        events = [public(Msg("Income: {list}.", list=Items(parts, "comma")))]
        if short:
            events.append(public(Msg("Income lost for lack of unavailable cubes: {list}.", list=Items(short, "comma"))))
        last_train = self.order[-1]
        if self.round_limit and self.round >= self.round_limit:
            self.phase = "over"
            self.ended_by = "round limit"
            events.append(public(Msg("Round {n} was the last round (round limit): the game ends.", n=self.round)))
            events.extend(self._final_events())
            return events
        self.start_player = self.owner[last_train - 1] or 0
        self.round += 1
        events.append(public(Msg("{who} moved the last train (t{train}) and starts round {n}.",
                                 who=Seat(self.start_player), train=last_train, n=self.round)))
        events.extend(self._load())
        return events

    def _end_all_connected(self) -> list[Event]:
        """D22: the last empty city is filled; loaded trains go back to their owners' available pools."""
        for index in range(self.num_seats):
            seat = self.load_colour[index]
            if seat is not None:
                self.available[seat] += sum(self.loads[index])
            self.loads[index] = [0] * 5
        self.phase = "over"
        self.ended_by = "all cities connected"
        return [public(Msg("Every city is connected: the game ends at once (no income)."))] + self._final_events()

    def _final_events(self) -> list[Event]:
        result = self.result()
        assert result is not None
        standings = [Msg("{rank} {who} {gold} gold ({cubes} cubes off the board)", rank=ordinal(s.rank),
                         who=Seat(s.seat), gold=s.score, cubes=s.details["cubes_off_board"]) for s in result.seats]
        return [public(Msg("Final: {standings}.", standings=Items(standings, "comma")))]

    # ------------------------------------------------------------------ end

    def result(self) -> Result | None:
        if self.phase != "over":
            return None
        return final_result(self.num_seats, self.owners, self.available, self.unavailable, self.ended_by)

    def timeout_move(self, seat: int) -> Move | None:
        # Building nothing is always allowed (D16); the auction has no pass.
        if self.phase == "build" and seat == self.builder():
            return DONE
        return None

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None) -> dict[str, Any]:
        data = self.base_view(seat)
        data.update(
            {
                "round": self.round,
                "phase": self.phase,
                "start_player": self.start_player,
                "round_limit": self.round_limit,
                "owners": {c: s for c, s in sorted(self.owners.items())},
                "build_order": list(self.order),
                "black_supply": self.black_supply(),
                "bidder": self.bidder if self.phase == "auction" else None,
                "builder": self.builder(),
                "last": None if self.last is None else dict(self.last, route=list(self.last["route"])),
                "trains": [self._train_view(t) for t in range(1, len(TRAINS) + 1)],
                "seats": [self._seat_view(s) for s in range(self.num_seats)],
                "result": None,
            }
        )
        if seat is not None:
            data["you"] = seat
        builder = self.builder()
        if builder is not None:
            data["connect_options"], data["unaffordable"] = self._options_view(builder)
        else:
            data["connect_options"], data["unaffordable"] = [], []
        result = self.result()
        if result is not None:
            data["result"] = result.to_json()
        return data

    def _train_view(self, train: int) -> dict[str, Any]:
        spec = TRAINS[train - 1]
        in_play = train <= self.num_seats
        index = train - 1
        loads = self.loads[index] if in_play else [0] * 5
        colour = self.load_colour[index] if in_play else None
        bid = self.bids[index] if in_play else None
        return {
            "id": train,
            "in_play": in_play,
            "dice": list(self.dice[index]) if in_play else [],
            "cars": [
                {
                    "number": car.number,
                    "kind": car.kind,
                    "cubes": n,
                    "colour": "black" if colour is None else colour,
                }
                for car, n in zip(spec.cars, loads, strict=True)
            ],
            "bid": None if bid is None else {"seat": bid[0], "amount": bid[1]},
            "owner": self.owner[index] if in_play else None,
            "paid": self.paid[index] if in_play else 0,
            "passengers": self.passengers(train) if in_play else 0,
            "freight": self.freight(train) if in_play else 0,
            "key": list(self.keys[index]) if in_play else [],
            "build_rank": self.order.index(train) + 1 if train in self.order else None,
            "building": self.builder_train() == train,
            "built": in_play and self.phase == "build" and train in self.order[: self.build_pos],
        }

    def _seat_view(self, seat: int) -> dict[str, Any]:
        cities = self.cities_of(seat)
        return {
            "seat": seat,
            "available": self.available[seat],
            "unavailable": self.unavailable[seat],
            "cities": [LONDON] + cities,
            "city_count": 1 + len(cities),
            "next_income": board.income_for(1 + len(cities)),
            "gold": self.gold_of(seat),
            "off_board": self.available[seat] + self.unavailable[seat],
            "on_train": self.seat_cubes_on_train(seat),
            "in_bid": self.seat_bid(seat),
            "train": self.train_of(seat),
        }

    def _options_view(self, seat: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        options, blocked = [], []
        routes = self.routes(seat)
        for city in CONNECTABLE:
            if city in self.owners:
                continue
            route = routes.get(city)
            problem = self.connect_problem(seat, city, route)
            if route is None:
                continue
            if problem is None:
                options.append(
                    {
                        "city": city,
                        "route": list(route.path),
                        "links": route.links,
                        "fees": route.fees,
                        "route_cost": route.cost,
                        "people": CITIES[city].people,
                        "gold": CITIES[city].gold,
                        "pay": self.payment(seat, city, route),
                    }
                )
            else:
                blocked.append({"city": city, "route_cost": route.cost, "reason": str(problem),
                                "why": problem.to_json()})
        return options, blocked

    # ------------------------------------------------------------------ sampled worlds (search AI)

    def determinize(self, seat: int, rng: random.Random) -> GreatWesternState:
        """Nothing is secret in this game but the future dice: a copy with a new RNG."""
        world = self.reseeded_copy(rng)
        assert isinstance(world, GreatWesternState)
        return world

    # ------------------------------------------------------------------ persistence

    def to_json(self) -> dict[str, Any]:
        return {
            **self.base_json(),
            "round": self.round,
            "phase": self.phase,
            "start_player": self.start_player,
            "owners": dict(sorted(self.owners.items())),
            "available": list(self.available),
            "unavailable": list(self.unavailable),
            "dice": [list(d) for d in self.dice],
            "loads": [list(x) for x in self.loads],
            "load_colour": list(self.load_colour),
            "keys": [list(k) for k in self.keys],
            "bids": [None if b is None else list(b) for b in self.bids],
            "owner": list(self.owner),
            "paid": list(self.paid),
            "order": list(self.order),
            "bidder": self.bidder,
            "build_pos": self.build_pos,
            "ended_by": self.ended_by,
            "last": None if self.last is None else dict(self.last, route=list(self.last["route"])),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GreatWesternState:
        state = cls.from_base_json(data)
        state.round = int(data["round"])
        state.phase = str(data["phase"])
        state.start_player = int(data["start_player"])
        state.owners = {str(c): int(s) for c, s in data["owners"].items()}
        state.available = [int(x) for x in data["available"]]
        state.unavailable = [int(x) for x in data["unavailable"]]
        state.dice = [[int(x) for x in d] for d in data["dice"]]
        state.loads = [[int(x) for x in d] for d in data["loads"]]
        state.load_colour = [None if c is None else int(c) for c in data["load_colour"]]
        state.keys = [[int(x) for x in k] for k in data["keys"]]
        state.bids = [None if b is None else [int(b[0]), int(b[1])] for b in data["bids"]]
        state.owner = [None if o is None else int(o) for o in data["owner"]]
        state.paid = [int(x) for x in data["paid"]]
        state.order = [int(x) for x in data["order"]]
        state.bidder = int(data["bidder"])
        state.build_pos = int(data["build_pos"])
        state.ended_by = str(data["ended_by"])
        last = data.get("last")
        state.last = (
            None
            if last is None
            else {"seat": int(last["seat"]), "move": str(last["move"]), "route": list(last["route"])}
        )
        return state
