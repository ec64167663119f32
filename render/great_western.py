"""Great Western Railway images: the public board (map, trains, players) and a seat's build options."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.describe import seat_name
from rules.great_western import board as gw
from rules.great_western.state import ORDINALS, ordinal
from rules.words import N_, Items, Msg, Plural, Seat, Term, Verbatim

# Phone first (kit.Page): the turn card, the map at the full page width, the trains, then the players.
WIDTH = kit.PAGE_WIDTH
SCALE = WIDTH / int(gw.CANVAS["width"])  # 0.75: the board data is laid out on a 1600 px canvas
MAP_TOP = 34  # room above Worcester for its name
MAP_H = round(int(gw.CANVAS["height"]) * SCALE) + MAP_TOP + 56  # and below Penzance for its name
LABEL = 17  # city names; reads at 800 px wide (kit.min_size("map", 1200) is 14)

CITY_R = 21
LONDON_R = 26
GOLD: kit.RGB = (240, 190, 40)
LINK: kit.RGB = (120, 112, 100)
FREIGHT_CAR: kit.RGB = (214, 208, 196)
PASSENGER_CAR: kit.RGB = (255, 255, 255)
ENGINE: kit.RGB = (52, 58, 70)
BLACK_CUBE: kit.RGB = (15, 15, 15)
GREYED: kit.RGB = (200, 196, 188)
BUILDING: kit.RGB = (214, 140, 0)  # frame of the train that builds now

_LABEL_ANCHOR = {
    "n": ((0, -1), "md"),
    "s": ((0, 1), "ma"),
    "e": ((1, 0), "lm"),
    "w": ((-1, 0), "rm"),
    "ne": ((0.75, -0.75), "ld"),
    "nw": ((-0.75, -0.75), "rd"),
    "se": ((0.75, 0.75), "la"),
    "sw": ((-0.75, 0.75), "ra"),
}


def _name(names: list[str], seat: int | None) -> str:
    if seat is None:
        return "?"
    return seat_name(names, seat)


def _who(seat: int | None) -> Seat | str:
    """A seat as a message parameter (its player's name once the line is said)."""
    return "?" if seat is None else Seat(int(seat))


def _city_name(city: str) -> str:
    return gw.CITIES[city].name if city in gw.CITIES else city


# TRANSLATORS: a city's people on the map ("2p"), in a small disc: keep it as short. One entry per count (the
# cities have 0 to 3), so no pattern "{n}p" would take every English text that ends in p.
PEOPLE = {0: N_("0p"), 1: N_("1p"), 2: N_("2p"), 3: N_("3p")}


def _ordinal(n: int) -> str:
    """A rank in the image's language."""
    return kit.tr(ORDINALS.get(n, f"{n}th"))


# --------------------------------------------------------------------------- the map that never changes


Box = tuple[float, float, float, float]
# Where a name may go: the printed sides, and above or below but shifted to one side of the city.
_CANDIDATES = _LABEL_ANCHOR | {
    "n-left": ((-0.2, -1), "rd"), "n-right": ((0.2, -1), "ld"),
    "s-left": ((-0.2, 1), "ra"), "s-right": ((0.2, 1), "la"),
}  # fmt: skip


def _at(city: str) -> tuple[float, float]:
    """A city's centre on the page-wide map."""
    c = gw.CITIES[city]
    return c.x * SCALE, c.y * SCALE + MAP_TOP


def _link_middle(link: gw.Link) -> tuple[float, float]:
    (ax, ay), (bx, by) = _at(link.a), _at(link.b)
    return (ax + bx) / 2, (ay + by) / 2


COST_HALF = 12


def _draw_cost(draw: ImageDraw.ImageDraw, link: gw.Link, outline: kit.RGB = kit.INK) -> None:
    x, y = _link_middle(link)
    h = COST_HALF
    draw.rectangle((x - h, y - h, x + h, y + h), fill=kit.WHITE, outline=outline, width=2)
    kit.text(draw, (x, y), str(link.cost), 16, kit.INK, bold=True, anchor="mm", translate=False, kind="glyph")


def _overlaps(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def _radius(city: str) -> int:
    return LONDON_R if city == gw.LONDON else CITY_R


@lru_cache(maxsize=1)
def _labels() -> dict[str, tuple[tuple[float, float], str, Box]]:
    """Each city's name where it covers no other name, city or cost square, and as little of the links
    as possible (Gloucester's printed side ran into its link): its printed side first, then the nearest.
    City names are never translated, so one placement serves every language."""
    blocked: list[Box] = []
    for city in gw.CITIES:
        x, y = _at(city)
        r = _radius(city) + 5  # an owned city's symbol is a little wider than the disc
        blocked.append((x - r, y - r, x + r, y + r))
    for link in gw.LINKS:
        x, y = _link_middle(link)
        blocked.append((x - COST_HALF - 2, y - COST_HALF - 2, x + COST_HALF + 2, y + COST_HALF + 2))
    link_points = []
    for link in gw.LINKS:
        (ax, ay), (bx, by) = _at(link.a), _at(link.b)
        steps = max(2, int(((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5 / 5))
        link_points += [(ax + (bx - ax) * i / steps, ay + (by - ay) * i / steps) for i in range(steps + 1)]
    placed: dict[str, tuple[tuple[float, float], str, Box]] = {}
    for city in sorted(gw.CITIES, key=lambda c: (gw.CITIES[c].x, c)):
        x, y = _at(city)
        w, h = kit.text_size(gw.CITIES[city].name, LABEL, True, translate=False)
        best = None
        for step, gap in enumerate((8, 16, 26, 38)):
            for side, ((dx, dy), anchor) in _CANDIDATES.items():
                reach = _radius(city) + gap
                ax, ay = x + dx * reach, y + dy * reach
                left = {"l": ax, "m": ax - w / 2, "r": ax - w}[anchor[0]]
                top = {"m": ay - h / 2, "a": ay, "d": ay - h}[anchor[1]]
                box = (left - 3, top - 3, left + w + 3, top + h + 3)
                if box[0] < 2 or box[2] > WIDTH - 2 or box[1] < 2 or box[3] > MAP_H - 2:
                    continue
                if any(_overlaps(box, other) for other in blocked):
                    continue
                covered = sum(1 for px, py in link_points if box[0] <= px <= box[2] and box[1] <= py <= box[3])
                cost = covered * 10 + step * 4 + (0 if side == gw.CITIES[city].label else 2)
                if best is None or cost < best[0]:
                    best = (cost, (ax, ay), anchor, box)
        if best is None:  # nowhere free: the printed side (the layout test names the clash)
            (dx, dy), anchor = _LABEL_ANCHOR[gw.CITIES[city].label]
            reach = _radius(city) + 8
            best = (0, (x + dx * reach, y + dy * reach), anchor, (x, y, x, y))
        _, at, anchor, box = best
        placed[city] = (at, anchor, box)
        blocked.append(box)
    return placed


def _static_map() -> Image.Image:
    """The map without owners: links with their costs, empty cities with gold and people, names."""
    image = kit.new_canvas(WIDTH, MAP_H)
    draw = ImageDraw.Draw(image)
    for link in gw.LINKS:
        draw.line([_at(link.a), _at(link.b)], fill=LINK, width=5)
    for link in gw.LINKS:
        _draw_cost(draw, link)
    for city in gw.CITIES.values():
        _draw_city(image, draw, city, None, 0)
    for city, (at, anchor, _box) in _labels().items():
        kit.text(draw, at, gw.CITIES[city].name, LABEL, kit.INK, bold=True, halo=kit.PAPER, anchor=anchor,
                 translate=False)
    return image


# --------------------------------------------------------------------------- cities


def _gold_disc(draw: ImageDraw.ImageDraw, x: float, y: float, gold: int, r: int = 11) -> None:
    draw.ellipse((x - r, y - r, x + r, y + r), fill=GOLD, outline=kit.INK, width=2)
    kit.text(draw, (x, y), str(gold), 15, kit.INK, bold=True, anchor="mm", translate=False, kind="glyph")


_sprites: dict[tuple[Any, ...], Image.Image] = {}


def _stamp(
    image: Image.Image,
    key: tuple[Any, ...],
    box: int,
    painter: Callable[[ImageDraw.ImageDraw, tuple[float, float]], None],
    centre: tuple[float, float],
    what: str = "",
) -> None:
    """Paste a small drawing made once per process: text rendering is the slow part of a board.

    What the sprite draws is left out of any recording (its own coordinates mean nothing on the page);
    `what` records the pasted box as one symbol instead.
    """
    sprite = _sprites.get(key)
    if sprite is None:
        sprite = Image.new("RGBA", (box, box), (0, 0, 0, 0))
        with kit.recording():
            painter(ImageDraw.Draw(sprite), (box / 2, box / 2))
        _sprites[key] = sprite
    image.paste(sprite, (round(centre[0] - box / 2), round(centre[1] - box / 2)), sprite)
    if what:
        half = box / 2 - 4
        kit.mark((centre[0] - half, centre[1] - half, centre[0] + half, centre[1] + half), what)


def _token(image: Image.Image, seat: int, centre: tuple[float, float], size: int) -> None:
    _stamp(
        image, ("token", seat, size), size + 8,
        lambda d, c: kit.draw_seat_token(d, seat, c, size), centre, kit.seat_symbol(seat),
    )  # fmt: skip


OWNED = 48  # an owned city: the owner's symbol in its colour, gold still in the middle


def _owned_city(draw: ImageDraw.ImageDraw, centre: tuple[float, float], seat: int, gold: int) -> None:
    x, y = centre
    kit.draw_symbol(draw, kit.seat_symbol(seat), (x, y), OWNED, kit.seat_colour(seat), kit.INK, 3)
    _gold_disc(draw, x, y + (4 if kit.seat_symbol(seat) == "triangle" else 0), gold, 11)


DIE = 30  # a die's box: its pips as a number that reads at 400 px


def _die(draw: ImageDraw.ImageDraw, centre: tuple[float, float], value: int) -> None:
    x, y = centre
    h = DIE / 2
    draw.rounded_rectangle((x - h, y - h, x + h, y + h), 5, fill=kit.WHITE, outline=kit.INK, width=2)
    kit.text(draw, (x, y), str(value), 20, kit.INK if value > 1 else kit.MUTED, bold=True, anchor="mm",
             translate=False, kind="glyph")


def _draw_city(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    city: gw.City,
    owner: int | None,
    seats: int,
    highlighted: frozenset[frozenset[str]] = frozenset(),
) -> None:
    x, y = _at(city.id)
    if city.id == gw.LONDON:
        r = LONDON_R
        draw.ellipse((x - r, y - r, x + r, y + r), fill=kit.WHITE, outline=kit.INK, width=3)
        spots = [(-9, -9), (9, -9), (-9, 9), (9, 9)]
        for seat in range(min(seats, 4)):
            dx, dy = spots[seat]
            _token(image, seat, (x + dx, y + dy), 17)
        kit.mark((x - r, y - r, x + r, y + r), "city")
        return
    if owner is None:
        r = CITY_R
        draw.ellipse((x - r, y - r, x + r, y + r), fill=kit.WHITE, outline=kit.INK, width=3)
        _gold_disc(draw, x, y - 7, city.gold, 10)
        kit.text(draw, (x, y + 11), PEOPLE.get(city.people, f"{city.people}p"), 14, kit.INK, bold=True,
                 anchor="mm", kind="glyph")
        kit.mark((x - r, y - r, x + r, y + r), "city")
        return
    # An owned city becomes the owner's symbol in its colour (shape + colour), gold still in the middle.
    r = CITY_R + 2
    draw.ellipse((x - r, y - r, x + r, y + r), fill=kit.PAPER)
    for there, _cost in gw.NEIGHBOURS[city.id]:
        # Put back the link ends the erased disc took, or a small symbol would float apart from its lines.
        ox, oy = _at(there)
        length = ((ox - x) ** 2 + (oy - y) ** 2) ** 0.5
        reach = (r + 2) / length
        colour = kit.HIGHLIGHT if frozenset((city.id, there)) in highlighted else LINK
        draw.line([(x, y), (x + (ox - x) * reach, y + (oy - y) * reach)], fill=colour,
                  width=12 if colour == kit.HIGHLIGHT else 5)  # fmt: skip
    _stamp(image, ("city", owner, city.gold), OWNED + 14, lambda d, c: _owned_city(d, c, owner, city.gold), (x, y),
           kit.seat_symbol(owner))


def _draw_highlight(draw: ImageDraw.ImageDraw, last: Mapping[str, Any] | None) -> list[gw.Link]:
    """The last connection's route in the highlight colour; returns the links to redraw costs on."""
    if not last or len(last.get("route") or []) < 2:
        return []
    route = [c for c in last["route"] if c in gw.CITIES]
    links = []
    for a, b in zip(route, route[1:], strict=False):
        draw.line([_at(a), _at(b)], fill=kit.HIGHLIGHT, width=12)
        links.extend(link for link in gw.LINKS if {link.a, link.b} == {a, b})
    x, y = _at(route[-1])
    r = CITY_R + 7
    draw.ellipse((x - r, y - r, x + r, y + r), outline=kit.HIGHLIGHT, width=5)
    return links


# --------------------------------------------------------------------------- trains


def _cube(draw: ImageDraw.ImageDraw, colour: Any, centre: tuple[float, float], size: int = 18) -> None:
    x, y = centre
    if colour == "black" or colour is None:
        h = size / 2 - 1
        draw.rectangle((x - h, y - h, x + h, y + h), fill=BLACK_CUBE, outline=kit.WHITE, width=1)
    else:
        kit.draw_symbol(
            draw, kit.seat_symbol(int(colour)), centre, size + 2, kit.seat_colour(int(colour)), kit.INK, 2
        )


ROW_H = 64
TRAINS_PAD = 12
CAR_X, CAR_W = 214, 104  # the five cars of a train
TOTALS_X = CAR_X + 5 * CAR_W + 10  # passengers and freight of the train, counted
DICE_X = TOTALS_X + 190
TRAINS_H = TRAINS_PAD * 2 + 4 * ROW_H + 30


def _row_top(index: int) -> int:
    return TRAINS_PAD + 28 + index * ROW_H


def _trains_skeleton(seats: int) -> Image.Image:
    """The trains block without bids, ranks, cubes or dice; trains not in play greyed out."""
    image = kit.new_canvas(WIDTH, TRAINS_H, kit.PANEL_BG)
    draw = ImageDraw.Draw(image)
    draw.line([(0, 0), (WIDTH, 0)], fill=kit.GRID, width=2)
    heads = ((N_("bid / paid"), 12), (N_("train"), 100), (N_("cars (number = people it pays for)"), CAR_X),
             (N_("passengers / freight"), TOTALS_X), (N_("dice"), DICE_X))
    for index, (label, x) in enumerate(heads):
        room = (heads[index + 1][1] if index + 1 < len(heads) else WIDTH) - x - 8
        kit.text(draw, (x, TRAINS_PAD), kit.fit(label, 16, room), 16, kit.MUTED, kind="panel", translate=False)
    for index, train in enumerate(gw.TRAINS):
        top = _row_top(index)
        bottom = top + ROW_H - 8
        live = train.id <= seats
        box = (8, top, 92, bottom)
        draw.rectangle(
            box, fill=kit.WHITE if live else GREYED, outline=kit.INK if live else kit.GRID, width=2
        )
        engine = (100, top, 206, bottom)
        draw.rounded_rectangle(engine, 8, fill=ENGINE if live else GREYED)
        text_fill = kit.WHITE if live else kit.MUTED
        kit.text(draw, (engine[0] + 8, top + 4), f"t{train.id}", 20, text_fill, bold=True, translate=False,
                 kind="panel")
        if not live:
            kit.text(draw, (engine[0] + 8, bottom - 4), kit.fit(N_("not in play"), 15, 92), 15, text_fill, anchor="ld",
                     translate=False, kind="panel")
        for position, car in enumerate(train.cars):
            cx0 = CAR_X + position * CAR_W
            fill = (PASSENGER_CAR if car.passenger else FREIGHT_CAR) if live else GREYED
            draw.rectangle(
                (cx0, top, cx0 + CAR_W - 6, bottom), fill=fill, outline=kit.INK if live else kit.GRID, width=2
            )
            ink = kit.INK if live else kit.MUTED
            kit.text(draw, (cx0 + 6, top + 4), str(car.number), 18, ink, bold=True, translate=False, kind="panel")
            # TRANSLATORS: the one-letter marks of a passenger car and a freight car
            letter = N_("P") if car.passenger else N_("F")
            kit.text(draw, (cx0 + CAR_W - 12, top + 4), letter, 16, ink, bold=not car.passenger, anchor="ra",
                     kind="panel")
        if live:
            for n in range(3):
                cx = DICE_X + DIE / 2 + n * (DIE + 6)
                draw.rounded_rectangle((cx - DIE / 2, (top + bottom) / 2 - DIE / 2, cx + DIE / 2,
                                        (top + bottom) / 2 + DIE / 2), 5, fill=kit.WHITE, outline=kit.GRID, width=2)
    return image


def _draw_trains(image: Image.Image, view: Mapping[str, Any]) -> None:
    """Bids, build ranks, cubes, each train's totals and dice on the skeleton; the building train framed."""
    draw = ImageDraw.Draw(image)
    last = view.get("last") or {}
    last_bid_train = None
    if str(last.get("move", "")).startswith("bid") and view.get("phase") == "auction":
        last_bid_train = int(str(last["move"]).split()[1][1:])
    for index, train in enumerate(view.get("trains", [])):
        if not train.get("in_play"):
            continue
        top = _row_top(index)
        bottom = top + ROW_H - 8
        mid = (top + bottom) / 2
        if train.get("building"):
            draw.rounded_rectangle((3, top - 4, WIDTH - 4, bottom + 4), 6, outline=BUILDING, width=4)
        # Bid box: the bidder's token and amount during the auction, the price paid afterwards.
        bid = train.get("bid")
        seat, amount = None, None
        if bid:
            seat, amount = int(bid["seat"]), int(bid["amount"])
        elif train.get("owner") is not None:
            seat, amount = int(train["owner"]), int(train.get("paid", 0))
        if seat is not None:
            _token(image, seat, (30, mid), 30)
            kit.text(draw, (86, mid), str(amount), 24, kit.INK, bold=True, anchor="rm", translate=False,
                     kind="panel")
        else:
            kit.text(draw, (50, mid), N_("bid"), 16, kit.MUTED, anchor="mm", kind="panel")
        if last_bid_train == train["id"]:
            draw.rectangle((4, top - 4, 96, bottom + 4), outline=kit.HIGHLIGHT, width=4)
        if train.get("build_rank"):
            rank = _ordinal(int(train["build_rank"]))
            if train.get("built"):
                rank = kit.fill_in("{rank}, built", rank=rank)
            kit.text(draw, (200, bottom - 4), kit.fit(rank, 16, 92, True, translate=False), 16, kit.WHITE,
                     bold=True, anchor="rd", translate=False, kind="panel")
        for position, car in enumerate(train.get("cars", [])):
            cubes = int(car.get("cubes", 0))
            pitch = min(22.0, (CAR_W - 24) / max(cubes, 1))
            for n in range(cubes):
                _cube(draw, car.get("colour"), (CAR_X + position * CAR_W + 14 + n * pitch, bottom - 13))
        totals = kit.fill_in("P {p} / F {f}", p=train.get("passengers", 0), f=train.get("freight", 0))
        kit.text(draw, (TOTALS_X, mid), totals, 22, kit.INK, bold=True, anchor="lm", translate=False, kind="panel")
        for n, die in enumerate(train.get("dice") or []):
            _die(draw, (DICE_X + DIE / 2 + n * (DIE + 6), mid), die)


# --------------------------------------------------------------------------- players panel and strip


def _players(panel: kit.Panel, view: Mapping[str, Any], names: list[str]) -> None:
    """Each player: gold, cubes available and not, cities and the income they bring."""
    to_act = set(view.get("to_act") or [])
    ranks = {}
    result = view.get("result")
    if result:
        ranks = {int(s["seat"]): int(s["rank"]) for s in result.get("seats", [])}
    panel.line(N_("Players (gold)"), 22, bold=True)
    size = 22
    # The row's room for the name, as Panel.player_row measures it (token, gaps, score column).
    room = panel.width - 16 - size * 1.3 - (kit.text_size("888", size, True)[0] + 12)
    for entry in view.get("seats", []):
        seat = int(entry["seat"])
        name = _name(names, seat)
        # The rank and the start mark are words of the image, the name is not: each is fitted on its own,
        # so that a long name gives way and the mark stays whole.
        if seat in ranks:
            template = kit.fill_in("{rank} {who}", rank=_ordinal(ranks[seat]), who="{who}")
            name = kit.fit_name(template, name, size, room, True, translate=False)
        elif seat == view.get("start_player") and not view.get("over"):
            name = kit.fit_name(N_("{who} (start)"), name, size, room, True)
        panel.player_row(seat, name, score=entry["gold"], to_act=seat in to_act, size=size)
        stock = kit.fill_in("{a} available, {u} unavailable", a=entry["available"], u=entry["unavailable"])
        income = kit.words(Plural("{n} city > income {m}", "{n} cities > income {m}", n=int(entry["city_count"]),
                                  m=entry["next_income"]))
        panel.wrapped(stock + "   " + income, 18, kit.INK, indent=44, translate=False)
        panel.gap(4)


def _ended(view: Mapping[str, Any]) -> Term:
    """How the game ended, as a word of the catalog."""
    result = view.get("result") or {}
    return Term(N_("every city connected") if result.get("ended_by") == "all cities connected" else N_("round limit"))


def _status_line(view: Mapping[str, Any], who: Any = None, short: bool = False) -> Msg:
    """The status line as a message; the acting seat (or seats) as `who` when given.

    `short` (the turn card's headline) leaves out the round limit and the building train's load.
    """
    phase = view.get("phase")
    limit = 0 if short else int(view.get("round_limit") or 0)
    r = view.get("round")
    if phase == "over" or view.get("over"):
        result = view.get("result") or {}
        winners = [int(s["seat"]) for s in result.get("seats", []) if s.get("rank") == 1]
        if who is None:
            who = Items([Seat(s) for s in winners], "and", english=" and ") if winners else Msg("nobody")
        if len(winners) == 1:
            return Msg("Game over ({how}): {who} wins", how=_ended(view), who=who)
        return Msg("Game over ({how}): {who} share the win", how=_ended(view), who=who)
    if phase == "auction":
        who = who if who is not None else _who(view.get("bidder"))
        if limit:
            return Msg("Round {r} of at most {limit} - auction: {who} to bid", r=r, limit=limit, who=who)
        return Msg("Round {r} - auction: {who} to bid", r=r, who=who)
    who = who if who is not None else _who(view.get("builder"))
    train = next((t for t in view.get("trains", []) if t.get("building")), None)
    if train and not short:
        load = dict(t=train["id"], p=train["passengers"], f=train["freight"])
        if limit:
            return Msg("Round {r} of at most {limit} - build: {who} builds with t{t} (P{p} F{f})", r=r, limit=limit,
                       who=who, **load)
        return Msg("Round {r} - build: {who} builds with t{t} (P{p} F{f})", r=r, who=who, **load)
    if limit:
        return Msg("Round {r} of at most {limit} - build: {who} builds", r=r, limit=limit, who=who)
    return Msg("Round {r} - build: {who} builds", r=r, who=who)


def _status(view: Mapping[str, Any], names: list[str]) -> str:
    """The status line, translated, with the players' names in."""
    return kit.say(_status_line(view), names)


def _last_msg(view: Mapping[str, Any]) -> Msg:
    """What the last decision did."""
    last = view.get("last")
    if not last:
        return Msg("Last: nothing yet. The first bid starts the game.")
    who = _who(int(last["seat"]))
    move = str(last.get("move", ""))
    if move.startswith("connect") and last.get("route"):
        route = [_city_name(c) for c in last["route"]]
        if len(route) > 2:
            return Msg("Last: {who} connected {city} from {start} via {via}", who=who, city=route[-1], start=route[0],
                       via=Items(route[1:-1], "comma"))
        return Msg("Last: {who} connected {city} from {start}", who=who, city=route[-1], start=route[0])
    if move.startswith("bid"):
        _, train, amount = move.split()
        return Msg("Last: {who} bid {n} on {train}", who=who, n=amount, train=train)
    return Msg("Last: {who} finished building", who=who)


def _last_text(view: Mapping[str, Any], names: list[str]) -> str:
    """What the last decision did, translated, with the names in."""
    return kit.say(_last_msg(view), names)


def _details(panel: kit.Panel, view: Mapping[str, Any], names: list[str]) -> None:
    """Below the players: what the builder can reach, or the auction's lowest bids; at the end the scores."""
    result = view.get("result")
    size = 18
    if result:
        for entry in result.get("seats", []):
            details = entry.get("details") or {}
            cities = " + ".join(f"{_city_name(c)} {g}" for c, g in details.get("cities", []))
            line = Msg("{rank} {who}: {score} gold ({cubes} cubes off the board) = {cities}",
                       rank=ordinal(int(entry["rank"])), who=_who(int(entry["seat"])), score=entry["score"],
                       cubes=details.get("cubes_off_board", "?"), cities=cities or Msg("no city"))
            panel.wrapped(kit.say(line, names), size, translate=False)
        panel.wrapped(N_("Ties: most gold, then most cubes off the board (fewer cities)."), size - 1, kit.MUTED)
        return
    options = view.get("connect_options") or []
    if view.get("phase") == "build" and view.get("builder") is not None:
        if options:
            # TRANSLATORS: a city the builder can reach, its route cost + its people ("Bath 3+2p")
            items = Items([Msg("{city} {cost}+{n}p", city=_city_name(o["city"]), cost=o["route_cost"], n=o["people"])
                           for o in options], "comma")
            line = Msg("{who} can connect (route cost + people): {items}", who=_who(view["builder"]), items=items)
        else:
            line = Msg("{who} cannot afford any city.", who=_who(view["builder"]))
        panel.wrapped(kit.say(line, names), size, translate=False)
    elif view.get("phase") == "auction":
        lowest = []
        for train in view.get("trains", []):
            if train.get("in_play"):
                bid = train.get("bid")
                lowest.append(f"t{train['id']} {1 if bid is None else int(bid['amount']) + 1}")
        line = Msg("Lowest bids now: {lows}. Outbid cubes go back to their owner; trains build in rank order "
                   "(the cube nearest the engine first).", lows=Items(lowest, "comma"))
        panel.wrapped(kit.say(line, names), size, translate=False)


def _legend(panel: kit.Panel) -> None:
    income = " | ".join(f"{a}-{b}: {v}" if a != b else f"{a}: {v}" for a, b, v in _income_ranges())
    panel.wrapped(kit.fill_in("Income by cities (London counts)  {ranges}", ranges=income), 17, translate=False)
    panel.wrapped(N_("Stand-in map of our own design. Cars: P passenger (pays people and routes), "
                     "F freight (routes only)."), 17, kit.MUTED)  # fmt: skip


def _income_ranges() -> list[tuple[str, str, int]]:
    rows: list[tuple[str, str, int]] = []
    values = sorted(gw.INCOME.items())
    start = values[0][0]
    for index, (cities, income) in enumerate(values):
        last = index == len(values) - 1
        if last or values[index + 1][1] != income:
            high = "+" if last and cities > start else str(cities)
            rows.append((str(start), high, income) if high != "+" else (f"{start}+", f"{start}+", income))
            start = cities + 1
    return rows


def _wrapped(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], line: str, size: int, width: int, max_lines: int
) -> float:
    """Draw an already translated line in at most `max_lines` lines of `width` px; returns the next y."""
    x, y = xy
    lines = kit.wrap_lines(line, size, width)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = lines[-1][: max(0, len(lines[-1]) - 4)] + " ..."
    for text in lines:
        kit.text(draw, (x, y), text, size, kit.INK, translate=False)
        y += int(size * 1.4)
    return y


# --------------------------------------------------------------------------- entry points


def _headline(view: Mapping[str, Any], names: list[str]) -> tuple[str, str | list[str] | None, int | None]:
    """The turn card's headline in the image's language, with a {who} slot (the turn card puts the name in
    last, shortened so the words stay whole), the name (the names of a shared win), and the seat it is about."""
    if view.get("over"):
        winners = [int(s["seat"]) for s in (view.get("result") or {}).get("seats", []) if s.get("rank") == 1]
        who: str | list[str] = [_name(names, s) for s in winners] if winners else kit.words(Msg("nobody"))
        return kit.words(_status_line(view, who="{who}")), who, winners[0] if len(winners) == 1 else None
    seat = view.get("bidder") if view.get("phase") == "auction" else view.get("builder")
    if seat is None:
        return _status(view, names), None, None
    return kit.words(_status_line(view, who="{who}", short=True)), _name(names, int(seat)), int(seat)


def _render(view: Mapping[str, Any], names: list[str]) -> Image.Image:
    seats = int(view.get("num_seats") or len(view.get("seats", [])))
    page = kit.Page(WIDTH)
    headline, who, accent = _headline(view, names)
    cards = [
        kit.SeatScore(int(e["seat"]), _name(names, int(e["seat"])), e["gold"], int(e["seat"]) in (view.get("to_act") or []),
                      kit.words(Plural("{n} city", "{n} cities", n=int(e["city_count"]))))
        for e in sorted(view.get("seats", []), key=lambda e: int(e["seat"]))
    ]
    page.turn_card(headline, _last_text(view, names), cards, who=who, accent=accent, translate=False)
    with page.block(lambda: kit.static_layer(f"great_western/map/{seats}", _static_map)) as image:
        draw = ImageDraw.Draw(image)
        last = view.get("last")
        for link in _draw_highlight(draw, last):
            _draw_cost(draw, link, kit.HIGHLIGHT)
        owners = {str(c): int(s) for c, s in (view.get("owners") or {}).items()}
        route = list((last or {}).get("route") or [])
        on_route = set(route)
        route_links = frozenset(frozenset(pair) for pair in zip(route, route[1:], strict=False))
        for city in gw.CITIES.values():
            # Empty cities are already on the static layer; only owned ones and the highlighted route change.
            if city.id in owners or city.id in on_route or city.id == gw.LONDON:
                _draw_city(image, draw, city, owners.get(city.id), seats, route_links)
        if on_route:  # the highlight ran over names: put back the ones along the route
            for city, (at, anchor, _box) in _labels().items():
                if city in on_route or any(city in pair for pair in route_links):
                    kit.text(draw, at, gw.CITIES[city].name, LABEL, kit.INK, bold=True, halo=kit.PAPER,
                             anchor=anchor, translate=False)
    with page.block(lambda: kit.static_layer(f"great_western/trains/{seats}", lambda: _trains_skeleton(seats))) \
            as image:
        _draw_trains(image, view)
    with page.panel(1000) as panel:
        panel.wrapped(_status(view, names), 20, bold=True, translate=False)
        panel.rule()
        _players(panel, view, names)
        panel.rule()
        _details(panel, view, names)
        panel.rule()
        _legend(panel)
    return page.image()


def board(view: dict[str, Any], names: list[str]) -> bytes:
    """The public image: turn card, map with owners, trains with loads and bids, players and details."""
    return kit.encode(board_image(view, names))


def board_image(view: dict[str, Any], names: list[str]) -> Image.Image:
    """The public image, not yet encoded (render.board_image)."""
    return _render(view, names)


def describe(view: dict[str, Any], names: list[str]) -> str:
    """Alt text for the public board, in the image's language (English unless drawn inside
    `render.in_language`): round and stage, gold and cities per player, the last decision."""
    seats = sorted(view.get("seats", []), key=lambda entry: int(entry["seat"]))
    gold = Items([Msg("{who} {n}", who=Seat(int(e["seat"])), n=e["gold"]) for e in seats], "comma")
    cities = Items([Msg("{who} {n}", who=Seat(int(e["seat"])), n=int(e["city_count"]) - 1) for e in seats], "comma")
    if view.get("over"):
        result = view.get("result") or {}
        winners = [Seat(int(s["seat"])) for s in result.get("seats", []) if s.get("rank") == 1]
        stage = Msg("game over ({how}), won by {who}", how=_ended(view),
                    who=Items(winners, "and", english=", ") if winners else Msg("nobody"))
    elif view.get("phase") == "auction":
        stage = Msg("auction, {who} to bid", who=_who(view.get("bidder")))
    else:
        train = next((t for t in view.get("trains", []) if t.get("building")), None)
        stage = Msg("build, {who} builds with t{t}", who=_who(view.get("builder")), t=train["id"]) if train \
            else Msg("build, {who} builds", who=_who(view.get("builder")))
    last = _last_msg(view) if view.get("last") else Msg("Last: nothing yet")
    return kit.say(Msg("Great Western Railway, round {r}: {stage}. Gold: {gold}. Cities (besides London): {cities}. "
                       "{last}.", r=view.get("round", 1), stage=stage, gold=gold if seats else Msg("nobody"),
                       cities=cities if seats else Msg("nobody"), last=last), names)


def hand(view: dict[str, Any], names: list[str]) -> bytes:
    """A seat's image: its cubes and, while it builds, every city it can reach with the full costs."""
    seat = view.get("you", view.get("seat"))
    seat = 0 if seat is None else int(seat)
    options = view.get("connect_options") or [] if view.get("builder") == seat else []
    blocked = view.get("unaffordable") or [] if view.get("builder") == seat else []
    rows = len(options) + len(blocked)
    height = max(300, 190 + 34 * max(rows, 1) + 60)
    image = kit.new_canvas(1200, height, kit.PANEL_BG)
    draw = ImageDraw.Draw(image)
    kit.draw_seat_token(draw, seat, (40, 40), 44)
    me = (view.get("seats") or [{}] * (seat + 1))[seat]
    title = kit.fit_name("{who}: your railway", _name(names, seat), 28, 1200 - 76 - 24, True)
    kit.text(draw, (76, 24), title, 28, kit.INK, bold=True, translate=False)
    stock = kit.fill_in("{a} available, {u} unavailable, {c} cities (income {i}), gold {g}",
                        a=me.get("available", 0), u=me.get("unavailable", 0), c=me.get("city_count", 1),
                        i=me.get("next_income", 0), g=me.get("gold", 0))
    kit.text(draw, (76, 62), stock, 18, kit.INK, translate=False)
    kit.text(draw, (24, 100), kit.fit(_status(view, names), 20, 1200 - 48, True, translate=False), 20, kit.INK,
             bold=True, translate=False)  # fmt: skip
    y = 140
    if view.get("builder") != seat or view.get("over"):
        train = next((t for t in view.get("trains", []) if t.get("owner") == seat), None)
        note = kit.tr(N_("Nothing to build right now."))
        if train and view.get("phase") == "build" and train.get("built"):
            note = kit.fill_in("Your train t{t} has built this round. The next auction starts when every train has "
                               "built.", t=train["id"])
        elif train and view.get("phase") == "build":
            note = kit.fill_in("You won t{t}: P{p} F{f}. Wait for your build turn.", t=train["id"],
                               p=train["passengers"], f=train["freight"])
        kit.text(draw, (24, y), note, 18, kit.MUTED, translate=False)
        return kit.encode(image)
    train = next((t for t in view.get("trains", []) if t.get("owner") == seat and t.get("building")), None)
    if train:
        line = kit.fill_in("Your train t{t}: passengers {p}, freight {f}. Type `connect <city>` or `done`.",
                           t=train["id"], p=train["passengers"], f=train["freight"])
        kit.text(draw, (24, y), line, 18, kit.INK, translate=False)
    y += 36
    # Each column starts where it always did, or further right when the heading before it is longer in the
    # image's language ("Einwohner", "Gebühren"); the route runs to the edge.
    columns: list[tuple[int, str]] = []
    for cx, title in ((24, N_("City")), (200, N_("Gold")), (270, N_("People")), (360, N_("Links")), (440, N_("Fees")),
                      (510, N_("Pays with")), (790, N_("Route"))):
        if columns:
            before_x, before = columns[-1]
            cx = max(cx, before_x + kit.text_size(before, 17, True)[0] + 14)
        columns.append((cx, title))
    for index, (cx, title) in enumerate(columns):
        room = (columns[index + 1][0] if index + 1 < len(columns) else 1200) - cx - 8
        kit.text(draw, (cx, y), kit.fit(title, 17, room, True), 17, kit.MUTED, bold=True, translate=False)
    y += 30
    for option in sorted(options, key=lambda o: (-o["gold"], o["route_cost"], o["city"])):
        pay = option["pay"]
        # TRANSLATORS: how a connection would be paid, in a narrow column: passenger, freight, available cubes
        parts = [Msg("{n} P", n=pay["passengers"])] + [Msg("{n} F", n=pay["freight"])] * bool(pay["freight"])
        parts += [Msg("{n} avail", n=pay["available"])] * bool(pay["available"])
        cells = [
            _city_name(option["city"]), str(option["gold"]), str(option["people"]), str(option["links"]),
            str(option["fees"]), kit.words(Verbatim(Items(parts, "comma"))),
            " > ".join(_city_name(c) for c in option["route"]),
        ]  # fmt: skip
        for index, ((cx, _), cell) in enumerate(zip(columns, cells, strict=True)):
            # names and numbers as they are; the route runs to the image's edge at most
            limit = (columns[index + 1][0] if index + 1 < len(columns) else 1200) - cx - 8
            kit.text(draw, (cx, y), kit.fit(cell, 17, limit, cx == 24, translate=False), 17, kit.INK,
                     bold=cx == 24, translate=False)  # fmt: skip
        y += 34
    for entry in blocked:
        why = Msg.from_json(entry["why"]) if "why" in entry else Verbatim(str(entry.get("reason", "")))
        line = kit.say(Msg("Not now: {reason}", reason=why), names)
        kit.text(draw, (24, y), kit.fit(line, 16, 1200 - 48, translate=False), 16, kit.MUTED, translate=False)
        y += 34
    if not options:
        kit.text(draw, (24, y), N_("No city is affordable: `done` ends your build."), 18, kit.INK)
    return kit.encode(image)
