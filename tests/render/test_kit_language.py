"""The kit draws labels in the image's language: catalog lookups, the CJK font, names left alone."""

from __future__ import annotations

from PIL import Image, ImageDraw

import render
from render import kit
from rules import registry


def test_labels_follow_the_language_and_names_do_not():
    missed: set[str] = set()
    with kit.language("ja", missed), kit.game("trans_europa"):
        assert kit.tr("Score") == "得点"  # the shared `images` domain
        assert kit.tr("Regions:") == "地域："  # the game's own domain
        assert kit.tr("Paris") == "Paris"
        assert kit.fit("Score", 16, 500, translate=False) == "Score"
        # Exact ids only: composed English is never matched against a template ("Round {round}").
        assert kit.tr("Round 2") == "Round 2"
        assert kit.fill_in("Round {round}", round=2) == "第 2 ラウンド"
    assert missed == {"Paris", "Round 2"}  # what the catalogs left in Latin letters, for the games' tests
    assert kit.tr("Score") == "Score"  # English outside the block


def test_japanese_text_is_drawn_with_the_shipped_font_and_latin_with_the_bundled_one():
    japanese, face = kit.shown("得点", 20)
    assert japanese == "得点" and face is kit.cjk_font(20, False)
    latin, face = kit.shown("Zürich", 20)
    assert latin == "Zurich" and face is kit.font(20, False)
    # A Japanese display name keeps its accents and kanji; an emoji (no font has it here) is left out.
    assert kit.shown("山田 Zoë 🚂", 20)[0] == "山田 Zoë "
    assert set("あア山漢") <= kit.cjk_chars() and len(kit.cjk_chars()) > 7000


def test_accented_words_keep_their_accents_outside_english():
    """German words are spelt with their umlauts ("Städte", not "Stadte"): in any language but English a
    text with an accented letter is drawn in the shipped font, which has them; ASCII stays in the bundled one."""
    with kit.language("de"):
        assert kit.shown("4 Städte", 20) == ("4 Städte", kit.cjk_font(20, False))
        assert kit.shown("Runde 3 – Bauen", 20) == ("Runde 3 - Bauen", kit.font(20, False))
        assert kit.shown("Gold", 20) == ("Gold", kit.font(20, False))
    assert kit.shown("Zürich", 20) == ("Zurich", kit.font(20, False))  # English: a map's names look alike


def test_japanese_pixels_are_really_drawn():
    image = Image.new("RGB", (200, 40), kit.WHITE)
    kit.text(ImageDraw.Draw(image), (4, 4), "得点", 24, kit.INK)
    assert image.getbbox() is not None and image.convert("L").getextrema()[0] < 100


def test_panel_wraps_japanese_between_characters_within_its_width():
    image = kit.new_canvas(300, 400)
    panel = kit.Panel(image, (0, 0, 300, 400))
    start = panel.y
    with kit.language("ja"):
        panel.wrapped("あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよ", 18)
    assert panel.y - start >= 2 * int(18 * 1.35)  # more than one line
    right = max(x for x in range(300) if any(image.getpixel((x, y)) == kit.INK for y in range(start, panel.y)))
    assert right <= 300 - panel.pad


def test_static_layers_are_kept_per_language():
    built: list[str] = []

    def build() -> Image.Image:
        built.append(kit.current_language())
        return kit.new_canvas(4, 4)

    kit.clear_static_layers()
    kit.static_layer("test/lang", build)
    with kit.language("ja"):
        kit.static_layer("test/lang", build)
        kit.static_layer("test/lang", build)
    kit.static_layer("test/lang", build)
    assert built == ["en", "ja"]
    kit.clear_static_layers()


def test_board_png_in_japanese_differs_from_english_only_by_its_words():
    state = registry.get("trans_europa").new_game(3, {}, 5)
    names = ["たろう", "Bob", "Cid"]
    english = render.board_png(state.view(None), names)
    japanese = render.board_png(state.view(None), names, "ja")
    assert english.startswith(b"\x89PNG") and japanese.startswith(b"\x89PNG")
    assert render.board_png(state.view(None), names, "en") == english
    assert japanese != english
    # The pool passes render.board_png itself as the renderer, inside the language it chose.
    assert render.in_language("ja", "trans_europa", render.board_png, state.view(None), names) == japanese
