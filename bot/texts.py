"""Message texts: lobby, board posts, status and rules, from service data (no discord objects)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import locales
from bot import community
from bot.ai_pool import level_of
from bot.store import SeatRow
from bot.tables import TableInfo
from bot.words import lang, result_label, say, t
from rules.engine import GameDefinition, name_seats, seat_token
from rules.words import N_, Items, Msg, Term

MAX_CONTENT = 2000  # Discord's message length limit
KEY_VALUE = N_("{key}: {value}")  # a label and its value (a result category, a detail)
MAX_LAYOUT_TEXT = 4000  # Discord's limit on the text of all text displays of a layout (components v2) post

# Every text here is composed in the reader's language (`locale`: a Discord locale or a language code;
# None: English) from messages; names, mentions, numbers and notation go in as values, never translated.


def who(seat: SeatRow) -> str:
    """A seat as a mention (humans) or a name (AI)."""
    return f"<@{seat.user_id}>" if seat.user_id is not None else seat.name


def until(info: TableInfo, seat: int, locale: Any = None) -> str:
    """` (time runs out <t:…:R>)` for a seat with a turn clock: Discord shows it in the reader's time."""
    deadline = info.deadlines.get(seat)
    return t(locale, " (time runs out {when})", when=f"<t:{int(deadline)}:R>") if deadline is not None else ""


def clock_line(info: TableInfo, locale: Any = None) -> list[str]:
    """`⏰ Time runs out <t:…:R>` (per seat when the deadlines differ), or nothing without a timer."""
    deadlines = {s: d for s, d in info.deadlines.items() if s in info.to_act}
    if not deadlines:
        return []
    if len(set(deadlines.values())) == 1:
        return [t(locale, "⏰ Time runs out {when}.", when=f"<t:{int(next(iter(deadlines.values())))}:R>")]
    return [t(locale, "⏰ Time runs out: {when}.",
              when=Items([f"{info.seats[s].name} <t:{int(d)}:R>" for s, d in sorted(deadlines.items())], "comma"))]


def option_value(value: object) -> str:
    """An option's value as players type it: on/off for a switch."""
    return "on" if value is True else "off" if value is False else str(value)


def options_line(definition: GameDefinition, options: dict) -> str:
    return " ".join(f"{option.key}={option_value(options.get(option.key, option.default))}"
                    for option in definition.options)


STATUS_WORDS = {"lobby": N_("**{title}** · game #{id} · Lobby open"), "running": N_("**{title}** · game #{id} · Started"),
                "over": N_("**{title}** · game #{id} · Finished"), "cancelled": N_("**{title}** · game #{id} · Cancelled")}


def lobby_text(info: TableInfo, locale: Any = None) -> str:
    """The lobby message in the reader's language, with its lines about a rematch and a minimum reliability."""
    d, row = info.definition, info.row
    title = Term(d.title)
    seats = "\n".join(f"{i + 1}. {who(s)}" + (f" ({t(locale, level_of(s.ai_kind))})" if s.is_ai else "")
                      for i, s in enumerate(info.seats)) or t(locale, "(nobody yet)")
    order = (N_("Players: {n} of {min}–{max} · seats: shuffled at start") if row.seat_order == "shuffle"
             else N_("Players: {n} of {min}–{max} · seats: in join order"))
    lines = [t(locale, STATUS_WORDS[row.status], title=title, id=row.id),
             t(locale, order, n=len(info.seats), min=d.min_players, max=d.max_players)]
    if d.options:
        lines.append(t(locale, "Options: `{options}`", options=options_line(d, row.options)))
    if getattr(row, "turn_hours", 0):
        stand_in = Msg("the AI ({level}) plays", level=Term(level_of(row.stand_in)))
        action = {"ai": stand_in, "skip": Msg("the turn is skipped"), "end": Msg("the game ends")}.get(
            row.timeout_action, "")
        lines.append(t(locale, "Turn timer: {hours} h · on timeout {action} · the AI takes a seat after {n} timeouts "
                               "in a row · vacation up to {vacation} h each", hours=row.turn_hours, action=action,
                       n=row.max_timeouts, vacation=row.vacation_hours))
    if row.status == "lobby":
        lines += community.minimum_lines(info, locale)
    lines.append(seats)
    if row.status == "lobby" and info.rematch is not None:
        lines += community.rematch_lines(info, locale)
    elif row.status == "lobby":
        lines.append(t(locale, "Join with the button or `/game join`; {who} starts with **Start**.",
                       who=f"<@{row.creator_id}>"))
    return "\n".join(lines)


def board_parts(info: TableInfo, lines: Sequence[Any], result: Sequence[Any] | None,
                locale: Any = None) -> tuple[str, str]:
    """A board post's two texts in the reader's language: what happened (header, the action lines, and the
    standings once the game is over), and whose turn it is (the deadline and the mentions; empty when nobody
    acts). Together, joined by a line break, within MAX_CONTENT: the oldest action lines go first.
    `lines` and `result`: messages (or their JSON) whose seats are the table's names, or finished text.
    A lobby closed before it started (it never had a board post) says its line alone."""
    language, game = lang(locale), info.definition.key
    if info.row.status == "cancelled" and info.row.board_message_id is None and info.moves == 0:
        return "\n".join(say(line, language, info.names, game) for line in lines)[:MAX_CONTENT], ""
    head = t(locale, "**{title}** · game #{id} · move {n}", title=Term(info.definition.title), id=info.row.id,
             n=info.moves)
    ending: list[str] = []
    turn: list[str] = []
    if result is not None:
        ending = [t(locale, "**Game over.**"), *(say(line, language, info.names, game) for line in result)]
    elif info.to_act:
        waiting = [info.seats[s] for s in info.to_act]
        turn = [*clock_line(info, locale), t(locale, "**To act:** {who}", who=Items([who(s) for s in waiting], "comma"))]
    body = [f"• {say(line, language, info.names, game)}" for line in lines]
    story = "\n".join([head, *body, *ending])
    # Too long: drop the oldest action lines, never the header or who must act.
    while len(story) + len("\n".join(["", *turn])) > MAX_CONTENT and body:
        body = body[1:]
        story = "\n".join([head, "• …", *body, *ending])
    return story[:MAX_CONTENT], "\n".join(turn)[:MAX_CONTENT - min(len(story), MAX_CONTENT)]


def board_text(info: TableInfo, lines: Sequence[Any], result: Sequence[Any] | None, locale: Any = None) -> str:
    """The board post as one text (both board_parts, one after the other)."""
    return "\n".join(part for part in board_parts(info, lines, result, locale) if part)[:MAX_CONTENT]


def status_text(info: TableInfo, locale: Any = None) -> str:
    if info.row.status == "lobby":
        return lobby_text(info, locale)
    text = lobby_text(info, locale) + "\n" + t(locale, "Moves so far: {n}.", n=info.moves)
    if info.row.status == "running" and info.to_act:
        text += "\n" + t(locale, "To act: {who}.", who=Items([info.seats[s].name + until(info, s, locale)
                                                              for s in info.to_act], "comma"))
    if info.row.result:
        text += "\n" + t(locale, "Final: {scores}", scores=Items([f"{info.seats[r['seat']].name} {r['score']}"
                                                                      for r in info.row.result["seats"]], "comma"))
    return text[:MAX_CONTENT]


OPTION_KINDS = {"bool": N_("on/off")}


def rules_text(definition: GameDefinition, locale: Any = None) -> str:
    """`/rules`: the game's summary and options in the reader's language (from the game's domain)."""
    language, game = lang(locale), definition.key
    lines = [t(locale, "**{title}** ({min}–{max} players)", title=Term(definition.title), min=definition.min_players,
               max=definition.max_players)]
    if definition.summary:
        lines.append(phrase(definition.summary, language, game))
    if definition.options:
        lines.append(t(locale, "Options for `/game new options:` (key=value, space separated):"))
        for option in definition.options:
            kind = {"bool": t(locale, "on/off"), "choice": "/".join(option.choices),
                    "int": f"{option.minimum}–{option.maximum}"}[option.kind]
            lines.append("• " + t(locale, "`{key}` ({kind}, default {default}): {description}", key=option.key,
                                  kind=kind, default=option_value(option.default),
                                  description=phrase(option.description, language, game)))
    lines.append(t(locale, "Play: **Take turn** under the board, or `/play move:` (start typing to see your legal "
                           "moves). `/hand` shows your secret hand; `/board` the table."))
    return "\n".join(lines)[:MAX_CONTENT]


def phrase(text: Msg | str, language: str, game: str | None) -> str:
    """A game's fixed text (its summary, an option's description) in `language`: a message, or a plain str
    looked up whole in the game's domain."""
    return say(text, language, None, game) if isinstance(text, Msg) else locales.gettext(language, text, game)


def parse_options(text: str) -> dict[str, str]:
    """`key=value key=value` (also commas) -> dict; ValueError (its message as the argument) for a word
    without '='."""
    given: dict[str, str] = {}
    for word in text.replace(",", " ").split():
        key, sep, value = word.partition("=")
        if not sep or not key or not value:
            raise ValueError(Msg("Write options as key=value, e.g. `{word}=on`.", word=word))
        given[key.strip().lower()] = value.strip()
    return given


MISSING_ATTACH = N_("(I cannot attach images here: please give me the **Attach Files** permission in this channel "
                    "so the board image can be posted.)")


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def label(result: Mapping[str, Any] | None, key: str) -> Msg:
    """A result key (breakdown category, detail, how the game ended) as the engine's message for players
    (`str()`: its English)."""
    return result_label(result, key)


def _detail(value: object, name: Callable[[str], str] = str, comma: str = ", ") -> str:
    """A result detail (any JSON value) in words: lists separated by `comma` (the reader's: `t(locale, ", ")`),
    a pair as `city 7`, mappings as `key value`; `name` gives each word its label."""
    if isinstance(value, dict):
        return comma.join(f"{name(str(k))} {_detail(v, name, comma)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        if len(value) == 2 and isinstance(value[0], str) and not isinstance(value[1], str | list | dict):
            return f"{name(value[0])} {value[1]}"
        return comma.join(_detail(v, name, comma) for v in value) or name("none")
    return name(value) if isinstance(value, str) else str(value)


def words_in(locale: Any, game: str | None, names: Sequence[str] | None = None) -> Callable[[Msg | str], str]:
    """An engine's word in the reader's language: a message (a result label: `label`) translated with its seats
    named by `names`, or a word (a detail value: a card, a colour) looked up as a message id, exactly."""
    language = lang(locale)

    def word(english: Msg | str) -> str:
        if isinstance(english, Msg):
            return say(english, language, names, game)
        return english if language == locales.SOURCE else locales.gettext(language, english, game)

    return word


def revealed_lines(result: dict | None, names: list[str], width: int = 180,
                   word: Callable[[str], str] | None = None, locale: Any = None, game: str | None = None) -> list[str]:
    """What each seat's result details show (tickets, cards...), one short line per seat; [] if none.

    Headed "Revealed:" only when the engine says they were secret. Words in the reader's language (`word`
    translates one; by default the catalog of `game` in `locale`'s language); keys become the engine's labels
    first. Names go in as they are."""
    word = word or words_in(locale, game, names)
    comma = t(locale, ", ")

    def name(key: str) -> str:
        return word(label(result, key))

    lines = []
    for line in (result or {}).get("seats", []):
        details = line.get("details") or {}
        if details:
            seat = name_seats(seat_token(line["seat"]), names)
            parts = Items([Msg(KEY_VALUE, key=name(k), value=_detail(v, name, comma)) for k, v in details.items()],
                          sep=N_("; "))
            lines.append(clip(t(locale, "{seat}: {details}", seat=seat, details=parts), width))
    if not lines:
        return []
    heading = N_("**Revealed:**") if (result or {}).get("details_secret", True) else N_("**At the end:**")
    return [t(locale, heading), *lines]


def final_report(info: TableInfo, names: list[str], log_lines: Sequence[Any], word: Callable[[str], str] | None = None,
                 locale: Any = None) -> str:
    """The downloadable end-of-game file in the reader's language: seats, standings with breakdown, revealed
    details, every move (`log_lines`: messages whose seats are `names`, or finished text)."""
    d, row = info.definition, info.row
    language, game = lang(locale), d.key
    word = word or words_in(locale, game, names)
    out = [t(locale, "{title} · game #{id}", title=Term(d.title), id=row.id),
           t(locale, "Options: {options}", options=options_line(d, row.options) or t(locale, "(none)")),
           t(locale, "Seats: {seats}", seats=Items([f"{i + 1}. {n}" for i, n in enumerate(names)], "comma")), "",
           t(locale, "Final standings:")]
    result = row.result or {}

    def name(key: str) -> str:
        return word(label(result, key))

    comma = t(locale, ", ")
    shown = N_("{key} (revealed): {value}") if result.get("details_secret", True) else KEY_VALUE
    for line in result.get("seats", []):
        seat = name_seats(seat_token(line["seat"]), names)
        out.append(t(locale, "{rank}. {name}: {score}", rank=line["rank"], name=seat, score=line["score"]))
        out += ["     " + t(locale, KEY_VALUE, key=name(category), value=points)
                for category, points in line.get("breakdown", {}).items()]
        out += ["     " + t(locale, shown, key=name(key), value=_detail(value, name, comma))
                for key, value in (line.get("details") or {}).items()]
    if result.get("ended_by"):
        out.append(say(label(result, result["ended_by"]), language, names, game))
    out += ["", t(locale, "Moves ({n}):", n=len(log_lines)),
            *(say(line, language, names, game) for line in log_lines)]
    return "\n".join(out) + "\n"
