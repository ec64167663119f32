"""The rating-history chart (render/chart.py): one line per title, readable at 400 px wide, nothing overlapping."""

from __future__ import annotations

import io

from PIL import Image

from render import kit
from render.chart import HEIGHT, MAX_SERIES, WIDTH, Series, rating_chart
from tests.render.layout_check import findings, recorded

DAY = 86_400.0


def walk(start: float, steps: list[int]) -> list[tuple[float, int]]:
    points, value = [(start, 1000)], 1000
    for n, step in enumerate(steps, start=1):
        value += step
        points.append((start + n * DAY, value))
    return points


SERIES = [Series("Santa Fe", walk(1.76e9, [40, -12, 33, 25, -8, 51] * 6)),
          Series("Ticket to Ride: The Card Game", walk(1.7601e9, [-20, -15, 30, -5])),
          Series("トランス・ヨーロッパ", walk(1.7602e9, [12])),
          Series("Off the Rails", walk(1.7603e9, [0, 0])),
          Series("Great Western Railway", walk(1.7604e9, [5]))]


def test_the_chart_is_a_phone_sized_png_with_a_line_per_title():
    png = rating_chart(SERIES, "Rating history on this server")
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.size == (WIDTH, HEIGHT) == (800, 460)
    colours = {colour for _, colour in image.getcolors(WIDTH * HEIGHT)}
    # The first MAX_SERIES titles, each in its seat colour; the fifth is left out.
    assert all(kit.seat_colour(n) in colours for n in range(MAX_SERIES))
    assert kit.seat_colour(MAX_SERIES) not in colours


def test_every_word_reads_at_400_px_and_nothing_overlaps():
    for heading in ("Rating history on this server", "このサーバーでのレーティングの推移"):
        boxes, size = recorded(lambda heading=heading: rating_chart(SERIES, heading))
        assert findings(boxes, size) == []
        texts = [b.text for b in boxes if b.is_text]
        assert heading in texts and any("Santa Fe" in text for text in texts)
        assert min(b.size for b in boxes if b.is_text) >= kit.min_size("score", 400 * 2)


def test_one_game_or_none_still_draws():
    single = rating_chart([Series("Santa Fe", [(1.76e9, 1000), (1.76e9, 1083)])], "x")
    assert Image.open(io.BytesIO(single)).size == (800, 460)
    assert Image.open(io.BytesIO(rating_chart([], "x"))).size == (800, 460)
