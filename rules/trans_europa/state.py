"""Trans Europa game state: rounds, markers, track laying, completion, round end, views.

Conventions: internally junctions and lines are board indices (see `board`); every text, view
and notation uses junction tokens (city id, else `<row letter><col>`). In views and JSON every
dict keyed by seat uses str(seat) keys ("0", "1", ...), e.g. `markers`, `scores`,
`coloured_left`, `networks`, and the history's `hands`, `penalties`, `scores_before`/`after`.
Views follow spec section 12, plus `last_tracks` (the newest turn's tracks, also stored per
finished round in the history). A seat's `tracks_needed` before its marker is down is the cost
of its five cities alone (the best any marker could do). At game end the last board stays on show.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from rules.engine import (
    Event,
    GameState,
    IllegalMove,
    Move,
    Result,
    private,
    public,
)
from rules.trans_europa import board
from rules.trans_europa.moves import End, Lay, Pass, Start, Vex, parse
from rules.trans_europa.scoring import final_result, penalty, seat_lines
from rules.trans_europa.setup import deal, piles_for
from rules.words import Items, Msg, Plural, Seat

BLACK_TRACKS: int = board.COMPONENTS["black_tracks"]
COLOURED_PER_SEAT: int = board.COMPONENTS["coloured_tracks_per_player"]
# Junction index pairs (a, b, c) where c neighbours both ends of line a-b: used by the D19 shortcut.
_TRIANGLES: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        c
        for c in {u for u, _ in board.ADJACENCY[e.a]} & {u for u, _ in board.ADJACENCY[e.b]}
    )
    for e in board.EDGES
)


NO_VEXATION = Msg("The coloured-track variant is not in use.")
LAY_ONE = Msg("You must lay at least one track.")


def city_entry(city_id: str) -> dict[str, Any]:
    """A revealed card as views show it."""
    city = board.CITY_BY_ID[city_id]
    return {"id": city.id, "name": city.name, "colour": city.colour,
            "junction": board.JUNCTIONS[city.junction].id}


def city_list(city_ids: list[str]) -> Items:
    """Cities as the board prints them (names, never translated), listed the reader's way."""
    return Items([board.CITY_BY_ID[c].name for c in city_ids], "comma")


def line_text(edge: int) -> str:
    e = board.EDGES[edge]
    return f"{board.display(e.a)}–{board.display(e.b)}"


class TransEuropaState(GameState):
    """One game of Trans Europa."""

    key = "trans_europa"

    def __init__(self, num_seats: int, options: Mapping[str, Any], seed: int) -> None:
        super().__init__(num_seats, options, seed)
        self.piles: dict[str, list[str]] = piles_for(num_seats)  # in play for the whole game (D3)
        self.round = 0
        self.start_seat = 0
        self.phase = "markers"
        self.active_seat = 0
        self.step = 1
        self.hands: list[list[str]] = [[] for _ in range(num_seats)]
        self.markers: list[int | None] = [None] * num_seats
        self.tracks: dict[int, int | None] = {}  # line -> owner (None = black), in laying order
        self.black_left = BLACK_TRACKS
        self.coloured_left = [COLOURED_PER_SEAT if self.vexation else 0] * num_seats
        self.completed: list[int] = []
        self.scores = [int(self.options["start_score"])] * num_seats
        self.history: list[dict[str, Any]] = []
        self.last_tracks: list[int] = []
        self._cache: dict[Any, Any] = {}

    # ------------------------------------------------------------------ setup

    @property
    def vexation(self) -> bool:
        return bool(self.options.get("vexation"))

    def start_game(self) -> list[Event]:
        first = self.rng.randrange(self.num_seats) if self.options["first_player"] == "random" else 0
        return self._start_round(first)

    def _start_round(self, start_seat: int) -> list[Event]:
        """5.1: clear the board, deal one city per colour to each seat in turn order."""
        self.round += 1
        self.start_seat = start_seat
        self.phase = "markers"
        self.active_seat = start_seat
        self.step = 1
        self.markers = [None] * self.num_seats
        self.tracks = {}
        self.black_left = BLACK_TRACKS
        self.completed = []
        self.last_tracks = []
        if self.vexation and self.options["vexation_refill"] == "round":
            self.coloured_left = [COLOURED_PER_SEAT] * self.num_seats
        self.hands = deal(self.rng, self.piles, self.num_seats, start_seat)
        self._cache = {}
        events = [public(Msg("Round {round}: cities dealt; {who} starts.", round=self.round, who=Seat(start_seat)))]
        for seat in range(self.num_seats):
            events.append(private(seat, Msg("Your cities in round {round}: {cities}.", round=self.round,
                                            cities=city_list(self.hands[seat]))))
        return events

    # ------------------------------------------------------------------ sampled worlds (search AI)

    def determinize(self, seat: int, rng: random.Random) -> TransEuropaState:
        """Unrevealed hands of the other seats and the RNG resampled, consistently with the board.

        Each such hand gets one city per colour from the cards `seat` has not seen (its own hand and the
        hands revealed by completing are seen), and never a hand its network already joins: that seat
        would have completed. Candidates are sorted before `rng` picks, so the worlds depend only on what
        `seat` knows.
        """
        world = self.reseeded_copy(rng)
        assert isinstance(world, TransEuropaState)
        hidden = [s for s in range(self.num_seats) if s != seat and s not in self.completed]
        seen = {c for s in range(self.num_seats) if s not in hidden for c in self.hands[s]}
        unseen = {colour: sorted(c for c in pile if c not in seen) for colour, pile in self.piles.items()}
        taken: set[str] = set()
        for other in hidden:
            for _attempt in range(20):
                hand = [rng.choice([c for c in unseen[colour] if c not in taken]) for colour in board.COLOUR_KEYS]
                world.hands[other] = hand
                world._cache = {}
                if not world.is_complete(other):
                    break
            taken.update(world.hands[other])
        world._cache = {}
        return world

    # ------------------------------------------------------------------ derived facts

    def turn_order(self, first: int) -> list[int]:
        return [(first + i) % self.num_seats for i in range(self.num_seats)]

    def _usable(self, seat: int, edge: int) -> bool:
        if edge not in self.tracks:
            return False
        owner = self.tracks[edge]
        return owner is None or owner == seat

    def network(self, seat: int) -> frozenset[int]:
        """Junctions reachable from the seat's marker over lines it may use (D6, D17)."""
        key = ("net", seat)
        if key not in self._cache:
            marker = self.markers[seat]
            reached: set[int] = set()
            if marker is not None:
                reached.add(marker)
                todo = [marker]
                tracks = self.tracks
                while todo:
                    v = todo.pop()
                    for u, e in board.ADJACENCY[v]:
                        if u not in reached and e in tracks and tracks[e] in (None, seat):
                            reached.add(u)
                            todo.append(u)
            self._cache[key] = frozenset(reached)
        return self._cache[key]

    def hand_junctions(self, seat: int) -> list[int]:
        return [board.CITY_BY_ID[c].junction for c in self.hands[seat]]

    def is_complete(self, seat: int) -> bool:
        """D7: marker and all five cities in one network of the seat."""
        marker = self.markers[seat]
        if marker is None:
            return False
        cities = self.hand_junctions(seat)
        # Cheap rejection first: a city (other than the marker's) with no usable line at all.
        for v in cities:
            if v != marker and not any(self._usable(seat, e) for _u, e in board.ADJACENCY[v]):
                return False
        net = self.network(seat)
        return all(v in net for v in cities)

    def board_for(self, seat: int) -> tuple[frozenset[int], frozenset[int]]:
        """(lines costing 0, lines blocked) for the seat's penalty (D12)."""
        return seat_lines(self.tracks, seat)

    def penalty(self, seat: int) -> int:
        """Exact tracks the seat still needs (D12); before its marker is down, the cities alone."""
        return penalty(self.hand_junctions(seat), self.markers[seat], self.tracks, seat)

    def coloured_count(self) -> dict[int, int]:
        counts: dict[int, int] = {}
        for e, owner in self.tracks.items():
            if owner is not None:
                edge = board.EDGES[e]
                counts[edge.a] = counts.get(edge.a, 0) + 1
                counts[edge.b] = counts.get(edge.b, 0) + 1
        return counts

    def _blockade(self, mover: int, edge: int) -> tuple[int, str] | None:
        """D19: (seat, city id) that a coloured track of `mover` on `edge` would cut off, else None."""
        line = board.EDGES[edge]
        for q in self.turn_order(mover)[1:]:
            marker = self.markers[q]
            if marker is None:
                continue

            def open_for_q(e: int, q: int = q) -> bool:
                owner = self.tracks.get(e)
                return owner is None or owner == q

            # If a and b stay joined around one of the line's triangles, q's pieces are unchanged.
            if any(open_for_q(board.EDGE_INDEX[(line.a, c)]) and open_for_q(board.EDGE_INDEX[(c, line.b)])
                   for c in _TRIANGLES[edge]):
                continue
            reached = {marker}
            todo = [marker]
            while todo:
                v = todo.pop()
                for u, e in board.ADJACENCY[v]:
                    if u not in reached and e != edge and open_for_q(e):
                        reached.add(u)
                        todo.append(u)
            for city in board.CITIES:
                if city.junction not in reached:
                    return q, city.id
        return None

    # ------------------------------------------------------------------ moves

    def to_act(self) -> frozenset[int]:
        return frozenset() if self.phase == "game_over" else frozenset((self.active_seat,))

    def _candidates(self, seat: int) -> list[int]:
        """Empty lines touching the seat's network, in line order."""
        key = ("cand", seat)
        if key not in self._cache:
            found: set[int] = set()
            for v in self.network(seat):
                for _u, e in board.ADJACENCY[v]:
                    if e not in self.tracks:
                        found.add(e)
            self._cache[key] = sorted(found)
        return self._cache[key]

    def _vex_problem(self, seat: int, edge: int, counts: dict[int, int]) -> Msg | None:
        """Why a coloured track on this empty, touching line is refused (limits, D18, D19)."""
        if self.coloured_left[seat] <= 0:
            return Msg("You have no coloured tracks left.")
        line = board.EDGES[edge]
        for v in (line.a, line.b):
            if counts.get(v, 0) >= 2:
                return Msg("{junction} already has 2 coloured tracks.", junction=board.display(v))
        cut = self._blockade(seat, edge)
        if cut is not None:
            q, city = cut
            return Msg("That coloured track would cut {city} off from {who}'s start marker.",
                       city=board.CITY_BY_ID[city].name, who=Seat(q))
        return None

    def _moves(self, seat: int) -> Iterator[Move]:
        """Legal moves of the active seat, unsorted; cheap ones first (for the forced-move test)."""
        if self.phase == "markers":
            taken = set(self.markers)
            for v in range(len(board.JUNCTIONS)):
                if v not in taken:
                    yield Start(v)
            return
        if self.step == 2:
            yield End()
        candidates = [e for e in self._candidates(seat) if self.step == 1 or board.EDGES[e].cost == 1]
        any_move = False
        if self.black_left > 0:
            for e in candidates:
                any_move = True
                yield Lay(e)
        if self.vexation and self.coloured_left[seat] > 0:
            counts = self.coloured_count()
            for e in candidates:
                if self._vex_problem(seat, e, counts) is None:
                    any_move = True
                    yield Vex(e)
        if self.step == 1 and not any_move:
            yield Pass()

    def legal_moves(self, seat: int) -> list[Move]:
        if seat not in self.to_act():
            return []
        return sorted(self._moves(seat), key=str)  # each move is generated once

    def timeout_move(self, seat: int) -> Move | None:
        """Only the optional second track may be skipped; markers and first tracks may not."""
        if seat in self.to_act() and self.phase == "building" and self.step == 2:
            return End()
        return None

    def parse_move(self, text: str) -> Move:
        move = parse(text)
        if isinstance(move, Vex) and not self.vexation:
            raise IllegalMove(NO_VEXATION)
        return move

    def _check(self, seat: int, move: Move) -> None:
        """Raise IllegalMove with the spec's reason if the active seat may not play `move` now."""
        if isinstance(move, Start):
            if not 0 <= move.junction < len(board.JUNCTIONS):
                raise IllegalMove(Msg("There is no such junction."))
            if self.phase != "markers":
                raise IllegalMove(Msg("All start markers are placed; lay a track."))
            if move.junction in self.markers:
                raise IllegalMove(Msg("A start marker already stands on {junction}.",
                                      junction=board.display(move.junction)))
            return
        if isinstance(move, Vex) and not self.vexation:
            raise IllegalMove(NO_VEXATION)
        if self.phase == "markers":
            raise IllegalMove(Msg("Place your start marker first."))
        if isinstance(move, End):
            if self.step == 1:
                raise IllegalMove(LAY_ONE)
            return
        if isinstance(move, Pass):
            if list(self._moves(seat)) != [Pass()]:
                raise IllegalMove(LAY_ONE if self.step == 1 else Msg("Lay a single line or end your turn."))
            return
        if not isinstance(move, Lay | Vex):
            raise IllegalMove(Msg("Unknown move."))
        edge = move.edge
        if not 0 <= edge < len(board.EDGES):
            raise IllegalMove(Msg("There is no such line."))
        if edge in self.tracks:
            raise IllegalMove(Msg("{line} already has a track.", line=line_text(edge)))
        if self.step == 2 and board.EDGES[edge].cost == 2:
            raise IllegalMove(Msg("A double line needs a whole turn; you have already laid a track."))
        line = board.EDGES[edge]
        net = self.network(seat)
        if line.a not in net and line.b not in net:
            raise IllegalMove(Msg("That line does not touch your network."))
        if isinstance(move, Lay):
            if self.black_left <= 0:
                raise IllegalMove(Msg("No black tracks are left."))
            return
        problem = self._vex_problem(seat, edge, self.coloured_count())
        if problem is not None:
            raise IllegalMove(problem)

    def _apply(self, seat: int, move: Move) -> list[Event]:
        self._check(seat, move)
        events = self._do(seat, move)
        events += self._forced()
        return events

    def _forced(self) -> list[Event]:
        """D22: while the seat to act has exactly one legal move, apply it and log it."""
        events: list[Event] = []
        while self.phase != "game_over":
            seat = self.active_seat
            first_two = []
            for move in self._moves(seat):
                first_two.append(move)
                if len(first_two) == 2:
                    break
            if len(first_two) != 1:
                break
            move = first_two[0]
            if isinstance(move, End):
                events.append(public(Msg("{who} cannot lay a second track; the turn ends.", who=Seat(seat))))
            elif isinstance(move, Pass):
                events.append(public(Msg("{who} cannot lay any track and passes.", who=Seat(seat))))
            else:
                events.append(public(Msg("{who} has only one legal move: {move}.", who=Seat(seat), move=str(move))))
            events += self._do(seat, move)
        return events

    def _do(self, seat: int, move: Move) -> list[Event]:
        """Apply a checked move and everything automatic that follows it."""
        who = Seat(seat)
        if isinstance(move, Start):
            self.markers[seat] = move.junction
            self._cache = {}
            events = [public(Msg("{who} places the start marker on {junction}.", who=who,
                                 junction=board.display(move.junction)))]
            if None in self.markers:
                self.active_seat = (seat + 1) % self.num_seats
            else:
                self.phase = "building"
                self.active_seat = self.start_seat
                self.step = 1
                events.append(public(Msg("All start markers are placed; {who} lays first.", who=Seat(self.start_seat))))
            return events
        if isinstance(move, End | Pass):
            return self._end_turn(seat)
        assert isinstance(move, Lay | Vex)
        edge = move.edge
        double = board.EDGES[edge].cost == 2
        if isinstance(move, Lay):
            self.tracks[edge] = None
            self.black_left -= 1
            if double:
                text = Msg("{who} lays a double line {line}; {n} black tracks left.", who=who, line=line_text(edge),
                           n=self.black_left)
            else:
                text = Msg("{who} lays a track {line}; {n} black tracks left.", who=who, line=line_text(edge),
                           n=self.black_left)
            events = [public(text)]
        else:
            self.tracks[edge] = seat
            self.coloured_left[seat] -= 1
            events = [public(Msg("{who} lays a coloured track {line}; {n} coloured left.", who=who,
                                 line=line_text(edge), n=self.coloured_left[seat]))]
        self._cache = {}
        if self.step == 1:
            self.last_tracks = [edge]
        else:
            self.last_tracks.append(edge)
        for q in self.turn_order(seat):
            if q not in self.completed and self.is_complete(q):
                self.completed.append(q)
                events.append(public(Msg("{who} has joined all five cities: {cities}.", who=Seat(q),
                                         cities=city_list(self.hands[q]))))
        if self.black_left == 0:
            events.append(public(Msg("The last black track is laid.")))
            return events + self._end_round()
        if double or self.step == 2:
            return events + self._end_turn(seat)
        self.step = 2
        return events

    def _end_turn(self, seat: int) -> list[Event]:
        if self.completed:
            return self._end_round()
        self.active_seat = (seat + 1) % self.num_seats
        self.step = 1
        return []

    def _end_round(self) -> list[Event]:
        """5.5: reveal, score the exact penalties, store the round, then next round or game over."""
        events = [public(Msg("Round {round} ends.", round=self.round))]
        for seat in range(self.num_seats):
            events.append(public(Msg("{who}'s cities: {cities}.", who=Seat(seat), cities=city_list(self.hands[seat]))))
        penalties = {seat: 0 if seat in self.completed else self.penalty(seat) for seat in range(self.num_seats)}
        before = list(self.scores)
        for seat in range(self.num_seats):
            p = penalties[seat]
            self.scores[seat] -= p
            sum_text = f"{before[seat]} − {p} = {self.scores[seat]}"
            events.append(public(Plural("{who} needs {n} track: {sum}.", "{who} needs {n} tracks: {sum}.",
                                        who=Seat(seat), n=p, sum=sum_text)))
        self.history.append({
            "round": self.round,
            "start_seat": self.start_seat,
            "hands": {str(s): [city_entry(c) for c in self.hands[s]] for s in range(self.num_seats)},
            "markers": self._markers_view(),
            "tracks": self._tracks_view(),
            "last_tracks": self._tracks_view(self.last_tracks),
            "completed": list(self.completed),
            "penalties": {str(s): penalties[s] for s in range(self.num_seats)},
            "scores_before": {str(s): before[s] for s in range(self.num_seats)},
            "scores_after": {str(s): self.scores[s] for s in range(self.num_seats)},
        })
        if min(self.scores) <= 0:
            self.phase = "game_over"
            self._cache = {}
            result = self.result()
            assert result is not None
            winners = [s.seat for s in result.seats if s.rank == 1]
            names = Items([Seat(s) for s in winners], "and", english=" and ")
            best = self.scores[winners[0]]
            events.append(public(Msg("The game is over: {who} wins with {score}.", who=names, score=best)
                                 if len(winners) == 1 else
                                 Msg("The game is over: {who} win with {score}.", who=names, score=best)))
            return events
        return events + self._start_round((self.start_seat + 1) % self.num_seats)

    # ------------------------------------------------------------------ results and views

    def result(self) -> Result | None:
        if self.phase != "game_over":
            return None
        return final_result(self.scores, self.history, self.round)

    def _markers_view(self) -> dict[str, str]:
        return {str(s): board.token(v) for s, v in enumerate(self.markers) if v is not None}

    def _tracks_view(self, edges: list[int] | None = None) -> list[dict[str, Any]]:
        out = []
        for e in self.tracks if edges is None else edges:
            a, b = board.edge_tokens(e)
            out.append({"a": a, "b": b, "owner": self.tracks.get(e)})
        return out

    def view(self, seat: int | None) -> dict[str, Any]:
        return self._view(seat, hints=True)

    def view_without_hints(self, seat: int) -> dict[str, Any]:
        """The seat's view without D23's hint (tracks still needed: an exact Steiner tree, milliseconds)."""
        return self._view(seat, hints=False)

    def _view(self, seat: int | None, hints: bool) -> dict[str, Any]:
        data = self.base_view(seat)
        over = self.phase == "game_over"  # the last round's board stays on show at game end
        result = self.result()
        data.update({
            "round": self.round,
            "start_seat": self.start_seat,
            "phase": self.phase,
            "active_seat": None if over else self.active_seat,
            "step": self.step,
            "markers": self._markers_view(),
            "tracks": self._tracks_view(),
            "last_tracks": self._tracks_view(self.last_tracks),
            "black_left": self.black_left,
            "coloured_left": ({str(s): n for s, n in enumerate(self.coloured_left)} if self.vexation else {}),
            "coloured_count": {board.token(v): n for v, n in sorted(self.coloured_count().items())},
            "networks": {str(s): sorted(board.token(v) for v in self.network(s))
                                         for s in range(self.num_seats) if self.markers[s] is not None},
            "completed": [{"seat": s, "cities": [city_entry(c) for c in self.hands[s]]}
                                          for s in self.completed],
            "scores": {str(s): n for s, n in enumerate(self.scores)},
            "history": list(self.history),  # entries are never changed once stored
            "last_round": self.history[-1] if self.history else None,
            "options": dict(self.options),
            "result": None if result is None else result.to_json(),
        })
        if seat is not None:
            net = self.network(seat)
            data["hand"] = [{**city_entry(c), "connected": board.CITY_BY_ID[c].junction in net}
                            for c in self.hands[seat]]
            if hints and self.options["show_tracks_needed"]:
                data["tracks_needed"] = self.penalty(seat)
        return data

    # ------------------------------------------------------------------ persistence

    def to_json(self) -> dict[str, Any]:
        return {
            **self.base_json(),
            "piles": {c: list(p) for c, p in self.piles.items()},
            "round": self.round,
            "start_seat": self.start_seat,
            "phase": self.phase,
            "active_seat": self.active_seat,
            "step": self.step,
            "hands": [list(h) for h in self.hands],
            "markers": list(self.markers),
            "tracks": [[e, o] for e, o in self.tracks.items()],
            "black_left": self.black_left,
            "coloured_left": list(self.coloured_left),
            "completed": list(self.completed),
            "scores": list(self.scores),
            "history": list(self.history),  # entries are never changed once stored
            "last_tracks": list(self.last_tracks),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TransEuropaState:
        state = cls.from_base_json(data)
        state.piles = {c: list(p) for c, p in data["piles"].items()}
        state.round = data["round"]
        state.start_seat = data["start_seat"]
        state.phase = data["phase"]
        state.active_seat = data["active_seat"]
        state.step = data["step"]
        state.hands = [list(h) for h in data["hands"]]
        state.markers = list(data["markers"])
        state.tracks = {e: o for e, o in data["tracks"]}
        state.black_left = data["black_left"]
        state.coloured_left = list(data["coloured_left"])
        state.completed = list(data["completed"])
        state.scores = list(data["scores"])
        state.history = [dict(h) for h in data["history"]]
        state.last_tracks = list(data["last_tracks"])
        return state


def create(num_seats: int, options: dict[str, Any], seed: int) -> TransEuropaState:
    """A new game: piles built, round 1 start seat drawn, first deal done."""
    state = TransEuropaState(num_seats, options, seed)
    state._opening_events = state.start_game()
    return state
