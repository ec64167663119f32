"""Shared drawing kit for every game's board images: fonts, seat palette and symbols, labels, panel, encode.

How to build a game renderer on it (see render/trans_europa.py for a full example):

    from render import kit

    def _static() -> Image.Image:              # the map that never changes: drawn once per process
        image = kit.new_canvas(1600, 1000)
        ...
        return image

    def board(view, names) -> bytes:
        image = kit.static_layer("my_game/map", _static)   # a fresh copy, safe to paint on
        draw = ImageDraw.Draw(image)
        kit.draw_seat_token(draw, seat, (x, y), 28)         # colour + shape + number
        kit.text(draw, (x, y), "Paris", 16, halo=kit.WHITE)  # label readable over a busy map
        panel = kit.Panel(image, (1200, 0, 1600, 1000))
        panel.title("My game")
        panel.player_row(seat, names[seat], score=12, to_act=True)
        return kit.encode(image)

Phone-first layout (every channel image): `Page(width=1200)` stacks parts top-down at one width.
`page.turn_card(headline, happened, seats, who=, accent=)` is the top: whose turn in large type
(headline 3.2% of the width), what just happened (2.7%) and a grid of `SeatScore(seat, name, score,
to_act, note)` cells (token colour + shape, name, score at 3%): what a phone shows ~400 px wide
reads without zooming. `with page.block(image=lambda: map_layer) as image:` adds the map, drawn at the page
width (labels >= `page.label_px`, 1.1% of the width, read after one pinch); `with page.panel(max_h)
as panel:` adds a full-width `Panel` cut to the height it used; `page.image()` is the result.

    page = kit.Page(1200)
    page.turn_card("{who} to play", kit.say(last_line, names), seats, who=names[active], accent=active)
    with page.block(image=lambda: kit.static_layer("my_game/map", _draw_map)) as image:
        ...                                         # tracks, tokens: the map's own coordinates
    with page.panel(600) as panel:
        panel.line("Deck: 12 cards")
    return kit.encode(page.image())

Layout tests: `with kit.recording() as boxes:` collects every `TextBox(text, box, size, kind)` drawn
inside it, in page coordinates (parts are shifted by where they land; cached layers replay what
they drew). `text(..., kind=)` declares the role: "map" (default) and "panel" labels >= 1.1% of the
width, "headline" and "score" >= 2.5% (`TEXT_KINDS`, `min_size`), "glyph" for a mark inside a
symbol. `draw_symbol`/`draw_seat_token` record their box as kind "symbol"; `mark(box)` records
any other token, flag or disc, so tests/render/layout_check.py can tell a label that sits on it.

API summary
- Colours (RGB tuples): INK, MUTED, WHITE, PAPER, PANEL_BG, GRID, HIGHLIGHT, DANGER, TO_ACT_BG.
- Fonts: `font(size, bold=False)` is Pillow's bundled FreeType font (Aileron), cached, for Latin
  text; `cjk_font(size, bold)` is the shipped Noto Sans CJK JP subset (render/fonts/) for text with
  Japanese or letters that have no plain form. Neither has a bold face, so `bold=True` returns a font
  flagged as bold that `text()` and `Panel` thicken with a 1 px stroke; call `text()` rather than
  `draw.text()` to get that and the font choice (`shown()`). `text_size(s, size, bold)` measures,
  `fit(s, size, width, bold)` shortens with "…" to fit a width. Latin labels drop accents
  (Zürich -> Zurich) so a map's labels look alike. Draw ticks and arrows as shapes.
- Language: `render.board_png(view, names, lang)` draws inside `language(lang)` and `game(key)`: every
  string `text()`, `fit()`, `text_size()` and `Panel` get is a message id, looked up exactly in the
  game's domain of the catalogs (locales/<lang>/LC_MESSAGES/<game>.po), then the shared `images.po`
  (no pattern: a label with values is a `fill_in` template or a message). Pass
  `translate=False` for player names. `Panel.wrapped` breaks Japanese between characters. Static
  layers are cached per language. Lines with names in them are translated first, then get the names:
  `fill_in(template, **values)`, `say(line_with_seat_tokens, names)`, `fit_name(template, name, size,
  width)` (the name gives way so the line fits); `join(items)` lists in the image's language.
- Seats (0..5): `seat_colour`, `seat_text_colour` (black or white, whichever contrasts more),
  `seat_symbol` (circle, square, triangle, diamond, star, hexagon), `seat_label` ("1".."6").
  The colours are Okabe–Ito and stay apart under protanopia/deuteranopia/tritanopia, but ALWAYS show
  the symbol (and label when there is room) too: `draw_seat_token(draw, seat, centre, size)`.
  `draw_symbol(draw, shape, centre, size, fill, outline, width)` draws any of SYMBOLS;
  `contrast_text(rgb)` picks black/white text for any background; `blend(a, b, t)` mixes two colours.
- Drawing: `new_canvas(w, h, bg)`, `text(draw, xy, s, size, fill, bold, halo, anchor)`,
  `patterned_bar(draw, a, b, width, fill, pattern, pattern_fill, outline)` for thick striped/dashed
  bars (tracks, routes), `tick(draw, centre, size, fill)` a check mark.
- Side panel: `Panel(image, box)` is a top-down flow layout: `title`, `line`, `wrapped`, `gap`,
  `rule`, `player_row` (token + name + score + "to act" arrow + note + reserved badge space), `legend_item`, `score_track`.
  `panel.y` is the cursor if you need to draw something custom and then `panel.gap(h)` past it;
  `panel.room()` is the height left, to drop optional rows (legends) on crowded panels.
  `wrap_lines(s, size, width, bold)` is the panel's line breaking for text drawn elsewhere (exact,
  and cheap: only lines near full width are laid out to measure).
- Speed: `static(key, builder)` caches any drawn value (tiles) per process and language, and
  `static_layer(key, builder)` caches `builder()`'s image per process and returns a copy; `text()`
  keeps each label's rendered glyph mask (most of a board's drawing time). `encode(image, exact=False)`
  gives PNG bytes: 256 colours (`quantize`: a palette from a sample of the pixels, nearest colour
  without dithering) at zlib level 3. Measured with `python bench/render.py` on 1200 px portrait
  boards (CPU ms, median): Trans Europa 119 KB in 18 ms, Ticket to Ride 88 KB in 22 ms. Level 1 is
  as fast and 7-19% bigger, level 6 20-35% smaller for 15 ms more; lossless WebP of the same 256
  colours halves the bytes but takes 100-120 ms, three times the 40 ms a board may take, and
  Discord's media proxy re-encodes previews for phones anyway: PNG it is.
"""

from __future__ import annotations

import io
import math
import re
import threading
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from PIL import Image, ImageDraw, ImageFont

import locales
from rules.engine import name_seats
from rules.words import N_, Items, Msg, Verbatim

RGB = tuple[int, int, int]
Point = tuple[float, float]


def hex_rgb(code: str) -> RGB:
    code = code.lstrip("#")
    return (int(code[0:2], 16), int(code[2:4], 16), int(code[4:6], 16))


INK: RGB = (26, 26, 26)
MUTED: RGB = (96, 96, 96)
WHITE: RGB = (255, 255, 255)
PAPER: RGB = (246, 243, 235)
PANEL_BG: RGB = (255, 255, 255)
GRID: RGB = (170, 165, 155)
# Hot magenta, unlike every seat and region colour; use it as a wide halo, so its shape marks it as well.
HIGHLIGHT: RGB = (230, 0, 126)
DANGER: RGB = (200, 30, 30)
TO_ACT_BG: RGB = (255, 236, 179)  # the tint behind the row of the player whose turn it is

# --------------------------------------------------------------------------- language

# Words more than one game's images draw (panel headings, the score track): the `images` domain's ids
# (locales/<lang>/LC_MESSAGES/images.po), looked up after the game's own domain. A game marks its own words.
SHARED_WORDS = (N_("to act"), N_("Score"), N_("Scores"), N_("Round"), N_("Deck"), N_("Discard"), N_("Game over"),
                N_("Your hand"), N_("Players"), N_("none"))

_LANGUAGE: ContextVar[tuple[str, set[str] | None]] = ContextVar("junction_render_language", default=("en", None))


@contextmanager
def language(lang: str, missed: set[str] | None = None) -> Iterator[None]:
    """Draw in `lang` inside the block: every label `text()`, `fit()` and `Panel` draw is looked up in the
    catalogs first (`tr`). `missed` (tests) collects the labels with Latin letters the catalogs left as they
    were, so a test can tell a missing translation from a city or player name."""
    token = _LANGUAGE.set((lang, missed))
    try:
        yield
    finally:
        _LANGUAGE.reset(token)


def current_language() -> str:
    return _LANGUAGE.get()[0]


# The game whose images are being drawn (its catalog domain comes first when a message is translated).
_GAME: ContextVar[str | None] = ContextVar("junction_render_game", default=None)


@contextmanager
def game(key: str | None) -> Iterator[None]:
    token = _GAME.set(key)
    try:
        yield
    finally:
        _GAME.reset(token)


def words(msg: Msg | str, names: Sequence[str] | None = None) -> str:
    """A message in the current language with its seats named (a plain str is shown as it is). Draw the
    result with translate=False."""
    return locales.say(msg, current_language(), names, _GAME.get())


def tr(s: str) -> str:
    """A label (a message id) in the current language: the exact translation from the game's domain or the
    shared `images` one; unchanged in English or when the catalogs lack it."""
    lang, missed = _LANGUAGE.get()
    if lang == locales.SOURCE or not s:
        return s
    game = _GAME.get()
    out = locales.words(lang).find(s, (game, "images") if game else ("images",)) or s
    if out == s and missed is not None and any("a" <= ch.lower() <= "z" for ch in s):
        missed.add(s)
    return out


def fill_in(template: str, **values: object) -> str:
    """A label template in the current language, then filled with values that are never looked up as
    words (player and city names, numbers, notation). Draw the result with translate=False."""
    return tr(template).format(**values)


def say(line: str | Msg, names: Sequence[str]) -> str:
    """An engine-style line with seat tokens ({s0}) in the current language, then with the players' names.

    Translating before the names go in means a name is never taken for a word of the catalog. The
    backticks that mark notation in chat texts are Discord markup: an image drops them. Draw the
    result with translate=False.
    """
    if isinstance(line, Msg):
        return words(line, list(names)).replace("`", "")
    return name_seats(tr(line), list(names)).replace("`", "")


def join(items: Iterable[str]) -> str:
    """A list in the current language, its separator from the catalog ("a, b"; "a、b" in Japanese)."""
    return locales.words(current_language()).join(list(items), "comma", domains=locales.domains_for(_GAME.get()))


def fit_name(template: str, name: str, size: int, width: float, bold: bool = False, slot: str = "who",
             translate: bool = True) -> str:
    """`template` in the current language with `name` in its `{slot}`, the name (never the words around
    it) shortened with "…" so that the whole line fits `width`. Draw the result with translate=False.

    The line is measured whole because Japanese words around a Latin name draw it in the CJK font.
    `translate=False` when the template is already in the image's language.
    """
    before, _, after = (tr(template) if translate else template).partition(f"{{{slot}}}")
    fitted = fit(name, size, width, bold, translate=False)
    while len(fitted) > 1 and text_size(before + fitted + after, size, bold, translate=False)[0] > width:
        fitted = fitted[:-2].rstrip() + "…"
    return before + fitted + after


def fit_names(template: str, names: Sequence[str], size: int, width: float, bold: bool = False,
              slot: str = "who") -> str:
    """`template` (already in the image's language) with `names` listed the language's way in its `{slot}`,
    every long name shortened alike with "…" so that the line fits `width`: a shared win names each winner,
    where shortening the whole line would cut off the last ones. Draw the result with translate=False."""
    before, _, after = template.partition(f"{{{slot}}}")
    line = before + after
    for limit in range(max((len(name) for name in names), default=0), 0, -1):
        shown = [name if len(name) <= limit else name[: max(1, limit - 1)].rstrip() + "…" for name in names]
        line = before + words(Verbatim(Items(shown, "and"))) + after
        if text_size(line, size, bold, translate=False)[0] <= width:
            return line
    return fit(line, size, width, bold, translate=False)


# --------------------------------------------------------------------------- recording (layout tests)

Box = tuple[float, float, float, float]
T = TypeVar("T")

# Roles a drawn text declares; the share of the image width each must reach (see `min_size`).
TEXT_KINDS: dict[str, float] = {"headline": 0.025, "score": 0.025, "map": 0.011, "panel": 0.011, "glyph": 0.0}


@dataclass(frozen=True)
class TextBox:
    """One thing drawn: a text (its ink box, font px size and role) or a symbol (kind "symbol", size 0)."""

    text: str
    box: Box
    size: int
    kind: str

    @property
    def is_text(self) -> bool:
        return self.kind in TEXT_KINDS


_RECORDING: ContextVar[list[TextBox] | None] = ContextVar("junction_render_recording", default=None)
_SHIFT: ContextVar[tuple[float, float]] = ContextVar("junction_render_shift", default=(0.0, 0.0))


@contextmanager
def recording(shift: tuple[float, float] | None = None) -> Iterator[list[TextBox]]:
    """Collect every text and symbol drawn inside the block, in image coordinates.

    The layout tests render a board inside it and check the boxes: no two texts overlap, no text on
    a symbol, every text big enough for its role. Outside a recording nothing is collected (no cost).
    `shift` (the kit's own use) restarts the coordinate offset, e.g. while building a cached layer.
    """
    boxes: list[TextBox] = []
    token = _RECORDING.set(boxes)
    shift_token = _SHIFT.set(shift) if shift is not None else None
    try:
        yield boxes
    finally:
        if shift_token is not None:
            _SHIFT.reset(shift_token)
        _RECORDING.reset(token)


@contextmanager
def shifted(dx: float, dy: float) -> Iterator[None]:
    """Record what is drawn inside the block moved by (dx, dy): a part drawn on its own image and
    pasted at (dx, dy) of the final one."""
    x, y = _SHIFT.get()
    token = _SHIFT.set((x + dx, y + dy))
    try:
        yield
    finally:
        _SHIFT.reset(token)


def record(box: TextBox) -> None:
    """Add `box` (in the current part's coordinates) to the active recording, if any."""
    boxes = _RECORDING.get()
    if boxes is None:
        return
    dx, dy = _SHIFT.get()
    if dx or dy:
        x0, y0, x1, y1 = box.box
        box = TextBox(box.text, (x0 + dx, y0 + dy, x1 + dx, y1 + dy), box.size, box.kind)
    boxes.append(box)


def mark(box: Box, what: str = "symbol") -> None:
    """Record a symbol or token drawn on the map (its box), so a test can tell a text that sits on it."""
    if _RECORDING.get() is not None:
        record(TextBox(what, box, 0, "symbol"))


def min_size(kind: str, width: int) -> int:
    """The smallest font px size a text of `kind` may have on an image `width` px wide."""
    return math.ceil(TEXT_KINDS[kind] * width)


# --------------------------------------------------------------------------- fonts

_FONT_DIR = Path(__file__).resolve().parent / "fonts"


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Pillow's bundled FreeType font at `size` px. Bold fonts are flagged; `text()` thickens them."""
    loaded = ImageFont.load_default(size=size)
    assert isinstance(loaded, ImageFont.FreeTypeFont), "Pillow must be built with FreeType"
    loaded.junction_bold = bold  # type: ignore[attr-defined]
    return loaded


@lru_cache(maxsize=64)
def cjk_font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped Noto Sans CJK JP subset (render/fonts/): Japanese, accents, kana and JIS kanji."""
    loaded = ImageFont.truetype(str(_FONT_DIR / "NotoSansJP-Junction.otf"), size)
    loaded.junction_bold = bold  # type: ignore[attr-defined]
    return loaded


@lru_cache(maxsize=1)
def cjk_chars() -> frozenset[str]:
    """The characters the shipped CJK font has (render/fonts/coverage.txt, written by its build script)."""
    chars: set[str] = set()
    for line in (_FONT_DIR / "coverage.txt").read_text(encoding="ascii").split():
        first, _, last = line.partition("-")
        chars.update(chr(c) for c in range(int(first, 16), int(last or first, 16) + 1))
    return frozenset(chars)


# The bundled font covers printable ASCII and these few marks only: everything else would print as a box.
FONT_CHARS = frozenset(chr(c) for c in range(32, 127)) | frozenset("©«°±´·»‘’“”…‹›⁄™")
_ASCII_FOR = {
    "–": "-", "—": "-", "−": "-", "≤": "<=", "≥": ">=", "→": "->", "←": "<-", "×": "x", "✓": "ok",
    # letters that Unicode does not decompose into a base letter plus an accent
    "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ß": "ss", "ł": "l", "Ł": "L",
    "đ": "d", "Đ": "D", "ð": "d", "þ": "th", "ı": "i",
}  # fmt: skip


def _ascii_form(ch: str) -> str | None:
    if ch in _ASCII_FOR:
        return _ASCII_FOR[ch]
    base = "".join(c for c in unicodedata.normalize("NFKD", ch) if c in FONT_CHARS)
    return base or None


def plain(s: str) -> str:
    """`s` in the bundled font's characters: accents dropped (Zürich -> Zurich), dashes etc.; "?" else."""
    if all(ch in FONT_CHARS for ch in s):
        return s
    return "".join(ch if ch in FONT_CHARS else (_ascii_form(ch) or "?") for ch in s)


def _accents_matter(s: str) -> bool:
    """Whether `s` has letters the bundled font lacks that must keep their accents: in any language but
    English the words are spelt with them ("Städte" is not "Stadte"), so such a text is drawn in the
    shipped font, which has them."""
    return current_language() != locales.SOURCE and any(ch.isalpha() and ch not in FONT_CHARS for ch in s)


def shown(s: str, size: int, bold: bool = False, translate: bool = True) -> tuple[str, ImageFont.FreeTypeFont]:
    """What `text()` draws for `s`, and in which font.

    Translated first (see `language`). Latin text stays in the bundled font (accents dropped, so a
    map's labels all look alike) in English images; text with Japanese, any letter without a plain form,
    or, in an image of another language, any accented letter (German ä, ö, ü, ß are spelling, not
    decoration) is drawn whole in the CJK font, which has them. Characters neither font has print as "?",
    except emoji and other symbols (in display names, say), which are left out.
    """
    if translate:
        s = tr(s)
    if all(ch in FONT_CHARS for ch in s):
        return s, font(size, bold)
    forms = [ch if ch in FONT_CHARS else _ascii_form(ch) for ch in s]
    if all(form is not None for form in forms) and not _accents_matter(s):
        return "".join(forms), font(size, bold)  # type: ignore[arg-type]
    cover = cjk_chars()
    out = []
    for ch in s:
        if ch in cover:
            out.append(ch)
        elif unicodedata.category(ch) in ("So", "Sk", "Cs", "Co", "Cf", "Mn"):
            continue
        else:
            out.append(_ASCII_FOR.get(ch) or _ascii_form(ch) or "?")
    return "".join(out), cjk_font(size, bold)


def _bold_stroke(f: ImageFont.FreeTypeFont) -> int:
    return 1 if getattr(f, "junction_bold", False) else 0


def text_size(s: str, size: int = 16, bold: bool = False, translate: bool = True) -> tuple[int, int]:
    """Width and height in px of `s` as `text()` would draw it (without halo)."""
    drawn, f = shown(s, size, bold, translate)
    left, top, right, bottom = _bbox(drawn, f, _bold_stroke(f))
    return right - left, bottom - top


@lru_cache(maxsize=16384)
def _bbox(s: str, f: ImageFont.FreeTypeFont, stroke: int, anchor: str = "la") -> tuple[float, float, float, float]:
    """`f.getbbox`, remembered: boards measure the same labels on every render."""
    return f.getbbox(s, anchor=anchor, stroke_width=stroke)


@lru_cache(maxsize=8192)
def _mask(s: str, f: ImageFont.FreeTypeFont, stroke: int, anchor: str, mode: str) -> tuple[Any, tuple[int, int]]:
    """The rendered coverage mask of `s` and its offset from the anchor point, as Pillow's
    `ImageDraw.text` makes it for a whole-pixel position; remembered, because rendering glyphs is
    most of a board's drawing time and the same labels (names, numbers, legends) come back."""
    return f.getmask2(s, mode, stroke_width=stroke, anchor=anchor, stroke_filled=True)


def _draw_text(draw: ImageDraw.ImageDraw, xy: Point, s: str, f: ImageFont.FreeTypeFont, fill: RGB, anchor: str,
               stroke: int) -> None:
    """`draw.text(xy, s, font=f, fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=fill)` at the
    nearest whole pixel, from the mask cache."""
    mask, (dx, dy) = _mask(s, f, stroke, anchor, draw.fontmode)
    ink = draw._getink(fill)[0]  # Pillow's colour for this image mode
    draw.draw.draw_bitmap((round(xy[0]) + dx, round(xy[1]) + dy), mask, ink)


def fit(s: str, size: int, width: float, bold: bool = False, translate: bool = True) -> str:
    """`s` (translated), shortened with "…" if needed so that it is at most `width` px wide."""
    out = tr(s) if translate else s
    while len(out) > 1 and text_size(out, size, bold, translate=False)[0] > width:
        out = out[:-2].rstrip() + "…"
    return out


def text(
    draw: ImageDraw.ImageDraw,
    xy: Point,
    s: str,
    size: int = 16,
    fill: RGB = INK,
    bold: bool = False,
    halo: RGB | None = None,
    anchor: str = "la",
    halo_width: int = 3,
    translate: bool = True,
    kind: str = "map",
) -> None:
    """Draw text; `halo` paints a contrasting outline first so labels read over lines and tracks.

    `anchor` is Pillow's two-letter anchor ("la" left-ascender, "mm" centred, "rs" right-baseline...).
    `translate=False` for names (players, cities) that must never be taken for a label.
    `kind` declares the text's role for the layout tests (see `recording`): "map" and "panel" labels
    must read at 800 px wide, "headline" and "score" at 400 px; "glyph" is a mark inside a symbol
    (a token's number, a disc's letter) that the symbol's own box stands for.
    """
    s, f = shown(s, size, bold, translate)
    stroke = _bold_stroke(f)
    if _RECORDING.get() is not None and s.strip():
        left, top, right, bottom = _bbox(s, f, stroke, anchor)
        record(TextBox(s, (xy[0] + left, xy[1] + top, xy[0] + right, xy[1] + bottom), size, kind))
    if halo is not None:
        _draw_text(draw, xy, s, f, halo, anchor, stroke + halo_width)
    _draw_text(draw, xy, s, f, fill, anchor, stroke)


# --------------------------------------------------------------------------- colours and seats


def blend(a: RGB, b: RGB, t: float) -> RGB:
    """The colour `t` of the way from `a` to `b` (0: a, 1: b): tints and anti-aliasing ramps."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def luminance(rgb: RGB) -> float:
    """WCAG relative luminance (0 black .. 1 white)."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: RGB, b: RGB) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def contrast_text(background: RGB) -> RGB:
    """INK or WHITE, whichever reads better on `background`."""
    return INK if contrast_ratio(INK, background) >= contrast_ratio(WHITE, background) else WHITE


# Okabe–Ito colours without black (tracks, ink) and yellow (vanishes on paper). The first three are the
# most distinct set for the common 2-3 player games.
SEAT_COLOURS: tuple[RGB, ...] = tuple(
    hex_rgb(h) for h in ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9")
)
SEAT_COLOUR_NAMES: tuple[str, ...] = ("blue", "orange", "green", "pink", "vermillion", "sky blue")
SYMBOLS: tuple[str, ...] = ("circle", "square", "triangle", "diamond", "star", "hexagon")
# Bars in a seat's colour (tracks, routes) carry a pattern too: the six colours hold two close pairs
# (blue / sky blue, orange / vermillion) that a small symbol alone does not tell apart on a phone.
SEAT_PATTERNS: tuple[str, ...] = ("stripes", "stripes", "stripes", "stripes", "dashes", "dots")
# Pure yellow, the hue no seat has (Okabe–Ito's yellow is left out of the seats): "newest" never reads
# as a seat's colour. Draw it as a band with dark edges, so its shape marks it on paper as well.
NEWEST: RGB = (255, 255, 0)
MAX_SEATS = len(SEAT_COLOURS)


def seat_colour(seat: int) -> RGB:
    return SEAT_COLOURS[seat % MAX_SEATS]


def seat_text_colour(seat: int) -> RGB:
    return contrast_text(seat_colour(seat))


def seat_symbol(seat: int) -> str:
    return SYMBOLS[seat % MAX_SEATS]


def seat_pattern(seat: int) -> str:
    """The `patterned_bar` pattern of the seat's coloured bars."""
    return SEAT_PATTERNS[seat % MAX_SEATS]


def seat_label(seat: int) -> str:
    return str(seat % MAX_SEATS + 1)


def symbol_points(shape: str, centre: Point, size: float) -> list[Point]:
    """Polygon corners of a symbol that fits a `size` px box (not for circle)."""
    cx, cy = centre
    r = size / 2

    def ring(count: int, radius: float, start_deg: float) -> list[Point]:
        return [
            (
                cx + radius * math.cos(math.radians(start_deg + 360 * i / count)),
                cy + radius * math.sin(math.radians(start_deg + 360 * i / count)),
            )
            for i in range(count)
        ]

    if shape == "square":
        s = r * 0.86  # a full-box square looks much bigger than a circle of the same box
        return [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    if shape == "triangle":
        # centroid lowered a little so the triangle sits visually centred in its box
        return [(x, y + r * 0.18) for x, y in ring(3, r * 1.12, -90)]
    if shape == "diamond":
        return ring(4, r * 1.05, -90)
    if shape == "hexagon":
        return ring(6, r, 0)
    if shape == "star":
        outer = ring(5, r * 1.1, -90)
        inner = ring(5, r * 0.6, -54)
        return [p for pair in zip(outer, inner, strict=True) for p in pair]
    raise ValueError(f"unknown symbol {shape!r}")


def draw_symbol(
    draw: ImageDraw.ImageDraw,
    shape: str,
    centre: Point,
    size: float,
    fill: RGB | None,
    outline: RGB | None = INK,
    width: int = 2,
) -> None:
    """Draw one of SYMBOLS filling about a `size` px box around `centre` (recorded as a symbol box)."""
    cx, cy = centre
    mark((cx - size / 2, cy - size / 2, cx + size / 2, cy + size / 2), shape)
    if shape == "circle":
        r = size / 2
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=width)
        return
    points = symbol_points(shape, centre, size)
    draw.polygon(points, fill=fill, outline=outline, width=width)


def draw_seat_token(
    draw: ImageDraw.ImageDraw,
    seat: int,
    centre: Point,
    size: float,
    label: bool = True,
    outline: RGB = INK,
) -> None:
    """The seat's symbol in its colour; with its number inside when the token is big enough to read."""
    draw_symbol(
        draw, seat_symbol(seat), centre, size, seat_colour(seat), outline, width=2 if size >= 16 else 1
    )
    if label and size >= 20:
        cx, cy = centre
        shape = seat_symbol(seat)
        if shape == "triangle":
            cy += size * 0.14  # the triangle's room is in its lower part
        text(
            draw,
            (cx, cy),
            seat_label(seat),
            int(size * (0.42 if shape in ("triangle", "star") else 0.5)),
            seat_text_colour(seat),
            bold=True,
            anchor="mm",
            kind="glyph",
        )


def tick(draw: ImageDraw.ImageDraw, centre: Point, size: float, fill: RGB = INK, width: int = 3) -> None:
    """A check mark in a `size` px box."""
    cx, cy = centre
    s = size / 2
    draw.line(
        [(cx - s * 0.8, cy), (cx - s * 0.25, cy + s * 0.6), (cx + s * 0.85, cy - s * 0.7)],
        fill=fill,
        width=width,
        joint="curve",
    )


# --------------------------------------------------------------------------- canvas, bars, encode


def new_canvas(width: int, height: int, bg: RGB = PAPER) -> Image.Image:
    return Image.new("RGB", (width, height), bg)


def patterned_bar(
    draw: ImageDraw.ImageDraw,
    a: Point,
    b: Point,
    width: int,
    fill: RGB,
    pattern: str = "stripes",
    pattern_fill: RGB | None = None,
    outline: RGB | None = INK,
    spacing: int = 9,
) -> None:
    """A thick bar from a to b in `fill` with a pattern so it differs from a plain bar without colour.

    pattern: "solid", "stripes" (cross hatching), "dashes" (a dashed centre line) or "dots".
    `outline` draws a thin dark border (keeps light colours visible on light maps).
    """
    (ax, ay), (bx, by) = a, b
    length = math.hypot(bx - ax, by - ay)
    if length == 0:
        return
    ux, uy = (bx - ax) / length, (by - ay) / length  # along the bar
    nx, ny = -uy, ux  # across the bar
    half = width / 2
    corners = [
        (ax + nx * half, ay + ny * half),
        (bx + nx * half, by + ny * half),
        (bx - nx * half, by - ny * half),
        (ax - nx * half, ay - ny * half),
    ]
    draw.polygon(corners, fill=fill, outline=outline, width=1 if outline else 0)
    mark = pattern_fill or contrast_text(fill)
    inner = half - 1.5
    if pattern == "stripes":
        # slanted hatching: each stripe crosses the bar at 45 degrees
        t = spacing / 2
        while t < length - 1:
            x0, y0 = ax + ux * t + nx * inner, ay + uy * t + ny * inner
            x1, y1 = ax + ux * (t + inner) - nx * inner, ay + uy * (t + inner) - ny * inner
            if t + inner <= length:
                draw.line([(x0, y0), (x1, y1)], fill=mark, width=2)
            t += spacing
    elif pattern == "dashes":
        t = spacing / 2
        while t + spacing / 2 < length:
            draw.line(
                [(ax + ux * t, ay + uy * t), (ax + ux * (t + spacing / 2), ay + uy * (t + spacing / 2))],
                fill=mark,
                width=max(2, width // 4),
            )
            t += spacing
    elif pattern == "dots":
        r = max(1.5, width / 6)
        t = spacing / 2
        while t < length:
            x, y = ax + ux * t, ay + uy * t
            draw.ellipse((x - r, y - r, x + r, y + r), fill=mark)
            t += spacing
    elif pattern != "solid":
        raise ValueError(f"unknown pattern {pattern!r}")


_static_cache: dict[str, tuple[object, tuple[TextBox, ...]]] = {}
_static_lock = threading.Lock()


def static(key: str, builder: Callable[[], T]) -> T:
    """`builder()`'s value, built once per process per key and language (tiles, label layouts).

    What the builder drew is recorded once and replayed into the caller's recording on every call, so
    the layout tests see a cached map's labels. Keys are global: prefix them with the game key.
    """
    key = f"{key}@{current_language()}"  # a map's words are drawn in the language of the image
    with _static_lock:
        entry = _static_cache.get(key)
        if entry is None:
            with recording(shift=(0, 0)) as drawn:
                value = builder()
            entry = (value, tuple(drawn))
            _static_cache[key] = entry
    value, boxes = entry
    for box in boxes:
        record(box)
    return value  # type: ignore[return-value]


def static_layer(key: str, builder: Callable[[], Image.Image]) -> Image.Image:
    """A copy of the image `builder()` makes, built once per process per key (the unchanging map).

    Paint the changing parts on the returned copy. Keys are global, so prefix them with the game key.
    """
    return static(key, builder).copy()


def clear_static_layers() -> None:
    """Forget every cached static layer (tests, or after changing data)."""
    with _static_lock:
        _static_cache.clear()


PNG_LEVEL = 3


def encode(image: Image.Image, exact: bool = False) -> bytes:
    """PNG bytes, tuned for speed and size (a 1200 px portrait board: ~20 ms, 80-150 KB).

    An image with at most 256 colours is stored losslessly as a palette PNG. Otherwise, unless
    `exact`, it is reduced to 256 colours (`quantize`): drawn boards have a few flat colours plus
    anti-aliased text edges, and the result looks the same at a fraction of the bytes. zlib level 3
    (PNG_LEVEL) costs what level 1 does for up to a fifth fewer bytes; see the module docstring.
    """
    out = io.BytesIO()
    if image.mode not in ("RGB", "RGBA", "P", "L"):
        image = image.convert("RGB")
    if image.mode in ("RGB", "RGBA"):
        if image.getcolors(256) is not None:
            image = image.convert("P", palette=Image.Palette.ADAPTIVE, colors=256)
        elif not exact:
            image = quantize(image)
    image.save(out, format="PNG", compress_level=PNG_LEVEL)
    return out.getvalue()


def quantize(image: Image.Image) -> Image.Image:
    """`image` in 256 colours: the palette is built from every third pixel each way, then each pixel
    takes its nearest palette colour (no dithering: flat colours stay flat).

    A board's flat colours and text edges are spread all over it, so the sample finds the same
    palette as the whole image (mean error 1.1 of 255 against 1.1-1.5 for the octree of every
    pixel, none off by more than 40) in ~40% of the time (bench/render.py).
    """
    sample = image.resize((max(1, image.width // 3), max(1, image.height // 3)), Image.Resampling.NEAREST)
    palette = sample.quantize(256, method=Image.Quantize.FASTOCTREE)
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


# --------------------------------------------------------------------------- side panel


# Words stay whole (Latin words and katakana words: ダイヤモンド); other Japanese may break before any
# character but closing marks.
_WRAP_TOKENS = re.compile(r"\s+|[\u30a0-\u30ff]+|[^\s\u3000-\u9fff\uff00-\uffef]+|.")
_NO_LINE_START = frozenset("、。，．・：；？！）」』】〕ー…")


@lru_cache(maxsize=8192)
def _advance(ch: str, f: ImageFont.FreeTypeFont) -> float:
    return f.getlength(ch)


def _fits(s: str, size: int, width: float, bold: bool) -> bool:
    """Whether `s` (not translated) is at most `width` px wide as `text()` draws it.

    Exact, but the exact measure (a layout of the whole string) is only needed near the end of a line:
    the sum of the characters' cached advances, plus the stroke and a px of overhang each side, bounds
    the drawn width from above, so a trial that fits by that bound needs no layout.
    """
    drawn, f = shown(s, size, bold, translate=False)
    stroke = _bold_stroke(f)
    if sum(_advance(ch, f) for ch in drawn) + 2 * stroke + 2 <= width:
        return True
    left, _, right, _ = _bbox(drawn, f, stroke)
    return right - left <= width


def wrap_lines(s: str, size: int, width: float, bold: bool = False) -> list[str]:
    """`s` (already in the image's language) broken into lines at most `width` px wide: between words,
    katakana words kept whole, other Japanese before any character but closing marks. A single word
    wider than `width` gets a line of its own."""
    lines: list[str] = []
    tokens: list[str] = []  # the current line's
    for token in _WRAP_TOKENS.findall(s):
        current = "".join(tokens)
        if current.strip() and not token.isspace() and not _fits((current + token).strip(), size, width, bold):
            if token not in _NO_LINE_START:
                lines.append(current.strip())
                tokens = [token]
                continue
            # A closing mark may not start a line, and must not run past the width: the word or character
            # before it (with any closing marks between) goes to the next line with it.
            start = len(tokens) - 1
            while start > 0 and tokens[start] in _NO_LINE_START:
                start -= 1
            if start > 0 and not tokens[start].isspace() and "".join(tokens[:start]).strip():
                lines.append("".join(tokens[:start]).strip())
                tokens = [*tokens[start:], token]
                continue
        tokens.append(token)
    if "".join(tokens).strip():
        lines.append("".join(tokens).strip())
    return lines


class Panel:
    """A top-down flow layout in `box` of `image`: each call draws one row and moves the cursor `y` down."""

    def __init__(
        self,
        image: Image.Image,
        box: tuple[int, int, int, int],
        bg: RGB | None = PANEL_BG,
        pad: int = 16,
        border: RGB | None = GRID,
        kind: str = "panel",
    ) -> None:
        self.image = image
        self.kind = kind  # the role of its texts for the layout tests (see `recording`)
        self.draw = ImageDraw.Draw(image)
        self.left, self.top, self.right, self.bottom = box
        self.pad = pad
        if bg is not None:
            self.draw.rectangle(box, fill=bg)
        if border is not None:
            self.draw.line([(self.left, self.top), (self.left, self.bottom)], fill=border, width=2)
        self.x = self.left + pad
        self.y = self.top + pad
        self.width = self.right - self.left - 2 * pad

    def room(self) -> int:
        """Pixels left below the cursor (inside the padding): skip optional rows when it runs out."""
        return self.bottom - self.pad - self.y

    def gap(self, px: int = 8) -> None:
        self.y += px

    def title(self, s: str, size: int = 28, fill: RGB = INK) -> None:
        text(self.draw, (self.x, self.y), s, size, fill, bold=True, kind=self.kind)
        self.y += int(size * 1.3)

    def line(self, s: str, size: int = 18, fill: RGB = INK, bold: bool = False, indent: int = 0,
             translate: bool = True) -> None:
        text(self.draw, (self.x + indent, self.y), s, size, fill, bold=bold, translate=translate, kind=self.kind)
        self.y += int(size * 1.35)

    def wrapped(self, s: str, size: int = 16, fill: RGB = INK, bold: bool = False, indent: int = 0,
                translate: bool = True) -> None:
        """Text broken into lines that fit the panel width (Japanese between any two characters)."""
        for line in wrap_lines(tr(s) if translate else s, size, self.width - indent, bold):
            self.line(line, size, fill, bold, indent, translate=False)

    def rule(self, fill: RGB = GRID) -> None:
        self.y += 4
        self.draw.line([(self.x, self.y), (self.right - self.pad, self.y)], fill=fill, width=1)
        self.y += 8

    def player_row(
        self,
        seat: int,
        name: str,
        score: int | str | None = None,
        to_act: bool = False,
        note: str = "",
        size: int = 20,
        reserve: int = 0,
        translate: bool = True,
    ) -> tuple[float, float]:
        """One player: "to act" arrow, seat token, name, score at the right, optional note below.

        `reserve` keeps that many px free between the name and the score for the game's own badges;
        returns (left x of that free space, row centre y) to draw them at. `translate=False`: the note is
        already in the image's language.
        """
        height = int(size * 1.6)
        cy = self.y + height / 2
        if to_act:
            # a filled arrow in the margin, plus a tinted row: the turn must be obvious at a glance
            self.draw.rectangle(
                (self.left + 2, self.y - 2, self.right - 2, self.y + height + 1), fill=TO_ACT_BG
            )
            ax = self.x - 2
            self.draw.polygon([(ax - 8, cy - 8), (ax + 2, cy), (ax - 8, cy + 8)], fill=INK)
        token = size * 1.3
        draw_seat_token(self.draw, seat, (self.x + 8 + token / 2, cy), token)
        name_x = self.x + 16 + token
        score_w = text_size("888", size, True)[0] + 12 if score is not None else 0
        name = fit(name, size, self.width - (name_x - self.x) - score_w - reserve, bold=True, translate=False)
        text(self.draw, (name_x, cy), name, size, INK, bold=to_act, anchor="lm", translate=False, kind=self.kind)
        if score is not None:
            text(self.draw, (self.right - self.pad, cy), str(score), size, INK, bold=True, anchor="rm", kind=self.kind)
        self.y += height + 2
        if note:
            self.wrapped(note, max(14, size - 5), MUTED, indent=int(name_x - self.x), translate=translate)
        return (self.right - self.pad - score_w - reserve, cy)

    def legend_item(
        self, draw_icon: Callable[[ImageDraw.ImageDraw, Point], None], label: str, size: int = 16
    ) -> None:
        """One legend row: `draw_icon(draw, centre)` paints a ~24 px icon, then the label beside it."""
        cy = self.y + size * 0.7
        draw_icon(self.draw, (self.x + 14, cy))
        text(self.draw, (self.x + 34, cy), label, size, INK, anchor="lm", kind=self.kind)
        self.y += int(size * 1.55)

    def legend_grid(
        self,
        items: Sequence[tuple[Callable[[ImageDraw.ImageDraw, Point], None], str]],
        columns: int = 2,
        size: int = 18,
    ) -> None:
        """Legend rows of `columns` items each (a full-width panel has room beside each icon)."""
        column_w = self.width / columns
        for index, (draw_icon, label) in enumerate(items):
            x = self.x + (index % columns) * column_w
            cy = self.y + size * 0.8
            draw_icon(self.draw, (x + 18, cy))
            label = fit(label, size, column_w - 52)
            text(self.draw, (x + 44, cy), label, size, INK, anchor="lm", translate=False, kind=self.kind)
            if index % columns == columns - 1 or index == len(items) - 1:
                self.y += int(size * 1.7)

    def score_track(
        self,
        top: int,
        scores: Sequence[tuple[int, int]],
        size: int = 15,
        per_row: int = 14,
    ) -> None:
        """A score track from `top` down to 1, then a red zone for 0 and below, with each seat's token.

        `scores` are (seat, score) pairs; a score above `top` sits on `top`. Tokens on the same space
        stack downwards. Long tracks wrap into rows of at most `per_row` spaces.
        """
        cells = top + 1  # top..1 and the red zone
        columns = min(cells, per_row)
        cell_w = self.width / columns
        token = max(9.0, min(cell_w - 4, 20.0))
        values = [min(max(score, 0), top) for _, score in scores]
        stack = max((values.count(v) for v in set(values)), default=1)
        box_h = size + 6 + stack * (token + 2) + 4
        for index in range(cells):
            value = top - index
            x0 = self.x + (index % columns) * cell_w
            y0 = self.y + (index // columns) * (box_h + 4)
            zone = value <= 0
            fill = (250, 215, 215) if zone else ((240, 240, 240) if index % 2 else WHITE)
            self.draw.rectangle((x0, y0, x0 + cell_w, y0 + box_h), fill=fill, outline=GRID)
            label = "0" if zone else str(value)  # the red cell holds every score <= 0
            text(
                self.draw,
                (x0 + cell_w / 2, y0 + 3),
                label,
                size,
                DANGER if zone else INK,
                bold=zone,
                anchor="ma",
                kind=self.kind,
            )
        placed: dict[int, int] = {}
        for (seat, _), value in sorted(zip(scores, values, strict=True)):
            index = top - value
            level = placed.get(value, 0)
            placed[value] = level + 1
            cx = self.x + (index % columns) * cell_w + cell_w / 2
            cy = self.y + (index // columns) * (box_h + 4) + size + 6 + level * (token + 2) + token / 2 + 2
            draw_seat_token(self.draw, seat, (cx, cy), token, label=token >= 20)
        rows = -(-cells // columns)
        self.y += int(rows * (box_h + 4)) + 4


# --------------------------------------------------------------------------- phone-first page

PAGE_WIDTH = 1200
# Shares of the image width: a phone shows a post ~400 px wide, so 3% becomes ~12 px there.
HEADLINE_SHARE = 0.032
SCORE_SHARE = 0.03
HAPPENED_SHARE = 0.027
NOTE_SHARE = 0.018


@dataclass(frozen=True)
class SeatScore:
    """One seat in the turn card: token, name, score, whether it is to act, and an optional short note.

    `colour` and `mark` replace the seat palette's colour and number in the token and the cell's tint,
    for a game whose pieces have colours of their own (Off the Rails' clans); the shape stays the seat's.
    """

    seat: int
    name: str
    score: int | str | None
    to_act: bool = False
    note: str = ""
    colour: RGB | None = None
    mark: str | None = None


class Page:
    """A portrait board image built top-down: a turn card, the map at full width, then panels.

    Each part is drawn on its own image at the full page width and stacked; what it draws is
    recorded (see `recording`) in page coordinates. The turn card is what a phone reads without
    zooming (~400 px wide): whose turn, what just happened and every score, at >= 2.5% of the
    width; the map below gets the full width so one pinch (800 px) reads its labels.
    """

    def __init__(self, width: int = PAGE_WIDTH, bg: RGB = PAPER) -> None:
        self.width = width
        self.bg = bg
        self.height = 0
        self.parts: list[tuple[Image.Image, int]] = []
        self.headline_px = math.ceil(width * HEADLINE_SHARE)
        self.score_px = math.ceil(width * SCORE_SHARE)
        self.happened_px = math.ceil(width * HAPPENED_SHARE)
        self.note_px = math.ceil(width * NOTE_SHARE)
        self.label_px = min_size("map", width) + 1  # the least a map label may be, with a px to spare
        self.pad = round(width * 0.02)
        self._translate_notes = True  # the turn card's seat notes are labels to look up (turn_card(translate=))

    @contextmanager
    def block(self, image: Image.Image | Callable[[], Image.Image] | None = None, height: int = 0,
              bg: RGB | None = None) -> Iterator[Image.Image]:
        """The next part: `image` (a map drawn at the page width) or a fresh canvas of `height`.

        Pass a cached map as the function that returns it (`lambda: static_layer(...)`): called inside
        the block, the labels it replays are recorded where the part lands. Draw on the yielded image
        inside the block; it is stacked below the parts before it.
        """
        with shifted(0, self.height):
            part = image() if callable(image) else image
            if part is None:
                part = new_canvas(self.width, height, bg or self.bg)
            if part.width != self.width:
                raise ValueError(f"a part must be {self.width} px wide, not {part.width}")
            yield part
        self.parts.append((part, self.height))
        self.height += part.height

    @contextmanager
    def panel(self, max_height: int, bg: RGB = PANEL_BG, size_hint: int = 0) -> Iterator[Panel]:
        """A `Panel` across the full width below the parts so far, cut to the height it used."""
        canvas = new_canvas(self.width, max_height, bg)
        with shifted(0, self.height):
            panel = Panel(canvas, (0, 0, self.width, max_height), bg=bg, pad=self.pad, border=None)
            yield panel
        used = min(max_height, max(panel.y + self.pad, size_hint))
        ImageDraw.Draw(canvas).line([(0, 0), (self.width, 0)], fill=GRID, width=2)
        self.parts.append((canvas.crop((0, 0, self.width, used)), self.height))
        self.height += used

    def turn_card(self, headline: str, happened: str, seats: Sequence[SeatScore], who: str | Sequence[str] | None = None,
                  accent: int | None = None, headline_fill: RGB = INK, translate: bool = True) -> None:
        """The top of the image: the headline (whose turn, or the result), what just happened, and a
        grid of every seat's token, name and score, the seat(s) to act tinted.

        `headline` is a label in English (translated here); with `who`, it is a template whose
        `{who}` slot takes that name, and the name gives way (…) so the line fits; several names (a shared
        win) are listed in the slot, each giving way alike (`fit_names`). `happened` is
        drawn as given (already in the image's language, names filled in: `say`). `accent` is the
        seat whose colour and symbol lead the headline. `translate=False`: the headline (and its `{who}`
        template) and the seats' notes are already in the image's language.
        """
        width, pad = self.width, self.pad
        self._translate_notes = translate
        token = round(self.headline_px * 1.3)
        text_left = pad * 2 + (token + pad if accent is not None else 0)
        room = width - text_left - pad
        if who is not None and not isinstance(who, str):
            line = fit_names(tr(headline) if translate else headline, who, self.headline_px, room, bold=True)
        elif who is not None:
            line = fit_name(headline, who, self.headline_px, room, bold=True, translate=translate)
        else:
            line = fit(headline, self.headline_px, room, bold=True, translate=translate)
        happened_lines = wrap_lines(happened, self.happened_px, width - 3 * pad) if happened else []
        if len(happened_lines) > 2:
            happened_lines = happened_lines[:1] + [fit(" ".join(happened_lines[1:]), self.happened_px,
                                                       width - 3 * pad, translate=False)]
        columns = 1 if len(seats) <= 1 else (2 if len(seats) <= 4 else 3)
        rows = -(-len(seats) // columns)
        has_notes = any(s.note for s in seats)
        cell_h = round(self.score_px * 1.55) + (round(self.note_px * 1.3) if has_notes else 0)
        head_h = max(token, round(self.headline_px * 1.3))
        happened_h = round(self.happened_px * 1.3) * len(happened_lines)
        height = pad + head_h + (pad // 2 + happened_h if happened_lines else 0) + pad + rows * (cell_h + 6) + pad
        with self.block(height=height, bg=WHITE) as image:
            draw = ImageDraw.Draw(image)
            if accent is not None:
                draw.rectangle((0, 0, pad // 2, height), fill=seat_colour(accent))
                draw_seat_token(draw, accent, (pad * 2 + token / 2, pad + head_h / 2), token)
            text(draw, (text_left, pad + head_h / 2), line, self.headline_px, headline_fill, bold=True,
                 anchor="lm", translate=False, kind="headline")
            y = pad + head_h + pad // 2
            for happened_line in happened_lines:
                text(draw, (pad * 2, y), happened_line, self.happened_px, INK, anchor="la", translate=False,
                     kind="headline")
                y += round(self.happened_px * 1.3)
            y = pad + head_h + (pad // 2 + happened_h if happened_lines else 0) + pad
            cell_w = (width - 2 * pad) / columns
            for index, entry in enumerate(seats):
                x0 = pad + (index % columns) * cell_w
                y0 = y + (index // columns) * (cell_h + 6)
                self._seat_cell(draw, entry, (x0 + 3, y0, x0 + cell_w - 3, y0 + cell_h))
            draw.line([(0, height - 1), (width, height - 1)], fill=GRID, width=2)

    def _seat_cell(self, draw: ImageDraw.ImageDraw, entry: SeatScore, box: Box) -> None:
        x0, y0, x1, y1 = box
        size = self.score_px
        colour = entry.colour or seat_colour(entry.seat)
        if entry.to_act:
            draw.rectangle(box, fill=TO_ACT_BG, outline=INK, width=3)
        else:
            draw.rectangle(box, fill=blend(WHITE, colour, 0.12), outline=GRID, width=1)
        token = round(size * 1.15)
        name_h = round(size * 1.55)
        cy = y0 + name_h / 2
        if entry.colour is None and entry.mark is None:
            draw_seat_token(draw, entry.seat, (x0 + 8 + token / 2, cy), token)
        else:
            shape = seat_symbol(entry.seat)
            draw_symbol(draw, shape, (x0 + 8 + token / 2, cy), token, colour, INK, 2)
            text(draw, (x0 + 8 + token / 2, cy + (token * 0.14 if shape == "triangle" else 0)),
                 entry.mark or seat_label(entry.seat), round(token * (0.42 if shape in ("triangle", "star") else 0.5)),
                 contrast_text(colour), bold=True, anchor="mm", translate=False, kind="glyph")
        name_x = x0 + 16 + token
        score = "" if entry.score is None else str(entry.score)
        score_w = text_size(score, size, True, translate=False)[0] + 14 if score else 0
        name = fit(entry.name, size, x1 - 10 - score_w - name_x, bold=entry.to_act, translate=False)
        text(draw, (name_x, cy), name, size, INK, bold=entry.to_act, anchor="lm", translate=False, kind="score")
        if score:
            text(draw, (x1 - 10, cy), score, size, INK, bold=True, anchor="rm", translate=False, kind="score")
        if entry.note:
            note = fit(entry.note, self.note_px, x1 - 10 - name_x, translate=self._translate_notes)
            text(draw, (name_x, y0 + name_h - 2), note, self.note_px, MUTED, anchor="la", translate=False,
                 kind="panel")

    def image(self) -> Image.Image:
        """The page: every part stacked in order."""
        out = new_canvas(self.width, max(self.height, 1), self.bg)
        for part, top in self.parts:
            out.paste(part, (0, top))
        return out
