"""Great Western Railway images: the public board (map, trains, players) and a seat's build options."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.describe import seat_name
from rules.engine import seat_token
from rules.great_western import board as gw
from rules.great_western import ja as engine_ja

MAP_W = int(gw.CANVAS["width"])
MAP_H = int(gw.CANVAS["height"])
BAND_H = 200  # status strip below the map
WIDTH, HEIGHT = MAP_W, MAP_H + BAND_H
PLAYERS_BOX = (1260, 720, WIDTH, HEIGHT)  # the map's free corner, run down beside the strip
TRAINS_BOX = (0, 0, 620, 240)

CITY_R = 26
LONDON_R = 32
GOLD: kit.RGB = (240, 190, 40)
LINK: kit.RGB = (120, 112, 100)
FREIGHT_CAR: kit.RGB = (214, 208, 196)
PASSENGER_CAR: kit.RGB = (255, 255, 255)
ENGINE: kit.RGB = (52, 58, 70)
BLACK_CUBE: kit.RGB = (15, 15, 15)
GREYED: kit.RGB = (200, 196, 188)
BUILDING: kit.RGB = (214, 140, 0)  # frame of the train that builds now

# Every word the images draw, in Japanese (keys exactly as drawn; seats as {sN} tokens, names put in after).
# The engine's catalog comes too: the hand image shows its refusal reasons ("Not now: ...") and ranks.
JA: dict[str, str] = {
    **engine_ja.JA,
    # the map and its legend
    "Income by cities (London counts)  {ranges}": "都市数ごとの収入（London を含む）  {ranges}",
    "Stand-in map of our own design. Cars: P passenger (pays people and routes), F freight (routes only).":
        "独自デザインの代用マップ。車両：客 = 客車（人口と路線に払える）、貨 = 貨車（路線のみ）。",
    "1p": "1人",
    "2p": "2人",
    "3p": "3人",
    # the trains
    "P": "客",
    "F": "貨",
    "not in play": "使用しない",
    "bid": "入札",
    # the players
    "Players (gold)": "プレイヤー（金貨）",
    "(start)": "（最初）",
    "{a} available, {u} unavailable": "利用可能 {a}・利用不可能 {u}",
    "{n} city > income {m}": "都市 {n} > 収入 {m}",
    "{n} cities > income {m}": "都市 {n} > 収入 {m}",
    # the status line
    "Round {r} - auction: {who} to bid": "ラウンド {r} - 競売：{who} の入札",
    "Round {r} of at most {limit} - auction: {who} to bid": "ラウンド {r}（最大 {limit}）- 競売：{who} の入札",
    "Round {r} - build: {who} builds": "ラウンド {r} - 建設：{who} が建設",
    "Round {r} of at most {limit} - build: {who} builds": "ラウンド {r}（最大 {limit}）- 建設：{who} が建設",
    "Round {r} - build: {who} builds with t{t} (P{p} F{f})":
        "ラウンド {r} - 建設：{who} が t{t} で建設（客車 {p}・貨車 {f}）",
    "Round {r} of at most {limit} - build: {who} builds with t{t} (P{p} F{f})":
        "ラウンド {r}（最大 {limit}）- 建設：{who} が t{t} で建設（客車 {p}・貨車 {f}）",
    "Game over ({how}): {who} wins": "ゲーム終了（{how}）：{who} の勝ち",
    "Game over ({how}): {a} and {b} share the win": "ゲーム終了（{how}）：{a} と {b} が同点で勝ち",
    "Game over ({how}): {a} and {b} and {c} share the win": "ゲーム終了（{how}）：{a}、{b}、{c} が同点で勝ち",
    "Game over ({how}): {a} and {b} and {c} and {d} share the win":
        "ゲーム終了（{how}）：{a}、{b}、{c}、{d} が同点で勝ち",
    "every city connected": "全都市が接続",
    # the last decision
    "Last: nothing yet. The first bid starts the game.": "直前：まだなし。最初の入札でゲームが始まります。",
    "Last: {who} connected {city} from {start}": "直前：{who} が {start} から {city} に接続",
    "Last: {who} connected {city} from {start} via {via}": "直前：{who} が {start} から {via} 経由で {city} に接続",
    "Last: {who} bid {n} on {train}": "直前：{who} が {train} に {n} 個で入札",
    "Last: {who} finished building": "直前：{who} が建設を終えた",
    # the strip under the map
    "{who} can connect (route cost + people): {items}": "{who} が接続できる都市（路線コスト+人口p）：{items}",
    "{who} cannot afford any city.": "{who} は払える都市がありません。",
    "Lowest bids now: {lows}. Outbid cubes go back to their owner; trains build in rank order "
    "(the cube nearest the engine first).":
        "現在の最低入札：{lows}。上回られたキューブは持ち主に戻ります。列車は順位の順に建設します"
        "（機関車に最も近いキューブの列車から）。",
    "{rank} {who}: {score} gold ({cubes} cubes off the board) = {cities}":
        "{rank} {who}：金貨 {score}（ボード外のキューブ {cubes}）= {cities}",
    "no city": "都市なし",
    "Ties: most gold, then most cubes off the board (fewer cities).":
        "同点なら金貨、次にボード外のキューブが多い方（都市が少ない方）。",
    # the alt text (describe): one line, its parts through their own entries
    "Great Western Railway, round {r}: {stage}. Gold: {gold}. Cities (besides London): {cities}. {last}.":
        "グレート・ウェスタン鉄道、ラウンド {r}：{stage}。金貨：{gold}。都市数（London を除く）：{cities}。{last}。",
    "Last: nothing yet": "直前：まだなし",
    "game over ({how}), won by {who}": "ゲーム終了（{how}）、勝者 {who}",
    "auction, {who} to bid": "競売、{who} の入札",
    "build, {who} builds": "建設、{who} が建設",
    "build, {who} builds with t{t}": "建設、{who} が t{t} で建設",
    "nobody": "なし",
    # the hand image
    "{who}: your railway": "{who}：あなたの鉄道",
    "{a} available, {u} unavailable, {c} cities (income {i}), gold {g}":
        "利用可能 {a}・利用不可能 {u}・都市 {c}（収入 {i}）・金貨 {g}",
    "Nothing to build right now.": "今は建設するものはありません。",
    "You won t{t}: P{p} F{f}. Wait for your build turn.": "t{t} を落札（客車 {p}・貨車 {f}）。建設の番を待ってください。",
    "Your train t{t}: passengers {p}, freight {f}. Type `connect <city>` or `done`.":
        "あなたの列車 t{t}：客車 {p}、貨車 {f}。`connect <city>` か `done` を入力してください。",
    "City": "都市",
    "Gold": "金貨",
    "People": "人口",
    "Links": "路線",
    "Fees": "通過料",
    "Pays with": "支払い",
    "Route": "経路",
    # how a connection would be paid: each combination whole ("2 P, 1 F, 3 avail")
    "{p} P": "客車 {p}",
    "{p} P, {f} F": "客車 {p}・貨車 {f}",
    "{p} P, {a} avail": "客車 {p}・利用可能 {a}",
    "{p} P, {f} F, {a} avail": "客車 {p}・貨車 {f}・利用可能 {a}",
    "Not now: {reason}": "今は不可：{reason}",
    "No city is affordable: `done` ends your build.": "払える都市がありません。`done` で建設を終えます。",
}

# London sits near the right edge: its name goes above it, or it would run off the image.
LABEL_SIDE = {"london": "n"}
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


def _who(seat: int | None) -> str:
    """A seat in a composed line: a token that the line's translation keeps and `kit.say` swaps for the name."""
    return "?" if seat is None else seat_token(int(seat))


def _city_name(city: str) -> str:
    return gw.CITIES[city].name if city in gw.CITIES else city


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


# --------------------------------------------------------------------------- the map that never changes


def _link_middle(link: gw.Link) -> tuple[float, float]:
    a, b = gw.CITIES[link.a], gw.CITIES[link.b]
    return (a.x + b.x) / 2, (a.y + b.y) / 2


def _draw_cost(draw: ImageDraw.ImageDraw, link: gw.Link, outline: kit.RGB = kit.INK) -> None:
    x, y = _link_middle(link)
    draw.rectangle((x - 13, y - 13, x + 13, y + 13), fill=kit.WHITE, outline=outline, width=2)
    kit.text(draw, (x, y), str(link.cost), 18, kit.INK, bold=True, anchor="mm")


def _static(seats: int) -> Image.Image:
    """Everything that depends only on the seat count: map, empty cities, train cars, legend lines."""
    image = kit.new_canvas(WIDTH, HEIGHT)
    draw = ImageDraw.Draw(image)
    for link in gw.LINKS:
        a, b = gw.CITIES[link.a], gw.CITIES[link.b]
        draw.line([(a.x, a.y), (b.x, b.y)], fill=LINK, width=6)
    for link in gw.LINKS:
        _draw_cost(draw, link)
    for city in gw.CITIES.values():
        side = LABEL_SIDE.get(city.id, city.label)
        (dx, dy), anchor = _LABEL_ANCHOR.get(side, ((0, 1), "ma"))
        radius = (LONDON_R if city.id == gw.LONDON else CITY_R) + 12
        kit.text(
            draw, (city.x + dx * radius, city.y + dy * radius), city.name, 19, kit.INK, bold=True,
            halo=kit.PAPER, anchor=anchor, translate=False,
        )  # fmt: skip
        _draw_city(image, draw, city, None, seats)
    _draw_train_skeleton(draw, seats)
    # The status strip, its frame and the lines that never change.
    draw.rectangle((0, MAP_H, PLAYERS_BOX[0], HEIGHT), fill=kit.PANEL_BG)
    draw.line([(0, MAP_H), (PLAYERS_BOX[0], MAP_H)], fill=kit.GRID, width=2)
    x, y = 18, HEIGHT - 52
    income = " | ".join(f"{a}-{b}: {v}" if a != b else f"{a}: {v}" for a, b, v in _income_ranges())
    kit.text(draw, (x, y), f"Income by cities (London counts)  {income}", 15, kit.INK)  # one pattern in JA
    kit.text(draw, (x, y + 22), "Stand-in map of our own design. Cars: P passenger (pays people and routes), "
             "F freight (routes only).", 15, kit.MUTED)  # fmt: skip
    return image


# --------------------------------------------------------------------------- cities


def _gold_disc(draw: ImageDraw.ImageDraw, x: float, y: float, gold: int, r: int = 12) -> None:
    draw.ellipse((x - r, y - r, x + r, y + r), fill=GOLD, outline=kit.INK, width=2)
    kit.text(draw, (x, y), str(gold), 16, kit.INK, bold=True, anchor="mm")


_sprites: dict[tuple[Any, ...], Image.Image] = {}


def _stamp(
    image: Image.Image,
    key: tuple[Any, ...],
    box: int,
    painter: Callable[[ImageDraw.ImageDraw, tuple[float, float]], None],
    centre: tuple[float, float],
) -> None:
    """Paste a small drawing made once per process: text rendering is the slow part of a board."""
    sprite = _sprites.get(key)
    if sprite is None:
        sprite = Image.new("RGBA", (box, box), (0, 0, 0, 0))
        painter(ImageDraw.Draw(sprite), (box / 2, box / 2))
        _sprites[key] = sprite
    image.paste(sprite, (round(centre[0] - box / 2), round(centre[1] - box / 2)), sprite)


def _token(image: Image.Image, seat: int, centre: tuple[float, float], size: int) -> None:
    _stamp(
        image, ("token", seat, size), size + 8,
        lambda d, c: kit.draw_seat_token(d, seat, c, size), centre,
    )  # fmt: skip


def _owned_city(draw: ImageDraw.ImageDraw, centre: tuple[float, float], seat: int, gold: int) -> None:
    x, y = centre
    kit.draw_symbol(draw, kit.seat_symbol(seat), (x, y), 58, kit.seat_colour(seat), kit.INK, 3)
    _gold_disc(draw, x, y + (5 if kit.seat_symbol(seat) == "triangle" else 0), gold, 12)


def _die(draw: ImageDraw.ImageDraw, centre: tuple[float, float], value: int) -> None:
    x, y = centre
    draw.rectangle((x - 9, y - 10, x + 9, y + 10), fill=kit.WHITE, outline=kit.INK, width=1)
    kit.text(draw, (x, y), str(value), 14, kit.INK if value > 1 else kit.MUTED, bold=True, anchor="mm")


def _draw_city(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    city: gw.City,
    owner: int | None,
    seats: int,
    highlighted: frozenset[frozenset[str]] = frozenset(),
) -> None:
    x, y = city.x, city.y
    if city.id == gw.LONDON:
        r = LONDON_R
        draw.ellipse((x - r, y - r, x + r, y + r), fill=kit.WHITE, outline=kit.INK, width=3)
        spots = [(-11, -11), (11, -11), (-11, 11), (11, 11)]
        for seat in range(min(seats, 4)):
            dx, dy = spots[seat]
            _token(image, seat, (x + dx, y + dy), 21)
        return
    if owner is None:
        r = CITY_R
        draw.ellipse((x - r, y - r, x + r, y + r), fill=kit.WHITE, outline=kit.INK, width=3)
        _gold_disc(draw, x, y - 7, city.gold, 11)
        kit.text(draw, (x, y + 14), f"{city.people}p", 14, kit.INK, bold=True, anchor="mm")  # "2p": JA has each
        return
    # An owned city becomes the owner's symbol in its colour (shape + colour), gold still in the middle.
    r = CITY_R + 2
    draw.ellipse((x - r, y - r, x + r, y + r), fill=kit.PAPER)
    for there, _cost in gw.NEIGHBOURS[city.id]:
        # Put back the link ends the erased disc took, or a small symbol would float apart from its lines.
        other = gw.CITIES[there]
        length = ((other.x - x) ** 2 + (other.y - y) ** 2) ** 0.5
        reach = (r + 2) / length
        colour = kit.HIGHLIGHT if frozenset((city.id, there)) in highlighted else LINK
        draw.line([(x, y), (x + (other.x - x) * reach, y + (other.y - y) * reach)], fill=colour,
                  width=14 if colour == kit.HIGHLIGHT else 6)  # fmt: skip
    _stamp(image, ("city", owner, city.gold), 72, lambda d, c: _owned_city(d, c, owner, city.gold), (x, y))


def _draw_highlight(draw: ImageDraw.ImageDraw, last: Mapping[str, Any] | None) -> list[gw.Link]:
    """The last connection's route in the highlight colour; returns the links to redraw costs on."""
    if not last or len(last.get("route") or []) < 2:
        return []
    route = [c for c in last["route"] if c in gw.CITIES]
    links = []
    for a, b in zip(route, route[1:], strict=False):
        ca, cb = gw.CITIES[a], gw.CITIES[b]
        draw.line([(ca.x, ca.y), (cb.x, cb.y)], fill=kit.HIGHLIGHT, width=14)
        links.extend(link for link in gw.LINKS if {link.a, link.b} == {a, b})
    end = gw.CITIES[route[-1]]
    r = CITY_R + 8
    draw.ellipse((end.x - r, end.y - r, end.x + r, end.y + r), outline=kit.HIGHLIGHT, width=6)
    return links


# --------------------------------------------------------------------------- trains panel


def _cube(draw: ImageDraw.ImageDraw, colour: Any, centre: tuple[float, float], size: int = 17) -> None:
    x, y = centre
    if colour == "black" or colour is None:
        h = size / 2 - 1
        draw.rectangle((x - h, y - h, x + h, y + h), fill=BLACK_CUBE, outline=kit.WHITE, width=1)
    else:
        kit.draw_symbol(
            draw, kit.seat_symbol(int(colour)), centre, size + 2, kit.seat_colour(int(colour)), kit.INK, 2
        )


ROW_H = 58


def _row_top(index: int) -> int:
    return TRAINS_BOX[1] + 3 + index * ROW_H


def _draw_train_skeleton(draw: ImageDraw.ImageDraw, seats: int) -> None:
    """The trains panel without bids, ranks, cubes or dice; trains not in play greyed out."""
    x0, y0, x1, y1 = TRAINS_BOX
    draw.rectangle((x0, y0, x1, y1), fill=kit.PANEL_BG)
    draw.line([(x0, y1), (x1, y1)], fill=kit.GRID, width=2)
    draw.line([(x1, y0), (x1, y1)], fill=kit.GRID, width=2)
    for index, train in enumerate(gw.TRAINS):
        top = _row_top(index)
        bottom = top + ROW_H - 6
        mid = (top + bottom) / 2
        live = train.id <= seats
        box = (6, top, 74, bottom)
        draw.rectangle(
            box, fill=kit.WHITE if live else GREYED, outline=kit.INK if live else kit.GRID, width=2
        )
        engine = (80, top, 164, bottom)
        draw.rounded_rectangle(engine, 8, fill=ENGINE if live else GREYED)
        text_fill = kit.WHITE if live else kit.MUTED
        kit.text(draw, (engine[0] + 8, top + 4), f"t{train.id}", 18, text_fill, bold=True, translate=False)
        if not live:
            kit.text(draw, (engine[0] + 8, bottom - 4), kit.fit("not in play", 14, 76), 14, text_fill, anchor="ld",
                     translate=False)
        for position, car in enumerate(train.cars):
            cx0 = 170 + position * 77
            fill = (PASSENGER_CAR if car.passenger else FREIGHT_CAR) if live else GREYED
            draw.rectangle(
                (cx0, top + 4, cx0 + 72, bottom), fill=fill, outline=kit.INK if live else kit.GRID, width=2
            )
            ink = kit.INK if live else kit.MUTED
            kit.text(draw, (cx0 + 6, top + 7), str(car.number), 17, ink, bold=True)
            kit.text(draw, (cx0 + 66, top + 7), car.letter, 15, ink, bold=not car.passenger, anchor="ra")
        if live:
            for n in range(3):
                dx0 = 558 + n * 20
                draw.rectangle((dx0, mid - 10, dx0 + 18, mid + 10), fill=kit.WHITE, outline=kit.INK, width=1)


def _draw_trains(image: Image.Image, draw: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
    """Bids, build ranks, cubes and dice on the skeleton; the building train framed."""
    last = view.get("last") or {}
    last_bid_train = None
    if str(last.get("move", "")).startswith("bid") and view.get("phase") == "auction":
        last_bid_train = int(str(last["move"]).split()[1][1:])
    for index, train in enumerate(view.get("trains", [])):
        if not train.get("in_play"):
            continue
        top = _row_top(index)
        bottom = top + ROW_H - 6
        mid = (top + bottom) / 2
        if train.get("building"):
            draw.rounded_rectangle((2, top - 3, TRAINS_BOX[2] - 3, bottom + 3), 6, outline=BUILDING, width=4)
        # Bid box: the bidder's token and amount during the auction, the price paid afterwards.
        bid = train.get("bid")
        seat, amount = None, None
        if bid:
            seat, amount = int(bid["seat"]), int(bid["amount"])
        elif train.get("owner") is not None:
            seat, amount = int(train["owner"]), int(train.get("paid", 0))
        if seat is not None:
            _token(image, seat, (23, mid), 26)
            kit.text(draw, (68, mid), str(amount), 22, kit.INK, bold=True, anchor="rm")
        else:
            kit.text(draw, (40, mid), "bid", 15, kit.MUTED, anchor="mm")
        if last_bid_train == train["id"]:
            draw.rectangle((3, top - 3, 77, bottom + 3), outline=kit.HIGHLIGHT, width=4)
        if train.get("build_rank"):
            kit.text(
                draw,
                (156, bottom - 4),
                _ordinal(int(train["build_rank"])),
                18,
                kit.WHITE,
                bold=True,
                anchor="rd",
            )
        for position, car in enumerate(train.get("cars", [])):
            for n in range(int(car.get("cubes", 0))):
                _cube(draw, car.get("colour"), (170 + position * 77 + 14 + n * 22, bottom - 13))
        for n, die in enumerate(train.get("dice") or []):
            _stamp(image, ("die", die), 24, lambda d, c, die=die: _die(d, c, die), (558 + n * 20 + 9, mid))


# --------------------------------------------------------------------------- players panel and strip


def _draw_players(image: Image.Image, view: Mapping[str, Any], names: list[str]) -> None:
    panel = kit.Panel(image, PLAYERS_BOX)
    draw = panel.draw
    draw.line([(PLAYERS_BOX[0], PLAYERS_BOX[1]), (WIDTH, PLAYERS_BOX[1])], fill=kit.GRID, width=2)
    panel.title("Players (gold)", 22)
    to_act = set(view.get("to_act") or [])
    ranks = {}
    result = view.get("result")
    if result:
        ranks = {int(s["seat"]): int(s["rank"]) for s in result.get("seats", [])}
    # The row's room for the name, as Panel.player_row measures it (token, gaps, score column).
    room = panel.width - 16 - 26 - (kit.text_size("888", 20, True)[0] + 12)
    for entry in view.get("seats", []):
        seat = int(entry["seat"])
        name = _name(names, seat)
        # The rank and the start mark are words of the image, the name is not: each is fitted on its own,
        # so that a long name gives way and the mark stays whole.
        if seat in ranks:
            name = kit.fit_name(kit.tr(_ordinal(ranks[seat])) + " {who}", name, 20, room, True, translate=False)
        elif seat == view.get("start_player") and not view.get("over"):
            mark = kit.tr("(start)")  # Japanese brackets bring their own space
            name = kit.fit_name("{who}" + (mark if mark.startswith("（") else " " + mark), name, 20, room, True,
                                translate=False)
        panel.player_row(seat, name, score=entry["gold"], to_act=seat in to_act, size=20)
        cities = int(entry["city_count"])
        panel.line(
            f"{entry['available']} available, {entry['unavailable']} unavailable", 15, kit.INK, indent=36
        )
        panel.line(
            f"{cities} {'city' if cities == 1 else 'cities'} > income {entry['next_income']}", 15, kit.MUTED,
            indent=36,
        )  # fmt: skip
        panel.gap(4)


def _status(view: Mapping[str, Any], names: list[str]) -> str:
    """The status line, translated, with the players' names in."""
    phase = view.get("phase")
    limit = int(view.get("round_limit") or 0)
    round_text = f"Round {view.get('round')}" + (f" of at most {limit}" if limit else "")
    if phase == "over" or view.get("over"):
        result = view.get("result") or {}
        winners = [s for s in result.get("seats", []) if s.get("rank") == 1]
        who = " and ".join(_who(int(s["seat"])) for s in winners) or "nobody"
        how = "every city connected" if result.get("ended_by") == "all cities connected" else "round limit"
        return kit.say(f"Game over ({how}): {who} {'wins' if len(winners) == 1 else 'share the win'}", names)
    if phase == "auction":
        return kit.say(f"{round_text} - auction: {_who(view.get('bidder'))} to bid", names)
    train = next((t for t in view.get("trains", []) if t.get("building")), None)
    load = f" with t{train['id']} (P{train['passengers']} F{train['freight']})" if train else ""
    return kit.say(f"{round_text} - build: {_who(view.get('builder'))} builds{load}", names)


def _last_text(view: Mapping[str, Any], names: list[str]) -> str:
    """What the last decision did, translated, with the names in."""
    last = view.get("last")
    if not last:
        return kit.say("Last: nothing yet. The first bid starts the game.", names)
    who = _who(int(last["seat"]))
    move = str(last.get("move", ""))
    if move.startswith("connect") and last.get("route"):
        route = [_city_name(c) for c in last["route"]]
        return kit.say(f"Last: {who} connected {route[-1]} from {route[0]}" + (
            f" via {', '.join(route[1:-1])}" if len(route) > 2 else ""
        ), names)  # fmt: skip
    if move.startswith("bid"):
        _, train, amount = move.split()
        return kit.say(f"Last: {who} bid {amount} on {train}", names)
    return kit.say(f"Last: {who} finished building", names)


def _draw_strip(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], names: list[str]) -> None:
    x, y = 18, MAP_H + 12
    right = PLAYERS_BOX[0] - 16
    kit.text(draw, (x, y), kit.fit(_status(view, names), 24, right - x, True, translate=False), 24, kit.INK,
             bold=True, translate=False)  # fmt: skip
    y += 34
    result = view.get("result")
    if result:
        # The income legend no longer matters: the whole strip goes to the score breakdown.
        draw.rectangle((0, y - 2, PLAYERS_BOX[0] - 1, HEIGHT), fill=kit.PANEL_BG)
        entries = result.get("seats", [])
        lines_each = 2 if len(entries) <= 3 else 1
        for entry in entries:
            details = entry.get("details") or {}
            cities = " + ".join(f"{_city_name(c)} {g}" for c, g in details.get("cities", [])) or "no city"
            line = kit.say(
                f"{_ordinal(int(entry['rank']))} {_who(int(entry['seat']))}: {entry['score']} gold "
                f"({details.get('cubes_off_board', '?')} cubes off the board) = {cities}", names,
            )  # fmt: skip
            y = _wrapped(draw, (x, y), line, 16, right - x, max_lines=lines_each)
        line = kit.fit("Ties: most gold, then most cubes off the board (fewer cities).", 15, right - x)
        kit.text(draw, (x, y + 2), line, 15, kit.MUTED, translate=False)
        return
    kit.text(
        draw, (x, y), kit.fit(_last_text(view, names), 18, right - x, True, translate=False), 18,
        kit.HIGHLIGHT if view.get("last") else kit.MUTED, bold=True, translate=False,
    )  # fmt: skip
    y += 30
    options = view.get("connect_options") or []
    if view.get("phase") == "build" and view.get("builder") is not None:
        if options:
            items = ", ".join(f"{_city_name(o['city'])} {o['route_cost']}+{o['people']}p" for o in options)
            line = f"{_who(view['builder'])} can connect (route cost + people): {items}"
        else:
            line = f"{_who(view['builder'])} cannot afford any city."
        y = _wrapped(draw, (x, y), kit.say(line, names), 16, right - x, max_lines=2)
    elif view.get("phase") == "auction":
        lowest = []
        for train in view.get("trains", []):
            if train.get("in_play"):
                bid = train.get("bid")
                lowest.append(f"t{train['id']} {1 if bid is None else int(bid['amount']) + 1}")
        line = (
            f"Lowest bids now: {', '.join(lowest)}. Outbid cubes go back to their owner; "
            "trains build in rank order (the cube nearest the engine first)."
        )
        y = _wrapped(draw, (x, y), kit.tr(line), 16, right - x, max_lines=2)


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


# --------------------------------------------------------------------------- fast encoding


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """A fixed 256-colour palette: every flat colour of the board plus anti-aliasing ramps between them.

    Mapping to a known palette is several times faster than an adaptive quantizer on a 1600x1200
    image, and this board uses few flat colours, so text edges and lines look the same.
    """
    seats = [kit.seat_colour(s) for s in range(4)]
    flats = [kit.INK, kit.MUTED, kit.WHITE, kit.PAPER, kit.GRID, kit.HIGHLIGHT, LINK, GOLD, FREIGHT_CAR,
             GREYED, ENGINE, BLACK_CUBE, BUILDING, kit.TO_ACT_BG, *seats]  # fmt: skip
    pairs = [(kit.INK, bg) for bg in (kit.PAPER, kit.WHITE, GOLD, FREIGHT_CAR, GREYED, kit.TO_ACT_BG, LINK)]
    pairs += [(kit.INK, c) for c in seats] + [(kit.WHITE, c) for c in seats] + [(kit.PAPER, c) for c in seats]
    pairs += [
        (kit.MUTED, kit.WHITE), (kit.MUTED, GREYED), (kit.WHITE, ENGINE), (kit.HIGHLIGHT, kit.PAPER),
        (kit.HIGHLIGHT, kit.WHITE), (kit.HIGHLIGHT, LINK), (kit.HIGHLIGHT, kit.INK), (LINK, kit.PAPER),
        (kit.GRID, kit.WHITE), (BUILDING, kit.WHITE), (kit.WHITE, BLACK_CUBE), (kit.PAPER, kit.WHITE),
    ]  # fmt: skip
    colours = list(dict.fromkeys(flats))
    steps = max(1, (256 - len(colours)) // len(pairs))
    for a, b in pairs:
        for step in range(1, steps + 1):
            colours.append(kit.blend(a, b, step / (steps + 1)))
    colours = list(dict.fromkeys(colours))[:256]
    colours += [colours[0]] * (256 - len(colours))
    image = Image.new("P", (1, 1))
    image.putpalette([channel for colour in colours for channel in colour])
    return image


def _encode(image: Image.Image) -> bytes:
    return kit.encode(image.quantize(palette=_palette(), dither=Image.Dither.NONE))


# --------------------------------------------------------------------------- entry points


def _render(view: Mapping[str, Any], names: list[str]) -> Image.Image:
    seats = int(view.get("num_seats") or len(view.get("seats", [])))
    image = kit.static_layer(f"great_western/map/{seats}", lambda: _static(seats))
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
    _draw_trains(image, draw, view)
    _draw_players(image, view, names)
    _draw_strip(draw, view, names)
    return image


def board(view: dict[str, Any], names: list[str]) -> bytes:
    """The public image: map with owners, trains with loads and bids, players, status and last action."""
    return _encode(_render(view, names))


def describe(view: dict[str, Any], names: list[str]) -> str:
    """Alt text for the public board: round and stage, gold and cities per player, the last decision.

    One line of fixed shape, so that the bot's catalog translates it whole (the JA pattern
    "Great Western Railway, round {r}: ...") and each variable part through its own entry.
    """
    seats = sorted(view.get("seats", []), key=lambda entry: int(entry["seat"]))
    gold = ", ".join(f"{_name(names, int(e['seat']))} {e['gold']}" for e in seats) or "nobody"
    cities = ", ".join(f"{_name(names, int(e['seat']))} {int(e['city_count']) - 1}" for e in seats) or "nobody"
    if view.get("over"):
        result = view.get("result") or {}
        how = "every city connected" if result.get("ended_by") == "all cities connected" else "round limit"
        winners = ", ".join(_name(names, int(s["seat"])) for s in result.get("seats", []) if s.get("rank") == 1)
        stage = f"game over ({how}), won by {winners or 'nobody'}"
    elif view.get("phase") == "auction":
        stage = f"auction, {_name(names, view.get('bidder'))} to bid"
    else:
        train = next((t for t in view.get("trains", []) if t.get("building")), None)
        stage = f"build, {_name(names, view.get('builder'))} builds" + (f" with t{train['id']}" if train else "")
    # English here: no image language is set while describing
    last = _last_text(view, names) if view.get("last") else "Last: nothing yet"
    return (f"Great Western Railway, round {view.get('round', 1)}: {stage}. Gold: {gold}. "
            f"Cities (besides London): {cities}. {last}.")  # fmt: skip


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
    kit.text(
        draw, (76, 62),
        f"{me.get('available', 0)} available, {me.get('unavailable', 0)} unavailable, "
        f"{me.get('city_count', 1)} cities (income {me.get('next_income', 0)}), gold {me.get('gold', 0)}",
        18, kit.INK,
    )  # fmt: skip
    kit.text(draw, (24, 100), kit.fit(_status(view, names), 20, 1200 - 48, True, translate=False), 20, kit.INK,
             bold=True, translate=False)  # fmt: skip
    y = 140
    if view.get("builder") != seat or view.get("over"):
        train = next((t for t in view.get("trains", []) if t.get("owner") == seat), None)
        note = "Nothing to build right now."
        if train and view.get("phase") == "build":
            note = f"You won t{train['id']}: P{train['passengers']} F{train['freight']}. Wait for your build turn."
        kit.text(draw, (24, y), note, 18, kit.MUTED)
        return kit.encode(image)
    train = next((t for t in view.get("trains", []) if t.get("owner") == seat and t.get("building")), None)
    if train:
        kit.text(
            draw, (24, y),
            f"Your train t{train['id']}: passengers {train['passengers']}, freight {train['freight']}. "
            "Type `connect <city>` or `done`.", 18, kit.INK,
        )  # fmt: skip
    y += 36
    columns = [(24, "City"), (200, "Gold"), (270, "People"), (360, "Links"), (440, "Fees"), (510, "Pays with"),
               (790, "Route")]  # fmt: skip
    for cx, title in columns:
        kit.text(draw, (cx, y), title, 17, kit.MUTED, bold=True)
    y += 30
    for option in sorted(options, key=lambda o: (-o["gold"], o["route_cost"], o["city"])):
        pay = option["pay"]
        parts = [f"{pay['passengers']} P"] + [f"{pay['freight']} F"] * bool(pay["freight"])
        parts += [f"{pay['available']} avail"] * bool(pay["available"])
        cells = [
            _city_name(option["city"]), str(option["gold"]), str(option["people"]), str(option["links"]),
            str(option["fees"]), kit.tr(", ".join(parts)), " > ".join(_city_name(c) for c in option["route"]),
        ]  # fmt: skip
        for index, ((cx, _), cell) in enumerate(zip(columns, cells, strict=True)):
            # names and numbers as they are; the route runs to the image's edge at most
            limit = (columns[index + 1][0] if index + 1 < len(columns) else 1200) - cx - 8
            kit.text(draw, (cx, y), kit.fit(cell, 17, limit, cx == 24, translate=False), 17, kit.INK,
                     bold=cx == 24, translate=False)  # fmt: skip
        y += 34
    for entry in blocked:
        kit.text(draw, (24, y), kit.fit(kit.tr(f"Not now: {entry['reason']}"), 16, 1200 - 48, translate=False), 16,
                 kit.MUTED, translate=False)  # fmt: skip
        y += 34
    if not options:
        kit.text(draw, (24, y), "No city is affordable: `done` ends your build.", 18, kit.INK)
    return kit.encode(image)
