"""Message texts: lobby, board posts, status and rules, from service data (no discord objects)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot import community
from bot.ai_pool import level_of
from bot.store import SeatRow
from bot.tables import TableInfo
from rules.engine import GameDefinition, name_seats, seat_token

MAX_CONTENT = 2000  # Discord's message length limit
MAX_LAYOUT_TEXT = 4000  # Discord's limit on the text of all text displays of a layout (components v2) post


def who(seat: SeatRow) -> str:
    """A seat as a mention (humans) or a name (AI)."""
    return f"<@{seat.user_id}>" if seat.user_id is not None else seat.name


def until(info: TableInfo, seat: int) -> str:
    """` (time runs out <t:…:R>)` for a seat with a turn clock: Discord shows it in the reader's time."""
    deadline = info.deadlines.get(seat)
    return f" (time runs out <t:{int(deadline)}:R>)" if deadline is not None else ""


def clock_line(info: TableInfo) -> list[str]:
    """`⏰ Time runs out <t:…:R>` (per seat when the deadlines differ), or nothing without a timer."""
    deadlines = {s: d for s, d in info.deadlines.items() if s in info.to_act}
    if not deadlines:
        return []
    if len(set(deadlines.values())) == 1:
        return [f"⏰ Time runs out <t:{int(next(iter(deadlines.values())))}:R>."]
    return ["⏰ Time runs out: " + ", ".join(f"{info.seats[s].name} <t:{int(d)}:R>" for s, d in sorted(deadlines.items()))
            + "."]


def option_value(value: object) -> str:
    """An option's value as players type it: on/off for a switch."""
    return "on" if value is True else "off" if value is False else str(value)


def options_line(definition: GameDefinition, options: dict) -> str:
    return " ".join(f"{option.key}={option_value(options.get(option.key, option.default))}"
                    for option in definition.options)


def lobby_text(info: TableInfo, locale: Any = None) -> str:
    """The lobby message; `locale`: the language of its lines about a rematch and a minimum reliability."""
    d, row = info.definition, info.row
    seats = "\n".join(f"{i + 1}. {who(s)}" + (f" ({level_of(s.ai_kind)})" if s.is_ai else "")
                      for i, s in enumerate(info.seats)) or "(nobody yet)"
    status = {"lobby": "Lobby open", "running": "Started", "over": "Finished", "cancelled": "Cancelled"}[row.status]
    lines = [f"**{d.title}** · game #{row.id} · {status}",
             f"Players: {len(info.seats)} of {d.min_players}–{d.max_players} · seats: "
             + ("shuffled at start" if row.seat_order == "shuffle" else "in join order")]
    if d.options:
        lines.append(f"Options: `{options_line(d, row.options)}`")
    if getattr(row, "turn_hours", 0):
        stand_in = f"the AI ({level_of(row.stand_in)})"
        action = {"ai": f"{stand_in} plays", "skip": "the turn is skipped", "end": "the game ends"}.get(row.timeout_action, "")
        lines.append(f"Turn timer: {row.turn_hours} h · on timeout {action} · the AI takes a seat after "
                     f"{row.max_timeouts} timeouts in a row · vacation up to {row.vacation_hours} h each")
    if row.status == "lobby":
        lines += community.minimum_lines(info, locale)
    lines.append(seats)
    if row.status == "lobby" and info.rematch is not None:
        lines += community.rematch_lines(info, locale)
    elif row.status == "lobby":
        lines.append(f"Join with the button or `/game join`; <@{row.creator_id}> starts with **Start**.")
    return "\n".join(lines)


def board_parts(info: TableInfo, lines: list[str], result: list[str] | None) -> tuple[str, str]:
    """A board post's two texts: what happened (header, the action lines, and the standings once the
    game is over), and whose turn it is (the deadline and the mentions; empty when nobody acts).
    Together, joined by a line break, within MAX_CONTENT: the oldest action lines go first. A lobby
    closed before it started (it never had a board post) says its line alone."""
    if info.row.status == "cancelled" and info.row.board_message_id is None and info.moves == 0:
        return "\n".join(lines)[:MAX_CONTENT], ""
    head = f"**{info.definition.title}** · game #{info.row.id} · move {info.moves}"
    ending: list[str] = []
    turn: list[str] = []
    if result is not None:
        ending = ["**Game over.**", *result]
    elif info.to_act:
        waiting = [info.seats[s] for s in info.to_act]
        turn = [*clock_line(info), "**To act:** " + ", ".join(f"{who(s)}" for s in waiting)]
    body = [f"• {line}" for line in lines]
    story = "\n".join([head, *body, *ending])
    # Too long: drop the oldest action lines, never the header or who must act.
    while len(story) + len("\n".join(["", *turn])) > MAX_CONTENT and body:
        body = body[1:]
        story = "\n".join([head, "• …", *body, *ending])
    return story[:MAX_CONTENT], "\n".join(turn)[:MAX_CONTENT - min(len(story), MAX_CONTENT)]


def board_text(info: TableInfo, lines: list[str], result: list[str] | None) -> str:
    """The board post as one text (both board_parts, one after the other)."""
    return "\n".join(part for part in board_parts(info, lines, result) if part)[:MAX_CONTENT]


def status_text(info: TableInfo) -> str:
    if info.row.status == "lobby":
        return lobby_text(info)
    text = lobby_text(info) + f"\nMoves so far: {info.moves}."
    if info.row.status == "running" and info.to_act:
        text += "\nTo act: " + ", ".join(info.seats[s].name + until(info, s) for s in info.to_act) + "."
    if info.row.result:
        text += "\nFinal: " + ", ".join(f"{info.seats[r['seat']].name} {r['score']}" for r in info.row.result["seats"])
    return text[:MAX_CONTENT]


def rules_text(definition: GameDefinition) -> str:
    lines = [f"**{definition.title}** ({definition.min_players}–{definition.max_players} players)"]
    if definition.summary:
        lines.append(definition.summary)
    if definition.options:
        lines.append("Options for `/game new options:` (key=value, space separated):")
        for option in definition.options:
            kind = {"bool": "on/off", "choice": "/".join(option.choices),
                    "int": f"{option.minimum}–{option.maximum}"}[option.kind]
            lines.append(f"• `{option.key}` ({kind}, default {option_value(option.default)}): {option.description}")
    lines.append("Play: **Take turn** under the board, or `/play move:` (start typing to see your legal moves). "
                 "`/hand` shows your secret hand; `/board` the table.")
    return "\n".join(lines)[:MAX_CONTENT]


def parse_options(text: str) -> dict[str, str]:
    """`key=value key=value` (also commas) -> dict; ValueError for a word without '='."""
    given: dict[str, str] = {}
    for word in text.replace(",", " ").split():
        key, sep, value = word.partition("=")
        if not sep or not key or not value:
            raise ValueError(f"Write options as key=value, e.g. `{word}=on`.")
        given[key.strip().lower()] = value.strip()
    return given


MISSING_ATTACH = ("(I cannot attach images here: please give me the **Attach Files** permission in this channel "
                  "so the board image can be posted.)")


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def label(result: Mapping[str, Any] | None, key: str) -> str:
    """A result key (breakdown category, detail, how the game ended) in the engine's player words."""
    return ((result or {}).get("labels") or {}).get(key, key)


def _detail(value: object, name: Callable[[str], str] = str) -> str:
    """A result detail (any JSON value) in words: lists comma separated, a pair as `city 7`, mappings
    as `key value`; `name` gives each word its label."""
    if isinstance(value, dict):
        return ", ".join(f"{name(str(k))} {_detail(v, name)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        if len(value) == 2 and isinstance(value[0], str) and not isinstance(value[1], str | list | dict):
            return f"{name(value[0])} {value[1]}"
        return ", ".join(_detail(v, name) for v in value) or name("none")
    return name(value) if isinstance(value, str) else str(value)


def revealed_lines(result: dict | None, names: list[str], width: int = 180,
                   word: Callable[[str], str] = str) -> list[str]:
    """What each seat's result details show (tickets, cards...), one short line per seat; [] if none.

    Headed "Revealed:" only when the engine says they were secret. `word` translates English words
    (the bot passes the reader's language); keys become the engine's labels first."""
    def name(key: str) -> str:
        return word(label(result, key))

    lines = []
    for line in (result or {}).get("seats", []):
        details = line.get("details") or {}
        if details:
            seat = name_seats(seat_token(line["seat"]), names)
            lines.append(clip(f"{seat}: " + "; ".join(f"{name(k)}: {_detail(v, name)}" for k, v in details.items()),
                              width))
    if not lines:
        return []
    return ["**Revealed:**" if (result or {}).get("details_secret", True) else "**At the end:**", *lines]


def final_report(info: TableInfo, names: list[str], log_lines: list[str], word: Callable[[str], str] = str) -> str:
    """The downloadable end-of-game file: seats, standings with breakdown, revealed details, every move."""
    d, row = info.definition, info.row
    out = [f"{d.title} · game #{row.id}", f"Options: {options_line(d, row.options) or '(none)'}",
           "Seats: " + ", ".join(f"{i + 1}. {n}" for i, n in enumerate(names)), "", "Final standings:"]
    result = row.result or {}

    def name(key: str) -> str:
        return word(label(result, key))

    shown = "{key} (revealed): {value}" if result.get("details_secret", True) else "{key}: {value}"
    for line in result.get("seats", []):
        seat = name_seats(seat_token(line["seat"]), names)
        out.append(f"{line['rank']}. {seat}: {line['score']}")
        out += [f"     {name(category)}: {points}" for category, points in line.get("breakdown", {}).items()]
        out += ["     " + shown.format(key=name(key), value=_detail(value, name))
                for key, value in (line.get("details") or {}).items()]
    if result.get("ended_by"):
        out.append(name_seats(name(result["ended_by"]), names))
    out += ["", f"Moves ({len(log_lines)}):", *log_lines]
    return "\n".join(out) + "\n"
