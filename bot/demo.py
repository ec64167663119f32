"""Offline demo: a whole game played by AI seats, a board PNG after every turn, and a summary."""

from __future__ import annotations

import time
from pathlib import Path

import render
from rules import registry
from rules.engine import Event, GameDefinition, GameState, Move, play_out

DEMO_NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")


def play_demo(
    game_key: str,
    players: int,
    seed: int,
    out: Path,
    ai: str = "greedy",
    options: dict | None = None,
    images: bool = True,
    lang: str = "en",
) -> str:
    """Play one game with AI seats; write turn images and summary.txt into `out`; return the summary.

    `lang` (one of locales.LANGUAGES) is the language of the images' labels and of the game log."""
    from bot import words
    from bot.service.owed import result_msgs
    from bot.texts import words_in
    definition: GameDefinition = registry.get(game_key)
    names = list(DEMO_NAMES[:players])
    state: GameState = definition.new_game(players, options or {}, seed)
    brains = {seat: definition.ai(ai) for seat in range(players)}
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("turn_*.png"):  # a rerun must not leave a longer game's images behind
        old.unlink()

    log_lines: list[str] = []
    image_count = 0
    render_seconds = 0.0

    def snapshot() -> None:
        nonlocal image_count, render_seconds
        if not images:
            return
        started = time.perf_counter()
        png = render.board_png(state.view(None), names, lang)
        render_seconds += time.perf_counter() - started
        image_count += 1
        (out / f"turn_{image_count:04d}.png").write_bytes(png)

    previous = state.view(None)
    acting = state.to_act()

    def after_move(seat: int, move: Move, events: list[Event]) -> None:
        nonlocal previous, acting
        for event in events:
            if event.seats is None:
                log_lines.append(words.say(words.event_msg(event), lang, names, game_key))
        if images:
            current = state.view(None)
            for number, png in enumerate(render.interlude_pngs(previous, current, names, lang), 1):
                (out / f"turn_{image_count:04d}_moment{number}.png").write_bytes(png)
            previous = current
        # One image per turn: when someone else is to act now, or the game ended.
        if state.to_act() != acting or not state.to_act():
            snapshot()
        acting = state.to_act()

    snapshot()
    play_out(state, brains, on_move=after_move)

    result = state.result()
    assert result is not None
    lines = [f"{definition.title}: {players} AI players ({ai}), seed {seed}", ""]
    word = words_in(lang, game_key, names)
    # The standings as the bot posts them: each category in the engine's words for players, the
    # parts joined the reader's way, then how the game ended.
    lines += [word(msg) for msg in result_msgs(result)]
    lines += [
        "",
        f"{state.moves_applied} decisions, {image_count} board images in {out}/"
        + (f" (render + encode {1000 * render_seconds / max(image_count, 1):.0f} ms each)" if images else ""),
    ]
    summary = "\n".join(lines)
    (out / "summary.txt").write_text(summary + "\n\nGame log:\n" + "\n".join(log_lines) + "\n")
    if images:
        (out / "hand_seat1.png").write_bytes(render.hand_png(state.view(0), names, lang))
    return summary
