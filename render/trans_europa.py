"""Trans Europa images: the public board, a seat's private board and the round-end board (spec section 12)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.describe import seat_name
from rules.trans_europa import board as te
from rules.words import N_, Items, Msg, Plural, Seat, Verbatim

# Phone first: the map (its own 1200 px coordinates) at the full width of a portrait page, under the
# kit's turn card and over a full-width panel (kit.Page).
MAP_RIGHT = int(te.CANVAS["map_box"][2])
WIDTH = MAP_RIGHT
STRIP_TOP = 884  # below the map and its bottom column numbers: the region legend
MAP_HEIGHT = STRIP_TOP + 40
PANEL_MAX = 1200

# Region colours: the card colours, tuned apart; every city disc ALSO carries the region letter.
REGION_COLOURS: dict[str, kit.RGB] = {
    "red": (214, 39, 40),
    "orange": (245, 140, 20),
    "yellow": (245, 212, 40),
    "green": (44, 150, 60),
    "blue": (40, 100, 205),
}
REGION_LETTERS = {"red": "R", "orange": "O", "yellow": "Y", "green": "G", "blue": "B"}
# The legend's words for each region (the card colour and where it lies).
REGION_WORDS = {"red": N_("red (west)"), "orange": N_("orange (centre)"), "yellow": N_("yellow (north)"),
                "green": N_("green (east)"), "blue": N_("blue (south)")}

SINGLE_LINE: kit.RGB = (160, 154, 142)
DOUBLE_LINE: kit.RGB = (92, 78, 62)
JUNCTION_DOT: kit.RGB = (120, 114, 104)
BLACK_TRACK: kit.RGB = (20, 20, 20)
TRACK_WIDTH = 9
CITY_R = 11
MARKER_SIZE = 30
FLAG_SIZE = 24  # a seat token on a pole: colour, shape and number
CITY_FONT = 19

# --------------------------------------------------------------------------- view access


def _per_seat(value: Any) -> dict[int, Any]:
    """Seat-keyed data as {int: value}: JSON dicts have string keys, lists are in seat order."""
    if value is None:
        return {}
    if isinstance(value, Mapping):
        return {int(k): v for k, v in value.items()}
    return dict(enumerate(value))


def _junction(token: Any) -> int | None:
    if isinstance(token, int):
        return token
    if isinstance(token, str):
        return te.junction_of(token)
    return None


def _xy(v: int) -> tuple[float, float]:
    j = te.JUNCTIONS[v]
    return (j.px, j.py)


def _tracks(items: Iterable[Any] | None) -> list[tuple[int, int, int | None]]:
    """[(a, b, owner)] from the view's track dicts (owner None = black)."""
    out = []
    for item in items or ():
        if isinstance(item, Mapping):
            a, b, owner = _junction(item.get("a")), _junction(item.get("b")), item.get("owner")
        else:
            a, b = _junction(item[0]), _junction(item[1])
            owner = item[2] if len(item) > 2 else None
        if a is not None and b is not None:
            out.append((a, b, None if owner is None else int(owner)))
    return out


def _city_ids(items: Iterable[Any] | None) -> list[str]:
    """City ids from a list of ids or of hand entries ({"id": ...})."""
    out = []
    for item in items or ():
        city = item.get("id") if isinstance(item, Mapping) else item
        junction = te.junction_of(city) if isinstance(city, str) else None
        if junction in te.CITY_AT:
            out.append(te.CITY_AT[junction].id)
    return out


def _completed(view: Mapping[str, Any]) -> dict[int, list[str]]:
    """Seats complete this round -> their revealed city ids."""
    out: dict[int, list[str]] = {}
    for item in view.get("completed") or ():
        if isinstance(item, Mapping):
            out[int(item["seat"])] = _city_ids(item.get("cities") or item.get("hand"))
        else:
            out[int(item)] = []
    return out


def _city_name(city_id: str) -> str:
    return te.CITY_BY_ID[city_id].name


# --------------------------------------------------------------------------- the static map


def _offset_line(a: tuple[float, float], b: tuple[float, float], offset: float) -> list[tuple[float, float]]:
    (ax, ay), (bx, by) = a, b
    length = math.hypot(bx - ax, by - ay)
    nx, ny = -(by - ay) / length * offset, (bx - ax) / length * offset
    return [(ax + nx, ay + ny), (bx + nx, by + ny)]


def _draw_map() -> Image.Image:
    """Paper, region tint, grid, junctions and the coordinate labels: everything that never changes."""
    image = kit.new_canvas(WIDTH, MAP_HEIGHT)
    draw = ImageDraw.Draw(image)
    # Faint region tint: each junction's hexagonal cell takes the colour of its nearest city.
    cell_r = 68 / math.sqrt(3) + 0.5
    for j in te.JUNCTIONS:
        nearest = min(
            te.CITIES,
            key=lambda c: (
                (te.JUNCTIONS[c.junction].px - j.px) ** 2 + (te.JUNCTIONS[c.junction].py - j.py) ** 2
            ),
        )
        tint = kit.blend(kit.PAPER, REGION_COLOURS[nearest.colour], 0.13)
        hexagon = [
            (
                j.px + cell_r * math.cos(math.radians(90 + 60 * k)),
                j.py + cell_r * math.sin(math.radians(90 + 60 * k)),
            )
            for k in range(6)
        ]
        draw.polygon(hexagon, fill=tint)
    for e in te.EDGES:
        a, b = _xy(e.a), _xy(e.b)
        if e.cost == 1:
            draw.line([a, b], fill=SINGLE_LINE, width=2)
        else:
            # a double line (river, mountain, sea) costs 2: two parallel strokes, as on the board
            draw.line(_offset_line(a, b, 3.5), fill=DOUBLE_LINE, width=2)
            draw.line(_offset_line(a, b, -3.5), fill=DOUBLE_LINE, width=2)
    for j in te.JUNCTIONS:
        draw.ellipse((j.px - 3, j.py - 3, j.px + 3, j.py + 3), fill=JUNCTION_DOT)
    # Coordinates on all four sides, so a player can read off ids like g13 wherever they look.
    row_y = {j.row: j.py for j in te.JUNCTIONS}
    col_x = {j.col: j.px for j in te.JUNCTIONS}
    for row, letter in enumerate(te.ROW_LETTERS):
        y = row_y[row]
        kit.text(draw, (13, y), letter, 20, kit.INK, bold=True, anchor="mm", translate=False)
        kit.text(draw, (MAP_RIGHT - 14, y), letter, 20, kit.INK, bold=True, anchor="mm", translate=False)
    for col, x in sorted(col_x.items()):
        kit.text(draw, (x, 20), str(col), 16, (60, 60, 60), anchor="mm", translate=False)
        kit.text(draw, (x, 866), str(col), 16, (60, 60, 60), anchor="mm", translate=False)
    draw.line([(0, STRIP_TOP - 6), (MAP_RIGHT, STRIP_TOP - 6)], fill=kit.GRID, width=2)
    _draw_region_legend(draw, STRIP_TOP + 2)
    return image


def _draw_city_disc(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], colour: str, r: float = CITY_R
) -> None:
    x, y = centre
    fill = REGION_COLOURS[colour]
    draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=kit.INK, width=2)
    kit.mark((x - r, y - r, x + r, y + r), "city disc")
    kit.text(
        draw,
        (x, y + 0.5),
        REGION_LETTERS[colour],  # a mark of the disc in every language, like its colour
        int(r * 1.15),
        kit.contrast_text(fill),
        bold=True,
        anchor="mm",
        translate=False,
        kind="glyph",
    )


def _draw_region_legend(draw: ImageDraw.ImageDraw, y: int) -> None:
    x = 16
    heading = kit.tr(N_("Regions:"))
    kit.text(draw, (x, y + 14), heading, 17, kit.INK, bold=True, anchor="lm", translate=False)
    x += max(92, kit.text_size(heading, 17, True, translate=False)[0] + 14)  # room for a longer word
    for colour in ("red", "orange", "yellow", "green", "blue"):
        _draw_city_disc(draw, (x + 12, y + 14), colour, 12)
        label = kit.tr(REGION_WORDS[colour])
        kit.text(draw, (x + 30, y + 14), label, 17, kit.INK, anchor="lm", translate=False)
        x += 44 + kit.text_size(label, 17, translate=False)[0]


def _city_tiles(small_deck: bool) -> tuple[tuple[Image.Image, tuple[int, int]], ...]:
    """Each city's disc and name as a small RGBA tile, pasted over the tracks on every render."""
    return kit.static(f"trans_europa/cities/{small_deck}", lambda: _draw_city_tiles(small_deck))


def _draw_city_tiles(small_deck: bool) -> tuple[tuple[Image.Image, tuple[int, int]], ...]:
    overlay = Image.new("RGBA", (WIDTH, MAP_HEIGHT), (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    tiles = []
    for city in te.CITIES:
        x, y = _xy(city.junction)
        out_of_play = small_deck and city.removed_2_3_players
        if out_of_play:
            # not dealt with 2-3 players: an ordinary junction that keeps its name, greyed out
            draw.ellipse((x - 7, y - 7, x + 7, y + 7), fill=kit.WHITE, outline=kit.MUTED, width=2)
            kit.mark((x - 7, y - 7, x + 7, y + 7), "junction")
        else:
            _draw_city_disc(draw, (x, y), city.colour)
        label_y = y + CITY_R + 2
        kit.text(
            draw,
            (x, label_y),
            _label(city),
            CITY_FONT,
            kit.MUTED if out_of_play else kit.INK,
            bold=not out_of_play,
            halo=kit.WHITE,
            anchor="ma",
            translate=False,
        )
        box = _city_box(city)
        tiles.append((overlay.crop(box), (box[0], box[1])))
    return tuple(tiles)


def _label(city: te.City) -> str:
    """A city's name on the map: in the bundled font's letters in every language (Zurich, Malmo), so the
    map's names look alike and take the room the layout was made for."""
    return kit.plain(city.name)


def _city_box(city: te.City) -> tuple[int, int, int, int]:
    """The pixels a city's disc and name label cover."""
    x, y = _xy(city.junction)
    w, h = kit.text_size(_label(city), CITY_FONT, True, translate=False)
    half = max(w / 2, CITY_R) + 6
    return (int(x - half), int(y - CITY_R - 3), int(x + half), int(y + CITY_R + 2 + h + 10))


def _overlap(a: kit.Box, b: kit.Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


@lru_cache(maxsize=1)
def _city_boxes() -> tuple[kit.Box, ...]:
    """Every city's disc and name label, and the coordinate margins: what a token or flag must leave free."""
    margins = ((0, 0, WIDTH, 30), (0, STRIP_TOP - 30, WIDTH, MAP_HEIGHT), (0, 0, 26, MAP_HEIGHT),
               (MAP_RIGHT - 28, 0, WIDTH, MAP_HEIGHT))
    out: list[kit.Box] = []
    for city in te.CITIES:
        x, y = _xy(city.junction)
        w, h = kit.text_size(_label(city), CITY_FONT, True, translate=False)
        out.append((x - CITY_R - 2, y - CITY_R - 2, x + CITY_R + 2, y + CITY_R + 2))
        out.append((x - w / 2 - 3, y + CITY_R, x + w / 2 + 3, y + CITY_R + 6 + h))
    return (*out, *margins)


def _square(centre: tuple[float, float], size: float) -> kit.Box:
    x, y = centre
    return (x - size / 2, y - size / 2, x + size / 2, y + size / 2)


def _segment_distance(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    length2 = (bx - ax) ** 2 + (by - ay) ** 2
    t = max(0.0, min(1.0, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / length2)) if length2 else 0.0
    return math.hypot(px - (ax + t * (bx - ax)), py - (ay + t * (by - ay)))


def _free_spot(candidates: Iterable[tuple[float, float]], size: float, avoid: Iterable[kit.Box],
               tracks: Iterable[tuple[tuple[float, float], tuple[float, float]]] = ()) -> tuple[float, float]:
    """The first of `candidates` whose `size` px square covers none of `avoid` and no track of `tracks`,
    else the least covering (a covered track counts as much as a covered label)."""
    avoid, tracks = list(avoid), list(tracks)
    best, best_cover = None, math.inf
    for centre in candidates:
        cover = sum(_overlap(_square(centre, size + 2), box) for box in avoid)
        cover += sum(size * size for a, b in tracks if _segment_distance(centre, a, b) < size / 2 + TRACK_WIDTH / 2)
        if cover == 0:
            return centre
        if cover < best_cover:
            best, best_cover = centre, cover
    assert best is not None
    return best


@lru_cache(maxsize=1024)
def _city_spots(v: int, laid_to: frozenset[int] = frozenset()) -> tuple[tuple[float, float], tuple[float, float]]:
    """Where a start marker and where a flag (or a private tick) go at city junction `v`: beside the
    disc, clear of every city's disc and label, of the tracks laid from `v` to `laid_to`, and of each other."""
    x, y = _xy(v)
    avoid = _city_boxes()
    tracks = [((x, y), _xy(u)) for u in laid_to]
    around = [(x - 18, y - 21), (x + 18, y - 21), (x - 30, y), (x + 30, y), (x - 21, y - 30), (x + 21, y - 30),
              (x - 40, y - 10), (x + 40, y - 10)]
    marker = _free_spot(around, MARKER_SIZE - 2, avoid, tracks)
    flag_around = [(x + 20, y - 26), (x - 20, y - 26), (x + 30, y - 4), (x - 30, y - 4), (x, y - 34),
                   (x + 38, y - 18), (x - 38, y - 18), (x + 26, y + 20), (x - 26, y + 20)]
    flag = _free_spot(flag_around, FLAG_SIZE, [*avoid, _square(marker, MARKER_SIZE - 2)], tracks)
    return marker, flag


def _base() -> Image.Image:
    return kit.static_layer("trans_europa/map", _draw_map)


# --------------------------------------------------------------------------- the changing parts


def _track_token_spot(a: int, b: int) -> tuple[float, float] | None:
    """Where a coloured track's owner token goes: along the track, clear of city labels (else none:
    its colour and pattern still name the owner)."""
    (ax, ay), (bx, by) = _xy(a), _xy(b)
    for t in (0.5, 0.35, 0.65):
        centre = (ax + (bx - ax) * t, ay + (by - ay) * t)
        if not any(_overlap(_square(centre, 26), box) for box in _city_boxes()):
            return centre
    return None


def _draw_tracks(
    draw: ImageDraw.ImageDraw,
    tracks: list[tuple[int, int, int | None]],
    newest: set[frozenset[int]],
    network_of: int | None = None,
    network: set[int] | None = None,
) -> None:
    # Under-layers first (own network glow, newest-track band), then every bar on top of them.
    if network_of is not None and network:
        glow = kit.blend(kit.WHITE, kit.seat_colour(network_of), 0.55)
        for a, b, owner in tracks:
            if a in network and b in network and owner in (None, network_of):
                draw.line([_xy(a), _xy(b)], fill=glow, width=24)
        for v in network:
            x, y = _xy(v)
            draw.ellipse((x - 12, y - 12, x + 12, y + 12), fill=glow)
    # The newest tracks get a yellow band with dark edges: a colour no seat has, and a shape of its own.
    for colour, width in ((kit.INK, TRACK_WIDTH + 16), (kit.NEWEST, TRACK_WIDTH + 11)):
        for a, b, _owner in tracks:
            if frozenset((a, b)) in newest:
                draw.line([_xy(a), _xy(b)], fill=colour, width=width)
                for v in (a, b):
                    x, y = _xy(v)
                    r = width / 2
                    draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)
    for a, b, owner in tracks:
        if owner is None:
            draw.line([_xy(a), _xy(b)], fill=BLACK_TRACK, width=TRACK_WIDTH)
            for v in (a, b):
                x, y = _xy(v)
                r = TRACK_WIDTH / 2 - 0.5
                draw.ellipse((x - r, y - r, x + r, y + r), fill=BLACK_TRACK)
    for a, b, owner in tracks:
        if owner is not None:
            # a coloured (vexation) track: the seat's colour in the seat's pattern, with its token
            kit.patterned_bar(draw, _xy(a), _xy(b), TRACK_WIDTH + 3, kit.seat_colour(owner), kit.seat_pattern(owner))
            spot = _track_token_spot(a, b)
            if spot is not None:
                mx, my = spot
                draw.ellipse((mx - 12, my - 12, mx + 12, my + 12), fill=kit.WHITE, outline=kit.INK, width=2)
                kit.draw_seat_token(draw, owner, (mx, my), 15, label=False)


def _paste_cities(image: Image.Image, small_deck: bool) -> None:
    for tile, position in _city_tiles(small_deck):
        image.paste(tile, position, tile)


def _draw_flag(draw: ImageDraw.ImageDraw, v: int, seat: int, laid_to: frozenset[int] = frozenset()) -> None:
    """A seat's token on a short pole beside a city: this city is in that seat's (revealed) hand.

    The token carries colour, shape and number, so seats of close colours (blue and sky blue,
    orange and vermillion) differ by more than a small symbol; it sits clear of every label.
    """
    x, y = _xy(v)
    fx, fy = _city_spots(v, laid_to)[1]
    draw.line([(x, y), (fx, fy)], fill=kit.INK, width=3)
    kit.draw_seat_token(draw, seat, (fx, fy), FLAG_SIZE)


def _draw_markers(draw: ImageDraw.ImageDraw, markers: dict[int, Any],
                  laid: Mapping[int, frozenset[int]] | None = None) -> None:
    for seat, where in sorted(markers.items()):
        v = _junction(where)
        if v is None:
            continue
        x, y = _xy(v)
        if v in te.CITY_AT:
            # beside the city, joined to it by a short stem, so the city's colour and letter stay visible
            tx, ty = _city_spots(v, (laid or {}).get(v, frozenset()))[0]
            draw.line([(x, y), (tx, ty)], fill=kit.INK, width=4)
            kit.draw_seat_token(draw, seat, (tx, ty), MARKER_SIZE - 2)
        else:
            kit.draw_seat_token(draw, seat, (x, y), MARKER_SIZE)


def _newest(view: Mapping[str, Any]) -> set[frozenset[int]]:
    return {frozenset((a, b)) for a, b, _ in _tracks(view.get("last_tracks"))}


def _winners(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    result = view.get("result") or {}
    return [entry for entry in result.get("seats", ()) if entry.get("rank") == 1]


def _status(view: Mapping[str, Any]) -> Msg | None:
    """Whose turn it is, or how the game ended (seats as Seat), as a sentence of the alt text; None between
    moves."""
    phase = view.get("phase")
    active = view.get("active_seat")
    if phase == "game_over" or view.get("over"):
        winners = _winners(view)
        if not winners:
            return Msg("Game over.")
        who = Items([Seat(int(entry["seat"])) for entry in winners], "and", english=" and ")
        if len(winners) == 1:
            return Msg("Game over: {who} wins with {score}.", who=who, score=winners[0]["score"])
        return Msg("Game over: {who} win with {score}.", who=who, score=winners[0]["score"])
    if active is None:
        return None
    if phase == "markers":
        return Msg("{who} places a start marker.", who=Seat(int(active)))
    return Msg("{who} to play: {laid} of 2 laid.", who=Seat(int(active)), laid=1 if view.get("step") == 2 else 0)


def _headline(view: Mapping[str, Any], names: list[str]) -> tuple[str, str | list[str] | None]:
    """The turn card's headline in the image's language, with a {who} slot for the name (so that a long
    name gives way, not the words), and that name (the names of a shared win)."""
    phase = view.get("phase")
    active = view.get("active_seat")
    if phase == "game_over" or view.get("over"):
        winners = _winners(view)
        if not winners:
            return (kit.tr(N_("Game over")), None)
        who = [seat_name(names, int(entry["seat"])) for entry in winners]
        if len(winners) == 1:
            return (kit.words(Msg("Game over: {who} wins with {score}", who="{who}", score=winners[0]["score"])),
                    who[0])
        return (kit.words(Msg("Game over: {who} win with {score}", who="{who}", score=winners[0]["score"])), who)
    if active is None:
        return ("", None)
    if phase == "markers":
        return (kit.words(Msg("{who} places a start marker", who="{who}")), seat_name(names, int(active)))
    laid = 1 if view.get("step") == 2 else 0
    return (kit.words(Msg("{who} to play: {laid} of 2 laid", who="{who}", laid=laid)), seat_name(names, int(active)))


def _track_words(a: int, b: int) -> str:
    """A track as a player types it: city names where there are cities, else junction ids (g13)."""
    def one(v: int) -> str:
        return te.CITY_AT[v].name if v in te.CITY_AT else te.JUNCTIONS[v].id
    return f"{one(a)}-{one(b)}"


def _listed(items: Iterable[str]) -> str:
    """Names or words already in the image's language, listed its way ("a, b" / "a、b")."""
    return kit.words(Verbatim(Items(list(items), "comma")))


def _happened(view: Mapping[str, Any], names: list[str]) -> str:
    """What just happened, in the image's language: the newest tracks, and who laid them when the
    public networks tell (one seat's network holds them all)."""
    newest = _tracks(view.get("last_tracks"))
    if not newest:
        if view.get("phase") == "markers":
            return kit.tr(N_("Start markers are being placed."))
        return ""
    words = Items([_track_words(a, b) for a, b, _ in newest], "comma")
    networks = {seat: {_junction(t) for t in tokens} for seat, tokens in _per_seat(view.get("networks")).items()}
    layers = [seat for seat, network in networks.items()
              if all(a in network and b in network for a, b, _ in newest)]
    owners = {owner for _, _, owner in newest if owner is not None}
    if len(owners) == 1:
        layers = list(owners)
    if len(layers) == 1:
        if len(newest) > 1:
            return kit.say(Msg("{who} laid: {tracks}", who=Seat(layers[0]), tracks=words), names)
        return kit.say(Msg("{who} laid {tracks}", who=Seat(layers[0]), tracks=words), names)
    return kit.say(Msg("Newest: {tracks}", tracks=words), names)


def _seat_scores(view: Mapping[str, Any], names: list[str], scores: Mapping[int, Any] | None = None,
                 notes: Mapping[int, str] | None = None) -> list[kit.SeatScore]:
    seats = int(view.get("num_seats", len(names)))
    scores = _per_seat(view.get("scores")) if scores is None else scores
    to_act = set(view.get("to_act") or ())
    if notes is None:
        completed = _completed(view)
        coloured_left = _per_seat(view.get("coloured_left"))
        vexation = bool((view.get("options") or {}).get("vexation")) or bool(coloured_left)
        notes = {}
        for seat in range(seats):
            parts = []
            if seat in completed:
                parts.append(kit.tr(N_("connected")))
            if vexation:
                left = int(coloured_left.get(seat, 0))
                parts.append(kit.words(Plural("{n} coloured track left", "{n} coloured tracks left", n=left)))
            notes[seat] = _listed(parts)
    return [kit.SeatScore(seat, seat_name(names, seat), scores.get(seat), seat in to_act, notes.get(seat, ""))
            for seat in range(seats)]


def _black_left(panel: kit.Panel, view: Mapping[str, Any]) -> None:
    black_left = view.get("black_left")
    if black_left is None:
        return
    total = int(te.COMPONENTS["black_tracks"])
    panel.line(kit.fill_in("Black tracks left: {n} of {total}", n=black_left, total=total), 20, translate=False)
    bar_y = panel.y
    panel.draw.rectangle((panel.x, bar_y, panel.x + panel.width, bar_y + 12), outline=kit.GRID, fill=kit.WHITE)
    filled = panel.width * int(black_left) / total
    panel.draw.rectangle((panel.x, bar_y, panel.x + filled, bar_y + 12), fill=BLACK_TRACK)
    panel.gap(22)


def _score_track(panel: kit.Panel, view: Mapping[str, Any], scores: Mapping[int, Any]) -> None:
    options = view.get("options") or {}
    top = int(options.get("start_score", te.COMPONENTS["start_score"]))
    panel.line(N_("Score track (red zone: game ends)"), 20, kit.MUTED)
    panel.score_track(top, [(seat, int(score)) for seat, score in sorted(scores.items())], 18, per_row=top + 1)


def _panel(panel: kit.Panel, view: Mapping[str, Any], names: list[str]) -> None:
    """Below the map: the round and its start seat, the end warning, supplies, connected hands, the score track."""
    start_seat = view.get("start_seat")
    round_number = view.get("round", 1)
    if start_seat is None:
        panel.line(kit.fill_in("Round {round}", round=round_number), 24, bold=True, translate=False)
    else:
        template = kit.fill_in("Round {round} - start: {name}", round=round_number, name="{name}")
        label = kit.fit_name(template, seat_name(names, int(start_seat)), 24, panel.width, bold=True, slot="name",
                             translate=False)
        panel.line(label, 24, bold=True, translate=False)
    if view.get("completed") and view.get("phase") == "building":
        panel.line(N_("The round ends after this turn."), 22, kit.DANGER, bold=True)
    _black_left(panel, view)
    for seat, cities in sorted(_completed(view).items()):
        if cities:
            line = kit.fill_in("{name} connected: {cities}", name=seat_name(names, seat),
                               cities=_listed(_city_name(c) for c in cities))
            panel.wrapped(line, 20, translate=False)
    panel.rule()
    _score_track(panel, view, _per_seat(view.get("scores")))


def _private_lines(panel: kit.Panel, view: Mapping[str, Any], names: list[str], seat: int) -> None:
    """The seat's five cities by colour, ticked when connected, and how many tracks it still needs."""
    y = panel.y
    size = 22
    label = kit.fit_name("{name}'s cities:", seat_name(names, seat), size, panel.width * 0.6, bold=True, slot="name")
    kit.draw_seat_token(panel.draw, seat, (panel.x + 14, y + 14), 28)
    kit.text(panel.draw, (panel.x + 36, y + 14), label, size, kit.INK, bold=True, anchor="lm", translate=False,
             kind="panel")
    panel.gap(38)
    x = panel.x
    y = panel.y
    order = {c: i for i, c in enumerate(("red", "orange", "yellow", "green", "blue"))}
    for entry in sorted(_hand(view), key=lambda e: order.get(str(e.get("colour")), 9)):
        city_id = _city_ids([entry])
        name = str(entry.get("name") or (_city_name(city_id[0]) if city_id else entry.get("id")))
        colour = str(entry.get("colour") or (te.CITY_BY_ID[city_id[0]].colour if city_id else "red"))
        width = 34 + kit.text_size(name, size, translate=False)[0] + (26 if entry.get("connected") else 0) + 18
        if x + width > panel.x + panel.width:
            x, y = panel.x, y + 36
        _draw_city_disc(panel.draw, (x + 12, y + 14), colour, 12)
        kit.text(panel.draw, (x + 30, y + 14), name, size, kit.INK, anchor="lm", translate=False, kind="panel")
        x += 34 + kit.text_size(name, size, translate=False)[0]
        if entry.get("connected"):
            kit.tick(panel.draw, (x + 8, y + 14), 18, kit.INK, 3)
            x += 26
        x += 18
    panel.y = y + 38
    needed = view.get("tracks_needed")
    if needed is not None:
        line = kit.tr(N_("You are connected!")) if int(needed) == 0 else \
            kit.words(Plural("You still need {n} track.", "You still need {n} tracks.", n=int(needed)))
        panel.line(line, 24, bold=True, translate=False)
    panel.rule()


def _draw_track_legend(
    panel: kit.Panel, vexation: bool, seat: int | None = None, small_deck: bool = False
) -> None:
    def black(draw: ImageDraw.ImageDraw, c: tuple[float, float]) -> None:
        draw.line([(c[0] - 16, c[1]), (c[0] + 16, c[1])], fill=BLACK_TRACK, width=TRACK_WIDTH)

    def newest(draw: ImageDraw.ImageDraw, c: tuple[float, float]) -> None:
        draw.line([(c[0] - 16, c[1]), (c[0] + 16, c[1])], fill=kit.INK, width=TRACK_WIDTH + 12)
        draw.line([(c[0] - 15, c[1]), (c[0] + 15, c[1])], fill=kit.NEWEST, width=TRACK_WIDTH + 7)
        black(draw, c)

    def double(draw: ImageDraw.ImageDraw, c: tuple[float, float]) -> None:
        draw.line([(c[0] - 16, c[1] - 3.5), (c[0] + 16, c[1] - 3.5)], fill=DOUBLE_LINE, width=2)
        draw.line([(c[0] - 16, c[1] + 3.5), (c[0] + 16, c[1] + 3.5)], fill=DOUBLE_LINE, width=2)

    def flag(draw: ImageDraw.ImageDraw, c: tuple[float, float]) -> None:
        draw.line([(c[0] - 12, c[1] + 8), (c[0] + 2, c[1] - 2)], fill=kit.INK, width=3)
        kit.draw_seat_token(draw, seat if seat is not None else 0, (c[0] + 4, c[1] - 2), 20, label=False)

    items: list[tuple[Callable[[ImageDraw.ImageDraw, tuple[float, float]], None], str]] = [
        (black, N_("black track")),
        (newest, N_("newest track(s)")),
        (double, N_("double line: costs 2, whole turn")),
        (flag, N_("token on a pole: a city of that player's hand")),
    ]
    if vexation:
        who = seat if seat is not None else 0

        def coloured(draw: ImageDraw.ImageDraw, c: tuple[float, float]) -> None:
            kit.patterned_bar(draw, (c[0] - 16, c[1]), (c[0] + 16, c[1]), TRACK_WIDTH + 3, kit.seat_colour(who),
                              kit.seat_pattern(who))

        items.append((coloured, N_("coloured: only its owner uses it")))
    if small_deck:

        def not_dealt(draw: ImageDraw.ImageDraw, c: tuple[float, float]) -> None:
            draw.ellipse((c[0] - 7, c[1] - 7, c[0] + 7, c[1] + 7), fill=kit.WHITE, outline=kit.MUTED, width=2)

        items.append((not_dealt, N_("city not dealt with 2-3 players")))
    panel.legend_grid(items, 2, 18)
    panel.wrapped(N_("Type junctions as row letter + column (g13) or by city name (paris)."), 18, kit.MUTED)


# --------------------------------------------------------------------------- public entry points


def _map_layer(image: Image.Image, view: Mapping[str, Any], tracks: list[tuple[int, int, int | None]],
               newest: set[frozenset[int]], markers: dict[int, Any], flags: Mapping[int, list[str]],
               seat: int | None = None) -> None:
    """Tracks, cities, flags and markers on the map part (its own coordinates)."""
    draw = ImageDraw.Draw(image)
    small_deck = int(view.get("num_seats", 4)) <= 3
    network: set[int] = set()
    if seat is not None:
        for token in _per_seat(view.get("networks")).get(seat, ()):
            v = _junction(token)
            if v is not None:
                network.add(v)
    _draw_tracks(draw, tracks, newest, seat, network)
    neighbours: dict[int, set[int]] = {}
    for a, b, _owner in tracks:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    laid = {v: frozenset(us) for v, us in neighbours.items()}
    if seat is not None:
        _draw_hand_rings(draw, view, seat)
    _paste_cities(image, small_deck)
    for owner, cities in flags.items():
        if seat is not None and owner == seat:
            continue  # own cities already carry rings and ticks
        for city in cities:
            junction = te.CITY_BY_ID[city].junction
            _draw_flag(draw, junction, owner, laid.get(junction, frozenset()))
    if seat is not None:
        _draw_hand_ticks(draw, view, laid)
    _draw_markers(draw, markers, laid)


def _compose(view: Mapping[str, Any], names: list[str], private: bool) -> tuple[Image.Image, int]:
    """The page and the y where its map starts (tests read map pixels there)."""
    seat = int(view["seat"]) if private and view.get("seat") is not None else None
    page = kit.Page(WIDTH)
    template, who = _headline(view, names)
    happened = _happened(view, names)
    if seat is not None:
        # the private image says whose it is first: a DM's reader sees it before any other word
        # the owner's name fitted on the first line, what happened after a dash (it may wrap to a second line)
        mine = kit.fit_name(N_("Private board of {name}"), seat_name(names, seat), page.happened_px,
                            WIDTH - 3 * page.pad, slot="name")
        happened = f"{mine} - {happened}" if happened else mine
    active = view.get("active_seat")
    page.turn_card(template, happened, _seat_scores(view, names), who=who,
                   accent=int(active) if active is not None and not view.get("over") else seat, translate=False)
    map_top = page.height
    with page.block(image=_base) as image:
        _map_layer(image, view, _tracks(view.get("tracks")), _newest(view), _per_seat(view.get("markers")),
                   _completed(view), seat)
    with page.panel(PANEL_MAX) as panel:
        if seat is not None:
            _private_lines(panel, view, names, seat)
        _panel(panel, view, names)
        panel.rule()
        options = view.get("options") or {}
        _draw_track_legend(panel, bool(options.get("vexation")), seat, int(view.get("num_seats", 4)) <= 3)
    return page.image(), map_top


def _render(view: Mapping[str, Any], names: list[str], private: bool) -> Image.Image:
    return _compose(view, names, private)[0]


def _hand(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [dict(entry) for entry in view.get("hand") or () if isinstance(entry, Mapping)]


def _draw_hand_rings(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], seat: int) -> None:
    colour = kit.seat_colour(seat)
    for entry in _hand(view):
        v = _junction(entry.get("junction")) or _junction(entry.get("id"))
        if v is None:
            continue
        x, y = _xy(v)
        r = 20
        draw.ellipse((x - r - 2, y - r - 2, x + r + 2, y + r + 2), outline=kit.INK, width=2)
        draw.ellipse((x - r, y - r, x + r, y + r), outline=colour, width=5)


def _draw_hand_ticks(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], laid: Mapping[int, frozenset[int]]) -> None:
    for entry in _hand(view):
        v = _junction(entry.get("junction")) or _junction(entry.get("id"))
        if v is None or not entry.get("connected"):
            continue
        bx, by = _city_spots(v, laid.get(v, frozenset()))[1]  # where another seat's flag would go: clear of labels
        draw.ellipse((bx - 11, by - 11, bx + 11, by + 11), fill=kit.WHITE, outline=kit.INK, width=2)
        kit.mark((bx - 11, by - 11, bx + 11, by + 11), "tick")
        kit.tick(draw, (bx, by + 1), 13, kit.INK, 3)


def board(view: dict[str, Any], names: list[str]) -> bytes:
    """The public board image (from view(None))."""
    return kit.encode(board_image(view, names))


def board_image(view: dict[str, Any], names: list[str]) -> Image.Image:
    """The public board, not yet encoded (render.board_image)."""
    return _render(view, names, private=False)


def hand(view: dict[str, Any], names: list[str]) -> bytes:
    """A seat's private board (from view(seat)): its cities ringed, its network glowing, its needs."""
    return kit.encode(_render(view, names, private=True))


def _loss(connected: bool, penalty: int) -> Msg:
    """What a round cost a seat: nothing when it connected, else one point per track it still needed."""
    if connected:
        return Msg("connected: loses 0")
    return Plural("needs {n} track: loses {n}", "needs {n} tracks: loses {n}", n=penalty)


def _loss_line(connected: bool, penalty: int, cities: Items, before: Any = None, after: Any = None) -> Msg:
    """A seat's row of the round-end panel: what the round cost, the score before and after, its cities.
    Whole sentences: a short "{what}. {cities}" would take any English line with a full stop in it, as
    long as the bot still translates composed English by pattern."""
    if after is None:
        if connected:
            return Msg("connected: loses 0. {cities}", cities=cities)
        return Plural("needs {n} track: loses {n}. {cities}", "needs {n} tracks: loses {n}. {cities}", n=penalty,
                      cities=cities)
    if connected:
        return Msg("connected: loses 0: {before} -> {after}. {cities}", before=before, after=after, cities=cities)
    return Plural("needs {n} track: loses {n}: {before} -> {after}. {cities}",
                  "needs {n} tracks: loses {n}: {before} -> {after}. {cities}", n=penalty, before=before, after=after,
                  cities=cities)


def _compose_round_end(view: Mapping[str, Any], names: list[str]) -> tuple[Image.Image, int]:
    last = view.get("last_round")
    if not last:
        raise ValueError("no finished round in this view")
    seats = int(view.get("num_seats", len(names)))
    hands = {seat: _city_ids(cities) for seat, cities in _per_seat(last.get("hands")).items()}
    penalties = _per_seat(last.get("penalties"))
    after = _per_seat(last.get("scores_after"))
    before = _per_seat(last.get("scores_before"))
    completed = {int(s) if not isinstance(s, Mapping) else int(s["seat"]) for s in last.get("completed") or ()}
    losses = {seat: _loss(seat in completed, int(penalties.get(seat, 0))) for seat in range(seats)}
    notes = {seat: kit.words(loss) for seat, loss in losses.items()}
    page = kit.Page(WIDTH)
    over = view.get("phase") == "game_over"
    ended = kit.fill_in("End of round {round}", round=last.get("round", ""))
    template, who = _headline(view, names) if over else (ended, None)
    happened = kit.tr(N_("Each player's five cities are flagged."))
    page.turn_card(template, happened, _seat_scores(view, names, after, notes), who=who,
                   headline_fill=kit.DANGER if over else kit.INK, translate=False)
    map_top = page.height
    with page.block(image=_base) as image:
        _map_layer(image, view, _tracks(last.get("tracks")),
                   {frozenset((a, b)) for a, b, _ in _tracks(last.get("last_tracks"))},
                   _per_seat(last.get("markers")), hands)
    with page.panel(PANEL_MAX) as panel:
        panel.line(ended, 24, bold=True, translate=False)
        for seat in range(seats):
            penalty = int(penalties.get(seat, 0))
            score = after.get(seat)
            cities = Items([_city_name(c) for c in hands.get(seat, ())], "comma")
            if score is not None:
                note = _loss_line(seat in completed, penalty, cities, before.get(seat, int(score) + penalty), score)
            else:
                note = _loss_line(seat in completed, penalty, cities)
            panel.player_row(seat, seat_name(names, seat), score, note=kit.words(note), size=22, translate=False)
        panel.rule()
        _score_track(panel, view, after)
        panel.rule()
        _draw_track_legend(panel, bool((view.get("options") or {}).get("vexation")), None, seats <= 3)
    return page.image(), map_top


def round_end(view: dict[str, Any], names: list[str]) -> bytes:
    """The board at the end of the newest finished round (`last_round`): all hands flagged, penalties."""
    return kit.encode(_compose_round_end(view, names)[0])


def interludes(previous: dict[str, Any] | None, view: dict[str, Any], names: list[str]) -> list[bytes]:
    """Images to post before the new board: the round-end image when a move finished a round."""
    finished_before = len((previous or {}).get("history") or [])
    if len(view.get("history") or []) > finished_before:
        return [round_end(view, names)]
    return []


def describe(view: dict[str, Any], names: list[str]) -> str:
    """Alt text for a public board, in the image's language (English unless drawn inside
    `render.in_language`): round, tracks laid, scores, who completed, whose turn or the end."""
    count = len(_tracks(view.get("tracks")))
    parts = [Plural("Trans Europa, round {round}: {n} track on the map.",
                    "Trans Europa, round {round}: {n} tracks on the map.", round=view.get("round", 1), n=count)]
    newest = _tracks(view.get("last_tracks"))
    if newest:
        parts.append(Plural("Newest: {n} track.", "Newest: {n} tracks.", n=len(newest)))
    scores = _per_seat(view.get("scores"))
    if scores:
        each = [Msg("{who} {n}", who=Seat(s), n=v) for s, v in sorted(scores.items())]
        parts.append(Msg("Scores: {scores}.", scores=Items(each, "comma")))
    done = [Seat(int(c["seat"])) for c in view.get("completed") or () if isinstance(c, Mapping)]
    if done:
        parts.append(Msg("Connected all cities this round: {who}.", who=Items(done, "comma")))
    status = _status(view)
    if status is not None:
        parts.append(status)
    text = parts[0]
    for part in parts[1:]:
        # TRANSLATORS: one sentence of the alt text after another
        text = Msg("{sentence} {next}", sentence=text, next=part)
    return kit.say(text, names)
