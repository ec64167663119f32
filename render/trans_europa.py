"""Trans Europa images: the public board, a seat's private board and the round-end board (spec section 12)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.describe import seat_name
from rules.trans_europa import board as te

WIDTH = int(te.CANVAS["width"])
HEIGHT = int(te.CANVAS["height"])
MAP_RIGHT = int(te.CANVAS["map_box"][2])
STRIP_TOP = 884  # below the map and its bottom column numbers: legend / hand list

# Region colours: the card colours, tuned apart; every city disc ALSO carries the region letter.
REGION_COLOURS: dict[str, kit.RGB] = {
    "red": (214, 39, 40),
    "orange": (245, 140, 20),
    "yellow": (245, 212, 40),
    "green": (44, 150, 60),
    "blue": (40, 100, 205),
}
REGION_LETTERS = {"red": "R", "orange": "O", "yellow": "Y", "green": "G", "blue": "B"}
REGION_WORDS = {"red": "west", "orange": "centre", "yellow": "north", "green": "east", "blue": "south"}

SINGLE_LINE: kit.RGB = (160, 154, 142)
DOUBLE_LINE: kit.RGB = (92, 78, 62)
JUNCTION_DOT: kit.RGB = (120, 114, 104)
BLACK_TRACK: kit.RGB = (20, 20, 20)
TRACK_WIDTH = 9
CITY_R = 11
MARKER_SIZE = 30
CITY_FONT = 19
COLOURED_BADGE = 17  # px per coloured-track badge in a player row

# --------------------------------------------------------------------------- Japanese

# Every label the images draw and every sentence of `describe` (the bot translates the alt text
# through the same catalog), in the words of the Japanese rulebook (shared/seeds/002): 線路 a track,
# 路線 a line, 二本線 a double line, スタートマーカー, 得点トラック. Names (players, cities) stay.
JA: dict[str, str] = {
    "Trans Europa": "トランス・ヨーロッパ",
    # the map's strip and legend
    "Regions:": "地域：",
    "red (west)": "赤（西）",
    "orange (centre)": "オレンジ（中央）",
    "yellow (north)": "黄（北）",
    "green (east)": "緑（東）",
    "blue (south)": "青（南）",
    "Type junctions as row letter + column (g13) or by city name (paris).":
        "交差点は「行の文字＋列の番号」（g13）か都市名（paris）で入力します。",
    "Flags mark each player's five cities in their colour and symbol.":
        "旗は各プレイヤーの 5 都市を、そのプレイヤーの色と記号で示します。",
    "black track": "黒い線路",
    "newest track(s)": "最新の線路",
    "double line: costs 2, whole turn": "二本線：2 本分、1 手番まるごと",
    "coloured: only its owner uses it": "色つき線路：持ち主だけが使える",
    "by a name: coloured tracks left": "名前の横：残りの色つき線路",
    "city not dealt with 2-3 players": "2～3 人では配られない都市",
    # the side panel
    "Round {round}": "第 {round} ラウンド",
    "Round {round} - start: {name}": "第 {round} ラウンド・スタート：{name}",
    "Game over": "ゲーム終了",
    "Game over: {who} wins with {score}": "ゲーム終了：{who} が {score} 点で勝利",
    "{who} places a start marker": "{who} がスタートマーカーを置く番",
    "{who} to play: {laid} of 2 laid": "{who} の手番：2 本中 {laid} 本を引いた",
    "The round ends after this turn.": "この手番が終わるとラウンド終了。",
    "Black tracks left: {n} of {total}": "黒い線路 残り {n} 本（全 {total} 本）",
    "CONNECTED: {cities}": "接続完了：{cities}",
    "CONNECTED": "接続完了",
    "Score track (red zone: game ends)": "得点トラック（赤いエリアでゲーム終了）",
    "Private board of {name}": "{name} の個人ボード",
    "You are connected!": "全都市がつながりました！",
    "You still need {n} track": "線路があと {n} 本必要",
    "You still need {n} tracks": "線路があと {n} 本必要",
    "You still need {n} track.": "線路があと {n} 本必要です。",
    "You still need {n} tracks.": "線路があと {n} 本必要です。",
    "{name}'s cities:": "{name} の都市：",
    # the round-end image
    "End of round {round}": "第 {round} ラウンド終了",
    "Each player's five cities are flagged.": "各プレイヤーの 5 都市に旗を立てています。",
    "connected: loses 0: {before} -> {after}. {cities}": "全都市接続で −0 点：{before} → {after}。{cities}",
    "needs {p} track: loses {p}: {before} -> {after}. {cities}":
        "線路 {p} 本不足で −{p} 点：{before} → {after}。{cities}",
    "needs {p} tracks: loses {p}: {before} -> {after}. {cities}":
        "線路 {p} 本不足で −{p} 点：{before} → {after}。{cities}",
    "connected: loses 0. {cities}": "全都市接続で −0 点。{cities}",
    "needs {p} track: loses {p}. {cities}": "線路 {p} 本不足で −{p} 点。{cities}",
    "needs {p} tracks: loses {p}. {cities}": "線路 {p} 本不足で −{p} 点。{cities}",
}


def _ja_composed() -> dict[str, str]:
    """Entries for the labels and alt text built from optional parts: each whole line is one entry.

    Several winners ("Ann and Bob win") get one entry per count, and `describe`'s paragraph one per
    combination of its optional sentences, so no bare "{a} and {b}" or "{a} {b}" pattern is needed.
    """
    out: dict[str, str] = {}
    for count in range(2, 7):
        slots = [f"{{w{i}}}" for i in range(count)]
        out[f"Game over: {' and '.join(slots)} win with {{score}}"] = f"ゲーム終了：{'、'.join(slots)} が {{score}} 点で勝利"
    heads = [("Trans Europa, round {round}: 1 track on the map.", "トランス・ヨーロッパ 第 {round} ラウンド：地図上の線路 1 本。"),
             ("Trans Europa, round {round}: {tracks} tracks on the map.",
              "トランス・ヨーロッパ 第 {round} ラウンド：地図上の線路 {tracks} 本。")]
    newest = [("", ""), (" Newest: 1 track.", "最新の線路 1 本。"), (" Newest: {newest} tracks.", "最新の線路 {newest} 本。")]
    scores = [(" Scores: {scores}.", "得点：{scores}。")]
    connected = [("", ""), (" Connected all cities this round: {connected}.", "このラウンドで全都市を結んだ：{connected}。")]
    status = [("", ""), (" {status}.", "{status}。")]
    for parts in itertools.product(heads, newest, scores, connected, status):
        out["".join(english for english, _ in parts)] = "".join(japanese for _, japanese in parts)
    return out


JA.update(_ja_composed())

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
    image = kit.new_canvas(WIDTH, HEIGHT)
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
        kit.text(draw, (13, y), letter, 20, kit.INK, bold=True, anchor="mm")
        kit.text(draw, (MAP_RIGHT - 14, y), letter, 20, kit.INK, bold=True, anchor="mm")
    for col, x in sorted(col_x.items()):
        kit.text(draw, (x, 20), str(col), 16, (60, 60, 60), anchor="mm")
        kit.text(draw, (x, 866), str(col), 16, (60, 60, 60), anchor="mm")
    draw.line([(0, STRIP_TOP - 6), (MAP_RIGHT, STRIP_TOP - 6)], fill=kit.GRID, width=2)
    _draw_region_legend(draw, STRIP_TOP + 4)
    return image


def _draw_city_disc(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], colour: str, r: float = CITY_R
) -> None:
    x, y = centre
    fill = REGION_COLOURS[colour]
    draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=kit.INK, width=2)
    kit.text(
        draw,
        (x, y + 0.5),
        REGION_LETTERS[colour],
        int(r * 1.15),
        kit.contrast_text(fill),
        bold=True,
        anchor="mm",
    )


def _draw_region_legend(draw: ImageDraw.ImageDraw, y: int) -> None:
    x = 16
    kit.text(draw, (x, y + 14), "Regions:", 17, kit.INK, bold=True, anchor="lm")
    x += 92
    for colour in ("red", "orange", "yellow", "green", "blue"):
        _draw_city_disc(draw, (x + 12, y + 14), colour, 12)
        label = f"{colour} ({REGION_WORDS[colour]})"
        kit.text(draw, (x + 30, y + 14), label, 17, kit.INK, anchor="lm")
        x += 44 + kit.text_size(label, 17)[0]


@lru_cache(maxsize=2)
def _city_tiles(small_deck: bool) -> tuple[tuple[Image.Image, tuple[int, int]], ...]:
    """Each city's disc and name as a small RGBA tile, pasted over the tracks on every render."""
    overlay = Image.new("RGBA", (WIDTH, HEIGHT), (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    tiles = []
    for city in te.CITIES:
        x, y = _xy(city.junction)
        out_of_play = small_deck and city.removed_2_3_players
        if out_of_play:
            # not dealt with 2-3 players: an ordinary junction that keeps its name, greyed out
            draw.ellipse((x - 7, y - 7, x + 7, y + 7), fill=kit.WHITE, outline=kit.MUTED, width=2)
        else:
            _draw_city_disc(draw, (x, y), city.colour)
        label_y = y + CITY_R + 2
        kit.text(
            draw,
            (x, label_y),
            city.name,
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


def _city_box(city: te.City) -> tuple[int, int, int, int]:
    """The pixels a city's disc and name label cover."""
    x, y = _xy(city.junction)
    w, h = kit.text_size(city.name, CITY_FONT, True, translate=False)
    half = max(w / 2, CITY_R) + 6
    return (int(x - half), int(y - CITY_R - 3), int(x + half), int(y + CITY_R + 2 + h + 10))


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


@lru_cache(maxsize=64)
def _flag_side(v: int) -> int:
    """+1 to fly a city's flag to the right, -1 to the left: whichever covers less of other cities."""
    x, y = _xy(v)
    others = [_city_box(c) for c in te.CITIES if c.junction != v]

    def cover(side: int) -> float:
        flag = (x + side * 8, y - 38, x + side * 36, y - 17)
        box = (min(flag[0], flag[2]), flag[1], max(flag[0], flag[2]), flag[3])
        return sum(_overlap(box, other) for other in others)

    return 1 if cover(1) <= cover(-1) else -1


def _base() -> Image.Image:
    return kit.static_layer("trans_europa/map", _draw_map)


# --------------------------------------------------------------------------- the changing parts


def _draw_tracks(
    draw: ImageDraw.ImageDraw,
    tracks: list[tuple[int, int, int | None]],
    newest: set[frozenset[int]],
    network_of: int | None = None,
    network: set[int] | None = None,
) -> None:
    # Under-layers first (own network glow, newest-track halo), then every bar on top of them.
    if network_of is not None and network:
        glow = kit.blend(kit.WHITE, kit.seat_colour(network_of), 0.55)
        for a, b, owner in tracks:
            if a in network and b in network and owner in (None, network_of):
                draw.line([_xy(a), _xy(b)], fill=glow, width=24)
        for v in network:
            x, y = _xy(v)
            draw.ellipse((x - 12, y - 12, x + 12, y + 12), fill=glow)
    for a, b, _owner in tracks:
        if frozenset((a, b)) in newest:
            draw.line([_xy(a), _xy(b)], fill=kit.HIGHLIGHT, width=TRACK_WIDTH + 10)
            for v in (a, b):
                x, y = _xy(v)
                r = (TRACK_WIDTH + 10) / 2
                draw.ellipse((x - r, y - r, x + r, y + r), fill=kit.HIGHLIGHT)
    for a, b, owner in tracks:
        if owner is None:
            draw.line([_xy(a), _xy(b)], fill=BLACK_TRACK, width=TRACK_WIDTH)
            for v in (a, b):
                x, y = _xy(v)
                r = TRACK_WIDTH / 2 - 0.5
                draw.ellipse((x - r, y - r, x + r, y + r), fill=BLACK_TRACK)
    for a, b, owner in tracks:
        if owner is not None:
            # a coloured (vexation) track: the seat's colour, hatched, with its symbol in the middle
            (ax, ay), (bx, by) = _xy(a), _xy(b)
            kit.patterned_bar(draw, (ax, ay), (bx, by), TRACK_WIDTH + 3, kit.seat_colour(owner))
            mx, my = (ax + bx) / 2, (ay + by) / 2
            draw.ellipse((mx - 12, my - 12, mx + 12, my + 12), fill=kit.WHITE, outline=kit.INK, width=2)
            kit.draw_seat_token(draw, owner, (mx, my), 15, label=False)


def _paste_cities(image: Image.Image, small_deck: bool) -> None:
    for tile, position in _city_tiles(small_deck):
        image.paste(tile, position, tile)


def _draw_flag(draw: ImageDraw.ImageDraw, v: int, seat: int) -> None:
    """A small seat-coloured flag on a city: this city belongs to that seat's (revealed) hand."""
    x, y = _xy(v)
    side = _flag_side(v)
    pole_x, top = x + 8 * side, y - 38
    draw.line([(pole_x, y - 6), (pole_x, top)], fill=kit.INK, width=3)
    flag = (min(pole_x, pole_x + 28 * side), top, max(pole_x, pole_x + 28 * side), top + 21)
    draw.rectangle(flag, fill=kit.seat_colour(seat), outline=kit.INK, width=2)
    kit.draw_symbol(
        draw, kit.seat_symbol(seat), (pole_x + 14 * side, top + 10.5), 13, kit.seat_text_colour(seat), None
    )


def _draw_markers(draw: ImageDraw.ImageDraw, markers: dict[int, Any]) -> None:
    for seat, where in sorted(markers.items()):
        v = _junction(where)
        if v is None:
            continue
        x, y = _xy(v)
        if v in te.CITY_AT:
            # beside the city, joined to it by a short stem, so the city's colour and letter stay visible
            tx, ty = x - 17, y - 19
            draw.line([(x, y), (tx, ty)], fill=kit.INK, width=4)
            kit.draw_seat_token(draw, seat, (tx, ty), MARKER_SIZE - 2)
        else:
            kit.draw_seat_token(draw, seat, (x, y), MARKER_SIZE)


def _newest(view: Mapping[str, Any]) -> set[frozenset[int]]:
    return {frozenset((a, b)) for a, b, _ in _tracks(view.get("last_tracks"))}


def _status(view: Mapping[str, Any], names: list[str]) -> str:
    phase = view.get("phase")
    active = view.get("active_seat")
    if phase == "game_over" or view.get("over"):
        result = view.get("result") or {}
        winners = [entry for entry in result.get("seats", ()) if entry.get("rank") == 1]
        if not winners:
            return "Game over"
        who = " and ".join(seat_name(names, int(entry["seat"])) for entry in winners)
        return f"Game over: {who} {'wins' if len(winners) == 1 else 'win'} with {winners[0]['score']}"
    if active is None:
        return ""
    who = seat_name(names, int(active))
    if phase == "markers":
        return f"{who} places a start marker"
    laid = 1 if view.get("step") == 2 else 0
    return f"{who} to play: {laid} of 2 laid"


def _panel(
    image: Image.Image, view: Mapping[str, Any], names: list[str], private_for: int | None = None
) -> kit.Panel:
    """Round, start seat, whose turn, supplies, players with scores and completed hands, the score track."""
    panel = kit.Panel(image, (MAP_RIGHT, 0, WIDTH, HEIGHT))
    options = view.get("options") or {}
    seats = int(view.get("num_seats", len(names)))
    panel.title("Trans Europa", 30)
    start_seat = view.get("start_seat")
    round_number = view.get("round", 1)
    if start_seat is None:
        panel.line(f"Round {round_number}", 21)
    else:
        # the name can be long (and Japanese): fitted, so it never runs past the panel
        label = kit.fit_name(f"Round {round_number} - start: {{name}}", seat_name(names, int(start_seat)), 21, panel.width,
                             slot="name")
        panel.line(label, 21, translate=False)
    status = _status(view, names)
    if status:
        panel.wrapped(status, 24, kit.INK, bold=True)
    if view.get("completed") and view.get("phase") == "building":
        panel.line("The round ends after this turn.", 19, kit.DANGER, bold=True)
    if private_for is not None:
        _private_box(panel, view, names, private_for)
    panel.gap(4)
    black_left = view.get("black_left")
    if black_left is not None:
        total = int(te.COMPONENTS["black_tracks"])
        panel.line(f"Black tracks left: {black_left} of {total}", 20)
        bar_y = panel.y
        panel.draw.rectangle(
            (panel.x, bar_y, panel.x + panel.width, bar_y + 10), outline=kit.GRID, fill=kit.WHITE
        )
        filled = panel.width * int(black_left) / total
        panel.draw.rectangle((panel.x, bar_y, panel.x + filled, bar_y + 10), fill=BLACK_TRACK)
        panel.gap(18)
    panel.rule()
    scores = _per_seat(view.get("scores"))
    coloured_left = _per_seat(view.get("coloured_left"))
    completed = _completed(view)
    to_act = set(view.get("to_act") or ())
    vexation = bool(options.get("vexation")) or bool(coloured_left)
    row_size = 24 if seats <= 5 else 21  # six rows with notes must leave room for the score track
    for seat in range(seats):
        note = ""
        if seat in completed:
            cities = ", ".join(_city_name(c) for c in completed[seat])
            note = f"CONNECTED: {cities}" if cities else "CONNECTED"
        left = int(coloured_left.get(seat, 0)) if vexation else 0
        x, cy = panel.player_row(
            seat,
            seat_name(names, seat),
            scores.get(seat),
            to_act=seat in to_act,
            note=note,
            size=row_size,
            reserve=COLOURED_BADGE * 3 if vexation else 0,
        )
        for i in range(left):
            # one small hatched bar per coloured track still in hand
            bx = x + COLOURED_BADGE * i + COLOURED_BADGE / 2
            kit.patterned_bar(panel.draw, (bx, cy - 11), (bx, cy + 11), 11, kit.seat_colour(seat), spacing=6)
    panel.rule()
    top = int(options.get("start_score", te.COMPONENTS["start_score"]))
    panel.line("Score track (red zone: game ends)", 18, kit.MUTED)
    panel.score_track(top, [(seat, int(score)) for seat, score in sorted(scores.items())], 16)
    return panel


def _private_box(panel: kit.Panel, view: Mapping[str, Any], names: list[str], seat: int) -> None:
    """Whose private board this is and, when the option is on, how many tracks the seat still needs."""
    needed = view.get("tracks_needed")
    width = panel.right - panel.pad - panel.x - 44
    lines = [kit.fit_name("Private board of {name}", seat_name(names, seat), 21, width, slot="name")]
    if needed is not None:
        lines.append(
            "You are connected!"
            if int(needed) == 0
            else f"You still need {needed} track{'s' * (needed != 1)}"
        )
    top = panel.y + 2
    height = 14 + 34 * len(lines)
    tint = kit.blend(kit.WHITE, kit.seat_colour(seat), 0.25)
    panel.draw.rectangle(
        (panel.x - 4, top, panel.right - panel.pad + 4, top + height),
        fill=tint,
        outline=kit.seat_colour(seat),
        width=3,
    )
    kit.draw_seat_token(panel.draw, seat, (panel.x + 18, top + 24), 28)
    for i, line in enumerate(lines):
        line = kit.fit(line, 21 if i == 0 else 24, width, bold=i > 0, translate=i > 0)  # the first is done
        kit.text(
            panel.draw,
            (panel.x + 40, top + 24 + 34 * i),
            line,
            21 if i == 0 else 24,
            kit.INK,
            bold=i > 0,
            anchor="lm",
            translate=False,  # fit() has translated it
        )
    panel.gap(height + 10)


def _draw_track_legend(
    panel: kit.Panel, vexation: bool, seat: int | None = None, small_deck: bool = False
) -> None:
    def black(draw: ImageDraw.ImageDraw, c: tuple[float, float]) -> None:
        draw.line([(c[0] - 14, c[1]), (c[0] + 14, c[1])], fill=BLACK_TRACK, width=TRACK_WIDTH)

    def newest(draw: ImageDraw.ImageDraw, c: tuple[float, float]) -> None:
        draw.line([(c[0] - 14, c[1]), (c[0] + 14, c[1])], fill=kit.HIGHLIGHT, width=TRACK_WIDTH + 10)
        black(draw, c)

    def double(draw: ImageDraw.ImageDraw, c: tuple[float, float]) -> None:
        draw.line([(c[0] - 14, c[1] - 3.5), (c[0] + 14, c[1] - 3.5)], fill=DOUBLE_LINE, width=2)
        draw.line([(c[0] - 14, c[1] + 3.5), (c[0] + 14, c[1] + 3.5)], fill=DOUBLE_LINE, width=2)

    items: list[tuple[Callable[[ImageDraw.ImageDraw, tuple[float, float]], None], str]] = [
        (black, "black track"),
        (newest, "newest track(s)"),
        (double, "double line: costs 2, whole turn"),
    ]
    if vexation:
        who = seat if seat is not None else 0

        def coloured(draw: ImageDraw.ImageDraw, c: tuple[float, float]) -> None:
            kit.patterned_bar(
                draw, (c[0] - 14, c[1]), (c[0] + 14, c[1]), TRACK_WIDTH + 3, kit.seat_colour(who)
            )

        items.append((coloured, "coloured: only its owner uses it"))

        def badges(draw: ImageDraw.ImageDraw, c: tuple[float, float]) -> None:
            for dx in (-12, 0, 12):
                kit.patterned_bar(
                    draw, (c[0] + dx, c[1] - 9), (c[0] + dx, c[1] + 9), 9, kit.seat_colour(who), spacing=6
                )

        items.append((badges, "by a name: coloured tracks left"))
    if small_deck:

        def not_dealt(draw: ImageDraw.ImageDraw, c: tuple[float, float]) -> None:
            draw.ellipse((c[0] - 7, c[1] - 7, c[0] + 7, c[1] + 7), fill=kit.WHITE, outline=kit.MUTED, width=2)

        items.append((not_dealt, "city not dealt with 2-3 players"))
    # the legend is the least important part of the panel: it gets whatever room is left
    if panel.room() < 40:
        return
    panel.rule()
    for icon, label in items:
        if panel.room() < 28:
            break
        panel.legend_item(icon, label, 18)


# --------------------------------------------------------------------------- public entry points


def _render(view: Mapping[str, Any], names: list[str], private: bool) -> Image.Image:
    image = _base()
    draw = ImageDraw.Draw(image)
    small_deck = int(view.get("num_seats", 4)) <= 3
    seat = view.get("seat") if private else None
    tracks = _tracks(view.get("tracks"))
    network: set[int] = set()
    if seat is not None:
        for token in _per_seat(view.get("networks")).get(int(seat), ()):
            v = _junction(token)
            if v is not None:
                network.add(v)
    _draw_tracks(draw, tracks, _newest(view), None if seat is None else int(seat), network)
    if seat is not None:
        _draw_hand_rings(draw, view, int(seat))
    _paste_cities(image, small_deck)
    completed = _completed(view)
    for owner, cities in completed.items():
        if seat is not None and owner == int(seat):
            continue  # own cities already carry rings and ticks; a flag would cover the ticks
        for city in cities:
            _draw_flag(draw, te.CITY_BY_ID[city].junction, owner)
    if seat is not None:
        _draw_hand_ticks(draw, view)
    _draw_markers(draw, _per_seat(view.get("markers")))
    panel = _panel(image, view, names, private_for=None if seat is None else int(seat))
    options = view.get("options") or {}
    _draw_track_legend(panel, bool(options.get("vexation")), None if seat is None else int(seat), small_deck)
    if seat is not None:
        _draw_hand_strip(draw, view, int(seat), names)
    else:
        kit.text(
            draw,
            (16, STRIP_TOP + 56),
            "Type junctions as row letter + column (g13) or by city name (paris).",
            17,
            kit.MUTED,
            anchor="lm",
        )
    return image


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


def _draw_hand_ticks(draw: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
    for entry in _hand(view):
        v = _junction(entry.get("junction")) or _junction(entry.get("id"))
        if v is None or not entry.get("connected"):
            continue
        x, y = _xy(v)
        bx, by = x + 20, y - 18
        draw.ellipse((bx - 11, by - 11, bx + 11, by + 11), fill=kit.WHITE, outline=kit.INK, width=2)
        kit.tick(draw, (bx, by + 1), 13, kit.INK, 3)


def _draw_hand_strip(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], seat: int, names: list[str]) -> None:
    """Below the map: the seat's five cities by colour, ticked when connected, and the tracks-needed line."""
    y = STRIP_TOP + 50
    kit.draw_seat_token(draw, seat, (28, y + 12), 28)
    # fitted: a long display name must leave room for the five cities after it
    label = kit.fit_name("{name}'s cities:", seat_name(names, seat), 19, 330, bold=True, slot="name")
    kit.text(draw, (50, y + 12), label, 19, kit.INK, bold=True, anchor="lm", translate=False)
    x = 60 + kit.text_size(label, 19, True, translate=False)[0]
    order = {c: i for i, c in enumerate(("red", "orange", "yellow", "green", "blue"))}
    for entry in sorted(_hand(view), key=lambda e: order.get(str(e.get("colour")), 9)):
        city_id = _city_ids([entry])
        name = str(entry.get("name") or (_city_name(city_id[0]) if city_id else entry.get("id")))
        colour = str(entry.get("colour") or (te.CITY_BY_ID[city_id[0]].colour if city_id else "red"))
        _draw_city_disc(draw, (x + 12, y + 12), colour, 12)
        kit.text(draw, (x + 29, y + 12), name, 19, kit.INK, anchor="lm", translate=False)
        x += 34 + kit.text_size(name, 19, translate=False)[0]
        if entry.get("connected"):
            kit.tick(draw, (x + 6, y + 12), 16, kit.INK, 3)
            x += 20
        x += 16
    needed = view.get("tracks_needed")
    if needed is not None:
        line = (
            "You are connected!"
            if int(needed) == 0
            else f"You still need {needed} track{'s' if needed != 1 else ''}."
        )
        kit.text(draw, (16, y + 52), line, 22, kit.INK, bold=True, anchor="lm")


def board(view: dict[str, Any], names: list[str]) -> bytes:
    """The public board image (from view(None))."""
    return kit.encode(_render(view, names, private=False))


def hand(view: dict[str, Any], names: list[str]) -> bytes:
    """A seat's private board (from view(seat)): its cities ringed, its network glowing, its needs."""
    return kit.encode(_render(view, names, private=True))


def round_end(view: dict[str, Any], names: list[str]) -> bytes:
    """The board at the end of the newest finished round (`last_round`): all hands flagged, penalties."""
    last = view.get("last_round")
    if not last:
        raise ValueError("no finished round in this view")
    image = _base()
    draw = ImageDraw.Draw(image)
    small_deck = int(view.get("num_seats", 4)) <= 3
    _draw_tracks(
        draw, _tracks(last.get("tracks")), {frozenset((a, b)) for a, b, _ in _tracks(last.get("last_tracks"))}
    )
    _paste_cities(image, small_deck)
    hands = {seat: _city_ids(cities) for seat, cities in _per_seat(last.get("hands")).items()}
    for seat, cities in hands.items():
        for city in cities:
            _draw_flag(draw, te.CITY_BY_ID[city].junction, seat)
    _draw_markers(draw, _per_seat(last.get("markers")))
    _round_end_panel(image, view, last, hands, names)
    kit.text(
        draw,
        (16, STRIP_TOP + 56),
        "Flags mark each player's five cities in their colour and symbol.",
        17,
        kit.MUTED,
        anchor="lm",
    )
    return kit.encode(image)


def _round_end_panel(
    image: Image.Image,
    view: Mapping[str, Any],
    last: Mapping[str, Any],
    hands: dict[int, list[str]],
    names: list[str],
) -> None:
    panel = kit.Panel(image, (MAP_RIGHT, 0, WIDTH, HEIGHT))
    seats = int(view.get("num_seats", len(names)))
    panel.title("Trans Europa", 30)
    panel.line(f"End of round {last.get('round', '')}", 24, bold=True)
    if view.get("phase") == "game_over":
        panel.wrapped(_status(view, names), 22, kit.DANGER, bold=True)
    panel.line("Each player's five cities are flagged.", 18, kit.MUTED)
    penalties = _per_seat(last.get("penalties"))
    after = _per_seat(last.get("scores_after"))
    before = _per_seat(last.get("scores_before"))
    completed = {
        int(s) if not isinstance(s, Mapping) else int(s["seat"]) for s in last.get("completed") or ()
    }
    panel.rule()
    for seat in range(seats):
        penalty = int(penalties.get(seat, 0))
        score = after.get(seat)
        # one note per seat, a whole line for the catalog: "needs 2 tracks: loses 2: 13 -> 11. Paris, ..."
        if seat in completed:
            what = "connected: loses 0"
        else:
            what = f"needs {penalty} track{'s' if penalty != 1 else ''}: loses {penalty}"
        if score is not None:
            what += f": {before.get(seat, int(score) + penalty)} -> {score}"
        cities = ", ".join(_city_name(c) for c in hands.get(seat, ()))
        panel.player_row(
            seat, seat_name(names, seat), score, note=f"{what}. {cities}", size=24 if seats <= 4 else 20
        )
    panel.rule()
    options = view.get("options") or {}
    top = int(options.get("start_score", te.COMPONENTS["start_score"]))
    panel.line("Score track (red zone: game ends)", 18, kit.MUTED)
    panel.score_track(top, [(seat, int(score)) for seat, score in sorted(after.items())], 16)


def interludes(previous: dict[str, Any] | None, view: dict[str, Any], names: list[str]) -> list[bytes]:
    """Images to post before the new board: the round-end image when a move finished a round."""
    finished_before = len((previous or {}).get("history") or [])
    if len(view.get("history") or []) > finished_before:
        return [round_end(view, names)]
    return []


def describe(view: dict[str, Any], names: list[str]) -> str:
    """Alt text for a public board: round, tracks laid, scores, who completed, whose turn or the end."""
    tracks = _tracks(view.get("tracks"))
    count = len(tracks)
    parts = [f"Trans Europa, round {view.get('round', 1)}: {count} track{'s' if count != 1 else ''} on the map."]
    newest = _tracks(view.get("last_tracks"))
    if newest:
        parts.append(f"Newest: {len(newest)} track{'s' if len(newest) != 1 else ''}.")
    scores = _per_seat(view.get("scores"))
    if scores:
        parts.append("Scores: " + ", ".join(f"{seat_name(names, s)} {v}" for s, v in sorted(scores.items())) + ".")
    done = [seat_name(names, int(c["seat"])) for c in view.get("completed") or () if isinstance(c, Mapping)]
    if done:
        parts.append("Connected all cities this round: " + ", ".join(done) + ".")
    status = _status(view, names)
    if status:
        parts.append(status + ".")
    return " ".join(parts)
