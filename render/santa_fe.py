"""Santa Fe images: the public map with track, railheads and open sections, and a seat's private hand."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from rules.santa_fe.board import BOARD, RAILROADS
from rules.words import N_, Msg, Plural

# Phone first (kit.Page): the turn card, the map at the full page width, then the panel.
WIDTH = kit.PAGE_WIDTH
SCALE = 0.72  # board units -> px: the map spans the width with room for the outer cities' names
LEFT, TOP = 100, 48  # where the westmost / northmost city sits
MAP_H = 700
MAP_BG: kit.RGB = (236, 230, 214)
LABEL = 16  # city names: read at 800 px wide (kit.min_size("map", 1200) is 14)
SMALL = 15  # railroad codes on tags, chips and lanes

RR_COLOURS: dict[str, kit.RGB] = {rr: kit.hex_rgb(BOARD.railroads[rr].hex) for rr in RAILROADS}
RR_COLOURS["sp"] = (255, 255, 255)
# A pattern per railroad as well as its colour, so red UP and green GN differ without colour vision.
RR_PATTERNS = {"sf": "solid", "sp": "dots", "gn": "stripes", "up": "dashes", "kp": "solid"}
RR_MARKS: dict[str, kit.RGB] = {
    "sf": kit.WHITE,
    "sp": kit.INK,
    "gn": kit.WHITE,
    "up": kit.WHITE,
    "kp": kit.INK,
}
# Empty spaces are hollow, in a shade of the map: Southern Pacific's white tiles (black border, black
# dots) are then the only white on the map, so they never read as empty spaces when small.
EMPTY_SLOT: kit.RGB = (222, 214, 194)
EMPTY_EDGE: kit.RGB = (176, 166, 146)
RIVER: kit.RGB = (40, 120, 220)
MOUNTAIN: kit.RGB = (120, 80, 40)
CITY_FILL: kit.RGB = (255, 255, 255)
SLOT_W = 12
LANE_GAP = 8
CITY_R = 12
CHIP = 17  # a railroad's square under a city it reaches


def _xy(city: str) -> tuple[float, float]:
    c = BOARD.cities[city]
    return (c.x - _MIN_X) * SCALE + LEFT, (c.y - _MIN_Y) * SCALE + TOP


_MIN_X = min(c.x for c in BOARD.cities.values())
_MIN_Y = min(c.y for c in BOARD.cities.values())


def _slots(sid: int, lane: int) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The (start, end) points of each space of a lane, listed from end a to end b."""
    section = BOARD.sections[sid]
    (ax, ay), (bx, by) = _xy(section.a), _xy(section.b)
    length = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / length, (by - ay) / length
    shift = 0.0
    if section.double:
        shift = LANE_GAP if lane == 0 else -LANE_GAP
    nx, ny = -uy * shift, ux * shift
    margin = CITY_R + 3  # keep clear of the city discs
    usable = length - 2 * margin
    step = usable / section.spaces
    slots = []
    for k in range(section.spaces):
        t0 = margin + k * step + 1.5
        t1 = margin + (k + 1) * step - 1.5
        slots.append(((ax + ux * t0 + nx, ay + uy * t0 + ny), (ax + ux * t1 + nx, ay + uy * t1 + ny)))
    return slots


def _space_index(sid: int, from_city: str, k: int) -> int:
    """Index (from end a) of the k-th space counted from `from_city`."""
    section = BOARD.sections[sid]
    return k if from_city == section.a else section.spaces - 1 - k


def _mid(p: tuple[float, float], q: tuple[float, float]) -> tuple[float, float]:
    return (p[0] + q[0]) / 2, (p[1] + q[1]) / 2


def _terrain_mark(draw: ImageDraw.ImageDraw, centre: tuple[float, float], terrain: str) -> None:
    x, y = centre
    if "mountain" in terrain:
        draw.polygon([(x - 5, y + 4), (x, y - 5), (x + 5, y + 4)], fill=MOUNTAIN)
    if "river" in terrain:
        draw.line([(x - 5, y + 1), (x - 2, y - 2), (x + 2, y + 2), (x + 5, y - 1)], fill=RIVER, width=2)


def _rr_swatch(draw: ImageDraw.ImageDraw, rr: str, centre: tuple[float, float], length: int = 30) -> None:
    x, y = centre
    kit.patterned_bar(
        draw,
        (x - length / 2, y),
        (x + length / 2, y),
        SLOT_W + 2,
        RR_COLOURS[rr],
        RR_PATTERNS[rr],
        RR_MARKS[rr],
        kit.INK,
        spacing=7,
    )


Box = tuple[float, float, float, float]


def _overlaps(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def _grow(box: Box, by: float) -> Box:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def _disc(city: str) -> Box:
    x, y = _xy(city)
    r = CITY_R + 4  # the bonus city's frame
    return (x - r, y - r, x + r, y + r)


def _chip_row(city: str, count: int) -> Box:
    """Where the railroads reaching a city show: a row of squares just under it."""
    x, y = _xy(city)
    width = count * (CHIP + 2)
    return (x - width / 2, y + CITY_R + 3, x + width / 2, y + CITY_R + 3 + CHIP)


def _slot_points() -> list[tuple[float, float]]:
    """Points along every space of the map: a label over track is allowed but costs."""
    points = []
    for sid, section in BOARD.sections.items():
        for lane in range(section.lanes):
            for p, q in _slots(sid, lane):
                points += [p, _mid(p, q), q]
    return points


# Candidate places for a city's name around its disc: (dx, dy, anchor) per compass side, nearest first.
_SIDES = {
    "e": (1, 0, "lm"), "w": (-1, 0, "rm"), "n": (0, -1, "ms"), "s": (0, 1, "ma"),
    "ne": (0.7, -0.7, "ls"), "nw": (-0.7, -0.7, "rs"), "se": (0.7, 0.7, "la"), "sw": (-0.7, 0.7, "ra"),
}  # fmt: skip


def _label_box(city: str, side: str, reach: float) -> tuple[tuple[float, float], str, Box]:
    """The anchor point, Pillow anchor and ink box of a city's name put `reach` px off its centre."""
    x, y = _xy(city)
    dx, dy, anchor = _SIDES[side]
    # names below a city go past its row of railroad squares
    extra = CHIP + 2 if side in ("s", "se", "sw") else 0
    at = (x + dx * reach, y + dy * (reach + extra))
    w, h = kit.text_size(_city_name(city), LABEL, True, translate=False)
    left = {"l": at[0], "m": at[0] - w / 2, "r": at[0] - w}[anchor[0]]
    top = {"m": at[1] - h / 2, "s": at[1] - h, "a": at[1], "d": at[1] - h}[anchor[1]]
    return at, anchor, (left - 3, top - 3, left + w + 3, top + h + 3)


def _gap(box: Box, point: tuple[float, float]) -> float:
    """How far `point` is from `box` (0 inside it)."""
    dx = max(box[0] - point[0], 0, point[0] - box[2])
    dy = max(box[1] - point[1], 0, point[1] - box[3])
    return math.hypot(dx, dy)


def _city_name(city: str) -> str:
    name = BOARD.name(city)
    return name.upper() if BOARD.cities[city].start else name


def _place_labels() -> dict[str, tuple[tuple[float, float], str, Box]]:
    """Every city's name where it overlaps no other name, disc or row of railroad squares, and covers
    as little track as it can; its printed side first. Most crowded cities choose first."""
    blocked: list[Box] = [_disc(c) for c in BOARD.cities]
    blocked += [_chip_row(c, 3) for c in BOARD.cities if not BOARD.cities[c].start]
    track = _slot_points()

    def crowd(city: str) -> int:
        x, y = _xy(city)
        return sum(1 for other in BOARD.cities if other != city and abs(_xy(other)[0] - x) < 160
                   and abs(_xy(other)[1] - y) < 60)

    placed: dict[str, tuple[tuple[float, float], str, Box]] = {}
    for city in sorted(BOARD.cities, key=lambda c: (-crowd(c), c)):
        best = None
        for reach in (CITY_R + 6, CITY_R + 11, CITY_R + 16, CITY_R + 28):
            for side in _SIDES:
                at, anchor, box = _label_box(city, side, reach)
                if box[0] < 2 or box[2] > WIDTH - 2 or box[1] < 2 or box[3] > MAP_H - 2:
                    continue
                if any(_overlaps(box, other) for other in blocked):
                    continue
                covered = sum(1 for px, py in track if box[0] <= px <= box[2] and box[1] <= py <= box[3])
                # a name nearer another city than its own would be read as that city's
                own = _gap(box, _xy(city))
                misread = sum(1 for other in BOARD.cities if other != city and _gap(box, _xy(other)) < own + 4)
                # names are drawn over the track with a halo that hides what it covers (a laid tile too):
                # a name goes 2.5 px further from its city (0.8 a px) rather than cover a third of a space
                cost = covered * 2 + misread * 40 + own * 0.8 + (side != BOARD.cities[city].label) * 2
                if best is None or cost < best[0]:
                    best = (cost, at, anchor, box)
        if best is None:  # nowhere free: the printed side (the layout test names the clash)
            at, anchor, box = _label_box(city, BOARD.cities[city].label, CITY_R + 6)
        else:
            _, at, anchor, box = best
        placed[city] = (at, anchor, box)
        blocked.append(box)
    return placed


@lru_cache(maxsize=1)
def _labels() -> dict[str, tuple[tuple[float, float], str, Box]]:
    """The names' places, worked out once per process (city names are the same in every language)."""
    return _place_labels()


def _static() -> Image.Image:
    """The map without track: empty spaces, terrain marks, cities and their names."""
    image = kit.new_canvas(WIDTH, MAP_H, MAP_BG)
    draw = ImageDraw.Draw(image)
    for sid, section in BOARD.sections.items():
        for lane in range(section.lanes):
            for k, (p, q) in enumerate(_slots(sid, lane)):
                kit.patterned_bar(draw, p, q, SLOT_W, EMPTY_SLOT, "solid", outline=EMPTY_EDGE)
                if section.terrain[k] != "plain":
                    _terrain_mark(draw, _mid(p, q), section.terrain[k])
    for city in BOARD.cities.values():
        x, y = _xy(city.id)
        r = CITY_R
        if city.start:
            draw.rectangle((x - r + 1, y - r + 1, x + r - 1, y + r - 1), fill=kit.INK)
        else:
            draw.ellipse((x - r, y - r, x + r, y + r), fill=CITY_FILL, outline=kit.INK, width=2)
            kit.text(draw, (x, y), str(city.value), SMALL, kit.INK, bold=True, anchor="mm", translate=False,
                     kind="glyph")
        for rr, railroad in BOARD.railroads.items():
            if railroad.bonus_city == city.id:
                # A railroad's bonus city: a square frame in its colour.
                draw.rectangle((x - r - 4, y - r - 4, x + r + 4, y + r + 4), outline=kit.INK, width=5)
                draw.rectangle((x - r - 3, y - r - 3, x + r + 3, y + r + 3), outline=RR_COLOURS[rr], width=3)
        kit.mark(_grow(_disc(city.id), -2), "city")
    return image


def _names_layer() -> list[tuple[tuple[int, int], Image.Image]]:
    """The cities' names as small clear sprites with their places, pasted over the track: a tile never
    hides a name (one paste per name costs far less than one of a map-sized layer)."""
    layer = Image.new("RGBA", (WIDTH, MAP_H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    sprites = []
    for city, (at, anchor, box) in _labels().items():
        kit.text(draw, at, _city_name(city), LABEL, kit.INK, bold=True, halo=MAP_BG, anchor=anchor,
                 translate=False)
        corner = (max(0, int(box[0]) - 2), max(0, int(box[1]) - 2))
        sprites.append((corner, layer.crop((*corner, min(WIDTH, int(box[2]) + 3), min(MAP_H, int(box[3]) + 3)))))
    return sprites


def _near(blocked: list[Box], x: float, y: float, reach: float = 110) -> list[Box]:
    """The boxes that a tag or label placed around (x, y) could touch: far fewer to test."""
    return [b for b in blocked if b[0] < x + reach and b[2] > x - reach and b[1] < y + reach and b[3] > y - reach]


def _free_spot(candidates: list[Box], blocked: list[Box]) -> Box | None:
    return next((box for box in candidates if not any(_overlaps(box, other) for other in blocked)
                 and box[0] >= 0 and box[2] <= WIDTH and box[1] >= 0 and box[3] <= MAP_H), None)


def _covered(box: Box, blocked: list[Box]) -> float:
    """How much of `blocked` the box covers (area), or more than any map area when it leaves the map."""
    if box[0] < 0 or box[1] < 0 or box[2] > WIDTH or box[3] > MAP_H:
        return float(WIDTH * MAP_H)
    return sum(max(0.0, min(box[2], b[2]) - max(box[0], b[0])) * max(0.0, min(box[3], b[3]) - max(box[1], b[1]))
               for b in blocked)


def _tag_size(label: str) -> tuple[float, float]:
    w, _ = kit.text_size(label, SMALL, True, translate=False)
    return w + 10, 22


def _board_layer(image: Image.Image, view: dict[str, Any]) -> None:
    """Track, reserved spaces, open-section arrows, railheads, the railroads at each city, last tiles."""
    draw = ImageDraw.Draw(image)
    laid: dict[tuple[int, int], dict[str, Any]] = {
        (lane["section"], lane["lane"]): lane for lane in view["lanes"]
    }
    taken: dict[int, set[str]] = {}
    for lane in view["lanes"]:
        taken.setdefault(lane["section"], set()).add(lane["rr"])
    for (sid, lane_index), lane in laid.items():
        rr = lane["rr"]
        slots = _slots(sid, lane_index)
        for k in range(lane["spaces"]):
            p, q = slots[_space_index(sid, lane["from"], k)]
            if k < lane["tiles"]:
                kit.patterned_bar(draw, p, q, SLOT_W + 2, RR_COLOURS[rr], RR_PATTERNS[rr], RR_MARKS[rr], kit.INK, 7)
                if rr == "sp":  # white tiles get a second border: never mistaken for a hollow space
                    _outline(draw, p, q, kit.INK, SLOT_W + 4, 2)
            else:
                # Reserved: only this railroad's line can fill these spaces.
                kit.patterned_bar(draw, p, q, SLOT_W + 2, MAP_BG, "solid", outline=None)
                _dashed_outline(draw, p, q, RR_COLOURS[rr] if rr != "sp" else kit.INK)
    # Arrows: where each railroad can start building from a railhead at a city.
    arrows: dict[tuple[int, str], list[str]] = {}
    for rr in RAILROADS:
        if view["supply"][rr] <= 0 and not view.get("bought_phase"):
            continue
        for head in view["lines"][rr]:
            city = head.get("at")
            if city is None:
                continue
            for sid in BOARD.at_city[city]:
                section = BOARD.sections[sid]
                holders = taken.get(sid, set())
                if rr in holders or len(holders) >= section.lanes:
                    continue
                arrows.setdefault((sid, city), [])
                if rr not in arrows[(sid, city)]:
                    arrows[(sid, city)].append(rr)
    for (sid, city), rrs in arrows.items():
        section = BOARD.sections[sid]
        (cx, cy), (ox, oy) = _xy(city), _xy(section.other(city))
        length = math.hypot(ox - cx, oy - cy)
        ux, uy = (ox - cx) / length, (oy - cy) / length
        for i, rr in enumerate(rrs):
            t = 28 + i * 12
            _arrow(draw, (cx + ux * t, cy + uy * t), (ux, uy), rr)
    for sid, lane_index, index, _rr in view["last_tiles"]:
        lane = laid.get((sid, lane_index))
        if lane is None:
            continue
        p, q = _slots(sid, lane_index)[_space_index(sid, lane["from"], index)]
        _outline(draw, p, q, kit.HIGHLIGHT, SLOT_W + 10, 4)
    # What may not be covered from here on: names, city discs, and the rows of railroad squares.
    blocked: list[Box] = [box for *_, box in _labels().values()] + [_disc(c) for c in BOARD.cities]
    # The railroads that reach each city: a square each, in its colour and pattern, under the city.
    reach: dict[str, list[str]] = {}
    for rr in RAILROADS:
        for city in view["connected"][rr]:
            reach.setdefault(city, []).append(rr)
    for city, rrs in reach.items():
        if BOARD.cities[city].start:
            continue
        row = _chip_row(city, len(rrs))
        for i, rr in enumerate(rrs):
            x0 = row[0] + 1 + i * (CHIP + 2)
            _chip(draw, rr, (x0, row[1], x0 + CHIP, row[3]))
        kit.mark(row, "railroads at " + city)
        blocked.append(row)
    # Railhead tags: at a city, the nearest free place around it; on a section, beside its last tile.
    for rr in RAILROADS:
        for head in view["lines"][rr]:
            tag = f"{rr.upper()}{head['line']}"
            w, h = _tag_size(tag)
            if "at" in head:
                x, y = _xy(head["at"])
                reach_px = [CITY_R + 4 + h / 2, CITY_R + 10 + h, CITY_R + 16 + 1.5 * h, CITY_R + 22 + 2 * h,
                            CITY_R + 28 + 2.5 * h]
            else:
                lane = laid[(head["section"], head["lane"])]
                slots = _slots(head["section"], head["lane"])
                p, q = slots[_space_index(head["section"], lane["from"], lane["tiles"] - 1)]
                x, y = _mid(p, q)
                reach_px = [h / 2 + 6, h + 8, 1.5 * h + 10, 2 * h + 14, 2.5 * h + 18]
            candidates = []
            for r in reach_px:
                for angle in range(-90, 270, 30):
                    cx = x + math.cos(math.radians(angle)) * (r + w / 2 - h / 2)
                    cy = y + math.sin(math.radians(angle)) * r
                    candidates.append((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
            near = _near(blocked, x, y, reach=180)
            # A crowded corner (five railroads at one city late in the game) may have no free place: then
            # the place that covers the least of its neighbours, never simply the first.
            box = _free_spot(candidates, near) or min(candidates, key=lambda c: _covered(c, near))
            blocked.append(box)
            _tag(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), tag, rr)
    # Lane labels (which railroad) beside the middle of long claimed lanes, where there is room.
    for (sid, lane_index), lane in laid.items():
        if lane["tiles"] < 2 or lane["spaces"] < 3:
            continue  # short or barely started lanes: colour, pattern and railhead tag say enough
        slots = _slots(sid, lane_index)
        x, y = _mid(slots[0][0], slots[-1][1])
        (ax, ay), (bx, by) = _xy(BOARD.sections[sid].a), _xy(BOARD.sections[sid].b)
        length = math.hypot(bx - ax, by - ay)
        nx, ny = -(by - ay) / length, (bx - ax) / length
        sign = -1 if lane_index == 1 else 1
        label = lane["rr"].upper()
        w, h = kit.text_size(label, SMALL, True, translate=False)
        candidates = []
        for off in (16, 24):
            cx, cy = x + nx * off * sign, y + ny * off * sign
            candidates.append((cx - w / 2 - 3, cy - h / 2 - 3, cx + w / 2 + 3, cy + h / 2 + 3))
        box = _free_spot(candidates, _near(blocked, x, y))
        if box is None:
            continue
        blocked.append(box)
        draw.rectangle(box, fill=kit.WHITE)
        kit.text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), label, SMALL, kit.INK, bold=True,
                 anchor="mm", translate=False)


def _chip(draw: ImageDraw.ImageDraw, rr: str, box: Box) -> None:
    """One railroad's square: its colour and pattern (dots, stripes, dashes), with a dark border."""
    x0, y0, x1, y1 = box
    draw.rectangle(box, fill=RR_COLOURS[rr], outline=kit.INK, width=2)
    mark = RR_MARKS[rr]
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    pattern = RR_PATTERNS[rr]
    if pattern == "dots":  # one dot: a small square must still read as white (Southern Pacific)
        draw.ellipse((cx - 2.5, cy - 2.5, cx + 2.5, cy + 2.5), fill=mark)
    elif pattern == "stripes":
        draw.line([(x0 + 3, y1 - 5), (x1 - 5, y0 + 3)], fill=mark, width=2)
        draw.line([(x0 + 7, y1 - 3), (x1 - 3, y0 + 7)], fill=mark, width=2)
    elif pattern == "dashes":
        draw.line([(x0 + 4, cy), (x1 - 4, cy)], fill=mark, width=3)


def _outline(
    draw: ImageDraw.ImageDraw,
    p: tuple[float, float],
    q: tuple[float, float],
    colour: kit.RGB,
    width: float,
    line: int,
) -> None:
    (ax, ay), (bx, by) = p, q
    length = math.hypot(bx - ax, by - ay) or 1
    ux, uy = (bx - ax) / length, (by - ay) / length
    nx, ny = -uy * width / 2, ux * width / 2
    ex, ey = ux * 3, uy * 3
    corners = [
        (ax - ex + nx, ay - ey + ny),
        (bx + ex + nx, by + ey + ny),
        (bx + ex - nx, by + ey - ny),
        (ax - ex - nx, ay - ey - ny),
    ]
    # a closed line, not polygon(width=...): Pillow draws a wide polygon outline through a mask the
    # size of the whole image
    draw.line([*corners, corners[0]], fill=colour, width=line, joint="curve")


def _dashed_outline(
    draw: ImageDraw.ImageDraw, p: tuple[float, float], q: tuple[float, float], colour: kit.RGB
) -> None:
    _outline(draw, p, q, colour, SLOT_W + 3, 3)


def _arrow(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], direction: tuple[float, float], rr: str
) -> None:
    x, y = centre
    ux, uy = direction
    nx, ny = -uy, ux
    tip = (x + ux * 7, y + uy * 7)
    left = (x - ux * 5 + nx * 7, y - uy * 5 + ny * 7)
    right = (x - ux * 5 - nx * 7, y - uy * 5 - ny * 7)
    draw.polygon([tip, left, right], fill=RR_COLOURS[rr], outline=kit.INK)
    draw.line([tip, left, right, tip], fill=kit.INK, width=2, joint="curve")  # see _outline


def _tag(draw: ImageDraw.ImageDraw, centre: tuple[float, float], label: str, rr: str) -> None:
    """A railhead's tag: its line's name ("SF1") on the railroad's colour."""
    x, y = centre
    w, h = _tag_size(label)
    box = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
    draw.rounded_rectangle(box, 4, fill=RR_COLOURS[rr], outline=kit.INK, width=2)
    kit.text(draw, (x, y), label, SMALL, RR_MARKS[rr] if rr != "sp" else kit.INK, bold=True, anchor="mm",
             translate=False)


# --------------------------------------------------------------------------- words


def _name(names: list[str], seat: int) -> str:
    return names[seat] if seat < len(names) else kit.fill_in("Seat {n}", n=seat + 1)


def _said(entry: dict[str, Any] | str) -> Msg | str:
    """A line of the view's log: a message (its data), or English stored before messages existed."""
    return Msg.from_json(entry) if isinstance(entry, dict) else entry


def _step(view: dict[str, Any], sentence: bool = True) -> str:
    """The round and its step in the image's language ("Round 3: lay pass 1"; lower case inside a sentence)."""
    if view["round"] == 0:
        return kit.tr(N_("Before round 1: engineer step") if sentence else N_("before round 1: engineer step"))
    template = N_("Round {n}: {step}") if sentence else N_("round {n}: {step}")
    return kit.fill_in(template, n=view["round"], step=kit.tr(view["phase_name"]))


# --------------------------------------------------------------------------- panel


def _status(view: dict[str, Any]) -> str:
    """Where the game is, in the image's language."""
    if view["over"]:
        return kit.fill_in("Game over after round {n}", n=view["round"])
    return _step(view)


def _panel(page: kit.Page, view: dict[str, Any], names: list[str]) -> None:
    with page.panel(1700) as panel:
        size = 19
        panel.line(kit.fit(_status(view), 24, panel.width, True, translate=False), 24, bold=True, translate=False)
        # Names are cut first so that a long first player's name leaves room for whoever is to act.
        short = {s: kit.fit(_name(names, s), size, 260, translate=False) for s in range(view["num_seats"])}
        to_act = ", ".join(short[s] for s in view["to_act"]) or "-"
        panel.wrapped(kit.fill_in("First player: {first}   To act: {to_act}", first=short[view["first_player"]],
                                  to_act=to_act), size, translate=False)
        extra = []
        if view["options"]["advanced"]:
            extra.append(kit.tr(N_("advanced")))
        if view["options"]["tile_buying"]:
            extra.append(kit.tr(N_("tile buying (bought tiles only)") if view["bought_phase"] else N_("tile buying")))
        numbers = {"deck": view["deck"], "dt": view["dt_pile"], "engineers": view["engineers_left"]}
        if extra:
            counts = kit.fill_in("Deck {deck}   DT pile {dt}   Engineers {engineers}   ({options})",
                                 options=kit.join(extra), **numbers)
        else:
            counts = kit.fill_in("Deck {deck}   DT pile {dt}   Engineers {engineers}", **numbers)
        panel.wrapped(counts, size, translate=False)
        panel.rule()
        result = view.get("result")
        ranks = {line["seat"]: line for line in result["seats"]} if result else {}
        for entry in view["seats"]:
            seat = entry["seat"]
            label = _name(names, seat)
            if seat in ranks:
                label = f"#{ranks[seat]['rank']} {label}"
                # At the end the breakdown replaces the played row (it lists every card and the money).
                note = ", ".join(
                    f"{kit.tr(k) if k == 'money' else k} {v}" for k, v in ranks[seat]["breakdown"].items()
                )
            else:
                note = _seat_note(view, entry)
            panel.player_row(seat, label, entry["score"], seat in view["to_act"], size=21)
            panel.wrapped(note, 18, indent=44, translate=False)
            panel.gap(4)
        panel.rule()
        # The railroads: columns over their values (one spaced-out string would not line up in Japanese).
        columns = (panel.x, panel.x + 230, panel.x + 340, panel.x + 380)
        y = panel.y
        kit.text(panel.draw, (columns[0], y), N_("Railroad"), 17, kit.MUTED, kind="panel")
        kit.text(panel.draw, (columns[1], y), N_("tiles"), 17, kit.MUTED, anchor="ra", kind="panel")
        kit.text(panel.draw, (columns[2], y), N_("branch"), 17, kit.MUTED, anchor="ra", kind="panel")
        kit.text(panel.draw, (columns[3], y), N_(N_("bonus city")), 17, kit.MUTED, kind="panel")
        panel.gap(28)
        for rr in RAILROADS:
            y = panel.y + 12
            _rr_swatch(panel.draw, rr, (panel.x + 18, y))
            kit.text(panel.draw, (panel.x + 44, y), BOARD.railroads[rr].name, 18, kit.INK, bold=True, anchor="lm",
                     translate=False, kind="panel")
            kit.text(panel.draw, (columns[1], y), str(view["supply"][rr]), 18, kit.INK, anchor="rm", kind="panel")
            kit.text(panel.draw, (columns[2], y), str(view["branch_piles"][rr]), 18, kit.INK, anchor="rm",
                     kind="panel")
            city = BOARD.name(BOARD.railroads[rr].bonus_city)
            kit.text(panel.draw, (columns[3], y), city, 18, kit.INK, anchor="lm", translate=False, kind="panel")
            panel.gap(28)
        panel.rule()
        # Where every line can go next, in move notation: what to type after "lay <rr> <n>".
        panel.line(N_("Next spaces per line (lay <rr> <line> <city>)"), 19, bold=True)
        for rr in RAILROADS:
            top = panel.y
            _rr_swatch(panel.draw, rr, (panel.x + 16, top + 12), 26)
            panel.wrapped(_next_text(view, rr), 17, indent=40, translate=False)
            panel.y = max(panel.y, top + 26)
        panel.rule()
        panel.line(N_("Last action"), 19, bold=True)
        for entry in view["log"][-4:]:
            panel.wrapped(kit.say(_said(entry), names), 17, translate=False)
        panel.rule()
        _legend(panel)


def _seat_note(view: dict[str, Any], entry: dict[str, Any]) -> str:
    """A seat's public line under its name: money, hand, engineer, bought tiles, its play this round."""
    hand = [kit.fill_in("{n} cities", n=entry["hand_cities"])]
    if entry["hand_dt"]:
        hand.append(kit.fill_in("{n} DT", n=entry["hand_dt"]))
    if entry["hand_branch"]:
        hand.append(kit.fill_in("{rr} branch", rr=entry["hand_branch"].upper()))
    bits = [f"${entry['money']}", kit.fill_in("hand {hand}", hand=kit.join(hand))]
    if entry["engineer"]:
        bits.append(kit.fill_in("engineer (limit {limit})", limit=entry["hand_limit"]))
    bought = [f"{n} {rr.upper()}" for rr, n in entry["bought"].items() if n]
    if bought:
        bits.append(kit.fill_in("bought {tiles}", tiles=kit.join(bought)))
    if entry["chosen"] is not None and not view["over"]:
        bits.append(kit.tr(N_("has chosen") if entry["chosen"] else N_("choosing...")))
    play = entry.get("play")
    if play and not view["over"] and view["phase"] != "choose":
        if play["city"]:
            shown = BOARD.name(play["city"])
        else:
            shown = kit.tr(N_("double turn") if play["double"] else N_("nothing"))
        if play["branch"]:
            template = N_("{card} + branch {rr} (used)") if play["branch_used"] else N_("{card} + branch {rr}")
            shown = kit.fill_in(template, card=shown, rr=play["branch"].upper())
        bits.append(kit.fill_in("plays {card}", card=shown))
    if entry["exchanged"]:
        bits.append(kit.fill_in("exchanged {n}", n=entry["exchanged"]))
    played = ", ".join(f"{c['name']} {c['value']}x{len(c['railroads'])}" for c in entry["played"])
    if played:
        bits.append(kit.fill_in("played: {cards}", cards=played))
    return " | ".join(bits)


def _next_text(view: dict[str, Any], rr: str) -> str:
    """One line per railroad: each line's railhead and the cities (ids, as typed) its next tile may go toward."""
    if view["supply"][rr] <= 0 and not view["bought_phase"]:
        return kit.fill_in("{rr}: no tiles left", rr=rr.upper())
    holders: dict[int, set[str]] = {}
    for lane in view["lanes"]:
        holders.setdefault(lane["section"], set()).add(lane["rr"])
    parts = []
    for head in view["lines"][rr]:
        tag = f"{rr.upper()}{head['line']}"
        if "toward" in head:
            parts.append(f"{tag} -> {head['toward']} ({head['tiles']}/{BOARD.sections[head['section']].spaces})")
            continue
        city = head["at"]
        targets = sorted(
            BOARD.sections[sid].other(city)
            for sid in BOARD.at_city[city]
            if rr not in holders.get(sid, set()) and len(holders.get(sid, ())) < BOARD.sections[sid].lanes
        )
        if targets:
            parts.append(kit.fill_in("{tag} at {city} -> {targets}", tag=tag, city=city, targets=", ".join(targets)))
        else:
            parts.append(kit.fill_in("{tag} at {city}: dead end", tag=tag, city=city))
    return "   ".join(parts)


def _legend(panel: kit.Panel) -> None:
    """What the marks of the map mean: each item an icon and its words, as many to a row as fit."""
    draw = panel.draw
    size = 17

    def row(items: list[tuple[Any, str]]) -> None:
        x, y = panel.x, panel.y + 12
        for icon, label in items:
            words = kit.tr(label)
            width = 44 + kit.text_size(words, size, translate=False)[0]
            if x > panel.x and x + width > panel.right - panel.pad:
                x, y = panel.x, y + 28
            icon((x + 16, y))
            kit.text(draw, (x + 38, y), words, size, kit.INK, anchor="lm", translate=False, kind="panel")
            x += width + 18
        panel.y = y + 18

    row([(lambda c, rr=rr: _rr_swatch(draw, rr, c), BOARD.railroads[rr].name) for rr in RAILROADS])
    row([
        (lambda c: _arrow(draw, c, (1, 0), "kp"), N_("railroad can start this section from its railhead")),
        (lambda c: _dashed_outline(draw, (c[0] - 14, c[1]), (c[0] + 14, c[1]), kit.INK),
         N_("space reserved for the railroad building it")),
        (lambda c: _tag(draw, c, "SF1", "sf"), N_("railhead of line 1")),
        (lambda c: _chip(draw, "up", (c[0] - 8, c[1] - 8, c[0] + 9, c[1] + 9)), N_("railroad reaching the city")),
        (lambda c: kit.patterned_bar(draw, (c[0] - 14, c[1]), (c[0] + 14, c[1]), SLOT_W, EMPTY_SLOT, "solid",
                                     outline=EMPTY_EDGE), N_("empty space")),
        (lambda c: _terrain_mark(draw, c, N_("river")), N_("river")),
        (lambda c: _terrain_mark(draw, c, N_("mountain")), N_("mountain")),
        (lambda c: draw.rectangle((c[0] - 8, c[1] - 8, c[0] + 8, c[1] + 8), outline=kit.HIGHLIGHT, width=3),
         N_("last tile")),
        (lambda c: draw.rectangle((c[0] - 8, c[1] - 8, c[0] + 8, c[1] + 8), outline=kit.INK, width=3),
         N_("bonus city")),
        (lambda c: draw.rectangle((c[0] - 8, c[1] - 8, c[0] + 8, c[1] + 8), fill=kit.INK), N_("start city")),
    ])
    panel.gap(6)
    panel.wrapped(N_("Stand-in map: our own board. Under a city: a square per railroad that reaches it (a city "
                     "scores its value x the railroads there)."), size, kit.MUTED)


def _headline(view: dict[str, Any], names: list[str]) -> tuple[str, str | None, int | None]:
    """Whose turn (in the image's language): one seat's name in a template, or the step when several (or
    nobody) must act."""
    if view["over"]:
        winners = [line["seat"] for line in (view.get("result") or {}).get("seats", []) if line["rank"] == 1]
        if len(winners) == 1:
            return kit.tr(N_("Game over: {who} wins")), _name(names, winners[0]), winners[0]
        return _status(view), None, None
    if len(view["to_act"]) == 1:
        seat = view["to_act"][0]
        return "{who}" + kit.tr(N_(": ")) + _status(view), _name(names, seat), seat
    return _status(view), None, None


def board(view: dict[str, Any], names: list[str]) -> bytes:
    """The public image (from view(None)): turn card, the map at full width, then the panel."""
    return kit.encode(board_image(view, names))


def board_image(view: dict[str, Any], names: list[str]) -> Image.Image:
    """The public image, not yet encoded (render.board_image)."""
    page = kit.Page(WIDTH)
    headline, who, accent = _headline(view, names)
    seats = [
        kit.SeatScore(entry["seat"], _name(names, entry["seat"]), entry["score"], entry["seat"] in view["to_act"],
                      f"${entry['money']}")
        for entry in view["seats"]
    ]
    happened = kit.say(_said(view["log"][-1]), names) if view["log"] else ""
    page.turn_card(headline, happened, seats, who=who, accent=accent, translate=False)
    with page.block(lambda: kit.static_layer("santa_fe/map", _static)) as image:
        _board_layer(image, view)
        for corner, sprite in kit.static("santa_fe/names", _names_layer):  # pasted, never drawn on: no copy
            image.paste(sprite, corner, sprite)
    _panel(page, view, names)
    return page.image()


# --------------------------------------------------------------------------- alt text


def describe(view: dict[str, Any], names: list[str]) -> str:
    """Alt text for the public board, in the image's language (render.in_language): the step, whose turn,
    scores, track tiles left, the last event."""
    if view["over"]:
        status = kit.fill_in("game over after round {n}", n=view["round"])
    else:
        status = _step(view, sentence=False)
    to_act = ", ".join(_name(names, s) for s in view["to_act"]) or kit.tr(N_("nobody"))
    scores = ", ".join(f"{_name(names, entry['seat'])} {entry['score']}" for entry in view["seats"])
    tiles = ", ".join(f"{rr.upper()} {view['supply'][rr]}" for rr in RAILROADS)
    last = kit.say(_said(view["log"][-1]), names) if view["log"] else kit.tr(N_("none"))
    return kit.fill_in("Santa Fe, {status}. To act: {to_act}. Scores: {scores}. Track tiles left: {tiles}. "
                       "Last: {last}", status=status, to_act=to_act, scores=scores, tiles=tiles, last=last)


# --------------------------------------------------------------------------- private view


def hand(view: dict[str, Any], names: list[str]) -> bytes:
    """The seat's private image: its city cards with their current worth, its choice and exchanges."""
    seat = view["seat"]
    me = view["seats"][seat] if seat is not None else None
    cards = view.get("hand", [])
    image = kit.new_canvas(1200, 1400, kit.WHITE)  # cut to what is drawn: every line wraps, none is cut off
    draw = ImageDraw.Draw(image)
    who = _name(names, seat) if seat is not None else kit.tr(N_("spectator"))
    title = kit.fit(f"Santa Fe - {who}", 28, 630, bold=True, translate=False)
    kit.draw_seat_token(draw, seat or 0, (30, 32), 34)
    kit.text(draw, (56, 16), title, 28, kit.INK, bold=True, translate=False)
    status = _step(view)
    if seat is not None and seat in view["to_act"]:
        status += "  -  " + kit.tr(N_("your move"))
    kit.text(draw, (56, 54), kit.fit(status, 18, 630, translate=False), 18, kit.INK, translate=False)
    if me is not None:
        money = kit.fill_in(
            "${money}   score now {score}   hand limit {limit}",
            money=me["money"], score=me["score"], limit=me["hand_limit"],
        )
        kit.text(draw, (700, 20), kit.fit(money, 20, 490, True, translate=False), 20, kit.INK, bold=True,
                 translate=False)
        extras = []
        if me["hand_dt"]:
            extras.append(kit.words(Plural("{n} double-turn card", "{n} double-turn cards", n=me["hand_dt"])))
        if me["hand_branch"]:
            extras.append(kit.fill_in("branch card {rr} (must be played)", rr=me["hand_branch"].upper()))
        if me["engineer"]:
            extras.append(kit.tr(N_("engineer")))
        other = kit.join(extras) if extras else kit.tr(N_("no other cards"))
        kit.text(draw, (700, 52), kit.fit(other, 17, 490, translate=False), 17, kit.INK, translate=False)
    kit.text(draw, (20, 96), N_("City cards in hand (value x railroads now = points)"), 19, kit.INK, bold=True)
    x, y = 20, 126
    pending_words = (view.get("pending") or "").split()
    chosen = pending_words[1] if len(pending_words) > 1 and pending_words[0] == "play" else None
    for card in cards:
        _city_card(draw, (x, y), card)
        if card["city"] == chosen:
            # The card chosen this round (still in hand until the reveal): framed in magenta.
            draw.rounded_rectangle((x - 4, y - 4, x + 180, y + 140), 12, outline=kit.HIGHLIGHT, width=4)
            chosen = None
        x += 190
        if x > 1200 - 190:
            x, y = 20, y + 150
    if not cards:
        kit.text(draw, (20, y), N_("none"), 18, kit.MUTED)
    y = 126 + (-(-len(cards) // 6) * 150 if cards else 40) + 10  # below the last row of cards
    pending = view.get("pending")
    width = 1200 - 40
    if pending:
        choice = kit.fill_in("Your secret choice: {choice}", choice=pending)
        kit.text(draw, (20, y), choice, 20, kit.HIGHLIGHT, bold=True, translate=False)
        y += 32
    if me is not None and me["played"]:
        played = ", ".join(
            f"{c['name']} {c['value']}x{len(c['railroads'])}={c['points']}" for c in me["played"]
        )
        for line in kit.wrap_lines(kit.fill_in("Played: {cards}", cards=played), 17, width):
            kit.text(draw, (20, y), line, 17, kit.INK, translate=False)
            y += 24
        y += 4
    history = view.get("exchange_history", [])
    if history:
        kit.text(draw, (20, y), N_("Exchanges:"), 17, kit.INK, bold=True)
        y += 24
        for item in history[-4:]:
            out = ", ".join(BOARD.name(c) for c in item["out"])
            got = ", ".join(BOARD.name(c) for c in item["in"])
            line = kit.fill_in("round {round}: gave {out}; drew {drawn}", round=item["round"], out=out, drawn=got)
            for part in kit.wrap_lines(line, 16, width - 14):
                kit.text(draw, (34, y), part, 16, kit.INK, translate=False)
                y += 22
    y = max(y + 8, 420)
    kit.text(draw, (20, y), N_("Recent"), 17, kit.INK, bold=True)
    y += 24
    for entry in view["log"][-4:]:
        for part in kit.wrap_lines(kit.say(_said(entry), names), 16, width):
            kit.text(draw, (20, y), part, 16, kit.INK, translate=False)
            y += 22
    return kit.encode(image.crop((0, 0, 1200, min(image.height, y + 16))))


def _city_card(draw: ImageDraw.ImageDraw, corner: tuple[int, int], card: dict[str, Any]) -> None:
    x, y = corner
    draw.rounded_rectangle((x, y, x + 176, y + 136), 10, fill=(250, 246, 236), outline=kit.INK, width=2)
    name = kit.fit(card["name"], 19, 156, True, translate=False)
    kit.text(draw, (x + 10, y + 10), name, 19, kit.INK, bold=True, translate=False)
    kit.text(draw, (x + 10, y + 40), kit.fill_in("value {value}", value=card["value"]), 17, kit.INK, translate=False)
    rails = card["railroads"]
    for i, rr in enumerate(rails):
        _rr_swatch(draw, rr, (x + 24 + i * 32, y + 80), 26)
    if not rails:
        kit.text(draw, (x + 10, y + 72), N_("no railroad yet"), 15, kit.MUTED)
    kit.text(
        draw, (x + 10, y + 104), f"{card['value']} x {len(rails)} = {card['points']}", 18, kit.INK, bold=True,
        translate=False,
    )
