"""The rating-history chart of /profile: one line per game title over time, drawn for a phone (800 px wide,
readable at 400). Words come in already translated (a title, the heading); dates are ISO days."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import ImageDraw

from render import kit

WIDTH, HEIGHT = 800, 460
LEFT, RIGHT, TOP, BOTTOM = 92, 28, 70, 120  # the plot's margins: ticks left, heading top, dates and legend below
MAX_SERIES = 4
LABEL = 24  # px at 800 wide: 12 px on a 400 px phone screen
HEADING = 28


@dataclass(frozen=True)
class Series:
    """One title's line: (time, shown rating) points, oldest first."""

    title: str
    points: Sequence[tuple[float, int]]


def _nice_step(span: float) -> int:
    """A tick step of 1, 2 or 5 times a power of ten giving 3-6 ticks over `span`."""
    for step in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if span / step <= 5:
            return step
    return 2000


def _day(at: float) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(at))


def rating_chart(series: Sequence[Series], heading: str) -> bytes:
    """PNG bytes: each series (at most MAX_SERIES) as a line in a seat colour with the seat's symbol at
    every point it can show (its last point always), the 1000 line of a new player, the value axis, the
    first and last day, and a legend naming each title with its latest rating."""
    series = [s for s in series if s.points][:MAX_SERIES]
    image = kit.new_canvas(WIDTH, HEIGHT)
    draw = ImageDraw.Draw(image)
    kit.text(draw, (LEFT, 18), kit.fit(heading, HEADING, WIDTH - LEFT - RIGHT, bold=True, translate=False),
             HEADING, bold=True, translate=False, kind="headline")
    values = [v for s in series for _, v in s.points] or [1000]
    times = [t for s in series for t, _ in s.points] or [0.0]
    low, high = min(*values, 1000), max(*values, 1000)
    step = _nice_step(max(high - low, 1))
    low, high = (low // step) * step, -(-high // step) * step
    if high == low:
        high += step
    first, last = min(times), max(times)
    span = (last - first) or 1.0
    x0, x1, y0, y1 = LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM

    def xy(at: float, value: float) -> tuple[float, float]:
        x = x0 + (at - first) / span * (x1 - x0) if last > first else (x0 + x1) / 2
        return x, y1 - (value - low) / (high - low) * (y1 - y0)

    for tick in range(int(low), int(high) + 1, step):
        _, y = xy(first, tick)
        draw.line((x0, y, x1, y), fill=kit.GRID if tick != 1000 else kit.MUTED, width=1 if tick != 1000 else 2)
        kit.text(draw, (x0 - 10, y), str(tick), LABEL, kit.MUTED, anchor="rm", translate=False, kind="score")
    kit.text(draw, (x0, y1 + 8), _day(first), LABEL, kit.MUTED, anchor="la", translate=False, kind="score")
    if _day(last) != _day(first):
        kit.text(draw, (x1, y1 + 8), _day(last), LABEL, kit.MUTED, anchor="ra", translate=False, kind="score")
    for index, one in enumerate(series):
        colour = kit.seat_colour(index)
        points = [xy(at, value) for at, value in one.points]
        if len(points) > 1:
            draw.line(points, fill=colour, width=4, joint="curve")
        spacing = max(1, len(points) // 12)  # symbols only where they do not crowd
        for number, point in enumerate(points):
            if number % spacing == 0 or number == len(points) - 1:
                kit.draw_symbol(draw, kit.seat_symbol(index), point, 14 if number < len(points) - 1 else 20,
                                colour, width=2)
    # The legend: symbol, title, latest rating; two per row.
    for index, one in enumerate(series):
        column, row = index % 2, index // 2
        left = LEFT + column * (WIDTH - LEFT - RIGHT) // 2
        top = y1 + 48 + row * 34
        kit.draw_symbol(draw, kit.seat_symbol(index), (left + 10, top + 12), 20, kit.seat_colour(index))
        label = f"{one.points[-1][1]} {one.title}"
        kit.text(draw, (left + 28, top), kit.fit(label, LABEL, (WIDTH - LEFT - RIGHT) // 2 - 40, translate=False),
                 LABEL, translate=False, kind="score")
    return kit.encode(image)
