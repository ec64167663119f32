"""Ticket to Ride: The Card Game images: the public table (display, yards, stacks, scoring) and a hand."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.describe import seat_name
from rules.engine import name_seats
from rules.ttr_cards.cards import BIG_CITIES, COLOURS, KINDS, LOCO, TICKETS
from rules.ttr_cards.cards import describe as card_counts
from rules.words import N_, Msg, Plural

WIDTH = kit.PAGE_WIDTH  # phone first: a portrait page (turn card, table, seats below each other)
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
# The mark on small cards and in discs, a catalog entry per kind: a letter in English (explained by the
# hand's legend), the colour's own kanji in Japanese (which needs no legend).
MARKS: dict[str, str] = {
    # TRANSLATORS: the mark of a black train card (one or two letters, or one character)
    "black": N_("K"),
    # TRANSLATORS: the mark of a blue train card
    "blue": N_("B"),
    # TRANSLATORS: the mark of a green train card
    "green": N_("G"),
    # TRANSLATORS: the mark of an orange train card
    "orange": N_("O"),
    # TRANSLATORS: the mark of a purple train card
    "purple": N_("P"),
    # TRANSLATORS: the mark of a red train card
    "red": N_("R"),
    # TRANSLATORS: the mark of a white train card
    "white": N_("W"),
    # TRANSLATORS: the mark of a yellow train card
    "yellow": N_("Y"),
    # TRANSLATORS: the mark of a locomotive card
    LOCO: N_("L"),
}
RAINBOW = [CARD_FILL[c] for c in ("red", "orange", "yellow", "green", "blue", "purple")]
ORDINAL = {1: N_("1st"), 2: N_("2nd"), 3: N_("3rd"), 4: N_("4th")}


def _mark(kind: str) -> str:
    """The short mark on small cards, in the image's language."""
    return kit.tr(MARKS[kind])


def _on_plate(mark: str) -> bool:
    """Latin letters sit on a white plate; a wider character (a kanji) is drawn straight on the colour, where
    a plate would hide the colour."""
    return mark.isascii()


def _said(last: dict[str, Any], names: list[str]) -> Msg | str:
    """What the last action was: its message, or (a state saved before messages) its English with names."""
    return Msg.from_json(last["msg"]) if "msg" in last else name_seats(last.get("text", ""), names)


def _last_line(last: dict[str, Any], names: list[str]) -> str:
    """"Last: ..." in the image's language, names filled in after the words are translated."""
    return kit.say(Msg("Last: {text}", text=_said(last, names)), names)


# ---------------------------------------------------------------------------- cards


def _card(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    kind: str,
    label: str | None = None,
    size: int = 16,
    outline: kit.RGB = kit.INK,
    width: int = 2,
    role: str = "panel",
) -> None:
    """A train card: colour fill (rainbow stripes for a Locomotive) and a white name plate.

    `role` is the plate's role for the layout tests ("glyph" on a chip too small for a readable name)."""
    x0, y0, x1, y1 = box
    if kind == LOCO:
        stripe = (x1 - x0) / len(RAINBOW)
        for i, fill in enumerate(RAINBOW):
            draw.rectangle((x0 + i * stripe, y0, x0 + (i + 1) * stripe, y1), fill=fill)
        draw.rectangle(box, outline=outline, width=width)
    else:
        draw.rounded_rectangle(box, radius=6, fill=CARD_FILL[kind], outline=outline, width=width)
    text = label if label is not None else _kind(kind)
    if text:
        tw, th = kit.text_size(text, size, translate=False)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        pad = 4
        draw.rectangle(
            (cx - tw / 2 - pad, cy - th / 2 - pad - 2, cx + tw / 2 + pad, cy + th / 2 + pad), fill=kit.WHITE
        )
        kit.text(draw, (cx, cy), text, size, kit.INK, bold=False, anchor="mm", translate=False, kind=role)


def _chip(
    draw: ImageDraw.ImageDraw, x: float, y: float, kind: str, count: int | None, size: int = 16
) -> float:
    """A small card with its mark, then "name count"; returns the x after it."""
    mark = _mark(kind)
    if not _on_plate(mark):
        _card(draw, (x, y, x + 22, y + 28), kind, "", width=1)
        fill = CARD_FILL.get(kind, kit.WHITE)
        kit.text(draw, (x + 11, y + 14), mark, 13, kit.contrast_text(fill), anchor="mm", halo=None
                 if kind != LOCO else kit.WHITE, halo_width=2, translate=False, kind="glyph")
    else:
        _card(draw, (x, y, x + 22, y + 28), kind, mark, 13, width=1, role="glyph")
    kit.mark((x, y, x + 22, y + 28), "card")
    label = _kind(kind) if count is None else kit.fill_in("{kind} {n}", kind=_kind(kind), n=count)
    kit.text(draw, (x + 27, y + 14), label, size, kit.INK, anchor="lm", translate=False, kind="panel")
    return x + 27 + kit.text_size(label, size, translate=False)[0] + 14


def _circle(draw: ImageDraw.ImageDraw, centre: tuple[float, float], kind: str, r: float = 11) -> None:
    cx, cy = centre
    fill = CARD_FILL.get(kind, kit.WHITE)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=kit.INK, width=2)
    kit.mark((cx - r, cy - r, cx + r, cy + r), "card mark")
    kit.text(draw, (cx, cy), _mark(kind), int(r * 1.2), kit.contrast_text(fill), bold=False, anchor="mm",
             translate=False, kind="glyph")


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


def _cards(n: int) -> str:
    """"1 card", "3 cards" in the image's language."""
    return kit.words(Plural("{n} card", "{n} cards", n=n))


def _tickets(n: int) -> str:
    return kit.words(Plural("{n} ticket", "{n} tickets", n=n))


def _points(n: int) -> str:
    return kit.words(Plural("{n} pt", "{n} pts", n=n))


def _list(items: Iterable[str]) -> str:
    """Words listed the image language's way ("a, b" or "a、b")."""
    return kit.tr(N_(", ")).join(items)


def _kind(kind: str) -> str:
    """A card kind's word in the image's language ("red", "loco")."""
    return kit.tr(kind)


def _headline(view: dict[str, Any], names: list[str]) -> tuple[str, str | None]:
    """The turn card's headline, short enough for a phone: (template, the name for its {who})."""
    phase = view["phase"]
    if phase == "keep_setup":
        waiting = [seat_name(names, e["seat"]) for e in view["seats"] if e["setup"] == "choosing"]
        return (N_("Keep tickets: waiting for {who}"), kit.join(waiting))
    if phase == "choose":
        waiting = [seat_name(names, e["seat"]) for e in view["seats"] if e["deciding"]]
        return (N_("Scoring: waiting for {who}"), kit.join(waiting))
    if phase == "over":
        winners = [seat_name(names, s["seat"]) for s in view["result"]["seats"] if s["rank"] == 1]
        return (N_("Game over: {who} wins") if len(winners) == 1 else N_("Game over: {who} win"), kit.join(winners))
    who = seat_name(names, view["active"])
    step = view["step"]
    if step == "second_draw":
        return (N_("{who}: second card"), who)
    if step == "keep":
        return (N_("{who}: keeping tickets"), who)
    return (N_("{who} to play"), who)


def _drawing_open(view: dict[str, Any]) -> bool:
    """Whether a display card may be taken now: during a turn's draw with cards left to draw."""
    return view["phase"] == "turn" and view["step"] in ("action", "second_draw") and view["deck_count"] > 0


def _seat_scores(view: dict[str, Any], names: list[str]) -> list[kit.SeatScore]:
    out = []
    for entry in view["seats"]:
        tickets = entry["tickets_count"]
        cards = _cards(entry["hand_count"])
        held = kit.fill_in("{cards} in hand", cards=cards) if tickets is None else \
            kit.fill_in("{cards} in hand, {tickets}", cards=cards, tickets=_tickets(tickets))
        out.append(kit.SeatScore(entry["seat"], seat_name(names, entry["seat"]), entry["points"],
                                 entry["seat"] in view["to_act"], held))
    return out


def _final_round_strip(page: kit.Page, view: dict[str, Any], names: list[str]) -> None:
    """A red strip under the turn card: the last round has begun, and who still plays in it."""
    who = kit.join(seat_name(names, s) for s in view["final_round"])
    line = kit.fit_name("FINAL ROUND - still to play: {who}", who, page.happened_px, WIDTH - 2 * page.pad, True)
    with page.block(height=round(page.happened_px * 1.8), bg=kit.DANGER) as image:
        kit.text(ImageDraw.Draw(image), (page.pad, image.height / 2), line, page.happened_px, kit.WHITE, bold=True,
                 anchor="lm", translate=False, kind="headline")


def _pile(draw: ImageDraw.ImageDraw, x: float, y: float, label: str, value: str, back: kit.RGB,
          danger: bool = False, note: str = "") -> None:
    draw.rounded_rectangle((x, y, x + 44, y + 62), radius=5, fill=back, outline=kit.INK, width=2)
    kit.text(draw, (x + 54, y + 4), label, 18, kit.MUTED)
    kit.text(draw, (x + 54, y + 28), value, 22, kit.DANGER if danger else kit.INK, bold=True, translate=False)
    if note:
        kit.text(draw, (x + 54, y + 56), note, 17, kit.DANGER, bold=True)


DISPLAY_CARD = (200, 140)
LEFT_COLUMN = 440  # a seat panel's facts and track stack; the rail yard fills the rest


def _draw_area(page: kit.Page, view: dict[str, Any], names: list[str]) -> None:
    """What a player draws from: the display (with `take N` while drawing is open), the piles, and the
    discard pile's colours (at 4 players they become the second deck)."""
    last = view["last_action"] or {}
    card_w, card_h = DISPLAY_CARD
    pad = page.pad
    slot_w = (WIDTH - 2 * pad) / 5
    open_ = _drawing_open(view)
    piles: list[tuple[str, str, kit.RGB, bool, str]] = [
        (N_("Train deck"), kit.tr(N_("EMPTY")) if view["deck_count"] == 0 else _cards(view["deck_count"]),
         (90, 70, 50), view["deck_count"] == 0, N_("drawing closed") if view["deck_count"] == 0 else ""),
        (N_("Ticket deck"), _tickets(view["ticket_deck_count"]), (230, 220, 190), False, ""),
    ]
    if sum(view["set_aside"].values()):
        piles.append((N_("Set aside (used)"), _cards(sum(view["set_aside"].values())),
                      (150, 150, 150), False, ""))
    if view["closed_count"]:
        piles.append((N_("Closed (stall)"), _cards(view["closed_count"]), (150, 150, 150), False, ""))
    status = _status(view, names)
    height = pad + 34 + 28 + card_h + (34 if open_ else 8) + 16 + 86 + 56 + pad
    with page.block(height=height) as image:
        draw = ImageDraw.Draw(image)
        y = pad
        if status and view["phase"] == "turn":
            kit.text(draw, (pad, y), kit.fit(status, 22, WIDTH - 2 * pad, True, translate=False), 22, kit.INK, bold=True,
                     translate=False, kind="panel")
        y += 34
        kit.text(draw, (pad, y), N_("Display"), 18, kit.MUTED, kind="panel")
        y += 28
        for slot, kind in enumerate(view["display"]):
            x0 = pad + slot * slot_w + (slot_w - card_w) / 2
            refilled = last.get("type") == "take" and last.get("slot") == slot
            if refilled:
                draw.rounded_rectangle((x0 - 7, y - 7, x0 + card_w + 7, y + card_h + 7), radius=9,
                                       outline=kit.HIGHLIGHT, width=6)
            _card(draw, (x0, y, x0 + card_w, y + card_h), kind, None, 22)
            # the colour-blind mark, as on the hand's chips: a letter (a kanji in Japanese) in a disc
            _circle(draw, (x0 + 22, y + 22), kind, 16)
            if open_:
                # `take N` is the move's notation: it stays as typed in every language
                label = kit.fill_in("take {n} (refill)", n=slot + 1) if refilled else f"take {slot + 1}"
                kit.text(draw, (x0 + card_w / 2, y + card_h + 8), label, 20,
                         kit.HIGHLIGHT if refilled else kit.INK, bold=True, anchor="ma", translate=False, kind="panel")
        y += card_h + (34 if open_ else 8) + 16
        pile_w = (WIDTH - 2 * pad) / max(3, len(piles))
        for index, (label, value, back, danger, note) in enumerate(piles):
            _pile(draw, pad + index * pile_w, y, label, value, back, danger, note)
        y += 86
        discard = view["discard"]
        total = sum(discard.values())
        label = kit.fill_in("Discard: {cards}", cards=_cards(total))
        kit.text(draw, (pad, y + 14), label, 20, kit.INK, bold=True, anchor="lm", translate=False, kind="panel")
        x = pad + kit.text_size(label, 20, True, translate=False)[0] + 20
        for kind in KINDS:
            if discard.get(kind):
                if x > WIDTH - pad - 110:
                    break  # nine kinds at most: the row holds them; this is only a guard
                x = _chip(draw, x, y, kind, discard[kind], 18)


def _cities(page: kit.Page, view: dict[str, Any], names: list[str]) -> None:
    """The big-city bonuses as a table: a row per city, a column per seat headed by its token and name."""
    pad = page.pad
    seats = view["seats"]
    city_w = 320
    column_w = (WIDTH - 2 * pad - city_w) / len(seats)
    row_h = 36
    height = pad + 30 + 44 + row_h * len(view["big_cities"]) + pad
    with page.block(height=height, bg=kit.WHITE) as image:
        draw = ImageDraw.Draw(image)
        kit.text(draw, (pad, pad), N_("Big-city bonuses (completed tickets naming each city)"), 18, kit.MUTED,
                 kind="panel")
        y = pad + 30
        for index, entry in enumerate(seats):
            x = pad + city_w + index * column_w
            kit.draw_seat_token(draw, entry["seat"], (x + 14, y + 18), 26)
            name = kit.fit(seat_name(names, entry["seat"]), 18, column_w - 40, True, translate=False)
            kit.text(draw, (x + 32, y + 18), name, 18, kit.INK, bold=True, anchor="lm", translate=False, kind="panel")
        y += 44
        for row, city in enumerate(view["big_cities"]):
            won = city["winners"] or []
            if row % 2 == 0:
                draw.rectangle((pad, y, WIDTH - pad, y + row_h), fill=(244, 242, 236))
            _circle(draw, (pad + 16, y + row_h / 2), city["colour"], 12)
            kit.text(draw, (pad + 36, y + row_h / 2), f"{city['city']}  {city['value']}", 20, kit.INK, bold=True,
                     anchor="lm", translate=False, kind="panel")
            for index, entry in enumerate(seats):
                x = pad + city_w + index * column_w
                count = entry["city_counts"][city["city"]]
                winner = entry["seat"] in won
                if winner:
                    draw.rounded_rectangle((x + 2, y + 3, x + 90, y + row_h - 3), radius=6, outline=kit.INK, width=2,
                                           fill=kit.TO_ACT_BG)
                    kit.tick(draw, (x + 70, y + row_h / 2), 16, kit.INK, 3)
                kit.text(draw, (x + 32, y + row_h / 2), str(count), 20, kit.INK, bold=winner, anchor="lm",
                         kind="panel")
            y += row_h


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
    kit.text(draw, (x, y), N_("Rail yard"), 16, kit.MUTED, bold=False)
    y += 24
    if not entry["yard"] and not robbed:
        kit.text(draw, (x, y + 4), N_("empty"), 16, kit.MUTED)
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
                    translate=False,
                    kind="glyph",
                )
            if last_card:
                label = _kind(kind)
                tw = kit.text_size(label, 14, translate=False)[0]
                mid = cx + card_w / 2
                draw.rectangle((mid - tw / 2 - 3, top_y + 11, mid + tw / 2 + 3, top_y + 31), fill=kit.WHITE)
                kit.text(draw, (mid, top_y + 21), label, 14, kit.INK, bold=False, anchor="mm", translate=False,
                         kind="panel")
            bottom = top_y + (card_h if last_card else step)
        if row["colour"] in new_rows:
            draw.rectangle((cx - 5, y - 5, cx + card_w + 5, bottom + 5), outline=kit.HIGHLIGHT, width=4)
        kit.text(
            draw,
            (cx + card_w / 2, bottom + 4),
            kit.fill_in("{kind} {n}", kind=_kind(row["colour"]), n=row["coloured"]),
            14,
            kit.INK,
            bold=True,
            anchor="ma",
            translate=False,
        )
        extra = 0
        if row["locos"]:
            kit.text(
                draw,
                (cx + card_w / 2, bottom + 21),
                kit.fill_in("+ {n} loco", n=row["locos"]),
                14,
                kit.INK,
                bold=True,
                anchor="ma",
                translate=False,
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
            kit.fill_in("{kind} {n}", kind=_kind(rob["colour"]), n=rob["coloured"] + rob["locos"]),
            14,
            kit.DANGER,
            bold=True,
            anchor="ma",
            translate=False,
        )
        kit.text(
            draw,
            (cx + card_w / 2, y + card_h + 22),
            kit.fit_name("robbed by {who}", robber, 14, col_w + 20),
            14,
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
    kit.text(draw, (x1 - 14, y0 + 24), _points(entry["points"]), 22, kit.INK, bold=True,
             anchor="rm", translate=False, kind="panel")
    y = y0 + 52
    x = x0 + 14
    count = entry["tickets_count"]
    tickets = "?" if count is None else _tickets(count)
    facts = kit.fill_in("Hand: {cards}   Tickets: {tickets}",
                        cards=_cards(entry["hand_count"]), tickets=tickets)
    if entry["setup"]:
        facts += "   " + kit.tr(N_("(choosing)") if entry["setup"] == "choosing" else N_("(done)"))
    elif entry["pending_count"]:
        facts += "   " + kit.fill_in("drawing {n}", n=entry["pending_count"])
    kit.text(draw, (x, y), facts, 18, kit.INK, translate=False, kind="panel")
    y += 28
    done = entry["completed"]
    points = sum(TICKETS[t].points for t in done)
    completed = kit.fill_in("Completed: {tickets} ({points})", tickets=_tickets(len(done)),
                            points=_points(points))
    if done:
        completed += kit.tr(N_(": ")) + ", ".join(f"#{t}" for t in done)
    # Before the final scoring the panel has two columns: facts and track stack left, the rail yard right.
    right = x1 - 14 if view["phase"] == "over" else x0 + LEFT_COLUMN - 10
    kit.text(draw, (x, y), kit.fit(completed, 16, right - x, translate=False), 16, kit.INK, translate=False,
             kind="panel")
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
    kit.text(draw, (x + 56, y + 4), N_("Track stack"), 16, kit.MUTED, bold=False)
    if entry["track"] is not None:
        cx, cy = x + 56, y + 24
        for kind in KINDS:
            if entry["track"][kind]:
                if cx > right - 100:
                    cx, cy = x + 56, cy + 32
                cx = _chip(draw, cx, cy, kind, entry["track"][kind], 14)
        y = max(y + 64, cy + 38)
    else:
        kit.text(draw, (x + 56, y + 28), N_("face down: nobody may look"), 15, kit.MUTED)
        y += 64
    if view["phase"] == "choose":
        state = (
            N_("Scoring: choosing which tickets to complete") if entry["deciding"]
            else N_("Scoring: nothing to choose / done")
        )
        kit.text(draw, (x, y), state, 16, kit.HIGHLIGHT, bold=True)
        y += 24
        if entry["revealed_tickets"] is not None:
            shown = ", ".join(f"#{t}" for t in entry["revealed_tickets"]) or kit.tr(N_("none"))
            revealed = kit.fill_in("Tickets in hand (revealed): {ids}", ids=shown)
            kit.text(draw, (x, y), kit.fit(revealed, 16, right - x, translate=False), 16, kit.INK, translate=False)
            y += 24
    _yard_rows(draw, entry, view, x0 + LEFT_COLUMN + 10, y0 + 52, names)


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
    kit.text(draw, (x, y), N_("Track stack revealed:"), 15, kit.MUTED, bold=False)
    start = x + max(170, kit.text_size(N_("Track stack revealed:"), 15)[0] + 14)
    cx = start
    if not any(final["track"].values()):
        kit.text(draw, (cx, y), N_("empty"), 15, kit.MUTED)
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
        kit.text(draw, (x + 262, y), kit.fill_in("-{n}  not completed", n=ticket.points), 15, kit.DANGER, bold=True,
                 translate=False)
        y += 22
    breakdown = result["breakdown"]
    cities = result["details"]["big_city_cards"]
    won = ", ".join(f"{c} {BIG_CITIES[c][0]}" for c in cities)
    label = kit.tr(N_("Big cities: none")) if not cities else kit.fill_in("Big cities: {cities}", cities=won)
    kit.text(draw, (x, y + 4), kit.fit(label, 15, right - x, translate=False), 15, kit.INK, translate=False)
    y += 28
    tickets, failed, bonus = breakdown["tickets_final"], breakdown["tickets_failed"], breakdown["big_cities"]
    rank = kit.tr(ORDINAL.get(result["rank"], str(result["rank"])))
    if view["decks_total"] == 2:
        line = kit.fill_in("{rank}: {score} points  (deck 1 {deck1}, tickets {tickets}, failed {failed}, cities "
                           "{cities})", rank=rank, score=result["score"], deck1=breakdown["tickets_deck1"],
                           tickets=tickets, failed=failed, cities=bonus)
    else:
        line = kit.fill_in("{rank}: {score} points  (tickets {tickets}, failed {failed}, cities {cities})", rank=rank,
                           score=result["score"], tickets=tickets, failed=failed, cities=bonus)
    kit.text(draw, (x, y), kit.fit(line, 18, right - x, True, translate=False), 18, kit.INK, bold=True,
             translate=False)


def _panel_height(view: dict[str, Any], entry: dict[str, Any]) -> int:
    if view["phase"] == "over":
        final = view["scorings"][-1]["seats"][entry["seat"]]
        return 240 + 22 * (len(final["completed"]) + len(final["failed"]))
    tallest = max([r["locos"] + r["coloured"] for r in entry["yard"]] + [1])
    kinds = sum(1 for k in KINDS if entry["track"] and entry["track"][k])
    track_lines = 32 * max(0, -(-kinds // 3) - 1) if entry["track"] is not None else 0
    left = 52 + 28 + 26 + 64 + track_lines + (48 if view["phase"] == "choose" else 0) + 12
    yard = 52 + 24 + max(40 + 20 * (tallest - 1) + 40, 86) + 12
    return max(left, yard)


def board(view: dict[str, Any], names: list[str]) -> bytes:
    """The public table, from view(None): turn card, final-round strip, draw area, big cities, one panel per seat."""
    return kit.encode(board_image(view, names))


def board_image(view: dict[str, Any], names: list[str]) -> Image.Image:
    """The public table, not yet encoded (render.board_image)."""
    page = kit.Page(WIDTH)
    template, who = _headline(view, names)
    last = view["last_action"]
    active = view["active"]
    page.turn_card(template, _last_line(last, names) if last else "", _seat_scores(view, names), who=who,
                   accent=active if view["phase"] == "turn" else None)
    if view["final_round"]:
        _final_round_strip(page, view, names)
    if view["phase"] != "over":
        _draw_area(page, view, names)
    _cities(page, view, names)
    for entry in view["seats"]:
        height = _panel_height(view, entry)
        with page.block(height=height + 12) as image:
            _seat_panel(image, view, entry, (page.pad, 6, WIDTH - page.pad, 6 + height), names)
    return page.image()


# ---------------------------------------------------------------------------- private image


TICKET_W, TICKET_STEP, TICKETS_PER_ROW = 360, 376, 3


def _ticket_card(draw: ImageDraw.ImageDraw, x: float, y: float, tid: int, highlight: bool = False) -> None:
    ticket = TICKETS[tid]
    w, h = TICKET_W, 92
    draw.rounded_rectangle(
        (x, y, x + w, y + h),
        radius=8,
        fill=(252, 248, 232),
        outline=kit.HIGHLIGHT if highlight else kit.INK,
        width=4 if highlight else 2,
    )
    kit.text(draw, (x + 10, y + 8), f"#{tid}", 18, kit.MUTED, bold=True, kind="panel")
    kit.text(draw, (x + w - 10, y + 8), _points(ticket.points), 18, kit.INK, bold=True, anchor="ra",
             translate=False, kind="panel")
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
    per_row = TICKETS_PER_ROW
    rows_t = -(-len(tickets) // per_row)
    rows_p = -(-len(pending) // per_row)
    height = 10 + 190 + 60 + rows_t * 104 + (60 + rows_p * 104 if pending else 0) + 90
    if view["phase"] == "choose":
        height += 60
    page = kit.Page(WIDTH)
    # the top says whose hand this is, then what the table waits for, with every score
    page.turn_card(N_("{who} - your hand (private)"), _status(view, names), _seat_scores(view, names),
                   who=seat_name(names, seat), accent=seat)
    with page.block(height=height) as image:
        _hand_body(image, view, entry, tickets, pending)
    return kit.encode(page.image())


def _hand_body(image: Image.Image, view: dict[str, Any], entry: dict[str, Any], tickets: list[int],
               pending: list[int]) -> None:
    draw = ImageDraw.Draw(image)
    per_row = TICKETS_PER_ROW
    rows_t = -(-len(tickets) // per_row)
    rows_p = -(-len(pending) // per_row)
    y = 10
    kit.text(draw, (MARGIN, y), kit.fill_in("Train cards: {n}", n=entry["hand_count"]), 20, kit.INK, bold=True,
             translate=False)
    y += 32
    x = MARGIN
    for kind in KINDS:
        count = view["hand"].get(kind, 0)
        box = (x, y, x + 118, y + 120)
        _card(draw, box, kind, None, 16, outline=kit.INK if count else kit.GRID)
        _circle(draw, (x + 17, y + 17), kind, 12)  # the colour-blind mark, as on the display
        if not count:
            # An empty kind is greyed out so the held ones stand out.
            overlay = Image.new("RGB", (119, 121), kit.PAPER)
            image.paste(
                Image.blend(image.crop((int(x), y, int(x) + 119, y + 121)), overlay, 0.7), (int(x), y)
            )
        kit.text(
            draw, (x + 59, y + 128), f"x {count}", 22, kit.INK if count else kit.MUTED, bold=True, anchor="ma",
            translate=False, kind="panel",
        )
        x += 126
    y += 170
    track = entry["track"]
    if track is not None:
        line = kit.words(Msg("Your track stack: {cards} (face up: {face})",
                             cards=Plural("{n} card", "{n} cards", n=entry["track_count"]), face=card_counts(track)))
    else:
        line = kit.fill_in("Your track stack: {cards} (face down: you may not look)",
                           cards=_cards(entry["track_count"]))
    kit.text(draw, (MARGIN, y), line, 18, kit.INK, translate=False)
    y += 36
    kit.text(
        draw,
        (MARGIN, y),
        kit.fill_in("Your tickets ({n})", n=len(tickets)) if tickets else kit.tr(N_("Your tickets (0): none")),
        20,
        kit.INK,
        bold=True,
        translate=False,
    )
    y += 30
    picks = set(view.get("picks") or [])
    for index, tid in enumerate(tickets):
        _ticket_card(
            draw, MARGIN + (index % per_row) * TICKET_STEP, y + (index // per_row) * 104, tid, highlight=tid in picks
        )
    y += rows_t * 104
    if pending:
        # The setup choice stays in the view all game: it only answers the drawn tickets of the keep step.
        kept = view.get("setup_choice") if view["phase"] == "keep_setup" else None
        title = kit.tr(N_("Drawn tickets: answer with `keep ID ID ...` (at least 1)") if view["phase"] == "keep_setup"
                       else N_("Drawn tickets: answer with `keep ID ID ...` or `keep none`"))
        if kept:
            title = kit.fill_in("You keep: {ids} (waiting for the others)", ids=", ".join(map(str, kept)))
        kit.text(draw, (MARGIN, y + 8), title, 20, kit.HIGHLIGHT, bold=True, translate=False)
        y += 44
        for index, tid in enumerate(pending):
            _ticket_card(
                draw,
                MARGIN + (index % per_row) * TICKET_STEP,
                y + (index // per_row) * 104,
                tid,
                highlight=bool(kept and tid in kept),
            )
        y += rows_p * 104
    if view["phase"] == "choose":
        pickable = view.get("pickable") or []
        picked = ", ".join(f"#{t}" for t in view["picks"]) or kit.tr(N_("none"))
        if entry["deciding"]:
            fitting = ", ".join(f"#{t}" for t in pickable) or kit.tr(N_("nothing (send `done`)"))
            text = kit.fill_in("Picked: {picked}   Still fits: {fits}", picked=picked, fits=fitting)
        else:
            text = kit.fill_in("Completed at this scoring: {ids} (nothing to choose)", ids=picked)
        kit.text(draw, (MARGIN, y + 14), kit.fit(text, 18, WIDTH - 2 * MARGIN, True, translate=False), 18, kit.INK,
                 bold=True, translate=False)
        y += 44
    # The marks explained (a language whose marks need no explaining drops {letters} from its translation).
    legend = kit.fill_in("Letters: {letters}.   * = big city", letters=", ".join(f"{_mark(k)} {_kind(k)}" for k in KINDS))
    kit.text(draw, (MARGIN, y + 16), legend, 16, kit.MUTED, translate=False)


# ---------------------------------------------------------------------------- interludes and alt text


def intermediate_scoring(view: dict[str, Any], names: list[str]) -> bytes:
    """The 4-player intermediate scoring: each revealed stack and the tickets it completed."""
    record = next(r for r in reversed(view["scorings"]) if r["kind"] == "intermediate")
    seats = record["seats"]
    rows = [max(len(seats[i]["completed"]), len(seats[i + 1]["completed"])) for i in range(0, len(seats), 2)]
    height = 110 + sum(150 + 22 * r for r in rows) + MARGIN
    image = kit.new_canvas(WIDTH, height)
    draw = ImageDraw.Draw(image)
    kit.text(draw, (MARGIN, 16), N_("Intermediate scoring (end of deck 1)"), 28, kit.INK, bold=True)
    kit.text(
        draw,
        (MARGIN, 60),
        N_("Track stacks revealed. Completed tickets score now; their cards are set aside. "
           "Other tickets stay secret in hand."),
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
                kit.fill_in("+{n} pts", n=entry["points"]),
                22,
                kit.INK,
                bold=True,
                anchor="rm",
                translate=False,
            )
            cx, cy = x0 + 14, y + 54
            if not any(entry["track"].values()):
                kit.text(draw, (cx, cy + 6), N_("empty track stack"), 15, kit.MUTED)
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
                kit.text(draw, (x0 + 14, ty), N_("no ticket completed"), 15, kit.MUTED)
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
    """Alt text for the public table, in the image's language (render.in_language): status, display, piles,
    and per seat points, cards and yard. Each sentence is one message; `_sentences` puts them in a row."""
    parts = [kit.fill_in("Ticket to Ride: The Card Game, public table. {status}.", status=_status(view, names))]
    if view["decks_total"] == 2:
        parts.append(kit.fill_in("Deck {n} of 2.", n=view["deck_number"]))
    if view["final_round"]:
        parts.append(kit.fill_in("Final round, still to play: {who}.",
                                 who=kit.join(seat_name(names, s) for s in view["final_round"])))
    last = view["last_action"]
    if last:
        parts.append(kit.say(Msg("Last: {text}.", text=_said(last, names)), names))
    parts.append(kit.fill_in("Display: {cards}. Deck {deck}, tickets {tickets}.",
                             cards=_list(_kind(k) for k in view["display"]), deck=view["deck_count"],
                             tickets=view["ticket_deck_count"]))
    for entry in view["seats"]:
        yard = _list(
            kit.fill_in("{colour} {n} + {m} loco", colour=_kind(r["colour"]), n=r["coloured"], m=r["locos"])
            if r["locos"] else kit.fill_in("{kind} {n}", kind=_kind(r["colour"]), n=r["coloured"])
            for r in entry["yard"]
        )
        tickets = "?" if entry["tickets_count"] is None else entry["tickets_count"]
        name = seat_name(names, entry["seat"])
        parts.append(kit.fill_in(
            "{who}: {points} pts, hand {hand}, tickets {tickets}, track {track}, completed {done}.", who=name,
            points=entry["points"], hand=entry["hand_count"], tickets=tickets, track=entry["track_count"],
            done=len(entry["completed"])))
        parts.append(kit.fill_in("{who}'s yard: {yard}.", who=name, yard=yard or kit.tr(N_("empty"))))
    return _sentences(parts)


def _sentences(parts: list[str]) -> str:
    """Sentences in a row, the image language's way (a space between them in English)."""
    text = parts[0]
    for part in parts[1:]:
        # TRANSLATORS: two sentences in a row (English puts a space between them)
        text = kit.fill_in("{a} {b}", a=text, b=part)
    return text
