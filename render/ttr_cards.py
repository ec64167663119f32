"""Ticket to Ride: The Card Game images: the public table (display, yards, stacks, scoring) and a hand."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.describe import seat_name
from rules.engine import name_seats
from rules.ttr_cards.cards import BIG_CITIES, COLOURS, KINDS, LOCO, TICKETS
from rules.ttr_cards.ja import KIND_JA, card_lists, seat_lists, yard_sets

WIDTH = 1400
MARGIN = 20

# Train card fills. Every card also carries its colour's name (and a letter on small chips), so the
# colours never have to be told apart by hue alone.
CARD_FILL: dict[str, kit.RGB] = {
    "black": (45, 45, 45),
    "blue": (30, 100, 200),
    "green": (30, 140, 70),
    "orange": (240, 140, 20),
    "purple": (130, 60, 160),
    "red": (205, 35, 35),
    "white": (250, 250, 250),
    "yellow": (250, 215, 40),
}
LETTER = {c: c[0].upper() for c in COLOURS} | {"black": "K", "blue": "B", LOCO: "L"}
# In Japanese the mark is the colour's own kanji, which needs no legend (orange: 橙, locomotive: 機).
LETTER_JA = {kind: word[0] for kind, word in KIND_JA.items()} | {"orange": "橙"}
RAINBOW = [CARD_FILL[c] for c in ("red", "orange", "yellow", "green", "blue", "purple")]
ORDINAL = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}


def _mark(kind: str) -> str:
    """The short mark on small cards: a letter, or the colour's kanji in a Japanese image."""
    return (LETTER_JA if kit.current_language() == "ja" else LETTER)[kind]


def _last_line(last: dict[str, Any], names: list[str]) -> str:
    """"Last: ..." from the engine's last-action text (seat tokens stay until the words are translated)."""
    return kit.say("Last: " + last["text"], names)


# ---------------------------------------------------------------------------- cards


def _card(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    kind: str,
    label: str | None = None,
    size: int = 16,
    outline: kit.RGB = kit.INK,
    width: int = 2,
) -> None:
    """A train card: colour fill (rainbow stripes for a Locomotive) and a white name plate."""
    x0, y0, x1, y1 = box
    if kind == LOCO:
        stripe = (x1 - x0) / len(RAINBOW)
        for i, fill in enumerate(RAINBOW):
            draw.rectangle((x0 + i * stripe, y0, x0 + (i + 1) * stripe, y1), fill=fill)
        draw.rectangle(box, outline=outline, width=width)
    else:
        draw.rounded_rectangle(box, radius=6, fill=CARD_FILL[kind], outline=outline, width=width)
    text = label if label is not None else kind
    if text:
        tw, th = kit.text_size(text, size)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        pad = 4
        draw.rectangle(
            (cx - tw / 2 - pad, cy - th / 2 - pad - 2, cx + tw / 2 + pad, cy + th / 2 + pad), fill=kit.WHITE
        )
        kit.text(draw, (cx, cy), text, size, kit.INK, bold=False, anchor="mm")


def _chip(
    draw: ImageDraw.ImageDraw, x: float, y: float, kind: str, count: int | None, size: int = 16
) -> float:
    """A small card with its letter, then "name count"; returns the x after it."""
    if kit.current_language() == "ja":
        # A kanji on a white plate would hide the chip's colour: draw it straight on the colour instead.
        _card(draw, (x, y, x + 22, y + 28), kind, "", width=1)
        fill = CARD_FILL.get(kind, kit.WHITE)
        kit.text(draw, (x + 11, y + 14), _mark(kind), 13, kit.contrast_text(fill), anchor="mm", halo=None
                 if kind != LOCO else kit.WHITE, halo_width=2)
    else:
        _card(draw, (x, y, x + 22, y + 28), kind, _mark(kind), 13, width=1)
    label = kind if count is None else f"{kind} {count}"
    kit.text(draw, (x + 27, y + 14), label, size, kit.INK, anchor="lm")
    return x + 27 + kit.text_size(label, size)[0] + 14


def _circle(draw: ImageDraw.ImageDraw, centre: tuple[float, float], kind: str, r: float = 11) -> None:
    cx, cy = centre
    fill = CARD_FILL.get(kind, kit.WHITE)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=kit.INK, width=2)
    kit.text(draw, (cx, cy), _mark(kind), int(r * 1.2), kit.contrast_text(fill), bold=False, anchor="mm")


# ---------------------------------------------------------------------------- header and draw area


def _status(view: dict[str, Any], names: list[str]) -> str:
    """What the table waits for, in the image's language (names put in after the words are translated)."""
    phase = view["phase"]
    if phase == "keep_setup":
        waiting = [seat_name(names, e["seat"]) for e in view["seats"] if e["setup"] == "choosing"]
        return kit.fill_in("Keep step: waiting for {who}", who=kit.join(waiting))
    if phase == "choose":
        waiting = [seat_name(names, e["seat"]) for e in view["seats"] if e["deciding"]]
        return kit.fill_in("Scoring: waiting for {who} to pick tickets", who=kit.join(waiting))
    if phase == "over":
        result = view["result"]
        standings = kit.join(
            kit.fill_in("{rank} {who} {score}", rank=kit.tr(ORDINAL.get(s["rank"], str(s["rank"]))),
                        who=seat_name(names, s["seat"]), score=str(s["score"]))
            for s in result["seats"]
        )
        return kit.fill_in("Game over: {standings}", standings=standings)
    who = seat_name(names, view["active"])
    step = view["step"]
    if step == "second_draw":
        return kit.fill_in("{who}: second card", who=who)
    if step == "keep":
        count = view["seats"][view["active"]]["pending_count"]
        return kit.fill_in("{who}: choosing among {n} tickets", who=who, n=str(count))
    if view["deck_count"] == 0:
        return kit.fill_in("{who}: play to the rail yard or draw tickets", who=who)
    return kit.fill_in("{who}: draw 2 cards, play to the rail yard or draw tickets", who=who)


def _header(image: Image.Image, view: dict[str, Any], names: list[str]) -> int:
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 96), fill=kit.PANEL_BG)
    title = "Ticket to Ride: The Card Game"
    if view["decks_total"] == 2:
        title = f"Ticket to Ride: The Card Game  -  Deck {view['deck_number']} of 2"
    kit.text(draw, (MARGIN, 12), title, 26, kit.INK, bold=True)
    active = view["active"]
    x = MARGIN
    if active is not None:
        kit.draw_seat_token(draw, active, (MARGIN + 16, 66), 30)
        x = MARGIN + 40
    status = kit.fit(_status(view, names), 22, WIDTH - MARGIN - x, True, translate=False)
    kit.text(draw, (x, 66), status, 22, kit.INK, bold=True, anchor="lm", translate=False)
    last = view["last_action"]
    if last:
        room = WIDTH - 2 * MARGIN - kit.text_size(title, 26, True)[0] - 30
        kit.text(
            draw,
            (WIDTH - MARGIN, 24),
            kit.fit(_last_line(last, names), 18, room, True, translate=False),
            18,
            kit.HIGHLIGHT,
            bold=True,
            anchor="ra",
            translate=False,
        )
    y = 100
    if view["final_round"]:
        draw.rectangle((0, y, WIDTH, y + 36), fill=kit.DANGER)
        who = kit.join(seat_name(names, s) for s in view["final_round"])
        kit.text(
            draw,
            (MARGIN, y + 18),
            kit.fit(kit.fill_in("FINAL ROUND - still to play: {who}", who=who), 20, WIDTH - 2 * MARGIN, True,
                    translate=False),
            20,
            kit.WHITE,
            bold=True,
            anchor="lm",
            translate=False,
        )
        y += 40
    return y + 6


def _draw_area(image: Image.Image, view: dict[str, Any], top: int) -> int:
    draw = ImageDraw.Draw(image)
    last = view["last_action"] or {}
    card_w, card_h, gap = 112, 150, 16
    kit.text(draw, (MARGIN, top), "Display", 18, kit.MUTED, bold=False)
    y0 = top + 26
    for slot, kind in enumerate(view["display"]):
        x0 = MARGIN + slot * (card_w + gap)
        if last.get("type") == "take" and last.get("slot") == slot:
            draw.rounded_rectangle(
                (x0 - 7, y0 - 7, x0 + card_w + 7, y0 + card_h + 7), radius=9, outline=kit.HIGHLIGHT, width=6
            )
        _card(draw, (x0, y0, x0 + card_w, y0 + card_h), kind, kind, 18)
        refilled = last.get("type") == "take" and last.get("slot") == slot
        # `take N` is the move's notation: it stays as typed in every language.
        label = f"take {slot + 1} (refill)" if refilled else f"take {slot + 1}"
        kit.text(
            draw,
            (x0 + card_w / 2, y0 + card_h + 8),
            label,
            15,
            kit.HIGHLIGHT if refilled else kit.MUTED,
            bold=refilled,
            anchor="ma",
        )
    # Piles: deck, tickets, discard (and set aside / closed when they hold cards).
    x = MARGIN + 5 * (card_w + gap) + 30
    piles = [
        (
            "Train deck",
            "EMPTY" if view["deck_count"] == 0 else f"{view['deck_count']} cards",
        ),
        ("Ticket deck", f"{view['ticket_deck_count']} tickets"),
        ("Discard", f"{sum(view['discard'].values())} cards"),
    ]
    if sum(view["set_aside"].values()):
        piles.append(("Set aside (used)", f"{sum(view['set_aside'].values())} cards"))
    if view["closed_count"]:
        piles.append(("Closed (stall)", f"{view['closed_count']} cards"))
    for index, (label, value) in enumerate(piles):
        px = x + (index % 3) * 215
        py = y0 + (index // 3) * 96
        back = (90, 70, 50) if label != "Ticket deck" else (230, 220, 190)
        draw.rounded_rectangle((px, py, px + 44, py + 62), radius=5, fill=back, outline=kit.INK, width=2)
        empty = label == "Train deck" and view["deck_count"] == 0
        kit.text(draw, (px + 52, py + 6), kit.fit(label, 16, 160), 16, kit.MUTED, bold=False, translate=False)
        kit.text(draw, (px + 52, py + 28), value, 18, kit.DANGER if empty else kit.INK, bold=True)
        if empty:
            kit.text(draw, (px + 52, py + 50), "drawing closed", 15, kit.DANGER, bold=True)
    return y0 + card_h + 34


def _cities(image: Image.Image, view: dict[str, Any], top: int, names: list[str]) -> int:
    draw = ImageDraw.Draw(image)
    kit.text(
        draw,
        (MARGIN, top),
        "Big-city bonuses (completed tickets naming each city)",
        18,
        kit.MUTED,
        bold=False,
    )
    top += 26
    width = (WIDTH - 2 * MARGIN - 5 * 10) / 6
    height = 60 + 0 * len(view["seats"])
    for index, city in enumerate(view["big_cities"]):
        x0 = MARGIN + index * (width + 10)
        won = city["winners"] or []
        draw.rounded_rectangle(
            (x0, top, x0 + width, top + height),
            radius=6,
            fill=kit.WHITE,
            outline=kit.HIGHLIGHT if won else kit.GRID,
            width=3 if won else 1,
        )
        _circle(draw, (x0 + 16, top + 17), city["colour"], 10)
        kit.text(
            draw, (x0 + 32, top + 17), f"{city['city']}  {city['value']}", 17, kit.INK, bold=True, anchor="lm",
            translate=False,
        )
        cx = x0 + 10
        for entry in view["seats"]:
            count = entry["city_counts"][city["city"]]
            kit.draw_seat_token(draw, entry["seat"], (cx + 10, top + 44), 18, label=False)
            kit.text(
                draw, (cx + 23, top + 44), str(count), 16, kit.INK, bold=entry["seat"] in won, anchor="lm"
            )
            cx += 46
    return top + height + 14


# ---------------------------------------------------------------------------- seat panels


def _yard_rows(
    draw: ImageDraw.ImageDraw,
    entry: dict[str, Any],
    view: dict[str, Any],
    x: float,
    y: float,
    names: list[str],
) -> float:
    last = view["last_action"] or {}
    new_rows = (
        set(last.get("rows", []))
        if last.get("type") == "yard" and last.get("seat") == entry["seat"]
        else set()
    )
    robbed = (
        [r for r in last.get("robbed", []) if r["seat"] == entry["seat"]]
        if last.get("type") == "yard"
        else []
    )
    kit.text(draw, (x, y), "Rail yard", 16, kit.MUTED, bold=False)
    y += 24
    if not entry["yard"] and not robbed:
        kit.text(draw, (x, y + 4), "empty", 16, kit.MUTED)
        return y + 30
    col_w, card_w, card_h, step = 92, 66, 40, 20
    tallest = 0.0
    cx = x
    for row in entry["yard"]:
        # The column lists the row from its bottom card down to its top card (the next to move to the
        # track stack, a Locomotive while the row has one), which is drawn whole at the bottom edge.
        cards = [row["colour"]] * row["coloured"] + [LOCO] * row["locos"]
        bottom = y
        for i, kind in enumerate(cards):
            top_y = y + i * step
            last_card = i == len(cards) - 1
            _card(
                draw, (cx, top_y, cx + card_w, top_y + (card_h if last_card else step + 6)), kind, "", width=1
            )
            if not last_card and kind != LOCO:
                fill = CARD_FILL[kind]
                kit.text(
                    draw,
                    (cx + card_w / 2, top_y + 10),
                    _mark(kind),
                    12,
                    kit.contrast_text(fill),
                    bold=False,
                    anchor="mm",
                )
            if last_card:
                label = "loco" if kind == LOCO else kind
                tw = kit.text_size(label, 13)[0]
                mid = cx + card_w / 2
                draw.rectangle((mid - tw / 2 - 3, top_y + 12, mid + tw / 2 + 3, top_y + 30), fill=kit.WHITE)
                kit.text(draw, (mid, top_y + 21), label, 13, kit.INK, bold=False, anchor="mm")
            bottom = top_y + (card_h if last_card else step)
        if row["colour"] in new_rows:
            draw.rectangle((cx - 5, y - 5, cx + card_w + 5, bottom + 5), outline=kit.HIGHLIGHT, width=4)
        kit.text(
            draw,
            (cx + card_w / 2, bottom + 4),
            f"{row['colour']} {row['coloured']}",
            14,
            kit.INK,
            bold=True,
            anchor="ma",
        )
        extra = 0
        if row["locos"]:
            kit.text(
                draw,
                (cx + card_w / 2, bottom + 21),
                f"+ {row['locos']} loco",
                14,
                kit.INK,
                bold=True,
                anchor="ma",
            )
            extra = 17
        tallest = max(tallest, bottom + 22 + extra - y)
        cx += col_w
    for rob in robbed:
        draw.rectangle((cx, y, cx + card_w, y + card_h), fill=(235, 235, 235), outline=kit.DANGER, width=3)
        draw.line((cx, y, cx + card_w, y + card_h), fill=kit.DANGER, width=3)
        draw.line((cx, y + card_h, cx + card_w, y), fill=kit.DANGER, width=3)
        robber = seat_name(names, last["seat"])
        kit.text(
            draw,
            (cx + card_w / 2, y + card_h + 4),
            f"{rob['colour']} {rob['coloured'] + rob['locos']}",
            14,
            kit.DANGER,
            bold=True,
            anchor="ma",
        )
        kit.text(
            draw,
            (cx + card_w / 2, y + card_h + 22),
            kit.fit_name("robbed by {who}", robber, 13, col_w + 20),
            13,
            kit.DANGER,
            anchor="ma",
            translate=False,
        )
        tallest = max(tallest, card_h + 42)
        cx += col_w + 20
    return y + tallest + 6


def _seat_panel(
    image: Image.Image,
    view: dict[str, Any],
    entry: dict[str, Any],
    box: tuple[int, int, int, int],
    names: list[str],
) -> None:
    draw = ImageDraw.Draw(image)
    seat = entry["seat"]
    active = seat in view["to_act"]
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=8, fill=kit.PANEL_BG, outline=kit.seat_colour(seat), width=4)
    if active:
        draw.rectangle((x0 + 4, y0 + 4, x1 - 4, y0 + 44), fill=kit.TO_ACT_BG)
    kit.draw_seat_token(draw, seat, (x0 + 26, y0 + 24), 30)
    kit.text(
        draw,
        (x0 + 48, y0 + 24),
        kit.fit(seat_name(names, seat), 22, 300, True, translate=False),
        22,
        kit.INK,
        bold=True,
        anchor="lm",
        translate=False,
    )
    kit.text(draw, (x1 - 14, y0 + 24), f"{entry['points']} pts", 22, kit.INK, bold=True, anchor="rm")
    y = y0 + 52
    x = x0 + 14
    tickets = "?" if entry["tickets_count"] is None else str(entry["tickets_count"])
    facts = f"Hand {entry['hand_count']} cards   Tickets {tickets}"
    if entry["setup"]:
        facts = f"Hand {entry['hand_count']} cards   Tickets {tickets}   ({entry['setup']})"
    elif entry["pending_count"]:
        facts = f"Hand {entry['hand_count']} cards   Tickets {tickets}   drawing {entry['pending_count']}"
    kit.text(draw, (x, y), facts, 18, kit.INK)
    y += 28
    done = entry["completed"]
    points = sum(TICKETS[t].points for t in done)
    completed = f"Completed {len(done)} tickets ({points} pts)"
    if done:
        completed = f"Completed {len(done)} tickets ({points} pts): " + ", ".join(f"#{t}" for t in done)
    kit.text(draw, (x, y), kit.fit(completed, 16, x1 - 14 - x), 16, kit.INK, translate=False)
    y += 26
    if view["phase"] == "over":
        _final_lines(draw, view, seat, x, y, x1 - 14, names)
        return
    # Track stack: a face-down pile with its count (contents when the option opens it).
    draw.rounded_rectangle((x, y, x + 40, y + 52), radius=4, fill=(90, 70, 50), outline=kit.INK, width=2)
    draw.rounded_rectangle(
        (x + 5, y - 5, x + 45, y + 47), radius=4, fill=(110, 90, 65), outline=kit.INK, width=2
    )
    kit.text(draw, (x + 25, y + 21), str(entry["track_count"]), 18, kit.WHITE, bold=True, anchor="mm")
    kit.text(draw, (x + 56, y + 4), "Track stack", 16, kit.MUTED, bold=False)
    if entry["track"] is not None:
        cx, cy = x + 56, y + 24
        for kind in KINDS:
            if entry["track"][kind]:
                if cx > x1 - 120:
                    cx, cy = x + 56, cy + 32
                cx = _chip(draw, cx, cy, kind, entry["track"][kind], 14)
        y = max(y + 64, cy + 38)
    else:
        kit.text(draw, (x + 56, y + 28), "face down: nobody may look", 15, kit.MUTED)
        y += 64
    if view["phase"] == "choose":
        state = (
            "Scoring: choosing which tickets to complete" if entry["deciding"] else "Scoring: nothing to choose / done"
        )
        kit.text(draw, (x, y), state, 16, kit.HIGHLIGHT, bold=True)
        y += 24
        if entry["revealed_tickets"] is not None:
            shown = ", ".join(f"#{t}" for t in entry["revealed_tickets"]) or "none"
            kit.text(
                draw, (x, y), kit.fit(f"Tickets in hand (revealed): {shown}", 16, x1 - x - 14), 16, kit.INK,
                translate=False,
            )
            y += 24
    _yard_rows(draw, entry, view, x, y, names)


def _final_lines(
    draw: ImageDraw.ImageDraw,
    view: dict[str, Any],
    seat: int,
    x: float,
    y: float,
    right: float,
    names: list[str],
) -> None:
    """The scoring image of a seat: revealed stack, tickets with the cards used, failures, cities, total."""
    final = view["scorings"][-1]["seats"][seat]
    result = next(s for s in view["result"]["seats"] if s["seat"] == seat)
    kit.text(draw, (x, y), "Track stack revealed:", 15, kit.MUTED, bold=False)
    start = x + max(170, kit.text_size("Track stack revealed:", 15)[0] + 14)
    cx = start
    if not any(final["track"].values()):
        kit.text(draw, (cx, y), "empty", 15, kit.MUTED)
    for kind in KINDS:
        if final["track"].get(kind):
            if cx > right - 90:
                cx, y = start, y + 32
            cx = _chip(draw, cx, y - 2, kind, final["track"][kind], 14)
    y += 30
    for tid in final["completed"]:
        ticket = TICKETS[tid]
        used = final["assignment"][str(tid)]
        route = kit.fit(f"#{tid} {ticket.origin}-{ticket.destination}", 15, 250, translate=False)
        kit.text(draw, (x, y), route, 15, kit.INK, translate=False)
        kit.text(draw, (x + 262, y), f"+{ticket.points}", 15, (0, 110, 50), bold=True)
        cx = x + 305
        for kind in KINDS:
            for _ in range(used.get(kind, 0)):
                _circle(draw, (cx, y + 9), kind, 9)
                cx += 22
        y += 22
    for tid in final["failed"]:
        ticket = TICKETS[tid]
        route = kit.fit(f"#{tid} {ticket.origin}-{ticket.destination}", 15, 250, translate=False)
        kit.text(draw, (x, y), route, 15, kit.DANGER, translate=False)
        kit.text(draw, (x + 262, y), f"-{ticket.points}  not completed", 15, kit.DANGER, bold=True)
        y += 22
    breakdown = result["breakdown"]
    cities = result["details"]["big_city_cards"]
    won = ", ".join(f"{c} {BIG_CITIES[c][0]}" for c in cities)
    label = kit.tr("Big cities: none") if not cities else kit.fill_in("Big cities: {cities}", cities=won)
    kit.text(draw, (x, y + 4), kit.fit(label, 15, right - x, translate=False), 15, kit.INK, translate=False)
    y += 28
    tickets, failed, bonus = breakdown["tickets_final"], breakdown["tickets_failed"], breakdown["big_cities"]
    rank = ORDINAL.get(result["rank"], str(result["rank"]))
    if view["decks_total"] == 2:
        line = (f"{rank}: {result['score']} points  (deck 1 {breakdown['tickets_deck1']}, tickets {tickets}, "
                f"failed {failed}, cities {bonus})")
    else:
        line = f"{rank}: {result['score']} points  (tickets {tickets}, failed {failed}, cities {bonus})"
    kit.text(draw, (x, y), kit.fit(line, 18, right - x, True), 18, kit.INK, bold=True, translate=False)


def _panel_height(view: dict[str, Any], entry: dict[str, Any]) -> int:
    if view["phase"] == "over":
        final = view["scorings"][-1]["seats"][entry["seat"]]
        return 240 + 22 * (len(final["completed"]) + len(final["failed"]))
    tallest = max([r["locos"] + r["coloured"] for r in entry["yard"]] + [1])
    track_lines = 32 if entry["track"] is not None and sum(1 for k in KINDS if entry["track"][k]) > 6 else 0
    return 190 + 40 + 20 * (tallest - 1) + 60 + track_lines + (48 if view["phase"] == "choose" else 0)


def board(view: dict[str, Any], names: list[str]) -> bytes:
    """The public table, from view(None)."""
    seats = view["seats"]
    columns = 2
    rows = [seats[i : i + columns] for i in range(0, len(seats), columns)]
    heights = [max(_panel_height(view, e) for e in row) for row in rows]
    top_part = 100 + (40 if view["final_round"] else 0) + 6 + 26 + 150 + 34 + 26 + 60 + 14
    height = top_part + sum(heights) + 12 * len(rows) + MARGIN
    image = kit.new_canvas(WIDTH, height)
    y = _header(image, view, names)
    y = _draw_area(image, view, y)
    y = _cities(image, view, y, names)
    panel_w = (WIDTH - 2 * MARGIN - 12) // columns
    for row, row_height in zip(rows, heights, strict=True):
        for index, entry in enumerate(row):
            x0 = MARGIN + index * (panel_w + 12)
            _seat_panel(image, view, entry, (x0, y, x0 + panel_w, y + row_height), names)
        y += row_height + 12
    return kit.encode(image)


# ---------------------------------------------------------------------------- private image


def _ticket_card(draw: ImageDraw.ImageDraw, x: float, y: float, tid: int, highlight: bool = False) -> None:
    ticket = TICKETS[tid]
    w, h = 300, 92
    draw.rounded_rectangle(
        (x, y, x + w, y + h),
        radius=8,
        fill=(252, 248, 232),
        outline=kit.HIGHLIGHT if highlight else kit.INK,
        width=4 if highlight else 2,
    )
    kit.text(draw, (x + 10, y + 8), f"#{tid}", 18, kit.MUTED, bold=True)
    kit.text(draw, (x + w - 10, y + 8), f"{ticket.points} pts", 18, kit.INK, bold=True, anchor="ra")
    cities = []
    for city in (ticket.origin, ticket.destination):
        cities.append(city + (" *" if city in BIG_CITIES else ""))
    kit.text(draw, (x + 10, y + 34), kit.fit(" - ".join(cities), 16, w - 20, True, translate=False), 16, kit.INK,
             bold=True, translate=False)
    cx = x + 22
    for colour in COLOURS:
        for _ in range(ticket.cards.get(colour, 0)):
            _circle(draw, (cx, y + 72), colour, 11)
            cx += 28


def hand(view: dict[str, Any], names: list[str]) -> bytes:
    """A seat's private image, from view(seat): hand, tickets, pending tickets, track stack, picks."""
    seat = view["seat"]
    entry = view["seats"][seat]
    tickets = list(view["tickets"])
    pending = list(view["pending"])
    per_row = 4
    rows_t = -(-len(tickets) // per_row)
    rows_p = -(-len(pending) // per_row)
    height = 120 + 190 + 60 + rows_t * 104 + (60 + rows_p * 104 if pending else 0) + 90
    if view["phase"] == "choose":
        height += 60
    image = kit.new_canvas(WIDTH, height)
    draw = ImageDraw.Draw(image)
    kit.draw_seat_token(draw, seat, (MARGIN + 18, 32), 34)
    kit.text(
        draw,
        (MARGIN + 46, 32),
        kit.fit_name("{who} - your hand (private)", seat_name(names, seat), 26, WIDTH - MARGIN * 2 - 46, True),
        26,
        kit.INK,
        bold=True,
        anchor="lm",
        translate=False,
    )
    status = kit.fit(_status(view, names), 18, WIDTH - 2 * MARGIN, translate=False)
    kit.text(draw, (MARGIN, 70), status, 18, kit.MUTED, translate=False)
    y = 110
    kit.text(draw, (MARGIN, y), f"Train cards: {entry['hand_count']}", 20, kit.INK, bold=True)
    y += 32
    x = MARGIN
    for kind in KINDS:
        count = view["hand"].get(kind, 0)
        box = (x, y, x + 130, y + 120)
        _card(draw, box, kind, kind, 16, outline=kit.INK if count else kit.GRID)
        if not count:
            # An empty kind is greyed out so the held ones stand out.
            overlay = Image.new("RGB", (131, 121), kit.PAPER)
            image.paste(
                Image.blend(image.crop((int(x), y, int(x) + 131, y + 121)), overlay, 0.7), (int(x), y)
            )
        kit.text(
            draw, (x + 65, y + 128), f"x {count}", 22, kit.INK if count else kit.MUTED, bold=True, anchor="ma"
        )
        x += 150
    y += 170
    track = entry["track"]
    if track is not None:
        face_up = ", ".join(f"{k} {track[k]}" for k in KINDS if track[k]) or "nothing"
        line = f"Your track stack: {entry['track_count']} cards (face up: {face_up})"
    else:
        line = f"Your track stack: {entry['track_count']} cards (face down: you may not look)"
    kit.text(draw, (MARGIN, y), line, 18, kit.INK)
    y += 36
    kit.text(
        draw,
        (MARGIN, y),
        f"Your tickets ({len(tickets)})" if tickets else "Your tickets (0): none",
        20,
        kit.INK,
        bold=True,
    )
    y += 30
    picks = set(view.get("picks") or [])
    for index, tid in enumerate(tickets):
        _ticket_card(
            draw, MARGIN + (index % per_row) * 340, y + (index // per_row) * 104, tid, highlight=tid in picks
        )
    y += rows_t * 104
    if pending:
        # The setup choice stays in the view all game: it only answers the drawn tickets of the keep step.
        kept = view.get("setup_choice") if view["phase"] == "keep_setup" else None
        title = "Drawn tickets: answer with `keep ID ID ...`" + (
            " (at least 1)" if view["phase"] == "keep_setup" else " or `keep none`"
        )
        if kept:
            title = f"You keep: {', '.join(map(str, kept))} (waiting for the others)"
        kit.text(draw, (MARGIN, y + 8), title, 20, kit.HIGHLIGHT, bold=True)
        y += 44
        for index, tid in enumerate(pending):
            _ticket_card(
                draw,
                MARGIN + (index % per_row) * 340,
                y + (index // per_row) * 104,
                tid,
                highlight=bool(kept and tid in kept),
            )
        y += rows_p * 104
    if view["phase"] == "choose":
        pickable = view.get("pickable") or []
        picked = ", ".join(f"#{t}" for t in view["picks"]) or "none"
        if entry["deciding"]:
            fitting = ", ".join(f"#{t}" for t in pickable) or "nothing (send `done`)"
            text = f"Picked: {picked}   Still fits: {fitting}"
        else:
            text = f"Completed at this scoring: {picked} (nothing to choose)"
        kit.text(draw, (MARGIN, y + 14), kit.fit(text, 18, WIDTH - 2 * MARGIN, True), 18, kit.INK, bold=True,
                 translate=False)
        y += 44
    legend = "Letters: " + ", ".join(f"{LETTER[k]} {k}" for k in KINDS) + ".   * = big city"
    if kit.current_language() == "ja":
        legend = "* = big city"  # the marks are the colours' own kanji there: nothing to explain
    kit.text(draw, (MARGIN, y + 16), legend, 16, kit.MUTED)
    return kit.encode(image)


# ---------------------------------------------------------------------------- interludes and alt text


def intermediate_scoring(view: dict[str, Any], names: list[str]) -> bytes:
    """The 4-player intermediate scoring: each revealed stack and the tickets it completed."""
    record = next(r for r in reversed(view["scorings"]) if r["kind"] == "intermediate")
    seats = record["seats"]
    rows = [max(len(seats[i]["completed"]), len(seats[i + 1]["completed"])) for i in range(0, len(seats), 2)]
    height = 110 + sum(150 + 22 * r for r in rows) + MARGIN
    image = kit.new_canvas(WIDTH, height)
    draw = ImageDraw.Draw(image)
    kit.text(draw, (MARGIN, 16), "Intermediate scoring (end of deck 1)", 28, kit.INK, bold=True)
    kit.text(
        draw,
        (MARGIN, 60),
        "Track stacks revealed. Completed tickets score now; their cards are set aside. "
        "Other tickets stay secret in hand.",
        17,
        kit.MUTED,
    )
    y = 100
    panel_w = (WIDTH - 2 * MARGIN - 12) // 2
    for row, count in zip(range(0, len(seats), 2), rows, strict=True):
        box_h = 140 + 22 * count
        for index, entry in enumerate(seats[row : row + 2]):
            seat = entry["seat"]
            x0 = MARGIN + index * (panel_w + 12)
            draw.rounded_rectangle(
                (x0, y, x0 + panel_w, y + box_h),
                radius=8,
                fill=kit.PANEL_BG,
                outline=kit.seat_colour(seat),
                width=4,
            )
            kit.draw_seat_token(draw, seat, (x0 + 26, y + 24), 30)
            kit.text(draw, (x0 + 48, y + 24), kit.fit(seat_name(names, seat), 22, panel_w - 200, True, translate=False),
                     22, kit.INK, bold=True, anchor="lm", translate=False)
            kit.text(
                draw,
                (x0 + panel_w - 14, y + 24),
                f"+{entry['points']} pts",
                22,
                kit.INK,
                bold=True,
                anchor="rm",
            )
            cx, cy = x0 + 14, y + 54
            if not any(entry["track"].values()):
                kit.text(draw, (cx, cy + 6), "empty track stack", 15, kit.MUTED)
            for kind in KINDS:
                if entry["track"].get(kind):
                    if cx > x0 + panel_w - 120:
                        cx, cy = x0 + 14, cy + 32
                    cx = _chip(draw, cx, cy, kind, entry["track"][kind], 14)
            ty = y + 120
            for tid in entry["completed"]:
                ticket = TICKETS[tid]
                kit.text(
                    draw,
                    (x0 + 14, ty),
                    kit.fit(f"#{tid} {ticket.origin}-{ticket.destination}", 15, 250, translate=False),
                    15,
                    kit.INK,
                    translate=False,
                )
                kit.text(draw, (x0 + 276, ty), f"+{ticket.points}", 15, (0, 110, 50), bold=True)
                tx = x0 + 320
                used = entry["assignment"][str(tid)]
                for kind in KINDS:
                    for _ in range(used.get(kind, 0)):
                        _circle(draw, (tx, ty + 9), kind, 9)
                        tx += 22
                ty += 22
            if not entry["completed"]:
                kit.text(draw, (x0 + 14, ty), "no ticket completed", 15, kit.MUTED)
        y += box_h + 12
    return kit.encode(image)


def interludes(previous: dict[str, Any] | None, view: dict[str, Any], names: list[str]) -> list[bytes]:
    """Before the first board of deck 2: the intermediate scoring that ended deck 1 (4 players)."""
    before = len((previous or {}).get("scorings") or [])
    scorings = view.get("scorings") or []
    if len(scorings) > before and scorings[-1]["kind"] == "intermediate":
        return [intermediate_scoring(view, names)]
    return []


def describe(view: dict[str, Any], names: list[str]) -> str:
    """Alt text for the public table: status, display, piles, and per seat points, cards and yard.

    The bot translates it as one line (render.describe joins lines): sentences end with ". " and none
    has ". " inside, so one `_alt_text` pattern of JA takes it apart and each sentence is translated on
    its own. That pattern must be the longest one that can match the whole line, hence the long
    opening and no sentence that is a long pattern ending in a placeholder (the yard has its own).
    """
    parts = [f"{ALT_OPENING} {_status(view, names)}."]
    if view["decks_total"] == 2:
        parts.append(f"Deck {view['deck_number']} of 2.")
    if view["final_round"]:
        parts.append(
            "Final round, still to play: " + ", ".join(seat_name(names, s) for s in view["final_round"]) + "."
        )
    last = view["last_action"]
    if last:
        parts.append("Last: " + name_seats(last["text"], names) + ".")
    parts.append(
        f"Display: {', '.join(view['display'])}. Deck {view['deck_count']}, tickets {view['ticket_deck_count']}."
    )
    for entry in view["seats"]:
        yard = ", ".join(
            f"{r['colour']} {r['coloured']}" + (f" + {r['locos']} loco" if r["locos"] else "")
            for r in entry["yard"]
        )
        tickets = "?" if entry["tickets_count"] is None else entry["tickets_count"]
        name = seat_name(names, entry["seat"])
        parts.append(
            f"{name}: {entry['points']} pts, hand {entry['hand_count']}, tickets {tickets}, "
            f"track {entry['track_count']}, completed {len(entry['completed'])}."
        )
        parts.append(f"{name}'s yard: {yard or 'empty'}.")
    return " ".join(parts)


# ---------------------------------------------------------------------------- Japanese


ALT_OPENING = "Ticket to Ride: The Card Game, public table."


def _alt_text() -> dict[str, str]:
    """Patterns that take `describe`'s one-line alt text apart: the whole line by its number of
    sentences, a seat's sentence by its number of yard rows (each piece is then translated alone)."""
    entries = {}
    for count in range(1, 16):
        english = ". ".join(f"{{p{i}}}" for i in range(count))
        japanese = "。".join(f"{{p{i}}}" for i in range(count))
        entries[f"{ALT_OPENING} {english}."] = f"チケット・トゥ・ライド カードゲーム（公開の卓）。{japanese}。"
    entries["{who}: {points} pts, hand {hand}, tickets {tickets}, track {track}, completed {done}"] = (
        "{who}：{points} 点、手札 {hand} 枚、目的地カード {tickets} 枚、トラックスタック {track} 枚、達成 {done} 枚"
    )
    entries["{who}'s yard: {yard}"] = "{who} のレールヤード：{yard}"
    for count in range(2, len(COLOURS) + 1):
        rows = [f"r{i}" for i in range(count)]
        entries["{who}'s yard: " + ", ".join(f"{{{r}}}" for r in rows)] = "{who} のレールヤード：" + "、".join(
            f"{{{r}}}" for r in rows
        )
    for count in range(2, 5):
        names = [f"p{i}" for i in range(count)]
        entries["Game over: " + ", ".join(f"{{{n}}}" for n in names)] = "ゲーム終了：" + "、".join(
            f"{{{n}}}" for n in names
        )
    for english, japanese in (("Keep step: waiting for {who}", "目的地カードの選択：{who} を待っています"),
                              ("Scoring: waiting for {who} to pick tickets",
                               "得点計算：{who} が目的地カードを選ぶのを待っています"),
                              ("Final round, still to play: {who}", "最終ターン、残りの手番：{who}")):
        entries.update(seat_lists(english, japanese))
    return entries


def _last_actions() -> dict[str, str]:
    """The engine's last-action texts after "Last: " (image header and alt text)."""
    rob = "{who} plays {cards}, robbing {victim}'s {colour} row ({n} {colour}"
    rob_ja = "{who} がレールヤードに{cards}を置き、{victim} の{colour}の列を電車強奪（{colour} {n} 枚"
    entries = {
        "{who} has chosen": "{who} が選択済み",
        "{who} drew from the deck": "{who} が山札から引いた",
        "{who} took {kind} (slot {slot})": "{who} が{kind}を取った（{slot} 番目）",
        "{who} plays {cards}": "{who} がレールヤードに{cards}を置いた",
        rob + ")": rob_ja + "）",
        rob + " + {m} loco)": rob_ja + "＋機関車 {m} 枚）",
        "{who} drew {n} tickets": "{who} が目的地カードを {n} 枚引いた",
        "{who} kept {n} of the drawn tickets": "{who} が引いた目的地カードのうち {n} 枚を残した",
        "{who} passed (no legal move)": "{who} がパス（出せる手なし）",
        "Final scoring": "最終得点計算",
        "Intermediate scoring; deck 2 dealt": "中間得点計算。2 つ目の山札を配った",
    }
    # Prefixed: a bare "{who} plays {cards}" would also catch other games' lines in the bot's catalog.
    return {f"Last: {english}": f"直前：{japanese}" for english, japanese in entries.items()}


# Image labels and alt text (English exactly as drawn -> Japanese); terms as in rules/ttr_cards/ja.py.
JA: dict[str, str] = {
    **KIND_JA,
    **card_lists(),
    **yard_sets(),
    **_alt_text(),
    **_last_actions(),
    ", ": "、",
    "none": "なし",
    "nothing": "なし",
    "empty": "空",
    "1st": "1 位",
    "2nd": "2 位",
    "3rd": "3 位",
    "4th": "4 位",
    **{f"{ordinal} {{rest}}": f"{rank} 位 {{rest}}" for rank, ordinal in ORDINAL.items()},
    "{rank} {who} {score}": "{rank} {who} {score} 点",
    "{n} pts": "{n} 点",
    "+{n} pts": "+{n} 点",
    "{n} cards": "{n} 枚",
    "{n} tickets": "{n} 枚",
    # header
    "Ticket to Ride: The Card Game": "チケット・トゥ・ライド カードゲーム",
    "Ticket to Ride: The Card Game  -  Deck {n} of 2": "チケット・トゥ・ライド カードゲーム ― 山札 {n}/2",
    "Keep step: waiting for {who}": "目的地カードの選択：{who} を待っています",
    "Scoring: waiting for {who} to pick tickets": "得点計算：{who} が目的地カードを選ぶのを待っています",
    "Game over: {standings}": "ゲーム終了：{standings}",
    "{who}: second card": "{who}：2 枚目のカードを引く",
    "{who}: choosing among {n} tickets": "{who}：目的地カード {n} 枚から選択中",
    "{who}: play to the rail yard or draw tickets": "{who}：レールヤードに置くか目的地カードを引く",
    "{who}: draw 2 cards, play to the rail yard or draw tickets": (
        "{who}：カードを 2 枚引く／レールヤードに置く／目的地カードを引く"
    ),
    "Last: {text}": "直前：{text}",
    "FINAL ROUND - still to play: {who}": "最終ターン ― 残りの手番：{who}",
    # display and piles
    "Display": "表向きのカード",
    "take {n} (refill)": "take {n}（補充）",
    "Train deck": "電車カードの山札",
    "Ticket deck": "目的地カードの山札",
    "Set aside (used)": "除外（得点済み）",
    "Closed (stall)": "閉じた山札",
    "EMPTY": "空",
    "drawing closed": "引けません",
    "Big-city bonuses (completed tickets naming each city)": (
        "ビッグシティボーナス（各都市を含む達成済み目的地カードの数）"
    ),
    # seat panels
    "Hand {hand} cards   Tickets {tickets}": "手札 {hand} 枚   目的地カード {tickets} 枚",
    "Hand {hand} cards   Tickets {tickets}   (choosing)": "手札 {hand} 枚   目的地カード {tickets} 枚   （選択中）",
    "Hand {hand} cards   Tickets {tickets}   (done)": "手札 {hand} 枚   目的地カード {tickets} 枚   （選択済み）",
    "Hand {hand} cards   Tickets {tickets}   drawing {n}": (
        "手札 {hand} 枚   目的地カード {tickets} 枚   {n} 枚を検討中"
    ),
    "Completed {n} tickets ({points} pts)": "達成 {n} 枚（{points} 点）",
    "Completed {n} tickets ({points} pts): {ids}": "達成 {n} 枚（{points} 点）：{ids}",
    "Rail yard": "レールヤード",
    "+ {n} loco": "＋機関車 {n}",
    "robbed by {who}": "{who} が強奪",
    "Track stack": "トラックスタック",
    "face down: nobody may look": "裏向き：誰も見られません",
    "Scoring: choosing which tickets to complete": "得点計算：達成する目的地カードを選択中",
    "Scoring: nothing to choose / done": "得点計算：選択なし／完了",
    "Tickets in hand (revealed): {ids}": "手札の目的地カード（公開）：{ids}",
    # final scoring
    "Track stack revealed:": "トラックスタック：",
    "-{n}  not completed": "-{n}  未達成",
    "Big cities: {cities}": "ビッグシティ：{cities}",
    "Big cities: none": "ビッグシティ：なし",
    "{rank}: {score} points  (tickets {tickets}, failed {failed}, cities {cities})": (
        "{rank}：{score} 点（達成 {tickets}、未達成 {failed}、ビッグシティ {cities}）"
    ),
    "{rank}: {score} points  (deck 1 {deck1}, tickets {tickets}, failed {failed}, cities {cities})": (
        "{rank}：{score} 点（1 回目 {deck1}、達成 {tickets}、未達成 {failed}、ビッグシティ {cities}）"
    ),
    # hand
    "{who} - your hand (private)": "{who} の手札（非公開）",
    "Train cards: {n}": "電車カード：{n} 枚",
    "Your track stack: {n} cards (face down: you may not look)": (
        "あなたのトラックスタック：{n} 枚（裏向き：自分でも見られません）"
    ),
    "Your track stack: {n} cards (face up: {cards})": "あなたのトラックスタック：{n} 枚（表向き：{cards}）",
    "Your tickets ({n})": "あなたの目的地カード（{n} 枚）",
    "Your tickets (0): none": "あなたの目的地カード：なし",
    "Drawn tickets: answer with `keep ID ID ...` (at least 1)": (
        "引いた目的地カード：`keep ID ID ...` で残すカードを答えてください（1 枚以上）"
    ),
    "Drawn tickets: answer with `keep ID ID ...` or `keep none`": (
        "引いた目的地カード：`keep ID ID ...` または `keep none` で答えてください"
    ),
    "You keep: {ids} (waiting for the others)": "残すカード：{ids}（他のプレイヤーを待っています）",
    "Picked: {picked}   Still fits: {fits}": "選んだカード：{picked}   まだ達成できる：{fits}",
    "nothing (send `done`)": "なし（`done` を送ってください）",
    "Completed at this scoring: {ids} (nothing to choose)": "今回の得点計算で達成：{ids}（選ぶものなし）",
    "* = big city": "* = ビッグシティ",
    # intermediate scoring (4 players)
    "Intermediate scoring (end of deck 1)": "中間得点計算（1 つ目の山札の終わり）",
    "Track stacks revealed. Completed tickets score now; their cards are set aside. "
    "Other tickets stay secret in hand.": (
        "トラックスタックを公開。達成した目的地カードは今得点になり、使ったカードは除外されます。"
        "他の目的地カードは公開せずに手札に残ります。"
    ),
    "empty track stack": "トラックスタックは空",
    "no ticket completed": "達成した目的地カードなし",
    # alt text sentences (see describe)
    "Deck {n} of 2": "山札 {n}/2",
    "Final round, still to play: {who}": "最終ターン、残りの手番：{who}",
    "Display: {a}, {b}, {c}, {d}, {e}": "表向きのカード：{a}、{b}、{c}、{d}、{e}",
    "Deck {deck}, tickets {tickets}": "山札 {deck} 枚、目的地カード {tickets} 枚",
    "{colour} {n} + {m} loco": "{colour} {n}＋機関車 {m}",
}
