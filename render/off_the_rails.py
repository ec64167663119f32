"""Off the Rails images: the mine board with track, gems, rifts, carts and the last run's paths, plus the panel.

Seats play the clans red, yellow, blue and green, whose colours are printed on the board (mines, start
squares, rifts), so a seat is drawn in its clan colour, always with the kit's seat symbol and the clan
letter as well: colour is never the only cue.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.describe import seat_name
from rules.off_the_rails import board as geo
from rules.off_the_rails import texts
from rules.words import N_, Msg, Seat, Term

# Phone first: the 14x14 board takes the whole page width (80 px squares), the turn card above it
# and the details below (kit.Page).
WIDTH = kit.PAGE_WIDTH
MARGIN = 40  # coordinates around the board
CELL = (WIDTH - 2 * MARGIN) // geo.WIDTH  # 80
BOARD_PX = MARGIN * 2 + CELL * geo.WIDTH  # 1200
LABEL = 15  # the smallest text on the board: reads at 800 px wide (kit.min_size("map", 1200) is 14)
TOKEN = 28  # a cart's token: the track stubs of its tile stay visible around it
TRAY_GEM = 13  # a gem in a cart's load tray

# Clan colours close to the printed names but kept apart for colour-blind eyes (Okabe-Ito hues);
# every use also carries the clan letter and/or the seat symbol.
CLAN: dict[str, kit.RGB] = {
    "red": kit.hex_rgb("#D55E00"),
    "yellow": kit.hex_rgb("#F0E442"),
    "blue": kit.hex_rgb("#0072B2"),
    "green": kit.hex_rgb("#009E73"),
}
CLAN_TINT: dict[str, kit.RGB] = {c: tuple(int(v + (255 - v) * 0.7) for v in rgb) for c, rgb in CLAN.items()}  # type: ignore[misc]
LETTER = {"red": "R", "yellow": "Y", "blue": "B", "green": "G"}

# Gems: a shape per kind as well as a colour.
GEM_STYLE: dict[str, tuple[str, kit.RGB]] = {
    "rock": ("circle", (150, 150, 150)),
    "ruby": ("diamond", (200, 20, 60)),
    "emerald": ("hexagon", (20, 160, 80)),
    "gold": ("star", (240, 190, 0)),
    "diamond": ("triangle", (170, 230, 255)),
}
TRACK: kit.RGB = (70, 55, 45)
RIFT_FILL: kit.RGB = (25, 20, 25)
BOARD_BG: kit.RGB = (236, 228, 212)


# A cart's last run by how it ended (view["last_paths"][i]["outcome"]), as the panel and the turn card say it:
# "white: c3-c4-c5 (stopped)", and with the square it could not enter "(derailed at c6)".
RUNS: dict[str, tuple[str, str]] = {
    "stopped": (N_("{cart}: {route} (stopped)"), N_("{cart}: {route} (stopped at {target})")),
    "delivered": (N_("{cart}: {route} (delivered)"), N_("{cart}: {route} (delivered at {target})")),
    "derailed": (N_("{cart}: {route} (derailed)"), N_("{cart}: {route} (derailed at {target})")),
    "fell": (N_("{cart}: {route} (fell)"), N_("{cart}: {route} (fell at {target})")),
    "collided head-on": (N_("{cart}: {route} (collided head-on)"), N_("{cart}: {route} (collided head-on at {target})")),
    "collided rear": (N_("{cart}: {route} (collided rear)"), N_("{cart}: {route} (collided rear at {target})")),
    "collided side": (N_("{cart}: {route} (collided side)"), N_("{cart}: {route} (collided side at {target})")),
}
STAGES: dict[str, str] = {"mining": N_("mining"), "collapse": N_("collapse card drawn"), "chasm": N_("chasm open")}


def _run(path: dict[str, Any]) -> Msg:
    """One cart's last run: "white: c3-c4-c5 (derailed at c6)"."""
    plain, at = RUNS[path["outcome"]]
    route = "-".join(path["path"])
    if path["target"]:
        return Msg(at, cart=Term(path["cart"]), route=route, target=path["target"])
    return Msg(plain, cart=Term(path["cart"]), route=route)


def _clan(colour: str) -> str:
    """A seat's clan colour in brackets, in the image's language."""
    return kit.words(Msg(texts.CLAN_LABELS[colour]))


def _origin(square: str) -> tuple[int, int]:
    x, y = geo.xy(square)
    return MARGIN + x * CELL, MARGIN + y * CELL


def _centre(square: str) -> tuple[float, float]:
    x0, y0 = _origin(square)
    return x0 + CELL / 2, y0 + CELL / 2


def _edge_point(square: str, edge: str, inset: float = 0.0) -> tuple[float, float]:
    cx, cy = _centre(square)
    dx, dy = geo.OFFSETS[edge]
    reach = CELL / 2 - inset
    return cx + dx * reach, cy + dy * reach


def _arrow(
    draw: ImageDraw.ImageDraw, tip: tuple[float, float], edge: str, size: float, fill: kit.RGB, width: int = 1
) -> None:
    """A filled triangle pointing out of a square through `edge`, its tip at `tip`."""
    dx, dy = geo.OFFSETS[edge]
    px, py = -dy, dx
    bx, by = tip[0] - dx * size, tip[1] - dy * size
    corners = [tip, (bx + px * size * 0.6, by + py * size * 0.6), (bx - px * size * 0.6, by - py * size * 0.6)]
    draw.polygon(corners, fill=fill, outline=kit.INK)
    if width > 1:  # a closed line: Pillow draws polygon(width>1) through a mask the size of the image
        draw.line([*corners, tip], fill=kit.INK, width=width, joint="curve")


def _static() -> Image.Image:
    """The printed board at the page width: grid, coordinates, mines with their numbers, start squares."""
    image = kit.new_canvas(BOARD_PX, BOARD_PX, kit.PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((MARGIN, MARGIN, MARGIN + CELL * 14, MARGIN + CELL * 14), fill=BOARD_BG)
    for i in range(15):
        p = MARGIN + i * CELL
        draw.line([(p, MARGIN), (p, MARGIN + 14 * CELL)], fill=kit.GRID, width=1)
        draw.line([(MARGIN, p), (MARGIN + 14 * CELL, p)], fill=kit.GRID, width=1)
    for i in range(14):
        c = MARGIN + i * CELL + CELL / 2
        for y in (MARGIN / 2, MARGIN * 1.5 + 14 * CELL):
            kit.text(draw, (c, y), geo.COLUMNS[i], 20, kit.INK, bold=True, anchor="mm", translate=False)
        for x in (MARGIN / 2, MARGIN * 1.5 + 14 * CELL):
            kit.text(draw, (x, c), str(i + 1), 20, kit.INK, bold=True, anchor="mm", translate=False)
    for square, colour in geo.CENTRES.items():
        x0, y0 = _origin(square)
        draw.rectangle(
            (x0 + 2, y0 + 2, x0 + CELL - 2, y0 + CELL - 2), fill=CLAN[colour], outline=kit.INK, width=2
        )
        kit.text(draw, (x0 + CELL / 2, y0 + CELL / 2), LETTER[colour], 40, kit.contrast_text(CLAN[colour]),
                 bold=True, anchor="mm", translate=False)
    for square, (colour, number) in geo.MINE_SQUARE_LABEL.items():
        x0, y0 = _origin(square)
        draw.rectangle((x0 + 1, y0 + 1, x0 + CELL - 1, y0 + CELL - 1), fill=CLAN_TINT[colour])
        kit.text(draw, (x0 + 5, y0 + 3), str(number), LABEL, kit.INK, bold=True, translate=False)
    for square, (colour, inward) in geo.START.items():
        x0, y0 = _origin(square)
        draw.rectangle(
            (x0 + 3, y0 + 3, x0 + CELL - 3, y0 + CELL - 3), fill=CLAN[colour], outline=kit.INK, width=2
        )
        # the clan letter in the top-left corner: the printed track runs from the centre to an edge's
        # middle, a cart's speed box takes the top-right corner
        kit.text(draw, (x0 + 15, y0 + 15), LETTER[colour], 18, kit.contrast_text(CLAN[colour]),
                 bold=True, anchor="mm", translate=False)
        # the printed dead-end track, opening inward
        draw.line([_centre(square), _edge_point(square, inward)], fill=TRACK, width=10)
        _arrow(draw, _edge_point(square, inward, 1), inward, 16, kit.WHITE)
    return image


def _track(
    draw: ImageDraw.ImageDraw, square: str, edges: str, fill: kit.RGB = TRACK, width: int = 10
) -> None:
    x0, y0 = _origin(square)
    if len(edges) == 2 and edges not in ("ns", "ew"):
        # a curve: a quarter circle around the corner between its two edges
        corner_x = x0 + CELL if "e" in edges else x0
        corner_y = y0 if "n" in edges else y0 + CELL
        r = CELL / 2
        start = {"ne": 90, "es": 180, "sw": 270, "nw": 0}[edges]
        draw.arc(
            (corner_x - r, corner_y - r, corner_x + r, corner_y + r),
            start,
            start + 90,
            fill=fill,
            width=width,
        )
        return
    centre = _centre(square)
    for edge in edges:
        draw.line([centre, _edge_point(square, edge)], fill=fill, width=width)
    if len(edges) > 2:
        cx, cy = centre
        draw.ellipse((cx - width * 0.7, cy - width * 0.7, cx + width * 0.7, cy + width * 0.7), fill=fill)


def _token(draw: ImageDraw.ImageDraw, shape: str, centre: tuple[float, float], size: float, fill: kit.RGB) -> None:
    """kit.draw_symbol with a 2 px outline drawn as a closed line: Pillow draws polygon(width=2) through a
    mask the size of the whole image, which costs more than the rest of a token on a page-wide part."""
    if shape == "circle":
        kit.draw_symbol(draw, shape, centre, size, fill, kit.INK, 2)  # ellipses have no such mask
        return
    kit.draw_symbol(draw, shape, centre, size, fill, kit.INK, 1)
    points = kit.symbol_points(shape, centre, size)
    draw.line([*points, points[0]], fill=kit.INK, width=2, joint="curve")


def gem_icon(draw: ImageDraw.ImageDraw, kind: str, centre: tuple[float, float], size: float) -> None:
    shape, colour = GEM_STYLE[kind]
    kit.draw_symbol(draw, shape, centre, size, colour, kit.INK, width=1)


def _count(draw: ImageDraw.ImageDraw, xy: tuple[float, float], n: int, size: int = LABEL) -> float:
    """A gem count just right of its icon (a white halo keeps it apart from track); returns its width."""
    kit.text(draw, xy, str(n), size, kit.INK, bold=True, anchor="lm", halo=kit.WHITE, halo_width=2,
             translate=False)
    return kit.text_size(str(n), size, True, translate=False)[0]


def _gem_row(
    draw: ImageDraw.ImageDraw, gems: dict[str, int], x: float, y: float, size: float = 16, text_size: int = 18
) -> float:
    """Gems as icon + count (a count for every kind, 1 too: the panel's rows are read as numbers),
    left to right from (x, y centre); returns the x after the row."""
    for kind in geo.GEM_KINDS:
        n = gems.get(kind, 0)
        if not n:
            continue
        gem_icon(draw, kind, (x + size / 2, y), size)
        x += size + 3
        x += _count(draw, (x, y), n, text_size) + 10
    return x


def _gem_items(gems: dict[str, int], icon: float = 12) -> list[tuple[str, int, float]]:
    """(kind, count, width) of each kind on a square: an icon, and its count when more than one."""
    items = []
    for kind in geo.GEM_KINDS:
        n = gems.get(kind, 0)
        if n:
            width = icon + 1 + (kit.text_size(str(n), LABEL, True, translate=False)[0] if n > 1 else 0)
            items.append((kind, n, width))
    return items


def _draw_gem_item(draw: ImageDraw.ImageDraw, kind: str, n: int, x: float, y: float, icon: float = 12) -> None:
    gem_icon(draw, kind, (x + icon / 2, y), icon)
    if n > 1:
        _count(draw, (x + icon + 1, y), n, LABEL)


def _square_gems(draw: ImageDraw.ImageDraw, square: str, gems: dict[str, int]) -> None:
    """Loose gems on a square without a cart: rows at the foot of the square, never wider than it."""
    x0, y0 = _origin(square)
    rows: list[list[tuple[str, int, float]]] = [[]]
    for item in _gem_items(gems):
        used = sum(w for *_, w in rows[-1]) + 4 * len(rows[-1])
        if rows[-1] and used + item[2] > CELL - 6:
            rows.append([])
        rows[-1].append(item)
    for line, row in enumerate(reversed(rows)):
        width = sum(w for *_, w in row) + 4 * (len(row) - 1)
        x = x0 + (CELL - width) / 2
        y = y0 + CELL - 10 - line * 16
        for kind, n, w in row:
            _draw_gem_item(draw, kind, n, x, y)
            x += w + 4


# Where a cart's load tray and the loose gems under a cart may go: a band along one side of the square.
# (x0, y0, x1, y1) inside the square; the top-left corner keeps the mine number, the top-right the speed.
_BANDS: dict[str, tuple[int, int, int, int]] = {
    "s": (2, CELL - 20, CELL - 2, CELL - 2),
    "w": (2, 26, 24, CELL - 2),
    "e": (CELL - 24, 24, CELL - 2, CELL - 2),
}


LOOSE_GEM = 11  # a loose gem under a cart: a little smaller than the tray's, so the two read apart
_ITEM_H = 15  # the height a gem item takes: its count (15 px, white halo) and a px apart from the next


def _place_loose(items: list[tuple[str, int, float]], bands: list[str], front: str | None,
                 tray: kit.Box | None, ring: float, corner: bool) -> list[tuple[str, int, float, float]]:
    """Where each loose gem item (kind, count, width) goes on a cart's square, as (kind, count, x, y centre)
    inside the square: in `bands` in order, then along the top, clear of the token (a circle of `ring`
    px), the load tray, the front arrow, the speed box, the mine number and each other (then anywhere
    left in the square). Stops at the
    first item without a free place (the caller tries another tray place). `corner`: the square has a
    printed mine number or clan letter in its top-left corner."""
    c = CELL / 2
    blocked: list[kit.Box] = [(CELL - 23, 0, CELL, 23)]  # the speed box
    if corner:
        blocked.append((0, 0, 25, 25))
    if tray is not None:
        blocked.append(tray)
    if front:  # the front arrow reaches 11 px into the square, 22 px across
        dx, dy = geo.OFFSETS[front]
        ax, ay = c + dx * (c - 6), c + dy * (c - 6)
        blocked.append((ax - 12, ay - 6, ax + 12, ay + 6) if dx == 0 else (ax - 6, ay - 12, ax + 6, ay + 12))

    def free(box: kit.Box) -> bool:
        x0, y0, x1, y1 = box
        nearest_x, nearest_y = min(max(c, x0), x1), min(max(c, y0), y1)
        if (nearest_x - c) ** 2 + (nearest_y - c) ** 2 < ring ** 2:
            return False
        return all(min(x1, b[2]) <= max(x0, b[0]) or min(y1, b[3]) <= max(y0, b[1]) for b in blocked)

    def candidates(band: str, width: float) -> Iterator[tuple[float, float]]:
        half = _ITEM_H / 2
        if band == "s":
            yield from ((x, CELL - 2 - half) for x in range(2, int(CELL - 2 - width) + 1))
        elif band in ("w", "e"):
            x = 2 if band == "w" else CELL - 2 - width
            yield from ((x, y - half) for y in range(CELL - 2, 24 + _ITEM_H - 1, -1))
        elif band == "n":  # along the top, between the mine number and the speed box
            yield from ((x, 2 + half) for x in range(2, int(CELL - 24 - width) + 1))
        else:  # anywhere left, every 3 px from the bottom up
            yield from ((x, y - half) for y in range(CELL - 2, _ITEM_H, -3) for x in range(2, int(CELL - 1 - width), 3))

    out = []
    for kind, n, width in items:
        spot = next((xy for band in [*bands, "n", "anywhere"] for xy in candidates(band, width)
                     if free((xy[0], xy[1] - _ITEM_H / 2, xy[0] + width, xy[1] + _ITEM_H / 2))), None)
        if spot is None:
            break
        out.append((kind, n, spot[0], spot[1]))
        blocked.append((spot[0] - 1, spot[1] - _ITEM_H / 2, spot[0] + width + 1, spot[1] + _ITEM_H / 2))
    return out


def _tray(band: str, end: int, gems: int) -> tuple[kit.Box, float]:
    """A load tray of `gems` in `band` of the square (its box with the outline, inside the square, and
    the gem pitch): centred on the token (`end` 0), or at the band's start (-1) or end (1)."""
    bx0, by0, bx1, by1 = _BANDS[band]
    horizontal = band == "s"
    room = (bx1 - bx0 if horizontal else by1 - by0) - 6
    pitch = min(TRAY_GEM + 1, room / gems)
    length = pitch * gems + 4
    start, stop = (bx0, bx1) if horizontal else (by0, by1)
    middle = CELL / 2 + (0 if horizontal else 10)
    lo = {0: middle - length / 2, -1: start, 1: stop - length}[end]
    lo = max(start, min(stop - length, lo))
    if horizontal:
        return (lo - 1, by0 - 1, lo + length + 1, by1 + 1), pitch
    return (bx0 - 1, lo - 1, bx1 + 1, lo + length + 1), pitch


def _cart(draw: ImageDraw.ImageDraw, cart: dict[str, Any], colour: str, seat: int, highlight: bool,
          edges: str, loose: dict[str, int]) -> None:
    """A cart: clan token with W/B on the track, a speed box, a big front arrow, its load in a tray
    framed in the clan colour (one icon per gem), and any loose gems of the square in another band."""
    x0, y0 = _origin(cart["square"])
    cx, cy = x0 + CELL / 2, y0 + CELL / 2
    front = cart["front"]
    load = geo.gem_list(cart["load"])
    items = _gem_items(loose, LOOSE_GEM)
    ring = TOKEN / 2 + (7.5 if highlight else 3.5)  # the white ring, or the highlight ring around it
    # the tray in the band least in the way; with loose gems, the first tray place that leaves them all
    # a place of their own (a square with a cart, its load and five kinds of gems is crowded)
    trays: list[tuple[kit.Box, float] | None] = [None]
    if load:
        bands = sorted(["s", "e", "w"], key=lambda band: (band == front, band in edges, "sew".index(band)))
        trays = [_tray(band, end, len(load)) for band in bands for end in ((0, -1, 1) if items else (0,))]
    bands = sorted(["w", "e", "s"], key=lambda band: (band == front, band in edges, "wes".index(band)))
    corner = cart["square"] in geo.MINE_SQUARE_LABEL or cart["square"] in geo.START
    tray, placed = next(((t, p) for t in trays
                         if len(p := _place_loose(items, bands, front, t[0] if t else None, ring, corner))
                         == len(items)),
                        (trays[0], _place_loose(items, bands, front, trays[0][0] if trays[0] else None, ring, corner)))
    if tray is not None:
        (bx0, by0, bx1, by1), pitch = tray
        box = (x0 + bx0 + 1, y0 + by0 + 1, x0 + bx1 - 1, y0 + by1 - 1)
        horizontal = bx1 - bx0 > by1 - by0
        size = min(TRAY_GEM, pitch - 1)
        # the tray hangs from the token: a bar in the clan colour joins them
        draw.line([(cx, cy), ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)], fill=CLAN[colour], width=5)
        draw.rectangle(box, fill=kit.WHITE, outline=CLAN[colour], width=3)
        draw.rectangle((box[0] - 1, box[1] - 1, box[2] + 1, box[3] + 1), outline=kit.INK, width=1)
        for i, kind in enumerate(load):
            if horizontal:
                centre = (box[0] + 2 + pitch * (i + 0.5), (box[1] + box[3]) / 2)
            else:
                centre = ((box[0] + box[2]) / 2, box[1] + 2 + pitch * (i + 0.5))
            gem_icon(draw, kind, centre, size)
    if len(placed) < len(items):  # no place for some: the rest share the bottom-left corner
        placed += [(kind, n, 2.0, CELL - 2 - _ITEM_H / 2) for kind, n, _w in items[len(placed):]]
    for kind, n, x, y in placed:
        _draw_gem_item(draw, kind, n, x0 + x, y0 + y, LOOSE_GEM)
    if highlight:
        r = TOKEN / 2 + 7
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=kit.HIGHLIGHT, width=4)
    # a thin white ring keeps the token apart from track and a start square of its own colour; the
    # track around the small token still shows which tile the cart is on
    r = TOKEN / 2 + 3
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=kit.WHITE, width=3)
    _token(draw, kit.seat_symbol(seat), (cx, cy), TOKEN, CLAN[colour])
    label_y = cy + (4 if kit.seat_symbol(seat) == "triangle" else 0)
    kit.text(draw, (cx, label_y), "W" if cart["name"] == "white" else "B", 15, kit.contrast_text(CLAN[colour]),
             bold=True, anchor="mm", translate=False, kind="glyph")
    # speed in a white box at the top right corner of the square
    draw.rectangle((x0 + CELL - 22, y0 + 2, x0 + CELL - 2, y0 + 22), fill=kit.WHITE, outline=kit.INK, width=2)
    kit.text(draw, (x0 + CELL - 12, y0 + 12), str(cart["speed"]), LABEL, kit.INK, bold=True, anchor="mm",
             translate=False)
    # the front arrow last: which way the cart goes matters most. It straddles the edge, so the track
    # between the token and the edge still shows
    if front:
        _arrow(draw, _edge_point(cart["square"], front, -7), front, 18, CLAN[colour], width=2)


def _paths(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    for path in view["last_paths"]:
        squares = path["path"]
        centres = [_centre(sq) for sq in squares]
        # through the shared edge of each pair of squares: on a curve the line cuts the corner like the rail
        points = [centres[0]]
        for a, b in zip(centres, centres[1:], strict=False):
            points.append(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
        if len(centres) > 1:
            points.append(centres[-1])
        if path["target"] is not None and path["outcome"] != "delivered":
            # half a step towards the square it could not enter
            a, b = centres[-1], _centre(path["target"])
            points.append(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
        if len(points) >= 2:
            draw.line(points, fill=kit.HIGHLIGHT, width=7, joint="curve")
            # a dot per step, on the line inside each square passed, and on the last square
            mids = points[1 : len(centres)]
            steps = [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in zip(mids, mids[1:], strict=False)]
            for p in [*steps, centres[-1]] if len(centres) > 1 else []:
                draw.ellipse((p[0] - 5, p[1] - 5, p[0] + 5, p[1] + 5), fill=kit.HIGHLIGHT)
        end = points[-1]
        outcome = path["outcome"]
        if outcome in ("derailed", "fell") or outcome.startswith("collided"):
            s = 10
            draw.line([(end[0] - s, end[1] - s), (end[0] + s, end[1] + s)], fill=kit.DANGER, width=6)
            draw.line([(end[0] - s, end[1] + s), (end[0] + s, end[1] - s)], fill=kit.DANGER, width=6)
        start = points[0]
        draw.ellipse((start[0] - 8, start[1] - 8, start[0] + 8, start[1] + 8), outline=kit.HIGHLIGHT, width=4)


def _rift(draw: ImageDraw.ImageDraw, square: str, colour: str) -> None:
    x0, y0 = _origin(square)
    draw.rectangle((x0 + 1, y0 + 1, x0 + CELL - 1, y0 + CELL - 1), fill=BOARD_BG)
    draw.ellipse(
        (x0 + 5, y0 + 9, x0 + CELL - 5, y0 + CELL - 9), fill=RIFT_FILL, outline=CLAN[colour], width=5
    )
    kit.text(draw, (x0 + CELL / 2, y0 + CELL / 2), LETTER[colour], 18, CLAN[colour], bold=True, anchor="mm")



def _wrapped_as_is(panel: kit.Panel, s: str, size: int, fill: kit.RGB = kit.INK, bold: bool = False,
                   indent: int = 0) -> None:
    """Panel.wrapped for a line already in the image's language (it holds names: never looked up again)."""
    panel.wrapped(s, size, fill, bold, indent, translate=False)


def _line_as_is(panel: kit.Panel, s: str, size: int, fill: kit.RGB = kit.INK, bold: bool = False) -> None:
    """One panel line already in the image's language, shortened with "…" if it is wider than the panel."""
    panel.line(kit.fit(s, size, panel.width, bold, translate=False), size, fill, bold, translate=False)


def _names(view: dict[str, Any], names: list[str]) -> list[str]:
    return [seat_name(names, s) for s in range(view["num_seats"])]


def _pending(pending: dict[str, Any]) -> Msg:
    """The pending decision the engine describes (a view from before messages carries only its English)."""
    return Msg.from_json(pending["msg"]) if "msg" in pending else Msg("{text}", text=pending["text"])


def _now(view: dict[str, Any]) -> Msg:
    """What the game waits for: the end, the pending decision, or the active seat's actions."""
    if view["over"]:
        return Msg("Game over: {reason}", reason=Msg(view["ended_by"]))
    if view["pending"]:
        return _pending(view["pending"])
    return Msg("{who}: action phase, {used} of {total} actions used", who=Seat(view["active"]),
               used=view["actions_used"], total=view["actions_max"])


def _headline(view: dict[str, Any], names: list[str]) -> tuple[str, str | None]:
    """The turn card's headline in the image's language, the acting seat as {who}, and the name that goes
    there (it gives way when the line is long)."""
    now = _now(view)
    seats = sorted(now.seats())
    if len(seats) == 1:
        slots = [("{who}" if s == seats[0] else n) for s, n in enumerate(names)]
        return kit.say(now, slots), names[seats[0]]
    return kit.say(now, names), None


def _happened(view: dict[str, Any], names: list[str]) -> str:
    """What just happened, in the image's language: the last run of each cart, else the last action."""
    runs = [f"{names[path['seat']]} {kit.words(_run(path))}" for path in view["last_paths"]]
    if runs:
        return kit.join(runs)
    last = view.get("last_action")
    if last and last.get("seat") is not None:
        return kit.fill_in("Last: {who} played {move}", who=names[last["seat"]], move=last["move"])
    return kit.tr(N_("Game start: each player has 4 actions a turn"))


def _score_parts(breakdown: dict[str, int]) -> str:
    """How a score adds up, in words: gems, the ruby majority, missions, Dirty Goblins, carts in hand."""
    gems = sum(breakdown.get(kind, 0) for kind in geo.GEM_KINDS)
    parts = [kit.fill_in("gems {n}", n=gems)]
    for category, label in (("ruby_majority", N_("most rubies +{n}")), ("missions", N_("missions {n}")),
                            ("dirty_goblins", N_("Dirty Goblins (most rocks) +{n}")),
                            ("carts", N_("carts in hand {n}"))):
        if breakdown.get(category):
            parts.append(kit.fill_in(label, n=breakdown[category]))
    return " + ".join(parts)


def _panel(page: kit.Page, view: dict[str, Any], names: list[str], private: bool) -> None:
    with page.panel(1500) as panel:
        draw = panel.draw
        size = 20
        # names inside sentences are shortened first: a long name must not push the words out of the panel
        short = [kit.fit(n, size, panel.width * 0.4, bold=True, translate=False) for n in names]
        stage = view["stage"]
        if stage == "collapse" and view["collapse_holder"] is not None:
            stage_text = Msg("Stage: collapse! chasm opens at {who}'s turn", who=Seat(view["collapse_holder"]))
        elif stage == "chasm":
            stage_text = Msg("Stage: chasm open")
        else:
            stage_text = Msg("Stage: mining")
        panel.line(kit.fit(kit.fill_in("Off the Rails - turn {n}", n=view["turn"]), 24, panel.width, True,
                           translate=False), 24, bold=True, translate=False)
        _wrapped_as_is(panel, kit.say(stage_text, short), size, bold=stage != "mining")
        panel.rule()
        result = view.get("result")
        ranks = {r["seat"]: r["rank"] for r in result["seats"]} if result else {}
        for player in view["players"]:
            seat = player["seat"]
            colour = player["colour"]
            top = panel.y
            row_h = 34
            if seat in view["to_act"]:
                draw.rectangle((panel.left + 2, top - 2, panel.right - 2, top + row_h), fill=kit.TO_ACT_BG)
            _token(draw, kit.seat_symbol(seat), (panel.x + 15, top + 16), 30, CLAN[colour])
            kit.text(draw, (panel.x + 15, top + 16 + (3 if kit.seat_symbol(seat) == "triangle" else 0)),
                     LETTER[colour], 15, kit.contrast_text(CLAN[colour]), bold=True, anchor="mm", kind="glyph",
                     translate=False)
            rank = f"  #{ranks[seat]}" if seat in ranks else ""
            score = f"{player['score']}{rank}"
            score_w = kit.text_size(score, 24, True, translate=False)[0]
            # the name fitted on its own (never translated), then its clan colour in the image's language
            clan = _clan(colour)
            space = "" if clan.startswith("（") else " "  # a full-width bracket brings its own space
            room = panel.width - 40 - score_w - 16 - kit.text_size(space + clan, size, True, translate=False)[0]
            name_x = panel.x + 40
            label = kit.fit(names[seat], size, room, bold=True, translate=False) + space + clan
            kit.text(draw, (name_x, top + 16), label, size, kit.INK, bold=True, anchor="lm", translate=False,
                     kind="panel")
            kit.text(draw, (panel.right - panel.pad, top + 16), score, 24, kit.INK, bold=True, anchor="rm",
                     translate=False, kind="panel")
            panel.y = top + row_h + 4
            # how the score adds up: the ruby majority and Dirty Goblins are not on the board
            panel.wrapped("= " + _score_parts(player["breakdown"]), 17, kit.INK, indent=40, translate=False)
            gems_y = panel.y + 12
            x = name_x
            if any(player["stockpile"].values()):
                x = _gem_row(draw, player["stockpile"], name_x, gems_y, 16, 18)
            carts = N_("carts: {hand} in hand")
            if player["on_board"] and player["lost"]:
                carts = N_("carts: {hand} in hand, {out} out, {lost} lost")
            elif player["on_board"]:
                carts = N_("carts: {hand} in hand, {out} out")
            elif player["lost"]:
                carts = N_("carts: {hand} in hand, {lost} lost")
            carts_x = x + 16 if any(player["stockpile"].values()) else name_x
            carts = kit.fit(kit.fill_in(carts, hand=player["reserve"], out=player["on_board"], lost=player["lost"]), 17,
                            panel.right - panel.pad - carts_x, translate=False)
            kit.text(draw, (carts_x, gems_y), carts, 17, kit.MUTED, anchor="lm", translate=False, kind="panel")
            panel.y = gems_y + 16
            if player["missions"]:
                panel.wrapped(kit.fill_in("missions: {missions}", missions=", ".join(player["missions"])), 17,
                              kit.INK, indent=40, translate=False)
            panel.gap(8)
        bonus = kit.fill_in("Most rubies: +{ruby} to each player with the most (at least 1).", ruby=geo.RUBY_BONUS)
        if "dirty-goblins" in view["face_up"]:
            bonus += " " + kit.fill_in("Dirty Goblins: +{n} to each player with the most rocks.",
                                       n=geo.MISSION_POINTS)
        panel.wrapped(bonus, 17, kit.MUTED, translate=False)
        panel.rule()
        if view["face_up"]:
            panel.line(N_("Missions (4 pts each)"), 19, bold=True)
            for mission in view["face_up"]:
                panel.wrapped(kit.words(texts.mission_line(mission)), 17, kit.INK, indent=8, translate=False)
            panel.gap(4)
        rifts = " ".join(f"{LETTER[c]}{n}" for c, n in view["rift_supply"].items())
        supply = view["tile_supply"]
        card = texts.card(view["last_card"]) if view["last_card"] else "-"
        panel.wrapped(kit.words(Msg("Deck {deck}  Last card {card}  Rift supply {rifts}", deck=view["deck_count"],
                                    card=card, rifts=rifts)), 17, translate=False)
        panel.wrapped(kit.fill_in("Tiles: straight {straight}, curve {curve}, T {t}, cross {cross}", **supply), 17,
                      translate=False)
        bag_y = panel.y + 12
        bag = kit.tr(N_("Bag:"))
        kit.text(draw, (panel.x, bag_y), bag, 17, kit.INK, anchor="lm", kind="panel", translate=False)
        _gem_row(draw, view["bag"], panel.x + kit.text_size(bag, 17, translate=False)[0] + 12, bag_y, 16, 17)
        panel.gap(28)
        if view["last_paths"]:
            panel.line(N_("Last run (magenta path)"), 19, bold=True)
            for path in view["last_paths"]:
                _wrapped_as_is(panel, f"{short[path['seat']]} {kit.words(_run(path))}", 17, kit.INK, indent=8)
        if private and view.get("seat") is not None:
            _private_box(panel, view, short)
        panel.rule()
        x, y = panel.x, panel.y + 10
        for kind in geo.GEM_KINDS:
            label = kit.words(Msg("{gem} {points}", gem=Term(kind), points=geo.GEM_POINTS[kind]))
            width = 24 + kit.text_size(label, 17, translate=False)[0]
            if x + width > panel.right - panel.pad:
                x, y = panel.x, y + 26
            gem_icon(draw, kind, (x + 8, y), 16)
            kit.text(draw, (x + 21, y), label, 17, kit.INK, anchor="lm", translate=False, kind="panel")
            x += width + 18
        panel.y = y + 18
        panel.wrapped(N_("W/B cart, arrow = front, box = speed; framed gems = its load; loose gems lie on the "
                         "square; dark hole = rift"), 17, kit.MUTED)


def _private_box(panel: kit.Panel, view: dict[str, Any], names: list[str]) -> None:
    seat = view["seat"]
    panel.rule(kit.HIGHLIGHT)
    _line_as_is(panel, kit.say(Msg("Private to {who}", who=Seat(seat)), names), 20, kit.HIGHLIGHT, bold=True)
    pending = view["pending"] or {}
    if "left" in pending:
        split = Msg("Your split: left {left} | right {right}", left=texts.gem_words(pending["left"]),
                    right=texts.gem_words(pending["right"]))
        _wrapped_as_is(panel, kit.words(split), 18, kit.INK, bold=True)
    for cart in view.get("my_carts", []):
        _wrapped_as_is(panel, kit.words(_my_cart(cart)), 18)


def _my_cart(cart: dict[str, Any]) -> Msg:
    """One of the seat's own carts: where it is, its speed and its load."""
    name = Term(cart["name"])
    if cart["where"] == "reserve":
        return Msg("{cart}: reserve; empty", cart=name)
    if cart["where"] == "lost":
        return Msg("{cart}: lost; empty", cart=name)
    if not cart["load"]:
        return Msg("{cart}: on {square}, speed {speed}; empty", cart=name, square=cart["square"], speed=cart["speed"])
    return Msg("{cart}: on {square}, speed {speed}; {load}", cart=name, square=cart["square"], speed=cart["speed"],
               load=texts.gem_words(geo.gem_list(cart["load"])))


class _ClanPage(kit.Page):
    """kit.Page whose turn card shows each seat in its clan's colour (as on the board), not the seat palette.

    Only the seat cells differ; the headline carries no token (kit.Page would draw it in the seat palette).
    TODO(kit): a colour on kit.SeatScore and for the accent would make this subclass unnecessary.
    """

    def __init__(self, width: int, clans: dict[int, str]) -> None:
        super().__init__(width)
        self.clans = clans

    def _seat_cell(self, draw: ImageDraw.ImageDraw, entry: kit.SeatScore, box: kit.Box) -> None:
        x0, y0, x1, y1 = box
        size = self.score_px
        colour = CLAN[self.clans[entry.seat]]
        if entry.to_act:
            draw.rectangle(box, fill=kit.TO_ACT_BG, outline=kit.INK, width=3)
        else:
            draw.rectangle(box, fill=kit.blend(kit.WHITE, colour, 0.15), outline=kit.GRID, width=1)
        token = round(size * 1.15)
        name_h = round(size * 1.55)
        cy = y0 + name_h / 2
        shape = kit.seat_symbol(entry.seat)
        _token(draw, shape, (x0 + 8 + token / 2, cy), token, colour)
        kit.text(draw, (x0 + 8 + token / 2, cy + (token * 0.14 if shape == "triangle" else 0)),
                 LETTER[self.clans[entry.seat]], round(token * (0.42 if shape in ("triangle", "star") else 0.5)),
                 kit.contrast_text(colour), bold=True, anchor="mm", translate=False, kind="glyph")
        name_x = x0 + 16 + token
        score = "" if entry.score is None else str(entry.score)
        score_w = kit.text_size(score, size, True, translate=False)[0] + 14 if score else 0
        name = kit.fit(entry.name, size, x1 - 10 - score_w - name_x, bold=entry.to_act, translate=False)
        kit.text(draw, (name_x, cy), name, size, kit.INK, bold=entry.to_act, anchor="lm", translate=False,
                 kind="score")
        if score:
            kit.text(draw, (x1 - 10, cy), score, size, kit.INK, bold=True, anchor="rm", translate=False, kind="score")
        if entry.note:
            note = kit.fit(entry.note, self.note_px, x1 - 10 - name_x)
            kit.text(draw, (name_x, y0 + name_h - 2), note, self.note_px, kit.MUTED, anchor="la", translate=False,
                     kind="panel")


def _draw_board(view: dict[str, Any], names: list[str], private: bool) -> Image.Image:
    names = _names(view, names)
    page = _ClanPage(WIDTH, {p["seat"]: p["colour"] for p in view["players"]})
    headline, who = _headline(view, names)
    result = view.get("result")
    ranks = {r["seat"]: r["rank"] for r in result["seats"]} if result else {}
    seats = [
        kit.SeatScore(p["seat"], names[p["seat"]],
                      f"{p['score']}" + (f" #{ranks[p['seat']]}" if p["seat"] in ranks else ""),
                      p["seat"] in view["to_act"], _clan(p["colour"]))
        for p in view["players"]
    ]
    page.turn_card(headline, _happened(view, names), seats, who=who,
                   headline_fill=kit.DANGER if view["over"] else kit.INK, translate=False)
    with page.block(lambda: kit.static_layer("off_the_rails/board", _static)) as image:
        draw = ImageDraw.Draw(image)
        carts = [c for c in view["carts"] if c["where"] == "board"]
        cart_squares = {c["square"] for c in carts}
        for square, edges in view["tiles"].items():
            _track(draw, square, edges)
        for square, colour in view["rifts"].items():
            _rift(draw, square, colour)
        _paths(draw, view)
        for square, gems in view["gems"].items():
            if square not in cart_squares and any(gems.values()):
                _square_gems(draw, square, gems)
        last = view.get("last_action") or {}
        if last.get("square"):
            x0, y0 = _origin(last["square"])
            draw.rectangle((x0 + 1, y0 + 1, x0 + CELL - 1, y0 + CELL - 1), outline=kit.HIGHLIGHT, width=4)
        pending = view["pending"] or {}
        if pending.get("square"):
            x0, y0 = _origin(pending["square"])
            draw.rectangle((x0 - 2, y0 - 2, x0 + CELL + 2, y0 + CELL + 2), outline=kit.HIGHLIGHT, width=5)
        if pending.get("kind") == "rift":
            for square in pending["options"]:
                x0, y0 = _origin(square)
                draw.rectangle((x0 + 4, y0 + 4, x0 + CELL - 4, y0 + CELL - 4), outline=kit.DANGER, width=3)
        moving = view.get("moving") or {}
        for cart in carts:
            colour = view["colours"][cart["seat"]]
            is_moving = moving.get("seat") == cart["seat"] and moving.get("cart") == cart["name"]
            gems = {k: n for k, n in (view["gems"].get(cart["square"]) or {}).items() if n}
            _cart(draw, cart, colour, cart["seat"], is_moving, view["tiles"].get(cart["square"], ""), gems)
        if pending.get("kind") == "go":
            # the exits to choose from: big arrows just outside the square, each with its letter
            for edge in pending["options"]:
                tip = _edge_point(pending["square"], edge, -26)
                _arrow(draw, tip, edge, 20, kit.HIGHLIGHT)
                lx, ly = _edge_point(pending["square"], edge, -8)
                dx, dy = geo.OFFSETS[edge]
                kit.text(draw, (lx - dy * 18, ly + dx * 18), edge, 20, kit.HIGHLIGHT, bold=True, anchor="mm",
                         halo=kit.WHITE, translate=False)
    _panel(page, view, names, private)
    return page.image()


def describe(view: dict[str, Any], names: list[str]) -> str:
    """Alt text for the public board, in the image's language: the turn and stage, each player's score, and
    what is awaited now."""
    names = _names(view, names)
    scores = ", ".join(f"{names[p['seat']]} {p['score']}" for p in view["players"])
    line = Msg("Off the Rails, turn {turn} ({stage}). Scores: {scores}. {now}.", turn=view["turn"],
               stage=Term(STAGES[view["stage"]]), scores=scores, now=_now(view))
    return kit.words(line, names)


def board(view: dict[str, Any], names: list[str]) -> bytes:
    """The public image (from view(None))."""
    return kit.encode(board_image(view, names))


def board_image(view: dict[str, Any], names: list[str]) -> Image.Image:
    """The public image, not yet encoded (render.board_image)."""
    return _draw_board(view, names, private=False)


def hand(view: dict[str, Any], names: list[str]) -> bytes:
    """A seat's image (from view(seat)): the board plus that seat's private box (its split hands)."""
    return kit.encode(_draw_board(view, names, private=True))
