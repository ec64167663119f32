"""What a batch owes: its board post (new or edit), its DMs and its lines, as pure functions of the batch."""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from bot.store import PendingPost
from bot.words import Line, Stored, event_msg, lines_json, result_label
from rules.engine import Event, GameState, Result
from rules.words import Items, Msg, Seat

# Keys every view carries (rules.engine.GameState.base_view): they change on every move, so
# they are not part of what makes a private view "changed".
_BASE_VIEW_KEYS = frozenset({"game", "seat", "num_seats", "to_act", "over", "moves_applied"})
_MISSING = object()


def secret_digest(part: dict[str, Any] | None) -> str:
    """A short stable fingerprint of a seat's secret part: equal parts, equal digests."""
    return hashlib.sha256(json.dumps(part, sort_keys=True, default=str).encode()).hexdigest()[:20]


def secret_part(state: GameState, seat: int, public_view: dict[str, Any]) -> dict[str, Any]:
    """What a seat's view holds beyond the public view: the part worth a DM when it changes. Hints
    are left out (GameState.view_without_hints): they only sum up the rest, and they change with
    the board, which a DM owed for news of the board says anyway."""
    own = state.view_without_hints(seat)
    return {k: v for k, v in own.items() if k not in _BASE_VIEW_KEYS and public_view.get(k, _MISSING) != v}


class SecretParts(Mapping[int, dict[str, Any]]):
    """The secret part of each human seat of one state (what their DMs are measured by), each
    computed when first asked for: a batch needs only the parts of the seats that may get a DM
    now, usually the one whose turn begins (issue 29: under a burst of moves, every human seat's
    view before and after every batch was most of the bot's work)."""

    def __init__(self, state: GameState, humans: Iterable[int]) -> None:
        self._state = state
        self._humans = tuple(humans)
        self._public: dict[str, Any] | None = None
        self._parts: dict[int, dict[str, Any]] = {}

    def __getitem__(self, seat: int) -> dict[str, Any]:
        if seat not in self._humans:
            raise KeyError(seat)
        part = self._parts.get(seat)
        if part is None:
            if self._public is None:
                self._public = self._state.view(None)
            part = self._parts[seat] = secret_part(self._state, seat, self._public)
        return part

    def __iter__(self) -> Iterator[int]:
        return iter(self._humans)

    def __len__(self) -> int:
        return len(self._humans)


def secret_parts(state: GameState, humans: Iterable[int]) -> SecretParts:
    """The secret part of each human seat, computed when asked for (SecretParts)."""
    return SecretParts(state, humans)


def result_msgs(result: Result | Mapping[str, Any]) -> list[Msg]:
    """Final standings as messages, with each seat's breakdown (a category as the engine's message for it,
    bot.words.result_label)."""
    data = result.to_json() if isinstance(result, Result) else result
    lines = []
    for line in data["seats"]:
        parts = [Msg("{category} {points}", category=result_label(data, k), points=v)
                 for k, v in line.get("breakdown", {}).items()]
        if parts:
            lines.append(Msg("{rank}. {name}: {score} ({parts})", rank=line["rank"], name=Seat(line["seat"]),
                             score=line["score"], parts=Items(parts, "comma")))
        else:
            lines.append(Msg("{rank}. {name}: {score}", rank=line["rank"], name=Seat(line["seat"]),
                             score=line["score"]))
    if data.get("ended_by"):
        lines.append(result_label(data, data["ended_by"]))
    return lines


def batch_lines(events: Iterable[Event], extra_lines: Iterable[Line] = ()
                ) -> tuple[list[Stored], dict[int, list[Stored]]]:
    """The batch's public lines (the service's own lines first) and each seat's private lines, as
    messages in JSON (the names and the language are filled in where they are sent)."""
    events = list(events)
    public = lines_json([*extra_lines, *(event_msg(e) for e in events if e.seats is None)])
    private: dict[int, list[Stored]] = defaultdict(list)
    for event in events:
        for seat in sorted(event.seats or ()):
            private[seat].append(event_msg(event).to_json())
    return public, dict(private)


def turn_begins(to_act: Collection[int], was_to_act: Collection[int], paused: Collection[int],
                opening: bool = False) -> list[int]:
    """Seats whose turn begins with this batch (a new post pings them): awaited now and not before,
    or released at some point of the batch (their turn passed and came back); at the opening, all.
    Decisions inside a turn and simultaneous choices edit the current post, which never pings."""
    return sorted(s for s in to_act if opening or s in paused or s not in was_to_act)


@dataclass(frozen=True)
class BoardOwed:
    """The board post a batch owes (None: nothing to post) and the post's words after it."""

    board: dict[str, Any] | None
    summary: list[Stored]  # the previous turn summed up (fixed when a new post is made)
    lines: list[Stored]  # this turn's lines so far (grown by each edit)


def board_owed(*, summary: list[Stored], lines: list[Stored], public_lines: list[Stored], moved: bool,
               extra_lines: bool = False, opening: bool = False, over: bool = False,
               new_turn: Collection[int] = (), previous_view: dict[str, Any] | None = None,
               result: list[Stored] | None = None) -> BoardOwed:
    """A new board post when a turn begins, the game ends or the service says something (it sums
    up the turn that just passed); otherwise an edit of the current post with the new lines.
    `moved`: the batch applied moves; with neither moves nor lines of its own it owes no post."""
    if moved and not opening and not extra_lines and not over and not new_turn:
        lines = [*lines, *public_lines]
        board: dict[str, Any] = {"lines": [*summary, *lines], "edit": True}
    else:
        summary, lines = [*lines, *public_lines], []
        board = {"lines": summary, "ping": list(new_turn)}
    # How many of its last lines this post says for the first time (the rest sums up the turn
    # before it): a backlog sent as one post shows each of them once (issue 29).
    board["fresh"] = len(public_lines)
    if moved and previous_view is not None:
        board["previous_view"] = previous_view
    if result is not None:
        board["result"] = result
    return BoardOwed(board if (moved or extra_lines) else None, list(summary), list(lines))


def _at(moves: int | None) -> dict[str, int]:
    """A DM row's `at`: the moves applied when it was owed (what it shows, drawn by replay if the game
    moved on before it is sent); rows owed before it existed show the game as it is when sent."""
    return {} if moves is None else {"at": moves}


@dataclass(frozen=True)
class DmsOwed:
    """The DMs a batch owes, and what each seat is owed later and was last sent."""

    posts: list[PendingPost]
    news: dict[int, list[Stored]]  # private news still waiting for its seat's next DM
    sent: dict[int, str]  # the digest of the secret part each seat's last DM carried


def dms_owed(*, humans: Iterable[int], choices: Mapping[int, str], news: Mapping[int, list[Stored]],
             private_lines: Mapping[int, list[Stored]], new_turn: Collection[int], movers: Iterable[int],
             secrets_after: Mapping[int, dict[str, Any]], sent: Mapping[int, str], over: bool = False,
             welcome: Collection[int] = (), at: int | None = None) -> DmsOwed:
    """DMs that matter: private news (events only that seat sees) waits, batched, for the seat's
    next DM, which goes out when its turn begins (with its hand if it changed since the last DM, and
    what happened since) or when the game ends; never for someone else's public move.
    Each player's choice (/clock dms, `choices`): `all` as above; `turn` not at the end of the game;
    `off` none (news is not kept), only a welcome in words when they take a seat back or over.
    `welcome`: seats just taken back or over, owed a welcome DM whatever happened.
    `at`: the moves applied when owed; a DM shows the game as it was then, not when it is sent."""
    humans, movers = list(humans), list(movers)
    news = {s: list(lines) for s, lines in news.items()}
    for seat in humans:
        news[seat] = [] if choices[seat] == "off" else [*news.get(seat, []), *private_lines.get(seat, [])]
    since = {s for s in humans if s in new_turn and any(mover != s for mover in movers)}
    dm_now = sorted(s for s in humans if choices[s] != "off" and (s in welcome or (
        ((over and choices[s] == "all") or s in new_turn) and (
            s in since or news[s] or secret_digest(secrets_after.get(s)) != sent.get(s)))))
    in_words = [s for s in welcome if choices.get(s) == "off"]
    now = {s: news.pop(s) for s in dm_now}
    sent = {**sent, **{s: secret_digest(secrets_after.get(s)) for s in dm_now}}
    posts = [PendingPost("dm", s, {"lines": now[s],
                                   **({"since": True} if s in since else {}),
                                   **({"welcome": True} if s in welcome else {}),
                                   "digest": sent[s], **_at(at)}) for s in dm_now]
    posts += [PendingPost("dm", s, {"lines": [], "welcome": True, "dms": "off"}) for s in in_words]
    return DmsOwed(posts, {s: lines for s, lines in news.items() if lines}, sent)


@dataclass(frozen=True)
class WelcomeOwed:
    """What the deal owes the human seats: welcome DMs, and the opening news that waits."""

    posts: list[PendingPost]  # the welcome DMs that commit with the start
    news: dict[int, list[Stored]]  # the opening news of seats that get their first DM when their turn begins
    welcomed: list[int]  # seats whose welcome DM carries their opening hand


def welcome_owed(*, humans: Iterable[int], choices: Mapping[int, str], opening: Iterable[Event],
                 to_act: Collection[int], secrets: Mapping[int, dict[str, Any]], at: int | None = None) -> WelcomeOwed:
    """The welcome DM with the opening hand. A player who chose DMs only when their turn begins
    gets it then (the opening news waits for it); one who chose none gets a welcome in words only,
    saying where their hand is (/hand, My hand)."""
    opening = list(opening)
    posts: list[PendingPost] = []
    news: dict[int, list[Stored]] = {}
    welcomed: list[int] = []
    for seat in humans:
        lines = lines_json(event_msg(e) for e in opening if e.seats is not None and seat in e.seats)
        if choices[seat] == "off":
            posts.append(PendingPost("dm", seat, {"lines": [], "welcome": True, "dms": "off"}))
        elif choices[seat] == "turn" and seat not in to_act:
            news[seat] = lines
        else:
            welcomed.append(seat)
            posts.append(PendingPost("dm", seat, {"lines": lines, "welcome": True,
                                                  "digest": secret_digest(secrets[seat]), **_at(at)}))
    return WelcomeOwed(posts, news, welcomed)
