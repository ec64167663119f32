"""Every game played to the end: its posts, DMs and end-of-game file speak in words, never engine keys."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace
from typing import Any

import pytest

from bot import i18n, texts
from bot.tables import result_msgs
from bot.words import engine_msg, say
from rules.engine import GameState, name_seats
from rules.registry import GAMES
from rules.words import Msg

NAMES = ["Ann", "Bob", "Cid"]
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
# A count followed by a noun that does not agree with it ("1 cards", "last 1 moves", "4 action(s)").
BAD_PLURAL = re.compile(r"\b1 (?:cards|moves|actions|turns|tracks)\b|\(s\)")


def played_to_the_end(key: str, seed: int = 7) -> tuple[GameState, list[tuple[frozenset[int] | None, Msg | str]]]:
    """A 3-seat game (2 where the game allows no more) played by its greedy AI; every event line."""
    definition = GAMES[key]
    state = definition.new_game(min(3, definition.max_players), {}, seed=seed)
    rng = random.Random(seed)
    ai = definition.ai("greedy")
    events: list[tuple[frozenset[int] | None, Msg | str]] = []
    for _ in range(3000):
        if not state.to_act():
            break
        seat = min(state.to_act())
        move = ai.choose(state.view(seat), state.legal_moves(seat), rng)
        events += [(event.seats, event.text) for event in state.apply(seat, move)]
    assert state.is_over(), f"{key} did not finish"
    return state, events


def end_of_game_texts(key: str, state: GameState, lang: str) -> dict[str, str]:
    """What the bot shows at the end, as the board post (standings and details) and the log file do."""
    result: dict[str, Any] = state.result().to_json()

    standings = [i18n.say(lang, line, NAMES, key) for line in result_msgs(result)]
    post = "\n".join([i18n.t(lang, "**Game over.**"), *standings,
                      *texts.revealed_lines(result, NAMES, locale=lang, game=key)])
    info = SimpleNamespace(definition=GAMES[key], row=SimpleNamespace(id=1, options={}, result=result))
    report = texts.final_report(info, NAMES, ["1. Ann: pass"], locale=lang)
    return {"post": post, "file": report}


def engine_keys(result: dict[str, Any]) -> set[str]:
    """The result's keys the engine renamed for players (a key that is also its own word is fine)."""
    keys = {result["ended_by"]} | {k for line in result["seats"] for k in (*line["breakdown"], *line["details"])}
    return {k for k in keys if result["labels"].get(k, k) != k}


def words_of(text: str) -> str:
    """The text without what players type as-is: option settings (`round_limit=40`) and moves in backticks."""
    return re.sub(r"`[^`]*`|\b\w+=\S+", "", text)


@pytest.fixture(scope="module", params=list(GAMES))
def finished(request: pytest.FixtureRequest) -> tuple[str, GameState, list]:
    state, events = played_to_the_end(request.param)
    return request.param, state, events


@pytest.mark.parametrize("lang", ["en-US", "ja"])
def test_end_of_game_post_and_file_in_words(finished: tuple[str, GameState, list], lang: str) -> None:
    key, state, _ = finished
    result = state.result().to_json()
    words = " ".join(result["labels"].values())
    for where, text in end_of_game_texts(key, state, lang).items():
        text = words_of(text)
        assert not SNAKE.findall(text), (key, lang, where, SNAKE.findall(text), text)
        lines = [line.strip(" •*") for line in text.splitlines()]
        for engine_key in engine_keys(result):
            # a bare key on its own line ("deck") or as a word ("completed_ids 3, 9")
            shown = name_seats(engine_key, NAMES)
            assert shown not in lines, (key, lang, where, engine_key)
            if engine_key in words:  # an ordinary word inside a label ("tickets completed")
                continue
            assert not re.search(rf"(?<![\w-]){re.escape(shown)}(?![\w-])", text), (key, lang, where, engine_key)
        assert not BAD_PLURAL.search(text), (key, lang, where, BAD_PLURAL.search(text))
        if lang == "ja":  # every word the engine gave is translated (a name it declared verbatim stays)
            shown_as_is = {k for k, msg in (result.get("label_msgs") or {}).items() if msg["id"] == "{text}"}
            for english in (english for k, english in result["labels"].items() if k not in shown_as_is):
                if english in text:
                    pytest.fail(f"{key}: {english!r} untranslated in the {where}")


def test_great_western_shows_nothing_as_revealed() -> None:
    """Gold, cities and cubes were public all game: the end says so without calling them revealed."""
    state, _ = played_to_the_end("great_western")
    shown = end_of_game_texts("great_western", state, "en-US")
    assert "Revealed" not in shown["post"] and "(revealed)" not in shown["file"]
    assert "**At the end:**" in shown["post"] and "cubes off the board" in shown["post"]


def test_ticket_to_ride_reveals_tickets_in_words() -> None:
    state, _ = played_to_the_end("ttr_cards")
    shown = end_of_game_texts("ttr_cards", state, "en-US")
    assert "**Revealed:**" in shown["post"] and "completed ticket numbers:" in shown["post"]
    assert "The game ended: the train deck ran out" in shown["post"]
    assert "points for tickets at the first scoring: " in shown["file"]


def test_every_event_line_in_words(finished: tuple[str, GameState, list]) -> None:
    """Posts and DMs carry the engine's event lines: no snake_case and real plurals, in both languages."""
    key, _, events = finished
    for seats, line in events:
        for text in (name_seats(line, NAMES), say(engine_msg(line), "ja", NAMES, key)):
            text = words_of(text)
            assert not SNAKE.findall(text), (key, seats, text)
            assert not BAD_PLURAL.search(text), (key, seats, text)


@pytest.mark.parametrize("key", ["ttr_cards", "santa_fe", "great_western"])
def test_japanese_end_of_game_uses_japanese_punctuation(key: str) -> None:
    """The joins between translated words are the catalog's too ("、", "：", "／"), not English
    punctuation around Japanese words; the names stay as they are."""
    state, _ = played_to_the_end(key)
    shown = end_of_game_texts(key, state, "ja")
    report = shown["file"].split("\n\n")[0:2]  # the seats and the standings, before the moves
    for where, text in [("post", shown["post"]), ("file", "\n".join(report))]:
        for line in text.splitlines():
            if line.startswith(("**", "Options", "オプション")):
                continue
            assert not re.search(r"[:;,] ", line), (key, where, line)
    assert "1. Ann、2. Bob" in shown["file"]
