"""Santa Fe images: the public map with track, railheads and open sections, and a seat's private hand."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from rules.engine import name_seats
from rules.santa_fe.board import BOARD, RAILROADS
from rules.santa_fe.ja import JA as ENGINE_JA
from rules.santa_fe.ja import PHASES_JA

# Every word the images draw, in Japanese (rulebook terms, see rules/santa_fe/ja.py), over the engine's
# catalog: the board and hand show the last event lines too.
JA: dict[str, str] = {
    **ENGINE_JA,
    # ---- the panel
    "Game over after round {n}": "ラウンド {n} でゲーム終了",
    "Before round 1: engineer step": "ラウンド 1 の前：技術者カードの購入",
    **{f"Round {{n}}: {english}": f"ラウンド {{n}}：{japanese}" for english, japanese in PHASES_JA.items()},
    "Seat {n}": "席 {n}",
    "First player: {first}   To act: {to_act}": "ファーストプレイヤー：{first}   手番：{to_act}",
    "Deck {deck}   DT pile {dt}   Engineers {engineers}": "山札 {deck}   ダブルターン {dt}   技術者 {engineers}",
    "(advanced)": "（アドバンス）",
    "(tile buying)": "（タイル購入）",
    "(tile buying (bought tiles only))": "（タイル購入：購入分のみ）",
    "(advanced, tile buying)": "（アドバンス、タイル購入）",
    "(advanced, tile buying (bought tiles only))": "（アドバンス、タイル購入：購入分のみ）",
    "Railroad": "鉄道会社",
    "tiles": "タイル",
    "branch": "分岐",
    "bonus city": "ボーナス都市",
    "{n} cities": "都市 {n}",
    "{n} DT": "ダブルターン {n}",
    "{rr} branch": "分岐 {rr}",
    "hand {hand}": "手札 {hand}",
    "engineer (limit {limit})": "技術者（上限 {limit}）",
    "bought {tiles}": "購入 {tiles}",
    "has chosen": "選択済み",
    "choosing...": "選択中",
    "double turn": "ダブルターン",
    "nothing": "なし",
    "{card} + branch {rr}": "{card} + 分岐 {rr}",
    "{card} + branch {rr} (used)": "{card} + 分岐 {rr}（使用済み）",
    "plays {card}": "今回：{card}",
    "exchanged {n}": "交換 {n} 枚",
    "played: {cards}": "出した都市：{cards}",
    # ---- below the map
    "Last action": "直前の行動",
    "Next spaces per line (lay <rr> <line> <city>)": "各路線の次のマス（lay <rr> <line> <city>）",
    "{rr}: no tiles left": "{rr}：タイルなし",
    "{tag} at {city} -> {targets}": "{tag}：{city} から → {targets}",
    "{tag} at {city}: dead end": "{tag}：{city} で行き止まり",
    "railroad can start this section from its railhead": "この鉄道会社が路線の先端からこの区間に延ばせる",
    "space reserved for the railroad building it": "建設中の鉄道会社専用のマス",
    "railhead of line 1": "路線 1 の先端",
    "river": "川",
    "mountain": "山",
    "last tile": "直前のタイル",
    "start city": "始発の都市",
    "Stand-in map: our own board. Under a city: a pip per railroad that reaches it; x2 = two railroads.":
        "代用マップ（独自のボード）。都市の下の印：接続している鉄道会社ごとに 1 つ。x2 = 2 社が接続。",
    # ---- alt text (see describe)
    "Santa Fe, {status}. To act: {to_act}. Scores: {scores}. Track tiles left: {tiles}. Last: {last}":
        "サンタフェ、{status}。手番：{to_act}。得点：{scores}。残りの線路タイル：{tiles}。直前：{last}",
    "game over after round {n}": "ラウンド {n} でゲーム終了",
    "before round 1: engineer step": "ラウンド 1 の前：技術者カードの購入",
    **{f"round {{n}}: {english}": f"ラウンド {{n}}：{japanese}" for english, japanese in PHASES_JA.items()},
    # ---- the hand
    "spectator": "観戦者",
    "your move": "あなたの手番",
    "${money}   score now {score}   hand limit {limit}": "${money}   現在の得点 {score}   手札の上限 {limit}",
    "{n} double-turn card": "ダブルターンカード {n} 枚",
    "{n} double-turn cards": "ダブルターンカード {n} 枚",
    "branch card {rr} (must be played)": "分岐カード {rr}（次に必ず出す）",
    "engineer": "技術者カード",
    "no other cards": "ほかのカードなし",
    "City cards in hand (value x railroads now = points)": "手札の都市カード（価値 × 接続中の鉄道会社数 = 得点）",
    "Your secret choice: {choice}": "あなたの秘密の選択：{choice}",
    "Played: {cards}": "出した都市：{cards}",
    "Exchanges:": "交換：",
    "round {round}: gave {out}; drew {drawn}": "ラウンド {round}：{out} を捨て、{drawn} を引いた",
    "Recent": "最近の出来事",
    "value {value}": "価値 {value}",
    "no railroad yet": "接続する鉄道会社なし",
}

WIDTH, HEIGHT = 1600, 1000
MAP_W = 1160  # the map on the left, the side panel on the right
SCALE = 0.66
OFFSET_X, OFFSET_Y = -10, 95
STRIP_TOP = 600  # below the map: the last events, then the legend

RR_COLOURS: dict[str, kit.RGB] = {rr: kit.hex_rgb(BOARD.railroads[rr].hex) for rr in RAILROADS}
RR_COLOURS["sp"] = (250, 250, 250)
# A pattern per railroad as well as its colour, so red UP and green GN differ without colour vision.
RR_PATTERNS = {"sf": "solid", "sp": "dots", "gn": "stripes", "up": "dashes", "kp": "solid"}
RR_MARKS: dict[str, kit.RGB] = {
    "sf": kit.WHITE,
    "sp": kit.INK,
    "gn": kit.WHITE,
    "up": kit.WHITE,
    "kp": kit.INK,
}
EMPTY_SLOT: kit.RGB = (255, 255, 255)
CLOSED_SLOT: kit.RGB = (200, 196, 188)
RIVER: kit.RGB = (40, 120, 220)
MOUNTAIN: kit.RGB = (120, 80, 40)
CITY_FILL: kit.RGB = (255, 255, 255)
SLOT_W = 11
LANE_GAP = 7


def _xy(city: str) -> tuple[float, float]:
    c = BOARD.cities[city]
    return (c.x - OFFSET_X) * SCALE + 10, (c.y - OFFSET_Y) * SCALE + 10


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
    margin = 13  # keep clear of the city discs
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


def _static() -> Image.Image:
    """The map without track: empty slots, terrain marks, cities and their names."""
    image = kit.new_canvas(WIDTH, HEIGHT)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, MAP_W, STRIP_TOP - 6), fill=(236, 230, 214))
    for sid, section in BOARD.sections.items():
        for lane in range(section.lanes):
            for k, (p, q) in enumerate(_slots(sid, lane)):
                kit.patterned_bar(draw, p, q, SLOT_W, EMPTY_SLOT, "solid", outline=kit.GRID)
                if section.terrain[k] != "plain":
                    _terrain_mark(draw, _mid(p, q), section.terrain[k])
    for city in BOARD.cities.values():
        x, y = _xy(city.id)
        if city.start:
            draw.rectangle((x - 10, y - 10, x + 10, y + 10), fill=kit.INK)
        else:
            draw.ellipse((x - 11, y - 11, x + 11, y + 11), fill=CITY_FILL, outline=kit.INK, width=2)
            kit.text(draw, (x, y), str(city.value), 15, kit.INK, bold=True, anchor="mm")
        for rr, railroad in BOARD.railroads.items():
            if railroad.bonus_city == city.id:
                # A railroad's bonus city: a square frame in its colour, with its code.
                draw.rectangle((x - 15, y - 15, x + 15, y + 15), outline=kit.INK, width=5)
                draw.rectangle((x - 14, y - 14, x + 14, y + 14), outline=RR_COLOURS[rr], width=3)
        _city_label(draw, city.id)
    _legend(draw)
    return image


_LABEL_OFFSETS = {
    "n": (0, -20, "ms"), "s": (0, 20, "ma"), "e": (18, 0, "lm"), "w": (-18, 0, "rm"),
    "ne": (14, -14, "ls"), "nw": (-14, -14, "rs"), "se": (14, 14, "la"), "sw": (-14, 14, "ra"),
}  # fmt: skip


def _label_anchor(city: str) -> tuple[float, float, str]:
    x, y = _xy(city)
    dx, dy, anchor = _LABEL_OFFSETS[BOARD.cities[city].label]
    return x + dx, y + dy, anchor


def _city_label(draw: ImageDraw.ImageDraw, city: str) -> None:
    x, y, anchor = _label_anchor(city)
    name = BOARD.name(city)
    if BOARD.cities[city].start:
        name = name.upper()
    kit.text(draw, (x, y), name, 15, kit.INK, bold=True, halo=kit.PAPER, anchor=anchor, translate=False)


def _board_layer(image: Image.Image, view: dict[str, Any]) -> None:
    """Track, reserved spaces, open-section arrows, railheads, connection pips, last tiles."""
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
                kit.patterned_bar(
                    draw, p, q, SLOT_W + 2, RR_COLOURS[rr], RR_PATTERNS[rr], RR_MARKS[rr], kit.INK, 7
                )
            else:
                # Reserved: only this railroad's line can fill these spaces.
                kit.patterned_bar(draw, p, q, SLOT_W + 2, EMPTY_SLOT, "solid", outline=None)
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
            t = 26 + i * 11
            _arrow(draw, (cx + ux * t, cy + uy * t), (ux, uy), rr)
    for sid, lane_index, index, _rr in view["last_tiles"]:
        lane = laid.get((sid, lane_index))
        if lane is None:
            continue
        p, q = _slots(sid, lane_index)[_space_index(sid, lane["from"], index)]
        _outline(draw, p, q, kit.HIGHLIGHT, SLOT_W + 10, 4)
    # Lane labels (which railroad) at the middle of every claimed lane.
    for (sid, lane_index), lane in laid.items():
        slots = _slots(sid, lane_index)
        p, q = slots[0][0], slots[-1][1]
        x, y = _mid(p, q)
        if BOARD.sections[sid].double:
            (ax, ay), (bx, by) = _xy(BOARD.sections[sid].a), _xy(BOARD.sections[sid].b)
            length = math.hypot(bx - ax, by - ay)
            sign = 1 if lane_index == 0 else -1
            x, y = x - (by - ay) / length * 14 * sign, y + (bx - ax) / length * 14 * sign
        if lane["tiles"] < 2 or lane["spaces"] < 3:
            continue  # short or barely started lanes: colour, pattern and railhead tag say enough
        _paste(image, _sprite("lane", lane["rr"].upper(), lane["rr"]), (x, y))
    # Connection pips under each city: one per railroad that reaches it.
    reach: dict[str, list[str]] = {}
    for rr in RAILROADS:
        for city in view["connected"][rr]:
            reach.setdefault(city, []).append(rr)
    for city, rrs in reach.items():
        if BOARD.cities[city].start:
            continue
        x, y = _xy(city)
        width = len(rrs) * 10
        for i, rr in enumerate(rrs):
            px = x - width / 2 + i * 10 + 5
            draw.rectangle((px - 5, y + 12, px + 5, y + 22), fill=RR_COLOURS[rr], outline=kit.INK)
        # The count is what scores (value x railroads): a badge on the side away from the name.
        dx = _LABEL_OFFSETS[BOARD.cities[city].label][0]
        bx = x - 17 if dx > 0 else x + 17
        _paste(image, _sprite("badge", f"x{len(rrs)}", ""), (bx, y - 11))
    # Railhead tags; at a city they sit opposite its name and stack.
    stacked: dict[str, int] = {}
    for rr in RAILROADS:
        for head in view["lines"][rr]:
            tag = f"{rr.upper()}{head['line']}"
            if "at" in head:
                city = head["at"]
                x, y = _xy(city)
                dx, dy, _ = _LABEL_OFFSETS[BOARD.cities[city].label]
                level = stacked.get(city, 0)
                stacked[city] = level + 1
                x -= (1 if dx > 0 else -1 if dx < 0 else 0) * 30
                y += (24 + 21 * level) if dy <= 0 else -(24 + 21 * level)
            else:
                lane = laid[(head["section"], head["lane"])]
                slots = _slots(head["section"], head["lane"])
                p, q = slots[_space_index(head["section"], lane["from"], lane["tiles"] - 1)]
                x, y = _mid(p, q)
                y -= 16
            _paste(image, _sprite("tag", tag, rr), (x, y))


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
    draw.polygon(corners, outline=colour, width=line)


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
    draw.polygon([tip, left, right], fill=RR_COLOURS[rr], outline=kit.INK, width=2)


@lru_cache(maxsize=256)
def _sprite(kind: str, label: str, rr: str) -> Image.Image:
    """A small label drawn once per process and pasted after (text is the slowest thing to draw)."""
    # Railroad codes and counts ("SF1", "x2") read the same in every language.
    w, _ = kit.text_size(label, 14, True, translate=False)
    size = (int(w) + 14, 24)
    sprite = Image.new("RGBA", size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    centre = (size[0] / 2, size[1] / 2)
    if kind == "tag":
        _tag(draw, centre, label, rr)
    elif kind == "lane":
        draw.rectangle((centre[0] - 11, 4, centre[0] + 11, 20), fill=kit.WHITE)
        kit.text(draw, centre, label, 14, kit.INK, anchor="mm", translate=False)
    else:
        draw.ellipse((centre[0] - 11, 1, centre[0] + 11, 23), fill=kit.INK)
        kit.text(draw, centre, label, 13, kit.WHITE, anchor="mm", translate=False)
    return sprite


def _paste(image: Image.Image, sprite: Image.Image, centre: tuple[float, float]) -> None:
    x, y = centre
    image.paste(sprite, (int(x - sprite.width / 2), int(y - sprite.height / 2)), sprite)


def _tag(draw: ImageDraw.ImageDraw, centre: tuple[float, float], label: str, rr: str) -> None:
    x, y = centre
    w, _ = kit.text_size(label, 14, True, translate=False)
    box = (x - w / 2 - 4, y - 10, x + w / 2 + 4, y + 10)
    draw.rounded_rectangle(box, 4, fill=RR_COLOURS[rr], outline=kit.INK, width=2)
    kit.text(draw, (x, y), label, 14, RR_MARKS[rr], anchor="mm", translate=False)


# --------------------------------------------------------------------------- words


def _name(names: list[str], seat: int) -> str:
    return names[seat] if seat < len(names) else kit.fill_in("Seat {n}", n=seat + 1)


# --------------------------------------------------------------------------- panel


def _panel(image: Image.Image, view: dict[str, Any], names: list[str]) -> None:
    panel = kit.Panel(image, (MAP_W, 0, WIDTH, HEIGHT))
    panel.title("Santa Fe")
    if view["over"]:
        panel.line(f"Game over after round {view['round']}", 20, bold=True)
    elif view["round"] == 0:
        panel.line("Before round 1: engineer step", 20, bold=True)
    else:
        panel.line(f"Round {view['round']}: {view['phase_name']}", 20, bold=True)
    # Names are cut first so that a long first player's name leaves room for whoever is to act.
    short = {s: kit.fit(_name(names, s), 16, 150, translate=False) for s in range(view["num_seats"])}
    to_act = ", ".join(short[s] for s in view["to_act"]) or "-"
    first = kit.fill_in("First player: {first}   To act: {to_act}", first=short[view["first_player"]], to_act=to_act)
    panel.line(kit.fit(first, 16, panel.width, translate=False), 16, translate=False)
    extra = []
    if view["options"]["advanced"]:
        extra.append("advanced")
    if view["options"]["tile_buying"]:
        extra.append("tile buying" + (" (bought tiles only)" if view["bought_phase"] else ""))
    counts = kit.fill_in(
        "Deck {deck}   DT pile {dt}   Engineers {engineers}",
        deck=view["deck"], dt=view["dt_pile"], engineers=view["engineers_left"],
    )
    options = kit.tr(f"({', '.join(extra)})") if extra else ""
    if options and kit.text_size(f"{counts}   {options}", 16, translate=False)[0] <= panel.width:
        counts, options = f"{counts}   {options}", ""
    panel.line(kit.fit(counts, 16, panel.width, translate=False), 16, translate=False)
    if options:  # too long for one line (in Japanese): the table's options get their own
        panel.line(kit.fit(options, 16, panel.width, translate=False), 16, translate=False)
    panel.rule()
    # Column heads over their columns (one spaced-out string would not line up in another language).
    y = panel.y
    kit.text(panel.draw, (panel.x, y), "Railroad", 15, kit.MUTED)
    kit.text(panel.draw, (panel.x + 150, y), "tiles", 15, kit.MUTED, anchor="ra")
    kit.text(panel.draw, (panel.x + 205, y), "branch", 15, kit.MUTED, anchor="ra")
    kit.text(panel.draw, (panel.x + 228, y), "bonus city", 15, kit.MUTED)
    panel.gap(int(15 * 1.35))
    for rr in RAILROADS:
        y = panel.y + 10
        _rr_swatch(panel.draw, rr, (panel.x + 16, y))
        kit.text(panel.draw, (panel.x + 38, y), rr.upper(), 17, kit.INK, bold=True, anchor="lm", translate=False)
        kit.text(panel.draw, (panel.x + 150, y), str(view["supply"][rr]), 17, kit.INK, anchor="rm")
        kit.text(panel.draw, (panel.x + 205, y), str(view["branch_piles"][rr]), 17, kit.INK, anchor="rm")
        city = BOARD.name(BOARD.railroads[rr].bonus_city)
        kit.text(panel.draw, (panel.x + 228, y), city, 16, kit.INK, anchor="lm", translate=False)
        panel.gap(24)
    panel.rule()
    result = view.get("result")
    ranks = {}
    if result:
        ranks = {line["seat"]: line for line in result["seats"]}
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
        panel.player_row(seat, label, entry["score"], seat in view["to_act"], size=19)
        panel.wrapped(note, 15, indent=40, translate=False)
        panel.gap(2)


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
        bits.append(kit.tr("has chosen" if entry["chosen"] else "choosing..."))
    play = entry.get("play")
    if play and not view["over"] and view["phase"] != "choose":
        if play["city"]:
            shown = BOARD.name(play["city"])
        else:
            shown = kit.tr("double turn" if play["double"] else "nothing")
        if play["branch"]:
            template = "{card} + branch {rr} (used)" if play["branch_used"] else "{card} + branch {rr}"
            shown = kit.fill_in(template, card=shown, rr=play["branch"].upper())
        bits.append(kit.fill_in("plays {card}", card=shown))
    if entry["exchanged"]:
        bits.append(kit.fill_in("exchanged {n}", n=entry["exchanged"]))
    played = ", ".join(f"{c['name']} {c['value']}x{len(c['railroads'])}" for c in entry["played"])
    if played:
        bits.append(kit.fill_in("played: {cards}", cards=played))
    return " | ".join(bits)


def _strip(image: Image.Image, view: dict[str, Any], names: list[str]) -> None:
    """Below the map: the last events and a legend."""
    draw = ImageDraw.Draw(image)
    x, y = 14, STRIP_TOP
    kit.text(draw, (x, y), "Last action", 17, kit.INK, bold=True)
    y += 24
    for text in view["log"][-4:]:
        kit.text(draw, (x, y), kit.fit(kit.say(text, names), 15, MAP_W - 2 * x, translate=False), 15, kit.INK, translate=False)
        y += 20
    # Where every line can go next, in move notation: what to type after "lay <rr> <n>".
    y = STRIP_TOP + 24 + 4 * 20 + 8
    kit.text(draw, (x, y), "Next spaces per line (lay <rr> <line> <city>)", 17, kit.INK, bold=True)
    y += 24
    for rr in RAILROADS:
        _rr_swatch(draw, rr, (x + 16, y + 8), 26)
        line = kit.fit(_next_text(view, rr), 15, MAP_W - x - 36 - 8, translate=False)
        kit.text(draw, (x + 36, y + 8), line, 15, kit.INK, anchor="lm", translate=False)
        y += 20


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


def _legend(draw: ImageDraw.ImageDraw) -> None:
    """The legend at the bottom of the strip (part of the static layer).

    Each item sits at its place in the English layout, or further right when the label before it
    is longer (Japanese labels are wider).
    """
    x, y = 14, HEIGHT - 118
    draw.line([(x, y - 8), (MAP_W - 14, y - 8)], fill=kit.GRID)
    col = x
    for rr in RAILROADS:
        name = BOARD.railroads[rr].name
        _rr_swatch(draw, rr, (col + 16, y + 8))
        kit.text(draw, (col + 36, y + 8), name, 15, kit.INK, anchor="lm", translate=False)
        col += 44 + kit.text_size(name, 15, translate=False)[0] + 14
    y += 28

    def label(at: float, s: str) -> float:
        kit.text(draw, (at, y + 8), s, 15, kit.INK, anchor="lm")
        return at + kit.text_size(s, 15)[0] + 16  # where the next item may start

    _arrow(draw, (x + 10, y + 8), (1, 0), "kp")
    end = label(x + 24, "railroad can start this section from its railhead")
    at = max(x + 440, end)
    _dashed_outline(draw, (at, y + 8), (at + 30, y + 8), kit.INK)
    label(at + 40, "space reserved for the railroad building it")
    y += 26
    _tag(draw, (x + 22, y + 8), "SF1", "sf")
    end = label(x + 46, "railhead of line 1")
    at = max(x + 210, end)
    _terrain_mark(draw, (at, y + 8), "river")
    end = label(at + 12, "river")
    at = max(x + 280, end)
    _terrain_mark(draw, (at, y + 8), "mountain")
    end = label(at + 12, "mountain")
    at = max(x + 380, end)
    draw.rectangle((at, y, at + 16, y + 16), outline=kit.HIGHLIGHT, width=3)
    end = label(at + 24, "last tile")
    at = max(x + 490, end)
    draw.rectangle((at, y + 1, at + 14, y + 15), outline=kit.INK, width=3)
    end = label(at + 22, "bonus city")
    at = max(x + 610, end)
    draw.rectangle((at, y + 1, at + 14, y + 15), fill=kit.INK)
    label(at + 22, "start city")
    y += 26
    kit.text(
        draw,
        (x, y),
        "Stand-in map: our own board. Under a city: a pip per railroad that reaches it; x2 = two railroads.",
        15,
        kit.MUTED,
    )


def board(view: dict[str, Any], names: list[str]) -> bytes:
    """The public image (from view(None))."""
    image = kit.static_layer("santa_fe/map", _static)
    _board_layer(image, view)
    _strip(image, view, names)
    _panel(image, view, names)
    return kit.encode(image)


# --------------------------------------------------------------------------- alt text


def describe(view: dict[str, Any], names: list[str]) -> str:
    """Alt text for the public board: the step, whose turn, scores, track tiles left, the last event.

    The bot translates alt text as one line (render.describe joins lines), so the sentences are always
    the same five in the same order: one JA pattern takes the line apart and each value is translated
    on its own (the step by its own entries, the last event by the engine's catalog).
    """
    if view["over"]:
        status = f"game over after round {view['round']}"
    elif view["round"] == 0:
        status = "before round 1: engineer step"
    else:
        status = f"round {view['round']}: {view['phase_name']}"
    to_act = ", ".join(_name(names, s) for s in view["to_act"]) or "nobody"
    scores = ", ".join(f"{_name(names, entry['seat'])} {entry['score']}" for entry in view["seats"])
    tiles = ", ".join(f"{rr.upper()} {view['supply'][rr]}" for rr in RAILROADS)
    last = name_seats(view["log"][-1], names) if view["log"] else "none"
    return f"Santa Fe, {status}. To act: {to_act}. Scores: {scores}. Track tiles left: {tiles}. Last: {last}"


# --------------------------------------------------------------------------- private view


def hand(view: dict[str, Any], names: list[str]) -> bytes:
    """The seat's private image: its city cards with their current worth, its choice and exchanges."""
    seat = view["seat"]
    me = view["seats"][seat] if seat is not None else None
    cards = view.get("hand", [])
    height = 560
    image = kit.new_canvas(1200, height, kit.WHITE)
    draw = ImageDraw.Draw(image)
    who = _name(names, seat) if seat is not None else kit.tr("spectator")
    title = kit.fit(f"Santa Fe - {who}", 28, 630, bold=True, translate=False)
    kit.draw_seat_token(draw, seat or 0, (30, 32), 34)
    kit.text(draw, (56, 16), title, 28, kit.INK, bold=True, translate=False)
    status = kit.tr(
        f"Round {view['round']}: {view['phase_name']}" if view["round"] else "Before round 1: engineer step"
    )
    if seat is not None and seat in view["to_act"]:
        status += "  -  " + kit.tr("your move")
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
            template = "{n} double-turn cards" if me["hand_dt"] > 1 else "{n} double-turn card"
            extras.append(kit.fill_in(template, n=me["hand_dt"]))
        if me["hand_branch"]:
            extras.append(kit.fill_in("branch card {rr} (must be played)", rr=me["hand_branch"].upper()))
        if me["engineer"]:
            extras.append(kit.tr("engineer"))
        other = kit.join(extras) if extras else kit.tr("no other cards")
        kit.text(draw, (700, 52), kit.fit(other, 17, 490, translate=False), 17, kit.INK, translate=False)
    kit.text(draw, (20, 96), "City cards in hand (value x railroads now = points)", 19, kit.INK, bold=True)
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
        kit.text(draw, (20, y), "none", 18, kit.MUTED)
    y = 300
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
        line = kit.fit(kit.fill_in("Played: {cards}", cards=played), 17, width, translate=False)
        kit.text(draw, (20, y), line, 17, kit.INK, translate=False)
        y += 28
    history = view.get("exchange_history", [])
    if history:
        kit.text(draw, (20, y), "Exchanges:", 17, kit.INK, bold=True)
        y += 24
        for item in history[-4:]:
            out = ", ".join(BOARD.name(c) for c in item["out"])
            got = ", ".join(BOARD.name(c) for c in item["in"])
            line = kit.fill_in("round {round}: gave {out}; drew {drawn}", round=item["round"], out=out, drawn=got)
            kit.text(draw, (34, y), kit.fit(line, 16, width - 14, translate=False), 16, kit.INK, translate=False)
            y += 22
    y = max(y + 8, 420)
    kit.text(draw, (20, y), "Recent", 17, kit.INK, bold=True)
    y += 24
    for text in view["log"][-4:]:
        kit.text(draw, (20, y), kit.fit(kit.say(text, names), 15, width, translate=False), 15, kit.INK, translate=False)
        y += 20
    return kit.encode(image)


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
        kit.text(draw, (x + 10, y + 72), "no railroad yet", 15, kit.MUTED)
    kit.text(
        draw, (x + 10, y + 104), f"{card['value']} x {len(rails)} = {card['points']}", 18, kit.INK, bold=True,
        translate=False,
    )
