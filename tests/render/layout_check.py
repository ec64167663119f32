"""Layout checks for every game's images: render AI-game positions inside kit.recording, list what a player would trip on.

A game's test (tests/render/test_layout_<game>.py) calls `layout_findings(game_key, seats, lang)`
once per player count and language and asserts the list is empty. A finding is one of:
- two texts whose ink boxes overlap (one covers the other: a player reads neither),
- a text on a symbol (a token, flag or disc drawn over or under a label),
- a text below its role's size (`kit.TEXT_KINDS`: map labels read at 800 px wide, the turn card's
  headline and scores at 400 px),
- a text running off the image (cut off),
- on the channel board: no turn card (a headline, and a name and a score per seat at >= 2.5%).

Texts of kind "glyph" are part of a symbol (a token's number) and only count through the symbol.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from PIL import Image

import render
from render import kit
from rules import registry
from rules.engine import GameState, play_out

# Seat names that stress a layout: a very long Latin name and a long Japanese one (the CJK font is
# taller and wider) at every player count, then a short Japanese name, short and accented Latin ones.
NAMES = (
    "Bartholomew Featherstonehaugh-Worthington",
    "長谷川まりこ・スミス＝ウィリアムズ",
    "山田太郎",
    "Ann",
    "Zoë Ødegård",
    "李",
)
TOLERANCE = 1.0  # px of anti-aliasing two boxes may share before they count as overlapping

Renderer = Callable[[GameState, list[str]], list[tuple[str, bytes]]]


def names_for(seats: int) -> list[str]:
    """The first `seats` of NAMES: long Latin and long CJK names from 2 players on (1: the long Latin one)."""
    return list(NAMES[:seats])


def positions(game_key: str, seats: int, seed: int = 3, stops: Sequence[int | None] = (4, 30, None),
              ai: str = "greedy", options: dict[str, Any] | None = None) -> Iterator[tuple[str, GameState]]:
    """The game `seed` at `seats` players after each of `stops` moves (None: to the end), AI on every seat.

    One game is played forward, so the corpus costs one game per count, not one per stop.
    """
    definition = registry.get(game_key)
    state = definition.new_game(seats, dict(options or {}), seed)
    players = {seat: definition.ai(ai) for seat in range(seats)}
    played = 0
    for stop in stops:
        budget = 5_000 if stop is None else max(0, stop - played)
        played += len(play_out(state, players, max_moves=budget))
        yield (f"{game_key} {seats}p seed {seed} after {played} moves", state)


def board_and_hand(state: GameState, names: list[str]) -> list[tuple[str, Callable[[], bytes]]]:
    """The channel image and seat 0's private image of `state`."""
    public = state.view(None)
    return [("board", lambda: render.board_png(public, names)),
            ("hand of seat 1", lambda: render.hand_png(state.view(0), names))]


def recorded(draw: Callable[[], bytes]) -> tuple[list[kit.TextBox], tuple[int, int]]:
    """Everything `draw()` drew, and the size of the image it encoded."""
    with kit.recording() as boxes:
        data = draw()
    with Image.open(io.BytesIO(data)) as image:
        return boxes, image.size


def _overlap(a: kit.Box, b: kit.Box) -> bool:
    return (min(a[2], b[2]) - max(a[0], b[0]) > TOLERANCE
            and min(a[3], b[3]) - max(a[1], b[1]) > TOLERANCE)


def findings(boxes: Sequence[kit.TextBox], size: tuple[int, int]) -> list[str]:
    """What is wrong with one image's layout, one line per problem (empty: nothing)."""
    width, height = size
    out: list[str] = []
    texts = [b for b in boxes if b.is_text and b.kind != "glyph"]
    symbols = [b for b in boxes if b.kind == "symbol"]
    for t in texts:
        least = kit.min_size(t.kind, width)
        if t.size < least:
            out.append(f"{t.kind} {t.text!r} is {t.size} px, under {least} px ({kit.TEXT_KINDS[t.kind]:.1%} of {width})")
        x0, y0, x1, y1 = t.box
        if x0 < -TOLERANCE or y0 < -TOLERANCE or x1 > width + TOLERANCE or y1 > height + TOLERANCE:
            out.append(f"{t.kind} {t.text!r} runs off the {width}x{height} image at {_rounded(t.box)}")
    # sweep along x: only boxes whose x ranges meet are compared
    ordered = sorted(texts, key=lambda b: b.box[0])
    for i, a in enumerate(ordered):
        for b in ordered[i + 1:]:
            if b.box[0] >= a.box[2] - TOLERANCE:
                break
            if _overlap(a.box, b.box) and (a.box, a.text) != (b.box, b.text):  # a redraw is no clash
                out.append(f"{a.text!r} at {_rounded(a.box)} overlaps {b.text!r} at {_rounded(b.box)}")
    for t in texts:
        for s in symbols:
            if _overlap(t.box, s.box):
                out.append(f"{t.text!r} at {_rounded(t.box)} sits on a {s.text} at {_rounded(s.box)}")
    return out


def turn_card_findings(boxes: Sequence[kit.TextBox], seats: int) -> list[str]:
    """What a channel image lacks for a phone: a headline (whose turn, or the result) and, for every
    seat, a name and a score at the turn card's size."""
    out = []
    if not any(b.kind == "headline" for b in boxes):
        out.append("no headline (whose turn) at >= 2.5% of the width")
    scores = sum(1 for b in boxes if b.kind == "score")
    if scores < 2 * seats:
        out.append(f"{scores} texts of kind 'score' for {seats} seats: each seat needs its name and score")
    return out


def _rounded(box: kit.Box) -> tuple[int, ...]:
    return tuple(round(v) for v in box)


def layout_findings(game_key: str, seats: int, lang: str | Sequence[str] = ("en", "ja"),
                    images: Callable[..., Any] = board_and_hand, **corpus: Any) -> list[str]:
    """Every finding on the images of `game_key`'s corpus at `seats` players in `lang` (one language or
    several: the games are played once and drawn in each), labelled with the position."""
    names = names_for(seats)
    langs = [lang] if isinstance(lang, str) else list(lang)
    out: list[str] = []
    for label, state in positions(game_key, seats, **corpus):
        for what, draw in images(state, names):
            for one in langs:
                boxes, size = recorded(lambda draw=draw, one=one: render.in_language(one, game_key, draw))
                found = findings(boxes, size)
                if what == "board":  # the channel image: read at 400 px wide before anyone taps it
                    found += turn_card_findings(boxes, seats)
                out.extend(f"{label}, {what} ({one}): {finding}" for finding in found)
    return out


def report(found: Sequence[str], limit: int = 25) -> str:
    """The findings as an assertion message: the first `limit`, then how many more."""
    more = f"\n... and {len(found) - limit} more" if len(found) > limit else ""
    return "\n".join(found[:limit]) + more


def _shows(drawn: str, name: str, least: int = 4) -> bool:
    """Whether `drawn` shows `name`, whole or shortened with "…" to at least `least` characters."""
    shown = drawn.rstrip("…").rstrip()
    return len(shown) >= min(len(name), least) and any(form.startswith(shown) for form in (name, kit.plain(name)))


def _mentions(line: str, name: str, least: int = 4) -> bool:
    """Whether `line` names `name` with at least its first `least` characters."""
    return any(form[: max(least, 1)] in line or form in line for form in (name, kit.plain(name)))


def name_findings(boxes: Sequence[kit.TextBox], names: Sequence[str], width: int,
                  winners: Sequence[int] = ()) -> list[str]:
    """A channel image read at 400 px wide: every seat's name in the turn card at the score size (whole, or
    shortened to no fewer than 4 characters), and every winner named in the headline."""
    least = kit.min_size("score", width)
    cells = [b for b in boxes if b.kind == "score"]
    out = []
    for seat, name in enumerate(names):
        if not any(_shows(b.text, name) and b.size >= least for b in cells):
            out.append(f"seat {seat + 1}'s name {name!r} does not read in the turn card: {[b.text for b in cells]}")
    headline = next((b.text for b in boxes if b.kind == "headline"), "")
    for seat in winners:
        if not _mentions(headline, names[seat]):
            out.append(f"winner {names[seat]!r} is not named in the headline {headline!r}")
    return out
