"""The words upgrade (issue 25): lines stored before messages become messages, once, at the first start after it.

Stored rows carry the words of posts and DMs (outbox payloads, the board post's words, DM news; see
bot/words.py). Two older shapes are rewritten:

- English stored before messages existed, with the players' names already in it (a plain `str`): shown as
  stored in every language until now;
- an engine's English line with `{sN}` seat tokens carried as a message (`bot.words.engine_line`, id
  `ENGINE`), written while engines were being converted and translated by the old pattern catalog.

Engines are pure and deterministic, so a game's events come back by replaying its seed, options and moves:
each stored line is looked up by its English among the events of the game (named with the seats' names, or
with seat tokens) and among the lines the service itself wrote (the opening line, seat changes, timeouts,
the standings), and replaced by that message. A line found nowhere stays as stored (counted and logged):
it is shown as before, in English. Migration 14 lists the games to look at; bot.store.words_upgrade takes
each off the list in the transaction that rewrites it, so the upgrade runs once, also with several processes.
"""

from __future__ import annotations

import itertools
import logging
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from bot.service.history import EARLY
from bot.service.owed import result_msgs
from bot.store import Store
from bot.store.words_upgrade import StoredWords
from rules.engine import name_seats
from rules.registry import GAMES
from rules.words import Items, Msg, Seat, Term

log = logging.getLogger("bot.words_upgrade")

# The id of an engine's English line carried as a message (`bot.words.engine_line`, written while the engines
# were converted to messages); kept here so the upgrade reads such rows whatever becomes of bot.words.
ENGINE = "{english}"
VERBATIM = "{text}"  # rules.words.Verbatim: English shown as it is (an event whose text is not a message)

AI_SUFFIX = " (AI)"  # what a seat's name gets when the AI takes it over (bot/service/seats.py, timeouts.py)
_MAX_NAMINGS = 64  # ways to name one line's seats tried at most (a seat renamed by the AI has two names)


@dataclass
class Upgraded:
    """What one run of the upgrade did."""

    games: int = 0  # games looked at (taken off migration 14's list by this process)
    replayed: int = 0  # games whose moves were replayed (they held a line of an older shape)
    rewritten: int = 0  # lines that became messages
    kept: list[tuple[int, str]] = field(default_factory=list)  # (game, line) found nowhere: stay as stored
    seconds: float = 0.0


def service_lines(words: StoredWords, names: set[str]) -> Iterator[Msg]:
    """The lines the service wrote of its own, with every parameter they could have had in this game: the
    English the older code composed is exactly the English of these messages (issue 25's invariant)."""
    game, seats = words.game, [Seat(i) for i in range(len(words.names))]
    definition = GAMES.get(game.game_key)
    if definition is not None:
        yield Msg("{title} begins. Seats: {seats}.", title=Term(definition.title), seats=Items(seats, "comma"))
    yield Msg("The game was cancelled.")
    yield Msg("No player is left: the game ends.")
    yield Msg("No player is left: the game ends with the current standings.")
    yield Msg("A server admin ended the game: final standings as they are.")
    for size in range(1, len(seats) + 1):
        for who in itertools.combinations(seats, size):
            yield Msg("Time ran out for {who}: the game ends with the current standings.", who=Items(who, "comma"))
    for name in sorted(names):
        yield Msg("{name} left the game; the AI plays their seat.", name=name)
        yield Msg("{who} hands their seat to the AI for now (/seat back takes it back).", who=name)
        yield Msg("{who} takes their seat back from the AI.", who=name)
        for what in ("their turn is skipped.", "the AI played for them."):
            yield Msg("Time ran out for {who}: {what}", who=name, what=Msg(what))
        yield Msg("{who} timed out {n} times in a row: the AI takes the seat for good ({owner} can take"
                  " it back with /seat back).", who=name, n=game.max_timeouts, owner=name)
        for other in sorted(names - {name}):
            yield Msg("{who} handed their seat to {other}.", who=name, other=other)
    if game.result:
        if not _old_end(game.result):  # (an end stored as English would only say its English back)
            yield from result_msgs(game.result)
        yield from result_msgs({**game.result, "ended_by": ""})


def events(words: StoredWords) -> Iterator[Msg]:
    """Every line the game's engine said, in order: the opening, then each move's events (public and private)."""
    game = words.game
    definition = GAMES[game.game_key]
    state = definition.new_game(len(words.names), game.options, game.seed)
    for event in state.opening_events():
        yield event.msg
    for seat, notation in words.moves:
        for event in state.apply(seat, notation):
            yield event.msg


class Lines:
    """The messages a game's stored lines may stand for, found by their English: with the names filled in
    (a line stored before messages) or with seat tokens (an engine line carried as a message)."""

    def __init__(self, words: StoredWords) -> None:
        self.words = words
        # Each seat's possible names: as stored now, without the suffix the AI's takeover added, as it was
        # before the AI took it for good.
        self.seat_names = [list(dict.fromkeys(n for n in (name, name.removesuffix(AI_SUFFIX), words.away_names.get(i))
                                              if n)) for i, name in enumerate(words.names)]
        self.named: dict[str, Msg] = {}
        self.plain: dict[str, Msg] = {}
        self.replayed = False
        every = {n for names in self.seat_names for n in names}
        self._learn(service_lines(words, every))
        try:
            self._learn(events(words))
            self.replayed = True
        except Exception as error:  # an unknown game, a lobby never dealt, a log the engine no longer reads
            log.warning("words upgrade: game %s cannot be replayed (%s: %s); only the bot's own lines are placed",
                        words.game.id, type(error).__name__, error)

    def _learn(self, msgs: Iterable[Msg]) -> None:
        # A later line of the same English wins (the stored rows are the game's latest); English only (an engine
        # line carried as a message, e.g. the standings' "how it ended") is no message to store instead.
        for msg in msgs:
            if msg.id in (ENGINE, VERBATIM):
                continue
            english = str(msg)
            self.plain[english] = msg
            for names in self._namings(msg):
                renamed = {s: n for s, n in enumerate(names) if n != self.words.names[s]}
                self.named[name_seats(english, names)] = _named(msg, renamed) if renamed else msg

    def _namings(self, msg: Msg) -> Iterator[list[str]]:
        seats = sorted(s for s in msg.seats() if s < len(self.seat_names))
        choices = [self.seat_names[s] for s in seats]
        for chosen in itertools.islice(itertools.product(*choices), _MAX_NAMINGS):
            names = list(self.words.names)
            for seat, name in zip(seats, chosen, strict=True):
                names[seat] = name
            yield names


def _named(value: Any, renamed: dict[int, str]) -> Any:
    """`value` with the seats of `renamed` given as the names the line said then (a seat renamed since, e.g.
    by the AI's takeover, keeps the name the stored line showed)."""
    if isinstance(value, Seat):
        return renamed.get(value.index, value)
    if isinstance(value, Msg):
        out = Msg(value.id, **{key: _named(v, renamed) for key, v in value.params.items()})
        out.plural = value.plural
        return out
    if isinstance(value, Items):
        return Items([_named(item, renamed) for item in value.items], value.kind, value.english, value.sep)
    return value


class Rewrite:
    """One game's stored words rewritten as messages (`__call__` is the store's rewrite step)."""

    def __init__(self, report: Upgraded) -> None:
        self.report = report
        self.lines: Lines | None = None

    def __call__(self, words: StoredWords) -> None:
        self.report.games += 1
        if not any(_old(line) for line in _stored_lines(words)) and not _old_end(words.result):
            return
        self.lines = Lines(words)
        self.report.replayed += self.lines.replayed
        self.game_id = words.game.id
        if _old_end(words.result):
            self._end(words.result)
        if words.post_words is not None:
            post = words.post_words
            for key in ("summary", "lines"):
                if isinstance(post.get(key), list):
                    post[key] = self._list(post[key])
            if isinstance(post.get("news"), dict):
                post["news"] = {seat: self._list(lines) for seat, lines in post["news"].items()}
        board = words.board_words  # {"lines": what the live post shows, "through": the last row it shows}
        if isinstance(board, dict) and isinstance(board.get("lines"), list):
            board["lines"] = self._list(board["lines"])
        for payload in words.outbox.values():
            for key in ("lines", "result"):
                if isinstance(payload.get(key), list):
                    payload[key] = self._list(payload[key])

    def _end(self, result: dict[str, Any]) -> None:
        """A game stopped early by a timeout kept how it ended as English (with the names, or with seat tokens)
        in its result's `ended_by`: the message instead, as the result of a game stopped early keeps it now
        (bot.service.history.current_standings)."""
        assert self.lines is not None
        english = result["ended_by"]
        found = self.lines.named.get(english) or self.lines.plain.get(english)
        if found is None:
            self.report.kept.append((self.game_id, english))
            return
        self.report.rewritten += 1
        result["ended_by"] = EARLY
        result["labels"] = {**(result.get("labels") or {}), EARLY: str(found)}
        result["label_msgs"] = {**(result.get("label_msgs") or {}), EARLY: found.to_json()}

    def _list(self, lines: list[Any]) -> list[Any]:
        return [self._line(line) for line in lines]

    def _line(self, line: Any) -> Any:
        assert self.lines is not None
        if isinstance(line, str):
            found = self.lines.named.get(line)
            if found is None:
                self.report.kept.append((self.game_id, line))
                return line
            self.report.rewritten += 1
            return found.to_json()
        if isinstance(line, dict) and "id" in line and _old(line):
            msg = Msg.from_json(line)
            return self._msg(msg).to_json()
        return line

    def _msg(self, msg: Msg) -> Msg:
        assert self.lines is not None
        if msg.id == ENGINE:
            english = str(msg.params.get("english", ""))
            found = self.lines.plain.get(english)
            if found is None:
                self.report.kept.append((self.game_id, english))
                return msg
            self.report.rewritten += 1
            return found
        out = Msg(msg.id, **{key: self._value(value) for key, value in msg.params.items()})
        out.plural = msg.plural
        return out

    def _value(self, value: Any) -> Any:
        if isinstance(value, Msg):
            return self._msg(value)
        if isinstance(value, Items):
            return Items([self._value(item) for item in value.items], value.kind, value.english, value.sep)
        return value


def _stored_lines(words: StoredWords) -> Iterator[Any]:
    post = words.post_words or {}
    yield from post.get("summary") or ()
    yield from post.get("lines") or ()
    for lines in (post.get("news") or {}).values():
        yield from lines
    yield from (words.board_words or {}).get("lines") or ()
    for payload in words.outbox.values():
        yield from payload.get("lines") or ()
        yield from payload.get("result") or ()


def _old_end(result: dict[str, Any] | None) -> bool:
    """Whether a result keeps how the game ended as a line stored as English (a game a timeout stopped before
    the upgrade), not as a key its labels name."""
    if not result:
        return False
    ended = result.get("ended_by")
    return isinstance(ended, str) and ended.startswith("Time ran out for ") and ended not in (result.get("labels") or {})


def _old(line: Any) -> bool:
    """Whether a stored line is of an older shape: English, or a message with an engine line inside."""
    if isinstance(line, str):
        return True
    if isinstance(line, dict) and "id" in line:
        return line["id"] == ENGINE or any(_old_value(v) for v in (line.get("p") or {}).values())
    return False


def _old_value(value: Any) -> bool:
    if isinstance(value, dict):
        if "msg" in value:
            return _old(value["msg"])
        if "items" in value:
            return any(_old_value(item) for item in value["items"])
    return False


async def upgrade_words(store: Store) -> Upgraded:
    """Rewrite the stored lines of every game migration 14 listed (none after the first start: the list
    empties as it goes). Run before the games are loaded and their owed posts sent."""
    report = Upgraded()
    start = time.perf_counter()
    games = await store.words_to_upgrade()
    if games:
        log.info("words upgrade: %s games to look at (once, after migration 14)", len(games))
    for game_id in games:
        try:
            await store.upgrade_words(game_id, Rewrite(report))
        except Exception:  # the game stays on the list (its transaction rolled back): the next start tries again
            log.exception("words upgrade: game %s failed; its stored lines stay as they are for now", game_id)
    report.seconds = time.perf_counter() - start
    if report.games:
        log.info("words upgrade: %s games looked at, %s replayed, %s lines became messages, %s kept as stored"
                 " (%.2f s)", report.games, report.replayed, report.rewritten, len(report.kept), report.seconds)
        for game_id, line in report.kept[:20]:
            log.info("words upgrade: game %s keeps a line as stored: %r", game_id, line)
    return report
