"""The shared drawing kit: fonts, colour-blind-safe seat palette and symbols, helpers, encode, static cache."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image, ImageDraw, ImageFont

from render import kit

# --------------------------------------------------------------------------- colour-vision simulation

# Machado, Oliveira & Fernandes (2009), severity 1.0, applied to linear RGB.
CVD_MATRICES = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
}


def _linear(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(rgb: tuple[int, int, int], vision: str) -> tuple[float, float, float]:
    """CIELAB of the colour as a viewer with `vision` sees it."""
    lin = [_linear(v) for v in rgb]
    m = CVD_MATRICES[vision]
    r, g, b = (min(1.0, max(0.0, sum(m[i][j] * lin[j] for j in range(3)))) for i in range(3))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def _delta_e(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    return sum((p - q) ** 2 for p, q in zip(a, b, strict=True)) ** 0.5


@pytest.mark.parametrize(
    ("vision", "minimum"),
    [("protanopia", 15), ("deuteranopia", 15), ("tritanopia", 15), ("normal", 25)],
)
def test_seat_colours_stay_apart_under_colour_blindness(vision: str, minimum: float) -> None:
    labs = [_lab(kit.seat_colour(seat), vision) for seat in range(kit.MAX_SEATS)]
    worst = min(_delta_e(a, b) for a, b in itertools.combinations(labs, 2))
    assert worst >= minimum, f"two seat colours look alike under {vision}: delta E {worst:.1f}"


def test_simulation_does_merge_red_and_green() -> None:
    # guards the test above: a classic red/green pair must collapse under deuteranopia
    red, green = (200, 60, 40), (90, 140, 40)
    assert _delta_e(_lab(red, "deuteranopia"), _lab(green, "deuteranopia")) < 15
    assert _delta_e(_lab(red, "normal"), _lab(green, "normal")) > 40


def test_six_seats_have_distinct_colours_symbols_and_labels() -> None:
    seats = range(kit.MAX_SEATS)
    assert kit.MAX_SEATS == 6
    assert len({kit.seat_colour(s) for s in seats}) == 6
    assert len({kit.seat_symbol(s) for s in seats}) == 6
    assert [kit.seat_label(s) for s in seats] == ["1", "2", "3", "4", "5", "6"]
    assert all(kit.seat_colour(s) != kit.INK for s in seats)  # black is for black tracks and text


def test_seat_text_colour_is_readable_on_the_seat_colour() -> None:
    for seat in range(kit.MAX_SEATS):
        assert kit.contrast_ratio(kit.seat_colour(seat), kit.seat_text_colour(seat)) >= 4.5
    assert kit.contrast_text((0, 0, 0)) == kit.WHITE
    assert kit.contrast_text((255, 255, 255)) == kit.INK


def _symbol_mask(shape: str) -> set[tuple[int, int]]:
    image = Image.new("L", (60, 60), 0)
    kit.draw_symbol(ImageDraw.Draw(image), shape, (30, 30), 40, fill=255, outline=None)
    return {(x, y) for x in range(60) for y in range(60) if image.getpixel((x, y))}


def test_symbols_have_clearly_different_outlines() -> None:
    masks = {shape: _symbol_mask(shape) for shape in kit.SYMBOLS}
    for shape, mask in masks.items():
        assert 500 < len(mask) < 1800, f"{shape} is not about 40 px across"
    for a, b in itertools.combinations(kit.SYMBOLS, 2):
        differ = len(masks[a] ^ masks[b]) / len(masks[a] | masks[b])
        assert differ > 0.12, f"{a} and {b} look alike ({differ:.2f})"
    with pytest.raises(ValueError):
        kit.draw_symbol(ImageDraw.Draw(Image.new("L", (9, 9))), "blob", (4, 4), 8, fill=1)


def test_seat_token_shows_the_colour() -> None:
    image = kit.new_canvas(60, 60, kit.WHITE)
    kit.draw_seat_token(ImageDraw.Draw(image), 2, (30, 30), 40)
    assert image.getpixel((20, 40)) == kit.seat_colour(2)  # inside the triangle, beside the digit


# --------------------------------------------------------------------------- fonts and text


def test_font_is_freetype_cached_and_bold_is_flagged() -> None:
    regular = kit.font(18)
    assert isinstance(regular, ImageFont.FreeTypeFont)
    assert kit.font(18) is regular
    bold = kit.font(18, bold=True)
    assert bold is not regular
    assert kit.text_size("Paris", 18, bold=True)[0] > kit.text_size("Paris", 18)[0]
    assert kit.text_size("Paris", 30)[0] > kit.text_size("Paris", 18)[0]


def test_plain_replaces_characters_the_font_lacks() -> None:
    assert kit.plain("Zürich") == "Zurich"
    assert kit.plain("București") == "Bucuresti"
    assert kit.plain("Malmö – København") == "Malmo - Kobenhavn"
    assert kit.plain("score ≤ 0") == "score <= 0"
    assert kit.plain("Round 2 · Ann") == "Round 2 · Ann"
    assert all(ch in kit.FONT_CHARS for ch in kit.plain("日本 Łódź ✓"))


def test_fit_shortens_to_the_width() -> None:
    assert kit.fit("Ann", 20, 300) == "Ann"
    short = kit.fit("Fatima-Zahra the Magnificent", 20, 120)
    assert short.endswith("…") and kit.text_size(short, 20)[0] <= 120


def test_text_with_halo_paints_the_halo() -> None:
    image = kit.new_canvas(120, 40, (0, 0, 0))
    kit.text(ImageDraw.Draw(image), (60, 20), "Wien", 20, fill=kit.INK, halo=kit.WHITE, anchor="mm")
    assert (255, 255, 255) in {colour for _, colour in image.getcolors(4096)}


# --------------------------------------------------------------------------- bars, panel


@pytest.mark.parametrize("pattern", ["solid", "stripes", "dashes", "dots"])
def test_patterned_bar_fills_its_band(pattern: str) -> None:
    image = kit.new_canvas(100, 40, kit.WHITE)
    kit.patterned_bar(
        ImageDraw.Draw(image), (10, 20), (90, 20), 12, kit.seat_colour(0), pattern, outline=None
    )
    colours = {colour for _, colour in image.getcolors(4096)}
    assert kit.seat_colour(0) in colours
    assert image.getpixel((50, 5)) == kit.WHITE  # nothing outside the bar
    if pattern != "solid":
        assert kit.seat_text_colour(0) in colours
    with pytest.raises(ValueError):
        kit.patterned_bar(ImageDraw.Draw(image), (10, 20), (90, 20), 12, kit.WHITE, "plaid")


def test_panel_flows_down_and_score_track_places_every_seat() -> None:
    image = kit.new_canvas(400, 600)
    panel = kit.Panel(image, (0, 0, 400, 600))
    y0 = panel.y
    panel.title("Game")
    panel.player_row(
        0, "Ann", 12, to_act=True, note="a note long enough to wrap onto a second line of the panel"
    )
    panel.player_row(1, "A very long player name that cannot fit", 3)
    assert panel.y > y0 + 100
    before = panel.y
    # above the top, on the track and below zero: all must land in cells
    panel.score_track(25, [(0, 30), (1, 7), (2, -4), (3, 0)])
    assert panel.y - before > 80  # 26 spaces wrap into two rows
    for seat in range(4):
        assert kit.seat_colour(seat) in {colour for _, colour in image.getcolors(1 << 16)}


# --------------------------------------------------------------------------- encode and static layers


def test_encode_gives_a_png_of_the_same_size() -> None:
    image = kit.new_canvas(320, 200)
    draw = ImageDraw.Draw(image)
    for seat in range(6):
        kit.draw_seat_token(draw, seat, (30 + seat * 50, 50), 36)
    kit.text(draw, (10, 120), "Anti-aliased text makes many colours", 22)
    data = kit.encode(image)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    decoded = Image.open(io.BytesIO(data))
    decoded.load()
    assert decoded.format == "PNG"
    assert decoded.size == (320, 200)
    exact = Image.open(io.BytesIO(kit.encode(image, exact=True))).convert("RGB")
    assert exact.tobytes() == image.tobytes()


def test_encode_is_lossless_for_few_colours() -> None:
    image = kit.new_canvas(50, 50, kit.PAPER)
    ImageDraw.Draw(image).rectangle((10, 10, 30, 30), fill=kit.seat_colour(3))
    decoded = Image.open(io.BytesIO(kit.encode(image)))
    assert decoded.mode == "P"
    assert decoded.convert("RGB").tobytes() == image.tobytes()


def test_static_layer_builds_once_and_hands_out_copies() -> None:
    calls = []

    def build() -> Image.Image:
        calls.append(1)
        return kit.new_canvas(20, 20, kit.WHITE)

    key = "test_kit/static"
    kit.clear_static_layers()
    first = kit.static_layer(key, build)
    first.putpixel((5, 5), (0, 0, 0))
    second = kit.static_layer(key, build)
    assert len(calls) == 1
    assert second.getpixel((5, 5)) == kit.WHITE  # painting a copy never reaches the cache
    kit.clear_static_layers()
    kit.static_layer(key, build)
    assert len(calls) == 2
