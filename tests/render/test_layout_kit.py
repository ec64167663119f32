"""The layout harness itself: the kit records what it draws, and the checks catch what a player would trip on."""

from __future__ import annotations

from PIL import ImageDraw

from render import kit
from tests.render.layout_check import findings


def test_the_kit_records_texts_with_their_role_and_symbols_with_their_box():
    image = kit.new_canvas(400, 200)
    draw = ImageDraw.Draw(image)
    with kit.recording() as boxes:
        kit.text(draw, (10, 10), "Paris", 20)
        kit.draw_seat_token(draw, 2, (100, 100), 30)
        with kit.shifted(0, 50):
            kit.text(draw, (10, 10), "12", 30, kind="score")
    kit.text(draw, (10, 10), "not recorded", 20)
    paris, triangle, glyph, score = boxes
    assert (paris.text, paris.kind, paris.size) == ("Paris", "map", 20)
    assert paris.box[0] >= 10 and paris.box[2] - paris.box[0] > 30
    assert (triangle.kind, triangle.box) == ("symbol", (85, 85, 115, 115))
    assert glyph.kind == "glyph" and glyph.text == "3"
    assert score.kind == "score" and score.box[1] >= 60  # drawn at y 10 of a part pasted 50 px down


def test_a_cached_layer_replays_its_labels_into_every_recording():
    def build():
        image = kit.new_canvas(100, 50)
        kit.text(ImageDraw.Draw(image), (5, 5), "Wien", 16)
        return image

    kit.clear_static_layers()
    kit.static_layer("test/replay", build)  # built outside any recording
    with kit.recording() as boxes:
        kit.static_layer("test/replay", build)
    assert [b.text for b in boxes] == ["Wien"]


def test_the_checks_find_overlaps_labels_on_symbols_small_and_cut_off_texts():
    ok = [kit.TextBox("Paris", (10, 10, 60, 24), 16, "map"), kit.TextBox("Lyon", (10, 30, 50, 44), 16, "map"),
          kit.TextBox("circle", (70, 10, 90, 30), 0, "symbol"), kit.TextBox("1", (75, 15, 85, 25), 10, "glyph"),
          kit.TextBox("Ann 12", (10, 60, 200, 90), 30, "score")]
    assert findings(ok, (1000, 100)) == []
    bad = ok + [kit.TextBox("Brest", (40, 20, 80, 34), 16, "map"),     # over Paris and Lyon, on the circle
                kit.TextBox("tiny", (300, 10, 320, 18), 8, "map"),     # under 1.1% of 1000 px
                kit.TextBox("Bob 3", (400, 60, 500, 90), 20, "score"),  # a score under 2.5%
                kit.TextBox("Sevilla", (980, 50, 1030, 64), 16, "map")]  # past the right edge
    found = findings(bad, (1000, 100))
    assert any("'Paris'" in f and "'Brest'" in f for f in found)
    assert any("'Brest'" in f and "'Lyon'" in f for f in found)
    assert any("'Brest'" in f and "sits on a circle" in f for f in found)
    assert any("'tiny' is 8 px" in f for f in found)
    assert any("'Bob 3' is 20 px" in f for f in found)
    assert any("'Sevilla' runs off" in f for f in found)
    assert len(found) == 6


def test_the_turn_card_is_big_enough_for_a_phone_with_six_long_names():
    with kit.recording() as boxes:
        page = kit.Page(1200)
        names = ["Bartholomew Featherstonehaugh-Worthington", "山田太郎", "Ann", "長谷川まりこ・スミス", "Zoë", "李"]
        seats = [kit.SeatScore(s, name, 10 + s, s == 3, "connected" if s == 1 else "") for s, name in enumerate(names)]
        page.turn_card("{who} to play", "Ann laid a track from Paris to Lyon and another from Lyon to Genève " * 3,
                       seats, who=names[3], accent=3)
        image = page.image()
    assert image.width == 1200
    assert findings(boxes, image.size) == []
    scores = [b for b in boxes if b.kind == "score"]
    assert len(scores) == 12  # a name and a score for each of the six seats
    assert all(b.box[3] <= image.height for b in boxes)


def test_a_board_without_a_turn_card_is_a_finding():
    from tests.render.layout_check import turn_card_findings

    map_only = [kit.TextBox("Paris", (10, 10, 60, 24), 16, "map")]
    assert len(turn_card_findings(map_only, 2)) == 2
    with kit.recording() as boxes:
        page = kit.Page(1200)
        page.turn_card("{who} to play", "", [kit.SeatScore(0, "Ann", 3, True), kit.SeatScore(1, "Bob", 5)], who="Ann")
    assert turn_card_findings(boxes, 2) == []


def test_a_seat_cell_can_take_a_colour_and_mark_of_its_own():
    red = (200, 40, 40)
    with kit.recording() as boxes:
        page = kit.Page(1200)
        page.turn_card("{who} to play", "", [kit.SeatScore(0, "Ann", 3, False, colour=red, mark="R"),
                                             kit.SeatScore(1, "Bob", 5)], who="Ann")
        image = page.image()
    glyphs = [b.text for b in boxes if b.kind == "glyph"]
    assert glyphs == ["R", "2"]  # Ann's clan letter instead of her seat number; Bob keeps his
    token = next(b for b in boxes if b.kind == "symbol")
    centre = ((token.box[0] + token.box[2]) / 2 - 8, (token.box[1] + token.box[3]) / 2)
    assert image.getpixel((round(centre[0]), round(centre[1]))) == red
