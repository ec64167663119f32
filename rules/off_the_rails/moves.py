"""Off the Rails moves: one small class for every verb, with the canonical notation of spec section 11."""

from __future__ import annotations

from rules.engine import IllegalMove, Move, check_move_text, quote
from rules.off_the_rails import board
from rules.words import Msg

VERBS: tuple[str, ...] = (
    "lay",
    "upgrade",
    "cart",
    "speed",
    "undo",
    "end",
    "run",
    "go",
    "take",
    "split",
    "pick",
    "claim",
    "rift",
)
USAGE = Msg(
    "use lay SQ EDGES, upgrade SQ EDGES, cart white|black SQ, speed white|black up|down, undo, end, "
    "run white|black, go n|e|s|w, take GEM, split GEM..., pick left|right, claim MISSION or rift SQ"
)


class OtrMove(Move):
    """One decision: a verb and its arguments. Equal notation means equal move (see Move)."""

    __slots__ = ("verb", "args", "text")

    def __init__(self, verb: str, *args: str) -> None:
        self.verb = verb
        self.args: tuple[str, ...] = args
        self.text = " ".join((verb, *args))

    def __str__(self) -> str:
        return self.text

    # convenient accessors for the verbs that name a square first
    @property
    def square(self) -> str:
        return self.args[0]


def _square(token: str) -> str:
    if token not in board.SQUARE_SET:
        raise IllegalMove(Msg("{token} is not a square (a1 to n14)", token=quote(token)))
    return token


def _cart(token: str) -> str:
    if token in ("w", "white"):
        return "white"
    if token in ("b", "black"):
        return "black"
    raise IllegalMove(Msg("{token} is not a cart (white or black)", token=quote(token)))


def _edges(token: str) -> str:
    if not token or any(c not in "nesw" for c in token) or len(set(token)) != len(token):
        raise IllegalMove(Msg("{token} is not a set of edges (n, e, s, w)", token=quote(token)))
    return board.sort_edges(token)


_GEM_ALIASES = {k: k for k in board.GEM_KINDS} | {k + "s": k for k in board.GEM_KINDS} | {"rubies": "ruby"}


def _gem(token: str) -> str:
    if token not in _GEM_ALIASES:
        raise IllegalMove(Msg("{token} is not a gem (rock, ruby, emerald, gold, diamond)", token=quote(token)))
    return _GEM_ALIASES[token]


def parse(text: str) -> OtrMove:
    """Read a move leniently (case, spaces, edge order, cart initials); raise IllegalMove if unreadable."""
    words = check_move_text(text).lower().replace(",", " ").split()
    if not words:
        raise IllegalMove(Msg("Empty move; {usage}", usage=USAGE))
    verb, rest = words[0], words[1:]

    def need(count: int) -> None:
        if len(rest) != count:
            if count == 0:
                raise IllegalMove(Msg("{verb} takes 0 word(s) after it; {usage}", verb=verb, usage=USAGE))
            raise IllegalMove(Msg("{verb} takes {count} word(s) after it; {usage}", verb=verb, count=count, usage=USAGE))

    if verb in ("lay", "upgrade"):
        need(2)
        return OtrMove(verb, _square(rest[0]), _edges(rest[1]))
    if verb == "cart":
        need(2)
        return OtrMove(verb, _cart(rest[0]), _square(rest[1]))
    if verb == "speed":
        need(2)
        if rest[1] in ("+", "u"):
            rest[1] = "up"
        if rest[1] in ("-", "d"):
            rest[1] = "down"
        if rest[1] not in ("up", "down"):
            raise IllegalMove(Msg("speed goes up or down"))
        return OtrMove(verb, _cart(rest[0]), rest[1])
    if verb in ("undo", "end"):
        need(0)
        return OtrMove(verb)
    if verb == "run":
        need(1)
        return OtrMove(verb, _cart(rest[0]))
    if verb == "go":
        need(1)
        rest[0] = {"north": "n", "east": "e", "south": "s", "west": "w"}.get(rest[0], rest[0])
        if rest[0] not in board.EDGES:
            raise IllegalMove(Msg("go needs one edge: n, e, s or w"))
        return OtrMove(verb, rest[0])
    if verb == "take":
        need(1)
        return OtrMove(verb, _gem(rest[0]))
    if verb == "split":
        if not rest:
            raise IllegalMove(Msg("split lists the gems of the left hand"))
        gems = sorted((_gem(t) for t in rest), key=board.GEM_KINDS.index)
        return OtrMove(verb, *gems)
    if verb == "pick":
        need(1)
        side = {"l": "left", "r": "right"}.get(rest[0], rest[0])
        if side not in ("left", "right"):
            raise IllegalMove(Msg("pick left or pick right"))
        return OtrMove(verb, side)
    if verb == "claim":
        need(1)
        if rest[0] not in board.MISSIONS:
            raise IllegalMove(Msg("{mission} is not a mission", mission=rest[0]))
        return OtrMove(verb, rest[0])
    if verb == "rift":
        need(1)
        return OtrMove(verb, _square(rest[0]))
    raise IllegalMove(Msg("Unknown move {word}; {usage}", word=repr(quote(words[0])), usage=USAGE))


# Every lay move of the board, made once: the action phase offers up to ~1,100 of them.
# LAYS_BY_SQUARE lists squares in the order of their notation, each with its 6 moves sorted.
LAYS_BY_SQUARE: tuple[tuple[str, tuple[OtrMove, ...]], ...] = tuple(
    (sq, tuple(sorted((OtrMove("lay", sq, e) for e in board.LAYABLE), key=str)))
    for sq in sorted(board.TRACK_SQUARES, key=lambda q: f"lay {q} ")
)
