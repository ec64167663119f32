"""Off the Rails images: the mine board with track, gems, rifts, carts and the last run's paths, plus the panel.

Seats play the clans red, yellow, blue and green, whose colours are printed on the board (mines, start
squares, rifts), so a seat is drawn in its clan colour, always with the kit's seat symbol and the clan
letter as well: colour is never the only cue.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.describe import seat_name
from rules.engine import name_seats, seat_token
from rules.off_the_rails import board as geo
from rules.off_the_rails import ja as engine_ja

CELL = 64
MARGIN = 34  # coordinates around the board
BOARD_PX = MARGIN * 2 + CELL * geo.WIDTH  # 964
PANEL_W = 576
WIDTH, HEIGHT = BOARD_PX + PANEL_W, 1000

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


def _labels_ja() -> dict[str, str]:
    """Image labels that come in families (one per cart, outcome, mission...), as exact entries or
    patterns whose literal text is specific: the bot merges this catalog with every other game's."""
    out: dict[str, str] = {}
    outcomes = {
        "stopped": "停止",
        "delivered": "持ち帰り",
        "derailed": "脱線",
        "fell": "裂け目に転落",
        "collided head-on": "正面衝突",
        "collided rear": "後ろから衝突",
        "collided side": "横から衝突",
    }
    for cart, cart_ja in engine_ja.CART_JA.items():
        for outcome, outcome_ja in outcomes.items():
            out[f"{cart}: {{route}} ({outcome})"] = f"{cart_ja}：{{route}}（{outcome_ja}）"
            out[f"{cart}: {{route}} ({outcome} at {{target}})"] = f"{cart_ja}：{{route}}（{{target}} で{outcome_ja}）"
        out[f"{cart}: reserve; empty"] = f"{cart_ja}：手元"
        out[f"{cart}: lost; empty"] = f"{cart_ja}：失われた"
        out[f"{cart}: on {{square}}, speed {{speed}}; empty"] = f"{cart_ja}：{{square}}、スピード {{speed}}、空"
        out[f"{cart}: on {{square}}, speed {{speed}}; {{load}}"] = f"{cart_ja}：{{square}}、スピード {{speed}}、{{load}}"
    for colour, colour_ja in engine_ja.COLOUR_JA.items():
        out[f"({colour})"] = f"（{colour_ja}）"
    for mission, info in geo.MISSIONS.items():
        out[f"{mission}: {info['condition']}"] = f"{mission}：{engine_ja.MISSION_CONDITION_JA[info['condition']]}"
    for kind, kind_ja in engine_ja.GEM_JA.items():
        out[f"{kind} {geo.GEM_POINTS[kind]}"] = f"{kind_ja} {geo.GEM_POINTS[kind]}"
    return out


# Every word label the images draw, in Japanese. The panel also shows the engine's pending decision
# and its words (gems, colours, card ids), so the engine's catalog comes first.
JA: dict[str, str] = {
    **engine_ja.JA,
    **_labels_ja(),
    "Off the Rails - turn {n}": "オフ・ザ・レールズ - 手番 {n}",
    # the alt text (describe)
    "Off the Rails, turn {turn} ({stage}). Scores: {scores}. {now}.": "オフ・ザ・レールズ、手番 {turn}（{stage}）。得点：{scores}。{now}。",
    "mining": "採掘",
    "collapse card drawn": "崩壊カードが引かれた",
    "chasm open": "鉱山の崩壊中",
    "Stage: mining": "段階：採掘",
    "Stage: chasm open": "段階：鉱山の崩壊中",
    "Stage: collapse! chasm opens at {who}'s turn": "段階：崩壊カード！{who} の手番で崩壊が始まる",
    "Game over: {reason}": "ゲーム終了：{reason}",
    "{who}: action phase, {used} of {total} actions used": "{who}：アクションフェーズ（{total} 回中 {used} 回使用）",
    "carts: {hand} in hand": "トロッコ：手元 {hand}",
    "carts: {hand} in hand, {out} out": "トロッコ：手元 {hand}・盤上 {out}",
    "carts: {hand} in hand, {lost} lost": "トロッコ：手元 {hand}・喪失 {lost}",
    "carts: {hand} in hand, {out} out, {lost} lost": "トロッコ：手元 {hand}・盤上 {out}・喪失 {lost}",
    "missions: {missions}": "ミッション：{missions}",
    "Missions (4 pts each)": "ミッション（各 4 点）",
    "Deck {deck}  Last card {card}  Rift supply {rifts}": "山札 {deck}  最後のカード {card}  裂け目トークン {rifts}",
    "Tiles: straight {straight}, curve {curve}, T {t}, cross {cross}":
        "線路タイル：直線 {straight}、曲線 {curve}、T字 {t}、十字 {cross}",
    "Bag:": "バッグ：",
    "Last run (magenta path)": "前回の移動（マゼンタの線）",
    "Private to {who}": "{who} だけに見える情報",
    "Your split: left {left} | right {right}": "あなたの分け方：左手 {left} | 右手 {right}",
    "W/B cart, arrow = front, box = speed; dark hole = rift": "W/B：白/黒トロッコ　矢印：向き　枠：スピード　黒い穴：裂け目",
}


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
    draw: ImageDraw.ImageDraw, tip: tuple[float, float], edge: str, size: float, fill: kit.RGB
) -> None:
    """A filled triangle pointing out of a square through `edge`, its tip at `tip`."""
    dx, dy = geo.OFFSETS[edge]
    px, py = -dy, dx
    bx, by = tip[0] - dx * size, tip[1] - dy * size
    draw.polygon(
        [tip, (bx + px * size * 0.6, by + py * size * 0.6), (bx - px * size * 0.6, by - py * size * 0.6)],
        fill=fill,
        outline=kit.INK,
    )


def _static() -> Image.Image:
    image = kit.new_canvas(WIDTH, HEIGHT, kit.PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((MARGIN, MARGIN, MARGIN + CELL * 14, MARGIN + CELL * 14), fill=BOARD_BG)
    for i in range(15):
        p = MARGIN + i * CELL
        draw.line([(p, MARGIN), (p, MARGIN + 14 * CELL)], fill=kit.GRID, width=1)
        draw.line([(MARGIN, p), (MARGIN + 14 * CELL, p)], fill=kit.GRID, width=1)
    for i in range(14):
        c = MARGIN + i * CELL + CELL / 2
        for y in (MARGIN / 2, MARGIN * 1.5 + 14 * CELL):
            kit.text(draw, (c, y), geo.COLUMNS[i], 18, kit.INK, bold=True, anchor="mm")
        for x in (MARGIN / 2, MARGIN * 1.5 + 14 * CELL):
            kit.text(draw, (x, c), str(i + 1), 18, kit.INK, bold=True, anchor="mm")
    for square, colour in geo.CENTRES.items():
        x0, y0 = _origin(square)
        draw.rectangle(
            (x0 + 2, y0 + 2, x0 + CELL - 2, y0 + CELL - 2), fill=CLAN[colour], outline=kit.INK, width=2
        )
        kit.text(
            draw,
            (x0 + CELL / 2, y0 + CELL / 2),
            LETTER[colour],
            34,
            kit.contrast_text(CLAN[colour]),
            bold=True,
            anchor="mm",
        )
    for square, (colour, number) in geo.MINE_SQUARE_LABEL.items():
        x0, y0 = _origin(square)
        draw.rectangle((x0 + 1, y0 + 1, x0 + CELL - 1, y0 + CELL - 1), fill=CLAN_TINT[colour])
        kit.text(draw, (x0 + 5, y0 + 3), str(number), 15, kit.INK, bold=True)
    for square, (colour, inward) in geo.START.items():
        x0, y0 = _origin(square)
        draw.rectangle(
            (x0 + 3, y0 + 3, x0 + CELL - 3, y0 + CELL - 3), fill=CLAN[colour], outline=kit.INK, width=2
        )
        kit.text(
            draw,
            (x0 + 14, y0 + 14),
            LETTER[colour],
            17,
            kit.contrast_text(CLAN[colour]),
            bold=True,
            anchor="mm",
        )
        # the printed dead-end track, opening inward
        draw.line([_centre(square), _edge_point(square, inward)], fill=TRACK, width=10)
        _arrow(draw, _edge_point(square, inward, 1), inward, 12, kit.WHITE)
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


def gem_icon(draw: ImageDraw.ImageDraw, kind: str, centre: tuple[float, float], size: float) -> None:
    shape, colour = GEM_STYLE[kind]
    kit.draw_symbol(draw, shape, centre, size, colour, kit.INK, width=1)


def _gem_row(
    draw: ImageDraw.ImageDraw, gems: dict[str, int], x: float, y: float, size: float = 13, text_size: int = 14
) -> float:
    """Gems as icon + count, left to right from (x, y centre); returns the x after the row."""
    for kind in geo.GEM_KINDS:
        n = gems.get(kind, 0)
        if not n:
            continue
        gem_icon(draw, kind, (x + size / 2, y), size)
        x += size + 2
        if n > 1:
            kit.text(
                draw, (x, y), str(n), text_size, kit.INK, bold=True, anchor="lm", halo=kit.WHITE, halo_width=2
            )
            x += kit.text_size(str(n), text_size, True)[0] + 3
        x += 2
    return x


def _cart(draw: ImageDraw.ImageDraw, cart: dict[str, Any], colour: str, seat: int, highlight: bool) -> None:
    cx, cy = _centre(cart["square"])
    cy -= 6
    size = 36
    if highlight:
        draw.ellipse((cx - 24, cy - 24, cx + 24, cy + 24), outline=kit.HIGHLIGHT, width=4)
    # a white disc under the token keeps it apart from track, gems and a start square of its own colour
    draw.ellipse((cx - 22, cy - 22, cx + 22, cy + 22), fill=kit.WHITE, outline=kit.INK, width=1)
    kit.draw_symbol(draw, kit.seat_symbol(seat), (cx, cy), size, CLAN[colour], kit.INK, width=2)
    text_colour = kit.contrast_text(CLAN[colour])
    label_y = cy + (5 if kit.seat_symbol(seat) == "triangle" else 0)
    kit.text(
        draw, (cx, label_y), "W" if cart["name"] == "white" else "B", 17, text_colour, bold=True, anchor="mm"
    )
    # speed in a white box at the top right corner of the square
    x0, y0 = _origin(cart["square"])
    draw.rectangle((x0 + CELL - 19, y0 + 2, x0 + CELL - 2, y0 + 20), fill=kit.WHITE, outline=kit.INK)
    kit.text(draw, (x0 + CELL - 10.5, y0 + 11), str(cart["speed"]), 15, kit.INK, bold=True, anchor="mm")
    load = geo.gem_list(cart["load"])
    if load:
        width = len(load) * 11
        lx = cx - width / 2 + 5.5
        draw.rectangle(
            (cx - width / 2 - 2, y0 + CELL - 15, cx + width / 2 + 2, y0 + CELL - 2), fill=kit.WHITE
        )
        for i, kind in enumerate(load):
            gem_icon(draw, kind, (lx + i * 11, y0 + CELL - 8.5), 10)
    # the front arrow last: which way the cart goes matters most
    if cart["front"]:
        tip = _edge_point(cart["square"], cart["front"], 3)
        tip = (tip[0], tip[1] - 6 if cart["front"] in "ew" else tip[1])
        _arrow(draw, tip, cart["front"], 11, CLAN[colour])


def _square_gems(draw: ImageDraw.ImageDraw, square: str, gems: dict[str, int], cart_here: bool) -> None:
    x0, y0 = _origin(square)
    kinds = [k for k in geo.GEM_KINDS if gems.get(k)]
    # with a cart on the square the gems go up to the left corner, clear of the token
    y = y0 + 12 if cart_here else y0 + CELL - 13
    x = x0 + 4 if not cart_here else x0 + 3
    if cart_here:
        for kind in kinds:
            gem_icon(draw, kind, (x + 7, y + 9), 11)
            if gems[kind] > 1:
                kit.text(
                    draw,
                    (x + 14, y + 9),
                    str(gems[kind]),
                    13,
                    kit.INK,
                    bold=True,
                    anchor="lm",
                    halo=kit.WHITE,
                    halo_width=2,
                )
            y += 13
        return
    draw_row_width = sum(15 + (12 if gems[k] > 1 else 0) for k in kinds)
    x = x0 + max(3, (CELL - draw_row_width) / 2)
    _gem_row(draw, gems, x, y, 13, 14)


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


def _panel(image: Image.Image, view: dict[str, Any], names: list[str], private: bool) -> None:
    panel = kit.Panel(image, (BOARD_PX, 0, WIDTH, HEIGHT))
    draw = panel.draw
    # names inside sentences are shortened first: a long name must not push the words out of the panel
    # (wrapping keeps a Latin word whole)
    short = [kit.fit(n, 18, panel.width * 0.6, bold=True, translate=False) for n in names]
    stage = view["stage"]
    if stage == "collapse" and view["collapse_holder"] is not None:
        stage_text = f"Stage: collapse! chasm opens at {seat_token(view['collapse_holder'])}'s turn"
    elif stage == "chasm":
        stage_text = "Stage: chasm open"
    else:
        stage_text = "Stage: mining"
    panel.title(f"Off the Rails - turn {view['turn']}", 26)
    _line_as_is(panel, kit.say(stage_text, short), 17, bold=stage != "mining")
    if view["over"]:
        panel.line(kit.fit(f"Game over: {view['ended_by']}", 18, panel.width, bold=True), 18, kit.DANGER,
                   bold=True, translate=False)
    else:
        pending = view["pending"]
        if pending:
            _wrapped_as_is(panel, kit.say(pending["text"], short), 18, kit.HIGHLIGHT, bold=True)
        else:
            seat = view["active"]
            used = view["actions_used"]
            _wrapped_as_is(
                panel,
                kit.say(f"{seat_token(seat)}: action phase, {used} of {view['actions_max']} actions used", short),
                18,
                kit.HIGHLIGHT,
                bold=True,
            )
    panel.rule()
    result = view.get("result")
    ranks = {r["seat"]: r["rank"] for r in result["seats"]} if result else {}
    for player in view["players"]:
        seat = player["seat"]
        colour = player["colour"]
        to_act = seat in view["to_act"]
        top = panel.y
        if to_act:
            draw.rectangle((BOARD_PX + 2, top - 2, WIDTH - 2, top + 58), fill=kit.TO_ACT_BG)
            draw.polygon(
                [(panel.x - 12, top + 6), (panel.x - 2, top + 14), (panel.x - 12, top + 22)], fill=kit.INK
            )
        kit.draw_symbol(draw, kit.seat_symbol(seat), (panel.x + 15, top + 14), 28, CLAN[colour], kit.INK, 2)
        kit.text(
            draw,
            (panel.x + 15, top + 14 + (3 if kit.seat_symbol(seat) == "triangle" else 0)),
            LETTER[colour],
            14,
            kit.contrast_text(CLAN[colour]),
            bold=True,
            anchor="mm",
        )
        rank = f"  #{ranks[seat]}" if seat in ranks else ""
        # the name fitted on its own (never translated), then its clan colour in the image's language
        clan = kit.tr(f"({colour})")
        room = panel.width - 130 - kit.text_size(" " + clan, 19, True, translate=False)[0]
        space = "" if clan.startswith("（") else " "  # a full-width bracket brings its own space
        label = kit.fit(names[seat], 19, room, bold=True, translate=False) + space + clan
        kit.text(draw, (panel.x + 36, top + 14), label, 19, kit.INK, bold=to_act, anchor="lm", translate=False)
        kit.text(
            draw,
            (panel.right - panel.pad, top + 14),
            f"{player['score']}{rank}",
            22,
            kit.INK,
            bold=True,
            anchor="rm",
        )
        x = _gem_row(draw, player["stockpile"], panel.x + 36, top + 40, 15, 15)
        # one whole label per case (not pieces), so that each translates as a sentence
        carts = f"carts: {player['reserve']} in hand"
        if player["on_board"] and player["lost"]:
            carts = f"carts: {player['reserve']} in hand, {player['on_board']} out, {player['lost']} lost"
        elif player["on_board"]:
            carts = f"carts: {player['reserve']} in hand, {player['on_board']} out"
        elif player["lost"]:
            carts = f"carts: {player['reserve']} in hand, {player['lost']} lost"
        carts_x = max(x + 8, panel.x + 200)
        carts = kit.fit(carts, 15, panel.right - panel.pad - carts_x)
        kit.text(draw, (carts_x, top + 40), carts, 15, kit.MUTED, anchor="lm", translate=False)
        panel.y = top + 58
        if player["missions"]:
            panel.wrapped("missions: " + ", ".join(player["missions"]), 15, kit.INK, indent=36)
        panel.gap(4)
    panel.rule()
    if view["face_up"]:
        panel.line("Missions (4 pts each)", 17, bold=True)
        for mission in view["face_up"]:
            panel.wrapped(f"{mission}: {geo.MISSIONS[mission]['condition']}", 14, kit.INK, indent=8)
        panel.gap(2)
    rifts = " ".join(f"{LETTER[c]}{n}" for c, n in view["rift_supply"].items())
    supply = view["tile_supply"]
    panel.line(
        f"Deck {view['deck_count']}  Last card {view['last_card'] or '-'}  Rift supply {rifts}",
        15,
    )
    panel.line(
        f"Tiles: straight {supply['straight']}, curve {supply['curve']}, T {supply['t']}, cross {supply['cross']}",
        15,
    )
    bag_y = panel.y + 9
    kit.text(draw, (panel.x, bag_y), "Bag:", 15, kit.INK, anchor="lm")
    _gem_row(draw, view["bag"], panel.x + max(40, kit.text_size("Bag:", 15)[0] + 10), bag_y, 14, 15)
    panel.gap(24)
    if view["last_paths"]:
        moves = []
        for path in view["last_paths"]:
            route = "-".join(path["path"])
            end = f" ({path['outcome']} at {path['target']})" if path["target"] else f" ({path['outcome']})"
            # the player's name stays out of the label that is translated
            moves.append(f"{short[path['seat']]} {kit.tr(path['cart'] + ': ' + route + end)}")
        panel.line("Last run (magenta path)", 16, bold=True)
        for line in moves:
            _wrapped_as_is(panel, line, 15, kit.INK, indent=8)
    if private and view.get("seat") is not None:
        _private_box(panel, view, short)
    # legend at the bottom
    panel.y = max(panel.y + 6, HEIGHT - 64)
    if panel.room() > 20:
        x = panel.x
        for kind in geo.GEM_KINDS:
            gem_icon(draw, kind, (x + 8, panel.y + 10), 15)
            label = f"{kind} {geo.GEM_POINTS[kind]}"
            kit.text(draw, (x + 19, panel.y + 10), label, 15, kit.INK, anchor="lm")
            x += 26 + kit.text_size(label, 15)[0] + 8
        panel.gap(24)
        kit.text(
            draw,
            (panel.x, panel.y + 8),
            kit.fit("W/B cart, arrow = front, box = speed; dark hole = rift", 15, panel.width),
            15,
            kit.MUTED,
            anchor="lm",
            translate=False,
        )


def _private_box(panel: kit.Panel, view: dict[str, Any], names: list[str]) -> None:
    seat = view["seat"]
    panel.rule(kit.HIGHLIGHT)
    _line_as_is(panel, kit.say(f"Private to {seat_token(seat)}", names), 17, kit.HIGHLIGHT, bold=True)
    pending = view["pending"] or {}
    if "left" in pending:
        panel.wrapped(
            f"Your split: left {', '.join(pending['left'])} | right {', '.join(pending['right'])}",
            16,
            kit.INK,
            bold=True,
        )
    for cart in view.get("my_carts", []):
        where = cart["where"] if cart["where"] != "board" else f"on {cart['square']}, speed {cart['speed']}"
        load = ", ".join(geo.gem_list(cart["load"])) or "empty"
        panel.line(f"{cart['name']}: {where}; {load}", 15)


def _draw_board(view: dict[str, Any], names: list[str], private: bool) -> bytes:
    image = kit.static_layer("off_the_rails/board", _static)
    draw = ImageDraw.Draw(image)
    names = _names(view, names)
    carts = [c for c in view["carts"] if c["where"] == "board"]
    cart_squares = {c["square"] for c in carts}
    for square, edges in view["tiles"].items():
        _track(draw, square, edges)
    for square, colour in view["rifts"].items():
        _rift(draw, square, colour)
    _paths(draw, view)
    for square, gems in view["gems"].items():
        _square_gems(draw, square, gems, square in cart_squares)
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
        _cart(draw, cart, colour, cart["seat"], is_moving)
    if pending.get("kind") == "go":
        # the exits to choose from: big arrows just outside the square, each with its letter
        for edge in pending["options"]:
            tip = _edge_point(pending["square"], edge, -26)
            _arrow(draw, tip, edge, 18, kit.HIGHLIGHT)
            lx, ly = _edge_point(pending["square"], edge, -8)
            dx, dy = geo.OFFSETS[edge]
            kit.text(
                draw,
                (lx - dy * 16, ly + dx * 16),
                edge,
                18,
                kit.HIGHLIGHT,
                bold=True,
                anchor="mm",
                halo=kit.WHITE,
            )
    _panel(image, view, names, private)
    return kit.encode(image)


def describe(view: dict[str, Any], names: list[str]) -> str:
    """Alt text for the public board: the turn and stage, each player's score, and what is awaited now.

    One line of fixed shape, so that the bot's catalog translates it whole (the JA pattern
    "Off the Rails, turn {turn} ({stage}). ...") and its last part through the panel's own entries.
    """
    names = _names(view, names)
    stage = {"mining": "mining", "collapse": "collapse card drawn", "chasm": "chasm open"}[view["stage"]]
    scores = ", ".join(f"{names[p['seat']]} {p['score']}" for p in view["players"])
    if view["over"]:
        now = f"Game over: {view['ended_by']}"
    elif view["pending"]:
        now = name_seats(view["pending"]["text"], names)
    else:
        now = f"{names[view['active']]}: action phase, {view['actions_used']} of {view['actions_max']} actions used"
    return f"Off the Rails, turn {view['turn']} ({stage}). Scores: {scores}. {now}."


def board(view: dict[str, Any], names: list[str]) -> bytes:
    """The public image (from view(None))."""
    return _draw_board(view, names, private=False)


def hand(view: dict[str, Any], names: list[str]) -> bytes:
    """A seat's image (from view(seat)): the board plus that seat's private box (its split hands)."""
    return _draw_board(view, names, private=True)
