"""The words upgrade (migration 14, bot/service/words_upgrade.py) on a database written by the code from before
messages (tests/bot/data/words_before_messages.sql, made by tests/bot/words_before_messages.py at bc8fe81): every
stored line becomes a message that says the same English, and shows in Japanese, German and the pseudo-locale
with the players' names verbatim; an engine's English line carried as a message becomes the engine's message;
a line found nowhere stays as stored; the upgrade runs once, also with two processes on PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import locales
from bot import words
from bot.service.owed import result_msgs
from bot.service.words_upgrade import ENGINE, Lines, Rewrite, Upgraded, upgrade_words
from bot.store import Store
from rules.words import Items, Msg
from tests.bot.conftest import fresh_database
from tests.e2e.test_pseudo_locale import proper_nouns
from tests.i18n.test_catalogs import PSEUDO, pseudo_words

DUMP = Path(__file__).parent / "data" / "words_before_messages.sql"
NAMES = ("Deck", "Score", "Round")  # catalog words: each must stay as it is in every language


def old_database(path: Path) -> str:
    """The database the older code wrote (schema 10), as a file."""
    conn = sqlite3.connect(path)
    conn.executescript(DUMP.read_text())
    conn.close()
    return str(path)


async def stored_lines(store: Store) -> list[tuple[int, str, Any]]:
    """(game, where, line) of every line the store keeps: outbox payloads, board post words, DM news."""
    db = store.db
    found = []
    for game_id, payload in await db.fetch("SELECT game_id, payload FROM outbox ORDER BY id"):
        payload = json.loads(payload)
        for key in ("lines", "result"):
            found += [(game_id, f"outbox.{key}", line) for line in payload.get(key) or ()]
    for game_id, post, board in await db.fetch("SELECT id, post_words, board_words FROM games ORDER BY id"):
        post = json.loads(post) if post else {}
        found += [(game_id, "post_words", line) for key in ("summary", "lines") for line in post.get(key) or ()]
        found += [(game_id, "news", line) for lines in (post.get("news") or {}).values() for line in lines]
        found += [(game_id, "board_words", line) for line in (json.loads(board) if board else {}).get("lines", ())]
    return found


async def game_facts(store: Store) -> dict[int, tuple[str, list[str]]]:
    rows = await store.db.fetch("SELECT id, game_key FROM games")
    return {r[0]: (r[1], [s.name for s in await store.seats(r[0])]) for r in rows}


@pytest.fixture
def pseudo_locale():
    locales.install(PSEUDO, pseudo_words())
    yield PSEUDO
    locales.uninstall(PSEUDO)


def _words(text: str) -> set[str]:
    """The words of a text, commands and code aside (/seat back, `keep ID ID` stay so in every language)."""
    return set(re.findall(r"[A-Za-z]{3,}", re.sub(r"`[^`]*`|/[a-z][a-z-]*(?: [a-z][a-z-]*)?", " ", text)))


def _named(marked: str, names: list[str]) -> str:
    return re.sub(r"<(\d+)>", lambda m: names[int(m.group(1))], marked)


def verbatim(value: Any) -> set[str]:
    """The plain parameters of a message at any depth: names, notation, cities as printed (never translated)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, Msg):
        return {v for param in value.params.values() for v in verbatim(param)}
    if isinstance(value, Items):
        return {v for item in value.items for v in verbatim(item)}
    return set()


def english_left(line: Any, lang: str, names: list[str], key: str) -> set[str]:
    """The words of a line's English (names, board names and notation aside) still there in `lang`."""
    english, said = words.say(line, "en", names, key), words.say(line, lang, names, key)
    shown = verbatim(line) if isinstance(line, Msg) else set()
    for kept in (*sorted({*names, *NAMES, *shown}, key=len, reverse=True), *proper_nouns(key)):
        english, said = english.replace(kept, " "), said.replace(kept, " ")
    return _words(english) & _words(said)


async def test_lines_stored_before_messages_become_messages(tmp_path, pseudo_locale):
    path = old_database(tmp_path / "old.db")
    store = await Store.open(path)
    try:
        games = await game_facts(store)
        before = await stored_lines(store)
        assert before and all(isinstance(line, str) for _, _, line in before)
        # As stored, every one of them shows its English in every language: the pseudo-locale proves it.
        assert all(english_left(line, PSEUDO, games[g][1], games[g][0]) for g, _, line in before
                   if _words(line) - set(NAMES))
        report = await upgrade_words(store)
        assert (report.games, report.replayed, len(report.kept)) == (6, 6, 0)
        assert report.rewritten == len(before)
        after = await stored_lines(store)
        assert [(g, where) for g, where, _ in after] == [(g, where) for g, where, _ in before]
        named_seen = set()
        result_lines = {g: [m.to_json() for m in result_msgs({**row.result, "ended_by": ""})]
                        for g in games if (row := await store.game(g)).result}
        for (game_id, where, old), (_, _, new) in zip(before, after, strict=True):
            key, names = games[game_id]
            msg = Msg.from_json(new)
            # The same English, byte for byte, names and all.
            assert words.say(msg, "en", names, key) == old, where
            if where == "outbox.result":
                # The standings: exactly what the current code writes for the stored result (their words are the
                # result's labels, checked with the current code's; the "points" of a game ended early by the
                # service has no translation in ja or de, in the current code too).
                assert new == result_lines[game_id].pop(0), new
                continue
            assert ENGINE not in json.dumps(new), new
            assert not english_left(msg, PSEUDO, names, key), (where, old, words.say(msg, PSEUDO, names, key))
            marks = [f"<{i}>" for i in range(len(names))]  # the seats, marked: what is a name and what a word
            for lang in ("ja", "de"):
                said, marked = words.say(msg, lang, names, key), words.say(msg, lang, marks, key)
                assert said != old or not _words(old) - set(names), (lang, old)
                assert said == _named(marked, names), (lang, old, said)
                for name in NAMES:
                    if name in names and marks[names.index(name)] in marked:
                        named_seen.add((lang, name))
        assert named_seen == {(lang, name) for lang in ("ja", "de") for name in NAMES}
    finally:
        await store.close()


async def test_the_upgrade_runs_once_and_keeps_what_it_cannot_place(tmp_path):
    path = old_database(tmp_path / "old.db")
    conn = sqlite3.connect(path)
    # A line no move of the game said (written by a version this upgrade does not know): it stays as stored.
    conn.execute("UPDATE games SET board_words = ? WHERE id = 5",
                 (json.dumps({"lines": ["Deck found a lost ticket."], "through": 1}),))
    conn.commit()
    conn.close()
    store = await Store.open(path)
    try:
        first = await upgrade_words(store)
        assert first.kept == [(5, "Deck found a lost ticket.")]
        lines = await stored_lines(store)
        versions = await store.db.fetch("SELECT id, version FROM games ORDER BY id")
        again = await upgrade_words(store)
        assert (again.games, again.rewritten) == (0, 0)
        assert await stored_lines(store) == lines
        assert await store.db.fetch("SELECT id, version FROM games ORDER BY id") == versions
        assert ["Deck found a lost ticket."] in [[line] for _, where, line in lines if where == "board_words"]
    finally:
        await store.close()
    store = await Store.open(path)  # a restart: nothing left to do
    try:
        assert await store.words_to_upgrade() == []
    finally:
        await store.close()


async def test_engine_lines_carried_as_messages_become_the_engines_messages(tmp_path):
    """Shape (b): the current code's `engine_line` (an engine's English with seat tokens), inside a line too."""
    path = old_database(tmp_path / "old.db")
    store = await Store.open(path)
    try:
        await store.db.write("DELETE FROM words_upgrade WHERE game_id <> 5")
        await store.db.write("DELETE FROM outbox WHERE game_id = 5")  # only the lines written below
        rewrite = Rewrite(Upgraded())
        words_before = {}

        def capture(stored):
            words_before["lines"] = Lines(stored)
        await store.upgrade_words(5, capture)
        lines = words_before["lines"]
        engine = [m for m in lines.plain.values() if m.id != ENGINE and m.seats()][-3:]
        assert len(engine) == 3
        carried = [Msg(ENGINE, english=str(m)).to_json() for m in engine]
        inside = Msg("{first} {rest}", first=Msg(ENGINE, english=str(engine[0])), rest=Msg("The game was cancelled."))
        unknown = Msg(ENGINE, english="{s0} finds a lost ticket.").to_json()
        post = {"summary": carried[:1], "lines": [inside.to_json()], "news": {"0": carried[1:2]}}
        await store.db.write("UPDATE games SET post_words = ?, board_words = ? WHERE id = 5",
                             (json.dumps(post), json.dumps({"lines": [carried[2], unknown], "through": 1})))
        await store.db.write("INSERT INTO words_upgrade (game_id) VALUES (5)")
        await store.upgrade_words(5, rewrite)
        row = (await store.db.fetch("SELECT post_words, board_words FROM games WHERE id = 5"))[0]
        post, board = json.loads(row[0]), json.loads(row[1])
        assert post["summary"] == [engine[0].to_json()]
        assert post["news"] == {"0": [engine[1].to_json()]}
        assert post["lines"] == [Msg("{first} {rest}", first=engine[0], rest=Msg("The game was cancelled.")).to_json()]
        assert board == {"lines": [engine[2].to_json(), unknown], "through": 1}
        assert rewrite.report.rewritten == 4 and rewrite.report.kept == [(5, "{s0} finds a lost ticket.")]
        names = [s.name for s in await store.seats(5)]
        for lang in ("ja", "de"):
            said = words.say(board["lines"][0], lang, names, "ttr_cards")
            assert said != words.say(board["lines"][0], "en", names, "ttr_cards")
    finally:
        await store.close()


async def test_two_processes_on_postgresql_upgrade_each_game_once(tmp_path, pg_server):
    """The old database copied to PostgreSQL (migrate-db), then two stores (two processes' pools) upgrade at once:
    each game is rewritten by one of them, the other finds it done."""
    source = await Store.open(old_database(tmp_path / "old.db"))
    url = await fresh_database(pg_server, "junction_words_upgrade")
    target = await Store.open(url)
    try:
        await target.copy_from(source)
        expected = await stored_lines(source)
    finally:
        await source.close()
    other = await Store.open(url)
    try:
        assert len(await target.words_to_upgrade()) == 6
        reports = await asyncio.gather(upgrade_words(target), upgrade_words(other))
        assert sum(r.games for r in reports) == 6
        assert sum(r.rewritten for r in reports) == len(expected)
        games = await game_facts(target)
        after = await stored_lines(target)
        assert len(after) == len(expected)
        for (game_id, _, old), (_, _, new) in zip(expected, after, strict=True):
            key, names = games[game_id]
            assert isinstance(new, dict) and words.say(new, "en", names, key) == old
    finally:
        await other.close()
        await target.close()


async def test_a_game_that_fails_stays_on_the_list_and_the_others_are_done(tmp_path, monkeypatch, caplog):
    """A bug in the rewrite of one game never stops the start: that game keeps its lines and its place on the list
    (its transaction rolled back), the next start tries it again."""
    store = await Store.open(old_database(tmp_path / "old.db"))
    try:
        real = Lines.__init__

        def failing(self, stored):
            if stored.game.id == 3:
                raise RuntimeError("a bug")
            real(self, stored)

        monkeypatch.setattr(Lines, "__init__", failing)
        before = [line for game, _, line in await stored_lines(store) if game == 3]
        report = await upgrade_words(store)
        assert report.games == 6 and await store.words_to_upgrade() == [3]
        assert [line for game, _, line in await stored_lines(store) if game == 3] == before
        assert "game 3 failed" in caplog.text
        monkeypatch.setattr(Lines, "__init__", real)
        assert (await upgrade_words(store)).games == 1 and await store.words_to_upgrade() == []
    finally:
        await store.close()


@pytest.mark.parametrize("stored", ["names", "seat tokens"])
async def test_a_game_a_timeout_stopped_keeps_how_it_ended_as_a_message(tmp_path, stored):
    """A game stopped by a timeout before the upgrade kept how it ended as English in its result (with the names,
    or with seat tokens as the code before the fix wrote it): the upgrade makes it the message, so /game report of
    that old game says it in the reader's language, the names as they are."""
    path = old_database(tmp_path / "old.db")
    conn = sqlite3.connect(path)
    game_id, seat_name = conn.execute("SELECT game_id, name FROM seats WHERE seat = 0 ORDER BY game_id").fetchone()
    who = seat_name if stored == "names" else "{s0}"
    ended = f"Time ran out for {who}: the game ends with the current standings."
    count = conn.execute("SELECT count(*) FROM seats WHERE game_id = ?", (game_id,)).fetchone()[0]
    result = {"seats": [{"seat": s, "score": 0, "breakdown": {"points": 0}, "rank": 1, "details": {}}
                        for s in range(count)], "ended_by": ended, "labels": {}, "details_secret": True}
    conn.execute("UPDATE games SET status = 'over', result = ? WHERE id = ?", (json.dumps(result), game_id))
    conn.execute("DELETE FROM outbox WHERE game_id = ?", (game_id,))  # a finished game: nothing owed
    conn.commit()
    conn.close()
    store = await Store.open(path)  # migration 14 lists it: a finished game whose end is a stored line
    try:
        assert game_id in await store.words_to_upgrade()
        await upgrade_words(store)
        row = await store.game(game_id)
        names = [s.name for s in await store.seats(game_id)]
        line = words.result_label(row.result, row.result["ended_by"])
        assert words.say(line, "en", names) == f"Time ran out for {seat_name}: the game ends with the current standings."
        german = words.say(line, "de", names)
        assert german == f"Die Zeit von {seat_name} ist abgelaufen: Das Spiel endet mit dem aktuellen Stand."
        assert seat_name in words.say(line, "ja", names) and "Time ran out" not in words.say(line, "ja", names)
        assert words.say(words.result_label(row.result, "points"), "de") == "Punkte"
    finally:
        await store.close()
