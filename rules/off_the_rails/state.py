"""Off the Rails game state: actions, movement, collisions, missions, deposits, the chasm, views, JSON."""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rules.engine import (
    Event,
    GameState,
    IllegalMove,
    Result,
    SeatResult,
    private,
    public,
    rank_by,
)
from rules.off_the_rails import board, scoring, texts
from rules.off_the_rails.moves import LAYS_BY_SQUARE, OtrMove, parse
from rules.words import Msg, Plural, Seat, Term

MAX_ACTIONS = 4
DELIVERY_MISSIONS = ("red-leader", "green-fingers", "gold-hills", "diamonds", "gem-collector", "enemy-lines")
COLLISION_MISSIONS = ("jewel-heist", "bumper-carts", "head-to-head")


# old edges -> the tiles it may be upgraded to: a T keeping both edges, or a cross from a T
UPGRADE_TARGETS: dict[str, tuple[str, ...]] = {
    old: tuple(
        new
        for new in board.UPGRADES
        if (board.TILE_TYPE_OF[new] == "t" and len(old) == 2 and set(old) <= set(new))
        or (board.TILE_TYPE_OF[new] == "cross" and board.TILE_TYPE_OF[old] == "t")
    )
    for old in board.TILE_TYPE_OF
}


@dataclass
class Cart:
    """A minecart. where: reserve | board | lost. front/back are edges of its square (back None on a start)."""

    seat: int
    name: str
    where: str = "reserve"
    square: str | None = None
    front: str | None = None
    back: str | None = None
    speed: int = board.START_SPEED
    load: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "where": self.where,
            "square": self.square,
            "front": self.front,
            "back": self.back,
            "speed": self.speed,
            "load": dict(self.load),
        }


def _add(gems: dict[str, int], kind: str, n: int = 1) -> None:
    gems[kind] = gems.get(kind, 0) + n


def _sub(gems: dict[str, int], kind: str, n: int = 1) -> None:
    left = gems[kind] - n
    assert left >= 0
    if left:
        gems[kind] = left
    else:
        del gems[kind]


def _sorted_gems(gems: Mapping[str, int]) -> dict[str, int]:
    """A canonical, zero-free copy (so equal multisets are equal dicts, also after JSON)."""
    return {k: gems[k] for k in board.GEM_KINDS if gems.get(k, 0) > 0}


def gems_text(gems: Mapping[str, int]) -> str:
    """Gems counted by kind in English ("1 ruby, 2 gold"; "nothing")."""
    return str(texts.gems(gems)) or "nothing"


def auto_split(load: Mapping[str, int]) -> list[str]:
    """The auto_split option's left hand: by value, highest first, dealt left, right, left..."""
    ordered = sorted(board.gem_list(dict(load)), key=lambda k: -board.GEM_POINTS[k])
    return sorted(ordered[0::2], key=board.GEM_KINDS.index)


def split_options(load: Mapping[str, int]) -> list[tuple[str, ...]]:
    """Every distinct left hand of ceil(k/2) gems, in the canonical kind order."""
    gems = board.gem_list(dict(load))
    size = (len(gems) + 1) // 2
    return sorted(set(itertools.combinations(gems, size)))


class OffTheRailsState(GameState):
    key: ClassVar[str] = "off_the_rails"

    def __init__(self, num_seats: int, options: dict[str, Any], seed: int) -> None:
        super().__init__(num_seats, options, seed)
        self.colours: list[str] = list(board.colours_for(num_seats))
        self.stage = "mining"
        self.phase = "action"
        self.turn = 1
        self.active = 0
        self.actions_used = 0
        self.undo_log: list[dict[str, Any]] = []
        self.tiles: dict[str, str] = {}
        self.gems: dict[str, dict[str, int]] = {}
        self.rifts: dict[str, str] = {}
        self.tile_supply: dict[str, int] = dict(board.TILE_SUPPLY)
        self.tiles_destroyed: dict[str, int] = {t: 0 for t in board.TILE_TYPES}
        self.bag: dict[str, int] = dict(board.GEM_COUNTS)
        self.removed_gems: dict[str, int] = board.gem_dict()
        self.stockpiles: list[dict[str, int]] = [board.gem_dict() for _ in range(num_seats)]
        self.carts: list[dict[str, Cart]] = [
            {n: Cart(s, n) for n in board.CART_NAMES} for s in range(num_seats)
        ]
        self.deck: list[str] = []
        self.chasm_deck: list[str] = []
        self.unused_cards: list[str] = []
        self.setup_cards: list[str] = []
        self.revealed: list[str] = []  # deposit-deck cards in the order drawn (collapse included)
        self.chasm_revealed: list[str] = []
        self.collapse_holder: int | None = None
        self.rift_supply: dict[str, int] = {c: 0 for c in board.COLOURS}
        self.chasm_tokens: dict[str, int] = {c: 0 for c in board.COLOURS}
        self.rifts_discarded: dict[str, int] = {c: 0 for c in board.COLOURS}
        self.face_up: list[str] = []
        self.claimed: list[list[str]] = [[] for _ in range(num_seats)]
        self.missions_out: list[str] = []
        self.flow: dict[str, Any] = {}
        self.last_paths: list[dict[str, Any]] = []
        self.last_action: dict[str, Any] | None = None
        self.last_card: str | None = None
        self.ended_by = ""

    # ------------------------------------------------------------------ small queries

    def cart_at(self, square: str) -> Cart | None:
        for seat_carts in self.carts:
            for cart in seat_carts.values():
                if cart.where == "board" and cart.square == square:
                    return cart
        return None

    def carts_on_board(self) -> list[Cart]:
        return [c for sc in self.carts for c in sc.values() if c.where == "board"]

    def colour_of(self, seat: int) -> str:
        return self.colours[seat]

    def _cart_name(self, cart: Cart) -> Msg:
        return texts.cart(cart.seat, cart.name)

    def bound_turns(self) -> int:
        return (self.options_length() - 4) + self.num_seats + 16

    def options_length(self) -> int:
        value = self.options.get("game_length", "auto")
        return board.DEFAULT_LENGTH[self.num_seats] if value == "auto" else int(value)

    def _draw_gems(self, count: int) -> dict[str, int]:
        """Draw up to `count` gems from the bag at random (D26: fewer if the bag runs dry)."""
        drawn: dict[str, int] = {}
        for _ in range(count):
            total = sum(self.bag.values())
            if total == 0:
                break
            pick = self.rng.randrange(total)
            for kind in board.GEM_KINDS:
                if pick < self.bag[kind]:
                    self.bag[kind] -= 1
                    _add(drawn, kind)
                    break
                pick -= self.bag[kind]
        return drawn

    def _put_gems(self, square: str, gems: Mapping[str, int]) -> None:
        if not any(gems.values()):
            return
        here = self.gems.setdefault(square, {})
        for kind, n in gems.items():
            if n:
                _add(here, kind, n)
        self.gems[square] = _sorted_gems(here)

    def _take_gem(self, square: str, kind: str) -> None:
        _sub(self.gems[square], kind)
        if not self.gems[square]:
            del self.gems[square]

    # ------------------------------------------------------------------ whose decision

    def to_act(self) -> frozenset[int]:
        if self.phase == "over":
            return frozenset()
        if self.phase == "split":
            return frozenset((self.flow["collision"]["hit_seat"],))
        return frozenset((self.active,))

    def timeout_move(self, seat: int) -> OtrMove | None:
        if seat not in self.to_act():
            return None
        if self.phase == "action":
            return OtrMove("end")
        if self.phase == "split":
            hit = self.carts[self.flow["collision"]["hit_seat"]][self.flow["collision"]["hit_cart"]]
            return OtrMove("split", *auto_split(hit.load))
        return None

    # ------------------------------------------------------------------ legal moves

    def legal_moves(self, seat: int) -> list[OtrMove]:
        if seat not in self.to_act():
            return []
        phase = self.phase
        if phase == "action":
            return self._legal_actions()
        flow = self.flow
        if phase == "run":
            moves = [OtrMove("run", n) for n in flow["queue"]]
        elif phase == "take":
            moves = [OtrMove("take", k) for k in flow["take_options"]]
        elif phase == "go":
            moves = [OtrMove("go", e) for e in flow["go_options"]]
        elif phase == "split":
            moves = [OtrMove("split", *hand) for hand in flow["collision"]["split_options"]]
        elif phase == "pick":
            moves = [OtrMove("pick", "left"), OtrMove("pick", "right")]
        elif phase == "claim":
            moves = [OtrMove("claim", m) for m in flow["claim_options"]]
        elif phase == "rift":
            moves = [OtrMove("rift", sq) for sq in flow["rift_options"]]
        else:
            moves = []
        return sorted(moves, key=str)

    def _legal_actions(self) -> list[OtrMove]:
        # built group by group in notation order (cart < end < lay < speed < undo < upgrade): no big sort
        carts: list[OtrMove] = []
        lays: list[OtrMove] = []
        speeds: list[OtrMove] = []
        upgrades: list[OtrMove] = []
        if self.actions_used < MAX_ACTIONS:
            tiles, rifts, supply = self.tiles, self.rifts, self.tile_supply
            straight, curve = supply["straight"] > 0, supply["curve"] > 0
            for sq, moves in LAYS_BY_SQUARE:
                if sq in tiles or sq in rifts:
                    continue
                if straight and curve:
                    lays.extend(moves)
                elif straight or curve:
                    kind = "straight" if straight else "curve"
                    lays.extend(m for m in moves if board.TILE_TYPE_OF[m.args[1]] == kind)
            occupied = {c.square for c in self.carts_on_board()}
            for sq, edges in tiles.items():
                if sq in occupied:
                    continue
                for new in UPGRADE_TARGETS[edges]:
                    if supply[board.TILE_TYPE_OF[new]] > 0:
                        upgrades.append(OtrMove("upgrade", sq, new))
            colour = self.colour_of(self.active)
            free_starts = [sq for sq in board.START_OF_COLOUR[colour] if sq not in occupied]
            for cart in self.carts[self.active].values():
                if cart.where == "reserve":
                    carts.extend(OtrMove("cart", cart.name, sq) for sq in free_starts)
                elif cart.where == "board":
                    if cart.speed < board.MAX_SPEED:
                        speeds.append(OtrMove("speed", cart.name, "up"))
                    if cart.speed > board.MIN_SPEED:
                        speeds.append(OtrMove("speed", cart.name, "down"))
        key = str
        moves = sorted(carts, key=key) + [OtrMove("end")] + lays + sorted(speeds, key=key)
        if self.undo_log:
            moves.append(OtrMove("undo"))
        return moves + sorted(upgrades, key=key)

    def shortcuts(self, seat: int) -> list[OtrMove]:
        """In the action phase, what a player does most, in this order: the tiles that extend the
        track ahead of each of the seat's carts (on the first empty square its track leads to,
        joining the edge it comes in by; 87 of 89 lays in greedy games), its carts' speed changes,
        upgrades of the next tiles on that track (a way to turn off), and its reserve carts' starts."""
        if self.phase != "action" or seat not in self.to_act():
            return []
        legal = {str(m): m for m in self._legal_actions()}
        ahead: list[OtrMove] = []
        speeds: list[OtrMove] = []
        upgrades: list[OtrMove] = []
        for cart in self.carts[seat].values():
            if cart.where != "board" or cart.front is None:
                continue
            square, front = cart.square, cart.front
            for step in range(len(board.SQUARES)):
                target = board.NEIGHBOUR[(square, front)]
                if target is None:
                    break
                via = board.OPPOSITE[front]
                tile = self.tiles.get(target)
                if tile is None:
                    ahead += [m for text, m in legal.items()
                              if text.startswith(f"lay {target} ") and via in m.args[1] and m not in ahead]
                    break
                if step < board.MAX_SPEED:
                    upgrades += [m for text, m in legal.items()
                                 if text.startswith(f"upgrade {target} ") and m not in upgrades]
                exits = [e for e in tile if e != via]
                if via not in tile or len(exits) != 1:
                    break
                square, front = target, exits[0]
            speeds += [legal[text] for text in (f"speed {cart.name} up", f"speed {cart.name} down") if text in legal]
        starts = [m for text, m in legal.items() if text.startswith("cart ")]
        return ahead + speeds + upgrades + starts

    def _upgrade_reason(self, square: str, old: str, new: str) -> Msg | None:
        """Why `old` on `square` cannot become `new` (cart presence aside), or None."""
        old_type, new_type = board.TILE_TYPE_OF[old], board.TILE_TYPE_OF[new]
        if new_type == "cross":
            if old_type != "t":
                return Msg("only a T can be upgraded to a cross")
        elif old_type == "t":
            return Msg("a T can only be upgraded to a cross (nesw)")
        elif old_type == "cross":
            return Msg("{square} already has a cross", square=square)
        elif not set(old) <= set(new):
            return Msg("a T must keep the existing track {old}", old=old)
        if self.tile_supply[new_type] <= 0:
            return Msg(texts.NO_TILES[new_type])
        return None

    def parse_move(self, text: str) -> OtrMove:
        return parse(text)

    # ------------------------------------------------------------------ applying

    def _apply(self, seat: int, move: Any) -> list[Event]:
        if not isinstance(move, OtrMove):
            move = parse(str(move))
        phase = self.phase
        verb = move.verb
        if phase == "action":
            if verb not in ("lay", "upgrade", "cart", "speed", "undo", "end"):
                raise IllegalMove(Msg("it is the action phase: {verb} is not an action (play actions or end)",
                                      verb=verb))
            return self._action(move)
        if verb in ("lay", "upgrade", "cart", "speed", "undo", "end"):
            raise IllegalMove(Msg("the action phase is over; the pending decision is {decision}",
                                  decision=self.decision_msg()))
        if verb != phase:  # each pending decision is answered by the verb of the same name
            raise IllegalMove(Msg("the pending decision is {decision}", decision=self.decision_msg()))
        events: list[Event] = []
        handler = getattr(self, f"_decide_{phase}")
        handler(move, events)
        self._advance(events)
        return events

    def _action(self, move: OtrMove) -> list[Event]:
        seat = self.active
        who = Seat(seat)
        verb, args = move.verb, move.args
        if verb == "end":
            events = [public(Plural("{who} ends the action phase after {n} action.",
                                    "{who} ends the action phase after {n} actions.", n=self.actions_used, who=who))]
            self.last_action = {"seat": seat, "move": "end", "square": None}
            self._start_movement(events)
            self._advance(events)
            return events
        if verb == "undo":
            if not self.undo_log:
                raise IllegalMove(Msg("there is no action to undo this turn"))
            self._undo(self.undo_log.pop())
            self.actions_used -= 1
            self.last_action = {"seat": seat, "move": "undo", "square": None}
            return [public(Msg("{who} undoes the last action.", who=who))]
        if self.actions_used >= MAX_ACTIONS:
            raise IllegalMove(Msg("{n} actions used", n=MAX_ACTIONS))
        if verb == "lay":
            sq, edges = args
            self._check_square_for_track(sq)
            if sq in self.tiles:
                raise IllegalMove(Msg("{square} already has track", square=sq))
            kind = board.TILE_TYPE_OF.get(edges)
            if kind not in ("straight", "curve"):
                raise IllegalMove(
                    Msg("lay takes a straight or a curve (ns ew ne es sw nw); use upgrade for T and cross")
                )
            if self.tile_supply[kind] <= 0:
                raise IllegalMove(Msg(texts.NO_TILES[kind]))
            self.tiles[sq] = edges
            self.tile_supply[kind] -= 1
            self.undo_log.append({"verb": "lay", "square": sq})
            text = texts.laid(kind, who=who, edges=edges, square=sq)
        elif verb == "upgrade":
            sq, edges = args
            self._check_square_for_track(sq)
            if sq not in self.tiles:
                raise IllegalMove(Msg("{square} has no track to upgrade", square=sq))
            kind = board.TILE_TYPE_OF.get(edges)
            if kind not in ("t", "cross"):
                raise IllegalMove(Msg("upgrade takes a T (nes new nsw esw) or a cross (nesw)"))
            old = self.tiles[sq]
            reason = self._upgrade_reason(sq, old, edges)
            if reason:
                raise IllegalMove(reason)
            if self.cart_at(sq) is not None:
                raise IllegalMove(Msg("a cart is on {square}", square=sq))
            self.tiles[sq] = edges
            self.tile_supply[kind] -= 1
            self.tile_supply[board.TILE_TYPE_OF[old]] += 1
            self.undo_log.append({"verb": "upgrade", "square": sq, "old": old})
            text = Msg("{who} upgrades {square} from {old} to {edges}.", who=who, square=sq, old=old, edges=edges)
        elif verb == "cart":
            name, sq = args
            cart = self.carts[seat][name]
            if cart.where != "reserve":
                raise IllegalMove(Msg("{cart} is not in your reserve", cart=Term(name)))
            if sq not in board.START or board.START[sq][0] != self.colour_of(seat):
                raise IllegalMove(Msg("{square} is not one of your ({colour}) start squares", square=sq,
                                      colour=Term(self.colour_of(seat))))
            if self.cart_at(sq) is not None:
                raise IllegalMove(Msg("a cart is on {square}", square=sq))
            cart.where, cart.square, cart.front, cart.back = "board", sq, board.START[sq][1], None
            cart.speed, cart.load = board.START_SPEED, {}
            self.undo_log.append({"verb": "cart", "cart": name})
            text = Msg("{who} puts the {cart} cart on {square}.", who=who, cart=Term(name), square=sq)
        else:  # speed
            name, direction = args
            cart = self.carts[seat][name]
            if cart.where != "board":
                raise IllegalMove(Msg("{cart} is not on the board", cart=Term(name)))
            delta = 1 if direction == "up" else -1
            if not board.MIN_SPEED <= cart.speed + delta <= board.MAX_SPEED:
                raise IllegalMove(Msg("speed is already {n}", n=cart.speed))
            cart.speed += delta
            self.undo_log.append({"verb": "speed", "cart": name, "delta": delta})
            sq = cart.square
            text = Msg("{who} sets the {cart} cart's speed to {n}.", who=who, cart=Term(name), n=cart.speed)
        self.actions_used += 1
        self.last_action = {"seat": seat, "move": str(move), "square": sq}
        return [public(text)]

    def _check_square_for_track(self, sq: str) -> None:
        if sq in board.CENTRES:
            raise IllegalMove(Msg("{square} is a mine centre", square=sq))
        if sq in board.START:
            raise IllegalMove(Msg("{square} is a start square", square=sq))
        if sq in self.rifts:
            raise IllegalMove(Msg("{square} is a rift", square=sq))

    def _undo(self, record: dict[str, Any]) -> None:
        verb = record["verb"]
        if verb == "lay":
            edges = self.tiles.pop(record["square"])
            self.tile_supply[board.TILE_TYPE_OF[edges]] += 1
        elif verb == "upgrade":
            edges = self.tiles[record["square"]]
            self.tile_supply[board.TILE_TYPE_OF[edges]] += 1
            self.tile_supply[board.TILE_TYPE_OF[record["old"]]] -= 1
            self.tiles[record["square"]] = record["old"]
        elif verb == "cart":
            cart = self.carts[self.active][record["cart"]]
            cart.where, cart.square, cart.front, cart.back, cart.speed = (
                "reserve",
                None,
                None,
                None,
                board.START_SPEED,
            )
        else:
            self.carts[self.active][record["cart"]].speed -= record["delta"]

    # ------------------------------------------------------------------ the turn's automatic flow

    def _start_movement(self, events: list[Event]) -> None:
        self.undo_log = []
        self.last_paths = []
        self.phase = "movement"
        queue = [n for n, c in self.carts[self.active].items() if c.where == "board"]
        self.flow = {"step": "next_run", "queue": queue, "claimed_turn": False}

    def _advance(self, events: list[Event]) -> None:
        """Run the automatic part of the turn until a decision is needed or the next turn starts."""
        while True:
            step = self.flow.get("step")
            if step == "next_run":
                queue = [n for n in self.flow["queue"] if self.carts[self.active][n].where == "board"]
                self.flow["queue"] = queue
                if len(queue) >= 2:
                    self.phase = "run"
                    return
                if queue:
                    self._begin_run(queue[0], events)
                else:
                    self.flow["step"] = "movement_over"
            elif step == "running":
                if not self._continue_run(events):
                    return
            elif step == "claim_check":
                if not self._claim_check(self.flow.pop("achieved", []), events):
                    return
                self.flow["step"] = self.flow.pop("after_claim")
            elif step == "movement_over":
                achieved = []
                spice = all(self.stockpiles[self.active][k] > 0 for k in board.GEM_KINDS)
                if spice:
                    achieved.append("spice-of-life")
                self.flow["achieved"] = achieved
                self.flow["after_claim"] = "deposit"
                self.flow["step"] = "claim_check"
            elif step == "deposit":
                if not self._deposit(events):
                    return
                self.flow["step"] = "end_turn"
            elif step == "collision":
                return  # a split or pick decision is pending
            elif step == "end_turn":
                self._end_turn(events)
                return
            else:  # pragma: no cover - a bug, not a player error
                raise AssertionError(f"unknown flow step {step!r}")

    def _begin_run(self, name: str, events: list[Event]) -> None:
        cart = self.carts[self.active][name]
        self.flow["queue"] = [n for n in self.flow["queue"] if n != name]
        self.flow.update(
            step="running", moving=name, steps=cart.speed, pickups=0, choose_dir=False, via=None, achieved=[]
        )
        self.last_paths.append(
            {"seat": cart.seat, "cart": name, "path": [cart.square], "outcome": "stopped", "target": None}
        )
        events.append(public(Msg("{cart} runs from {square} at speed {n}.", cart=self._cart_name(cart),
                                 square=cart.square, n=cart.speed)))

    def _continue_run(self, events: list[Event]) -> bool:
        """Steps of the moving cart; False when a decision is pending (phase set)."""
        flow = self.flow
        cart = self.carts[self.active][flow["moving"]]
        while True:
            if flow["pickups"] > 0:
                here = self.gems.get(cart.square, {})
                if not here or board.gem_total(cart.load) >= board.CAPACITY:
                    flow["pickups"] = 0
                    continue
                if flow["pickups"] >= board.gem_total(here):
                    # every gem here will be taken: the order is no real choice (D28)
                    self._pick_up(cart, next(iter(here)), events)
                elif "rock" in here:
                    self._pick_up(cart, "rock", events)
                elif len(here) == 1:
                    self._pick_up(cart, next(iter(here)), events)
                else:
                    flow["take_options"] = list(here)
                    self.phase = "take"
                    return False
                continue
            if flow["choose_dir"]:
                edges = self.tiles[cart.square]
                exits = [e for e in edges if e != flow["via"]]
                if len(exits) == 1:
                    cart.front = exits[0]
                    flow["choose_dir"] = False
                else:
                    cart.front = None
                    flow["go_options"] = exits
                    self.phase = "go"
                    return False
            if flow["steps"] <= 0:
                events.append(public(Msg("{cart} stops on {square}.", cart=self._cart_name(cart), square=cart.square)))
                self._end_run(events)
                return True
            if not self._step(cart, events):
                # the run ended (claim check next) or a collision waits for a split or a pick
                return self.phase not in ("split", "pick")

    def _pick_up(self, cart: Cart, kind: str, events: list[Event]) -> None:
        self._take_gem(cart.square, kind)
        _add(cart.load, kind)
        cart.load = _sorted_gems(cart.load)
        self.flow["pickups"] -= 1
        events.append(public(Msg("{cart} picks up 1 {kind} on {square}.", cart=self._cart_name(cart), kind=Term(kind),
                                 square=cart.square)))

    def _step(self, cart: Cart, events: list[Event]) -> bool:
        """One step of the step function; False when the run ended or paused on a collision decision."""
        flow = self.flow
        edge = cart.front
        assert edge is not None
        target = board.NEIGHBOUR[(cart.square, edge)]
        via = board.OPPOSITE[edge]
        path = self.last_paths[-1]
        if target is None or target in board.CENTRES:
            path["target"] = target
            if target is None:
                self._derail(cart, events, "off")
            else:
                self._derail(cart, events, "mine", target=target)
            self._end_run(events)
            return False
        if target in self.rifts:
            path["target"] = target
            self._fall(cart, events, target)
            self._end_run(events)
            return False
        if target in board.START:
            if via != board.START[target][1]:
                path["target"] = target
                self._derail(cart, events, "start", target=target)
                self._end_run(events)
                return False
            hit = self.cart_at(target)
            if hit is not None:
                path["target"] = target
                return self._collide(cart, hit, target, via, events)
            path["path"].append(target)
            self._deliver(cart, target, events)
            self._end_run(events)
            return False
        tile = self.tiles.get(target)
        if tile is None or via not in tile:
            path["target"] = target
            if tile is None:
                self._derail(cart, events, "no_track", target=target)
            else:
                self._derail(cart, events, "no_way", via=via, target=target)
            self._end_run(events)
            return False
        hit = self.cart_at(target)
        if hit is not None:
            path["target"] = target
            return self._collide(cart, hit, target, via, events)
        cart.square, cart.back, cart.front = target, via, None
        flow["steps"] -= 1
        flow["via"] = via
        path["path"].append(target)
        flow["pickups"] = min(2 if flow["steps"] == 0 else 1, board.CAPACITY - board.gem_total(cart.load))
        flow["choose_dir"] = True
        return True

    def _derail(self, cart: Cart, events: list[Event], why: str, **where: str) -> None:
        """`why` a texts.derailed reason; `where` its squares and edge."""
        for kind, n in cart.load.items():
            self.bag[kind] += n
        line = texts.derailed(why, self._cart_name(cart), dict(cart.load), **where)
        self._to_reserve(cart)
        if self._is_mover(cart):
            self.last_paths[-1]["outcome"] = "derailed"
        events.append(public(line))

    def _is_mover(self, cart: Cart) -> bool:
        return (
            self.flow.get("step") == "running"
            and cart.seat == self.active
            and cart.name == self.flow.get("moving")
        )

    def _to_reserve(self, cart: Cart) -> None:
        cart.where, cart.square, cart.front, cart.back = "reserve", None, None, None
        cart.speed, cart.load = board.START_SPEED, {}

    def _fall(self, cart: Cart, events: list[Event], square: str) -> None:
        for kind, n in cart.load.items():
            self.removed_gems[kind] += n
        if any(cart.load.values()):
            line = Msg("{cart} falls into the rift at {square} with {gems}.", cart=self._cart_name(cart), square=square,
                       gems=texts.gems(cart.load))
        else:
            line = Msg("{cart} falls into the rift at {square} with nothing.", cart=self._cart_name(cart), square=square)
        cart.where, cart.square, cart.front, cart.back, cart.load = "lost", None, None, None, {}
        cart.speed = board.START_SPEED
        if self._is_mover(cart):
            self.last_paths[-1]["outcome"] = "fell"
        events.append(public(line))

    def _deliver(self, cart: Cart, square: str, events: list[Event]) -> None:
        load = dict(cart.load)
        seat = cart.seat
        for kind, n in load.items():
            self.stockpiles[seat][kind] += n
        self._to_reserve(cart)
        self.last_paths[-1]["outcome"] = "delivered"
        if load:
            line = Msg("{cart} delivers {gems} at {square}.", cart=self._cart_name(cart), gems=texts.gems(load),
                       square=square)
        else:
            line = Msg("{cart} delivers nothing at {square}.", cart=self._cart_name(cart), square=square)
        events.append(public(line))
        met = scoring.delivery_missions(load, board.START[square][0], self.colours, self.colour_of(seat))
        self.flow["achieved"].extend(met)

    def _collide(self, mover: Cart, hit: Cart, square: str, via: str, events: list[Event]) -> bool:
        """Collision of spec 5.3. False always: the run ends (maybe after a split and a pick)."""
        if hit.front == via or hit.back is None:
            kind = "head-on"
        elif hit.back == via:
            kind = "rear"
        else:
            kind = "side"
        self.last_paths[-1]["outcome"] = f"collided {kind}"
        if mover.back is not None:
            mover.front, mover.back = mover.back, mover.front
        if kind == "head-on" and hit.back is not None:
            hit.front, hit.back = hit.back, hit.front
        events.append(public(texts.collision(kind, mover=self._cart_name(mover), hit=self._cart_name(hit), square=square,
                                             cart=Term(mover.name), back=mover.square)))
        other = hit.seat != mover.seat
        achieved = self.flow["achieved"]
        if other and kind == "head-on":
            achieved.append("head-to-head")
        if self.options.get("bumper_carts"):
            self._end_run(events)
            return False
        load_size = board.gem_total(hit.load)
        if load_size == 0:
            self._derail(hit, events, "knocked")
            if other:
                achieved.append("bumper-carts")
        elif load_size == 1:
            dropped = dict(hit.load)
            hit.load = {}
            self._put_gems(square, dropped)
            events.append(public(Msg("{cart} drops {gems} on {square}.", cart=self._cart_name(hit),
                                     gems=texts.gems(dropped), square=square)))
            if other:
                achieved.append("jewel-heist")
        else:
            collision = {"hit_seat": hit.seat, "hit_cart": hit.name, "square": square, "other": other}
            self.flow["collision"] = collision
            if self.options.get("auto_split"):
                options = [tuple(auto_split(hit.load))]
            else:
                options = split_options(hit.load)
            if len(options) == 1:
                self._set_split(list(options[0]), events)
                self.phase = "pick"
            else:
                collision["split_options"] = [list(o) for o in options]
                self.phase = "split"
            self.flow["step"] = "collision"
            return False
        self._end_run(events)
        return False

    def _set_split(self, left: list[str], events: list[Event]) -> None:
        collision = self.flow["collision"]
        hit = self.carts[collision["hit_seat"]][collision["hit_cart"]]
        right = board.gem_list(hit.load)
        for gem in left:
            right.remove(gem)
        collision["left"], collision["right"] = left, right
        collision.pop("split_options", None)
        events.append(public(Msg("{who} splits the {cart} cart's {n} gems: left {left} | right {right}.",
                                 who=Seat(hit.seat), cart=Term(hit.name), n=len(left) + len(right),
                                 left=len(left), right=len(right))))
        events.append(private(hit.seat, Msg("Your split: left {left} | right {right}.", left=texts.gem_words(left),
                                            right=texts.gem_words(right))))

    def _end_run(self, events: list[Event]) -> None:
        self.flow.pop("collision", None)
        self.flow.update(step="claim_check", after_claim="next_run", moving=None, pickups=0, choose_dir=False)
        self.flow.setdefault("achieved", [])

    def _claim_check(self, achieved: list[str], events: list[Event]) -> bool:
        """Claim at most one mission per turn (D21); False while a claim decision is pending."""
        if self.flow["claimed_turn"]:
            return True
        options = sorted({m for m in achieved if m in self.face_up and m != "dirty-goblins"})
        if not options:
            return True
        if len(options) == 1:
            self._claim(options[0], events)
            return True
        self.flow["claim_options"] = options
        self.flow["achieved"] = achieved  # kept so the decision can be resumed after JSON round trips
        self.phase = "claim"
        return False

    def _claim(self, mission: str, events: list[Event]) -> None:
        self.face_up.remove(mission)
        self.claimed[self.active].append(mission)
        self.flow["claimed_turn"] = True
        events.append(public(Msg("{who} claims {name} ({mission}, {n} points).", who=Seat(self.active),
                                 name=texts.mission_name(mission), mission=mission, n=board.MISSION_POINTS)))

    # ------------------------------------------------------------------ decisions

    def _decide_run(self, move: OtrMove, events: list[Event]) -> None:
        name = move.args[0]
        if name not in self.flow["queue"]:
            cart = self.carts[self.active][name]
            raise IllegalMove(
                Msg("{cart} has already run", cart=Term(name)) if cart.where == "board"
                else Msg("{cart} is not on the board", cart=Term(name))
            )
        self.phase = "movement"
        self._begin_run(name, events)

    def _decide_take(self, move: OtrMove, events: list[Event]) -> None:
        kind = move.args[0]
        cart = self.carts[self.active][self.flow["moving"]]
        if kind not in self.flow["take_options"]:
            raise IllegalMove(Msg("no {kind} on {square}", kind=Term(kind), square=cart.square))
        self.phase = "movement"
        del self.flow["take_options"]
        self._pick_up(cart, kind, events)

    def _decide_go(self, move: OtrMove, events: list[Event]) -> None:
        edge = move.args[0]
        cart = self.carts[self.active][self.flow["moving"]]
        if edge not in self.flow["go_options"]:
            if edge == self.flow["via"]:
                raise IllegalMove(Msg("the cart came in by {edge}", edge=edge))
            raise IllegalMove(Msg("the track on {square} has no exit {edge}", square=cart.square, edge=edge))
        self.phase = "movement"
        del self.flow["go_options"]
        cart.front = edge
        self.flow["choose_dir"] = False
        events.append(public(texts.turned(edge, cart=self._cart_name(cart), square=cart.square)))

    def _decide_split(self, move: OtrMove, events: list[Event]) -> None:
        collision = self.flow["collision"]
        hand = list(move.args)
        if hand not in collision["split_options"]:
            hit = self.carts[collision["hit_seat"]][collision["hit_cart"]]
            size = (board.gem_total(hit.load) + 1) // 2
            raise IllegalMove(Msg("the left hand must be {n} gems from the cart ({gems})", n=size,
                                  gems=texts.gems(hit.load)))
        self._set_split(hand, events)
        self.phase = "pick"

    def _decide_pick(self, move: OtrMove, events: list[Event]) -> None:
        collision = self.flow["collision"]
        side = move.args[0]
        picked = collision[side]
        hit = self.carts[collision["hit_seat"]][collision["hit_cart"]]
        dropped: dict[str, int] = {}
        for gem in picked:
            _add(dropped, gem)
            _sub(hit.load, gem)
        hit.load = _sorted_gems(hit.load)
        self._put_gems(collision["square"], dropped)
        events.append(public(texts.picked(side, who=Seat(self.active), cart=self._cart_name(hit), gems=texts.gems(dropped),
                                          square=collision["square"])))
        if collision["other"] and dropped:
            self.flow["achieved"].append("jewel-heist")
        self.phase = "movement"
        self._end_run(events)

    def _decide_claim(self, move: OtrMove, events: list[Event]) -> None:
        mission = move.args[0]
        if mission not in self.flow["claim_options"]:
            raise IllegalMove(Msg("{mission} was not achieved this turn", mission=mission))
        self.phase = "movement"
        del self.flow["claim_options"]
        self.flow["achieved"] = []
        self._claim(mission, events)
        # the claim check step is finished: continue where it would have gone
        self.flow["step"] = "claim_check"

    def _decide_rift(self, move: OtrMove, events: list[Event]) -> None:
        square = move.args[0]
        colour = self.flow["rift_colour"]
        if square not in self.flow["rift_options"]:
            raise IllegalMove(Msg("{square} is not next to a {colour} rift", square=square, colour=Term(colour)))
        self.phase = "movement"
        del self.flow["rift_options"]
        self._place_rift(colour, square, events)
        self.flow["step"] = "end_turn"

    # ------------------------------------------------------------------ deposit phase and chasm

    def _deposit(self, events: list[Event]) -> bool:
        """The deposit phase; False while a rift decision is pending."""
        if self.stage == "mining" or (self.stage == "collapse" and self.collapse_holder != self.active):
            self._draw_deposit(events)
            return True
        if self.stage == "collapse":
            self._open_chasm(events)
            return True
        return self._draw_rift(events)

    def _draw_deposit(self, events: list[Event]) -> None:
        if not self.deck:
            events.append(public(Msg("The deposit deck is empty.")))
            return
        card = self.deck.pop(0)
        self.revealed.append(card)
        if card == board.COLLAPSE:
            self.stage = "collapse"
            self.collapse_holder = self.active
            events.append(public(Msg("{who} draws the COLLAPSE card: the chasm opens at {holder}'s next turn.",
                                     who=Seat(self.active), holder=Seat(self.active))))
            self._draw_deposit(events)
            return
        info = board.CARDS[card]
        drawn = self._draw_gems(info["gems"])
        self._put_gems(info["square"], drawn)
        self.last_card = card
        events.append(public(Msg("Deposit {card}: {gems} on {square}.", card=texts.card(card), gems=texts.gems(drawn),
                                 square=info["square"])))

    def _open_chasm(self, events: list[Event]) -> None:
        self.stage = "chasm"
        cards = list(self.chasm_deck)
        self.chasm_deck = []
        self.chasm_revealed = cards
        events.append(public(Msg("The chasm opens!")))
        by_colour = {board.CARDS[c]["colour"]: c for c in cards}
        for colour in board.COLOURS:
            card = by_colour[colour]
            self.chasm_tokens[colour] -= 1
            self._place_rift(colour, board.CARDS[card]["square"], events)

    def _draw_rift(self, events: list[Event]) -> bool:
        total = sum(self.rift_supply.values())
        if total == 0:
            return True
        pick = self.rng.randrange(total)
        colour = board.COLOURS[0]
        for colour in board.COLOURS:
            if pick < self.rift_supply[colour]:
                break
            pick -= self.rift_supply[colour]
        self.rift_supply[colour] -= 1
        events.append(public(Msg("{who} draws a {colour} rift token.", who=Seat(self.active), colour=Term(colour))))
        if self.options.get("rift_die"):
            while True:
                number = self.rng.randint(1, 8)
                square = board.MINE_SQUARE[(colour, number)]
                if square not in self.rifts:
                    break
            events.append(public(Msg("The rift die shows {n}.", n=number)))
            self._place_rift(colour, square, events)
            return True
        options = self.rift_squares(colour)
        if not options:
            self.rifts_discarded[colour] += 1
            events.append(public(Msg("No square can take the {colour} rift: the token is discarded.", colour=Term(colour))))
            return True
        if len(options) == 1:
            self._place_rift(colour, options[0], events)
            return True
        self.flow["rift_colour"] = colour
        self.flow["rift_options"] = options
        self.phase = "rift"
        return False

    def rift_squares(self, colour: str) -> list[str]:
        """D16: squares next to a rift of `colour`, not a rift, mine centre or start square."""
        found = set()
        for sq, c in self.rifts.items():
            if c != colour:
                continue
            for edge in board.EDGES:
                n = board.NEIGHBOUR[(sq, edge)]
                if n is not None and n not in self.rifts and n not in board.CENTRES and n not in board.START:
                    found.add(n)
        return sorted(found)

    def _place_rift(self, colour: str, square: str, events: list[Event]) -> None:
        self.rifts[square] = colour
        edges, gems = None, None
        if square in self.tiles:
            edges = self.tiles.pop(square)
            self.tiles_destroyed[board.TILE_TYPE_OF[edges]] += 1
        if square in self.gems:
            gems = self.gems.pop(square)
            for kind, n in gems.items():
                self.removed_gems[kind] += n
        where = {"colour": Term(colour), "square": square}
        if edges and gems:
            line = Msg("A {colour} rift opens on {square}, swallowing track {edges} and {gems}.", **where, edges=edges,
                       gems=texts.gems(gems))
        elif edges:
            line = Msg("A {colour} rift opens on {square}, swallowing track {edges}.", **where, edges=edges)
        elif gems:
            line = Msg("A {colour} rift opens on {square}, swallowing {gems}.", **where, gems=texts.gems(gems))
        else:
            line = Msg("A {colour} rift opens on {square}.", **where)
        events.append(public(line))
        cart = self.cart_at(square)
        if cart is not None:
            self._fall(cart, events, square)

    # ------------------------------------------------------------------ end of turn and game

    def _end_turn(self, events: list[Event]) -> None:
        self.flow = {}
        if self.stage == "chasm" and (sum(self.rift_supply.values()) == 0 or not self.carts_on_board()):
            self.ended_by = texts.RIFTS_GONE if sum(self.rift_supply.values()) == 0 else texts.NO_CARTS
            for cart in self.carts_on_board():
                for kind, n in cart.load.items():
                    self.removed_gems[kind] += n
                if any(cart.load.values()):
                    line = Msg("{cart} is still on the board and is lost with {gems}.", cart=self._cart_name(cart),
                               gems=texts.gems(cart.load))
                else:
                    line = Msg("{cart} is still on the board and is lost with nothing.", cart=self._cart_name(cart))
                events.append(public(line))
                cart.where, cart.square, cart.front, cart.back, cart.load = "lost", None, None, None, {}
                cart.speed = board.START_SPEED
            self.phase = "over"
            events.append(public(Msg("Game over: {reason}.", reason=Msg(self.ended_by))))
            return
        self.active = (self.active + 1) % self.num_seats
        self.turn += 1
        self.phase = "action"
        self.actions_used = 0
        self.undo_log = []
        events.append(public(Msg("Turn {n}: {who} to act.", n=self.turn, who=Seat(self.active))))

    def result(self) -> Result | None:
        if self.phase != "over":
            return None
        points = self.score_breakdowns()
        totals = [sum(p.values()) for p in points]
        ranks = rank_by({s: scoring.rank_key(totals[s], self.stockpiles[s]) for s in range(self.num_seats)})
        seats = []
        for s in range(self.num_seats):
            details = {
                "colour": self.colour_of(s),
                "missions": list(self.claimed[s]) + (["dirty-goblins"] if points[s]["dirty_goblins"] else []),
                "gems": dict(self.stockpiles[s]),
                "carts_in_reserve": self.reserve_count(s),
            }
            seats.append(SeatResult(s, totals[s], points[s], ranks[s], details))
        seats.sort(key=lambda r: (r.rank, r.seat))
        # Colours, claimed missions, stockpiles and reserves are all on the table: nothing was secret.
        return Result(tuple(seats), self.ended_by, labels=texts.RESULT_LABELS, details_secret=False)

    def reserve_count(self, seat: int) -> int:
        return sum(1 for c in self.carts[seat].values() if c.where == "reserve")

    def score_breakdowns(self) -> list[dict[str, int]]:
        return scoring.breakdowns(
            self.stockpiles,
            self.claimed,
            self.face_up,
            [self.reserve_count(s) for s in range(self.num_seats)],
        )

    # ------------------------------------------------------------------ views

    def decision_text(self) -> str:
        """The pending decision in English, seats as {sN} tokens."""
        return str(self.decision_msg())

    def decision_msg(self) -> Msg:
        """The pending decision: whose it is and what they choose from."""
        phase, flow = self.phase, self.flow
        if phase == "over":
            return Msg("game over")
        who = Seat(min(self.to_act()))
        if phase == "action":
            return Plural("{who}: up to {n} more action, then end", "{who}: up to {n} more actions, then end",
                          n=MAX_ACTIONS - self.actions_used, who=who)
        if phase == "run":
            return Msg("{who}: choose which cart runs first ({options})", who=who,
                       options=texts.choices(texts.run(n) for n in flow["queue"]))
        if phase == "take":
            cart = self.carts[self.active][flow["moving"]]
            return Msg("{who}: choose a gem on {square} ({options})", who=who, square=cart.square,
                       options=texts.choices(Term(k) for k in flow["take_options"]))
        if phase == "go":
            cart = self.carts[self.active][flow["moving"]]
            return Msg("{who}: choose direction at {square} ({options})", who=who, square=cart.square,
                       options="/".join(flow["go_options"]))
        if phase == "split":
            hit = self.carts[flow["collision"]["hit_seat"]][flow["collision"]["hit_cart"]]
            return Msg("{who}: split {n} gems of the {cart} cart", who=who, n=board.gem_total(hit.load),
                       cart=Term(hit.name))
        if phase == "pick":
            c = flow["collision"]
            return Msg("{who}: pick left ({left}) or right ({right})", who=who, left=texts.gem_count(len(c["left"])),
                       right=texts.gem_count(len(c["right"])))
        if phase == "claim":
            return Msg("{who}: claim one mission ({options})", who=who, options=" | ".join(flow["claim_options"]))
        # rift
        return Msg("{who}: place the {colour} rift ({options})", who=who, colour=Term(flow["rift_colour"]),
                   options=" ".join(flow["rift_options"]))

    def _pending_view(self, seat: int | None) -> dict[str, Any] | None:
        phase, flow = self.phase, self.flow
        if phase in ("action", "over"):
            return None
        decision = self.decision_msg()
        pending: dict[str, Any] = {"kind": phase, "seat": min(self.to_act()), "text": str(decision),
                                   "msg": decision.to_json()}
        if phase == "run":
            pending["options"] = list(flow["queue"])
        elif phase == "take":
            pending["options"] = list(flow["take_options"])
        elif phase == "go":
            pending["options"] = list(flow["go_options"])
            pending["square"] = self.carts[self.active][flow["moving"]].square
        elif phase in ("split", "pick"):
            collision = flow["collision"]
            pending["hit_seat"] = collision["hit_seat"]
            pending["hit_cart"] = collision["hit_cart"]
            pending["square"] = collision["square"]
            if phase == "pick":
                pending["left_size"] = len(collision["left"])
                pending["right_size"] = len(collision["right"])
                if seat == collision["hit_seat"]:
                    pending["left"] = list(collision["left"])
                    pending["right"] = list(collision["right"])
        elif phase == "claim":
            pending["options"] = list(flow["claim_options"])
        elif phase == "rift":
            pending["colour"] = flow["rift_colour"]
            pending["options"] = list(flow["rift_options"])
        return pending

    def view(self, seat: int | None) -> dict[str, Any]:
        out = self.base_view(seat)
        breakdowns = self.score_breakdowns()
        moving = self.flow.get("moving") if self.phase not in ("action", "over") else None
        out.update(
            options=dict(self.options),
            game_length=self.options_length(),
            colours=list(self.colours),
            stage=self.stage,
            turn=self.turn,
            max_turns=self.bound_turns(),
            active=self.active,
            phase=self.phase,
            actions_used=self.actions_used,
            actions_max=MAX_ACTIONS,
            undo_available=bool(self.undo_log),
            moving=None
            if moving is None
            else {"seat": self.active, "cart": moving, "steps_left": self.flow.get("steps", 0)},
            pending=self._pending_view(seat),
            tiles=dict(self.tiles),
            gems={sq: dict(g) for sq, g in self.gems.items()},
            rifts=dict(self.rifts),
            carts=[
                c.to_json() | {"choosing": c.where == "board" and c.front is None}
                for sc in self.carts
                for c in sc.values()
            ],
            players=[
                {
                    "seat": s,
                    "colour": self.colour_of(s),
                    "stockpile": dict(self.stockpiles[s]),
                    "missions": list(self.claimed[s]),
                    "reserve": self.reserve_count(s),
                    "lost": sum(1 for c in self.carts[s].values() if c.where == "lost"),
                    "on_board": sum(1 for c in self.carts[s].values() if c.where == "board"),
                    "score": sum(breakdowns[s].values()),
                    "breakdown": breakdowns[s],
                }
                for s in range(self.num_seats)
            ],
            face_up=list(self.face_up),
            deck_count=len(self.deck),
            revealed=list(self.revealed),
            setup_cards=list(self.setup_cards),
            last_card=self.last_card,
            collapse_holder=self.collapse_holder,
            chasm_deck_count=len(self.chasm_deck),
            chasm_cards=list(self.chasm_revealed),
            bag=dict(self.bag),
            removed_gems=dict(self.removed_gems),
            rift_supply=dict(self.rift_supply),
            tile_supply=dict(self.tile_supply),
            last_paths=copy.deepcopy(self.last_paths),
            last_action=None if self.last_action is None else dict(self.last_action),
            ended_by=self.ended_by,
        )
        if seat is not None:
            out["my_carts"] = [
                {"name": c.name, "where": c.where, "square": c.square, "speed": c.speed, "load": dict(c.load)}
                for c in self.carts[seat].values()
            ]
        result = self.result()
        out["result"] = None if result is None else result.to_json()
        return out

    # ------------------------------------------------------------------ persistence

    # ------------------------------------------------------------------ sampled worlds (search AI)

    def determinize(self, seat: int, rng: random.Random) -> OffTheRailsState:
        """The face-down cards and another seat's split hands resampled, with a new RNG (bag, rifts).

        What everyone knows is kept: each layer of the deposit deck holds one card of each colour
        (the collapse card in the second layer from the bottom), the chasm deck one per colour, and
        every card already seen is out. Within that, the order of each layer's rest and which card
        of a colour lies where are drawn from `rng`, from sorted pools, so secrets cannot leak in.
        """
        world = self.reseeded_copy(rng)
        assert isinstance(world, OffTheRailsState)
        hidden = [*self.deck, *self.chasm_deck, *self.unused_cards]
        pools = {
            colour: sorted(c for c in hidden if c != board.COLLAPSE and board.CARDS[c]["colour"] == colour)
            for colour in board.COLOURS
        }
        for pool in pools.values():
            rng.shuffle(pool)
        # The colours left in each layer of the deck, in layer order (public: see create()).
        layer_sizes = [4] * ((self.options_length() - 1) // 4)
        layer_sizes[-2] += 1
        drawn = len(self.revealed)
        deck: list[str] = []
        position = 0
        for size in layer_sizes:
            segment = self.deck[max(0, position - drawn) : max(0, position + size - drawn)]
            position += size
            kinds = sorted(
                board.COLLAPSE if c == board.COLLAPSE else board.CARDS[c]["colour"] for c in segment
            )
            rng.shuffle(kinds)
            deck += [kind if kind == board.COLLAPSE else pools[kind].pop() for kind in kinds]
        world.deck = deck
        world.chasm_deck = [pools[board.CARDS[c]["colour"]].pop() for c in self.chasm_deck]
        world.unused_cards = sorted(c for pool in pools.values() for c in pool)
        collision = world.flow.get("collision")
        if (
            collision
            and "left" in collision
            and collision["hit_seat"] != seat
            and not self.options.get("auto_split")
        ):
            # The hit cart still carries both hands (public); only how they are split is secret.
            hit = world.carts[collision["hit_seat"]][collision["hit_cart"]]
            left = list(rng.choice(split_options(hit.load)))
            right = board.gem_list(dict(hit.load))
            for gem in left:
                right.remove(gem)
            collision["left"], collision["right"] = left, right
        return world

    # The table settings and the RNG are GameState.base_json's.
    _FIELDS: ClassVar[tuple[str, ...]] = (
        "colours",
        "stage",
        "phase",
        "turn",
        "active",
        "actions_used",
        "undo_log",
        "tiles",
        "gems",
        "rifts",
        "tile_supply",
        "tiles_destroyed",
        "bag",
        "removed_gems",
        "stockpiles",
        "deck",
        "chasm_deck",
        "unused_cards",
        "setup_cards",
        "revealed",
        "chasm_revealed",
        "collapse_holder",
        "rift_supply",
        "chasm_tokens",
        "rifts_discarded",
        "face_up",
        "claimed",
        "missions_out",
        "flow",
        "last_paths",
        "last_action",
        "last_card",
        "ended_by",
    )

    def to_json(self) -> dict[str, Any]:
        data = {name: getattr(self, name) for name in self._FIELDS}
        data["carts"] = [[c.to_json() for c in sc.values()] for sc in self.carts]
        # a JSON round trip is the cheapest deep copy of plain data
        return self.base_json() | json.loads(json.dumps(data))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> OffTheRailsState:
        state = cls.from_base_json(data)
        # a JSON round trip is the cheapest deep copy of plain data (the caller keeps its own)
        fields = json.loads(json.dumps({name: data[name] for name in (*cls._FIELDS, "carts")}))
        for name in cls._FIELDS:
            setattr(state, name, fields[name])
        state.carts = [{c["name"]: Cart(**c) for c in sc} for sc in fields["carts"]]
        return state
