"""Reading Santa Fe moves from text (lenient) and explaining why a move is refused."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.engine import IllegalMove, Move, check_move_text, quote, read_number
from rules.santa_fe.board import BOARD, RAILROADS
from rules.santa_fe.moves import Branch, BuyTile, Draw, EngineerChoice, Exchange, Lay, Pass, Play
from rules.words import N_, Items, Msg, Plural, Term

if TYPE_CHECKING:
    from rules.santa_fe.state import SantaFeState

# The steps in a player's words (translated as terms: a refusal and the images name the step).
PHASE_NAMES = {
    "engineer": N_("engineer step"),
    "choose": N_("choose cards"),
    "lay1": N_("lay pass 1"),
    "exchange": N_("double-turn exchange"),
    "lay2": N_("lay pass 2"),
    "draw": N_("draw"),
    "buy": N_("buy tiles"),
    "over": N_("game over"),
}

_DOUBLE_WORDS = ("double", "dt", "double-turn", "doubleturn")
_NAMES = {city.name.lower().replace(" ", "-"): cid for cid, city in BOARD.cities.items()}
# The most words a city's name or id spans: a longer run of tokens cannot be one city, so the reader
# never tries it (its work stays linear in the length of the text).
_NAME_WORDS = max(len(name.split("-")) for name in [*_NAMES, *BOARD.cities])


def _city_id(text: str) -> str | None:
    """A city id from an id, a name, or a unique prefix of either."""
    text = text.strip().lower().replace(" ", "-").replace(".", "")
    if text in BOARD.cities:
        return text
    if text in _NAMES:
        return _NAMES[text]
    matches = {cid for cid in BOARD.cities if cid.startswith(text)} | {
        cid for name, cid in _NAMES.items() if name.startswith(text)
    }
    return matches.pop() if len(matches) == 1 else None


def _cities(tokens: list[str]) -> list[str]:
    """Split tokens into cities, longest match first (names may have several words)."""
    found = []
    i = 0
    while i < len(tokens):
        for j in range(min(len(tokens), i + _NAME_WORDS), i, -1):
            city = _city_id("-".join(tokens[i:j]))
            if city is not None:
                found.append(city)
                i = j
                break
        else:
            start = tokens[i]
            options = sorted(cid for cid in BOARD.cities if cid.startswith(start))
            if len(options) > 1:
                raise IllegalMove(Msg("Which city: {options}?", options=Items(options, "or", english=" or ")))
            raise IllegalMove(Msg("Unknown city {text}.", text=repr(quote(start))))
    return found


def _rr(token: str) -> str:
    token = token.lower()
    if token in RAILROADS:
        return token
    for rr, railroad in BOARD.railroads.items():
        if railroad.name.lower().replace(" ", "") == token:
            return rr
    raise IllegalMove(_unknown_railroad(token))


def _unknown_railroad(token: str) -> Msg:
    return Msg("Unknown railroad {text}; use one of {keys}.", text=repr(quote(token)), keys=", ".join(RAILROADS))


def parse(state: SantaFeState, text: str) -> Move:
    tokens = check_move_text(text).lower().replace(",", " ").split()
    if not tokens:
        raise IllegalMove(Msg("Empty move."))
    verb, rest = tokens[0], tokens[1:]
    try:
        if verb == "pass" and not rest:
            return Pass()
        if verb in ("buy", "decline") and rest[:1] == ["engineer"] and len(rest) == 1:
            return EngineerChoice(verb == "buy")
        if verb == "buy" and rest == ["nothing"]:
            return BuyTile(None)
        if verb == "buy" and len(rest) == 2 and rest[0] == "tile":
            return BuyTile(_rr(rest[1]))
        if verb == "play" and rest:
            branch = None
            if len(rest) >= 3 and rest[-2] == "branch":
                branch = _rr(rest[-1])
                rest = rest[:-2]
            card = "double" if "-".join(rest) in _DOUBLE_WORDS else _cities(rest)
            if isinstance(card, list):
                if len(card) != 1:
                    raise IllegalMove(Msg("Play one city card (or double)."))
                card = card[0]
            return Play(card, branch)
        if verb == "exchange" and rest:
            if rest == ["none"]:
                return Exchange(())
            return Exchange(tuple(sorted(_cities(rest))))
        if verb == "draw" and rest:
            if rest[0] in _DOUBLE_WORDS and len(rest) == 1:
                return Draw("double")
            if rest[0] in ("city", "engineer", "none") and len(rest) == 1:
                return Draw(rest[0])
            if rest[0] == "branch" and len(rest) == 2:
                return Draw("branch", _rr(rest[1]))
        if verb == "lay" and len(rest) >= 2:
            rr = _rr(rest[0])
            line = read_number(rest[1])
            if line is not None:
                cities = _cities(rest[2:])
                if len(cities) == 1:
                    return Lay(rr, line, cities[0])
            else:
                cities = _cities(rest[1:])
                if len(cities) == 1:
                    return Lay(rr, _guess_line(state, rr, cities[0]), cities[0])
        if verb == "branch" and len(rest) >= 3:
            rr = _rr(rest[0])
            cities = _cities(rest[1:])
            if len(cities) == 2:
                return Branch(rr, cities[0], cities[1])
    except IndexError:
        pass
    raise IllegalMove(Msg("Cannot read {text}; moves look like `lay sf 1 wichita` or `play denver`.",
                          text=repr(quote(text))))


def _guess_line(state: SantaFeState, rr: str, city: str) -> int:
    """The line of rr that can reach `city` now, when the player left the number out."""
    fits = []
    for number in range(1, len(state.lines[rr]) + 1):
        try:
            state._target(Lay(rr, number, city))
        except IllegalMove:
            continue
        fits.append(number)
    if len(fits) > 1:
        options = Items((f"lay {rr} {n} {city}" for n in fits), "or", english=" or ")
        raise IllegalMove(Msg("Say which {rr} line: {options}.", rr=rr.upper(), options=options))
    return fits[0] if fits else 1


def _unknown_name(move: Move) -> Msg | None:
    """The reason a (hand-built) move names a railroad or city the board does not have, else None."""
    railroads = [getattr(move, "rr", None)] + ([move.branch] if isinstance(move, Play) else [])
    for rr in railroads:
        if rr is not None and rr not in RAILROADS:
            return _unknown_railroad(str(rr))
    cities: list[object] = []
    if isinstance(move, Lay):
        cities = [move.city]
    elif isinstance(move, Branch):
        cities = [move.start, move.city]
    elif isinstance(move, Play) and move.card != "double":
        cities = [move.card]
    elif isinstance(move, Exchange):
        cities = list(move.cities)
    for city in cities:
        if city not in BOARD.cities:
            return Msg("Unknown city {text}.", text=repr(quote(str(city))))
    return None


def why_illegal(state: SantaFeState, seat: int, move: Move) -> Msg:
    """The one-line reason a move that is not in legal_moves is refused."""
    unknown = _unknown_name(move)
    if unknown is not None:
        return unknown
    phase = state.phase
    wrong = Msg("That move is not allowed now (step: {step}).", step=Term(phase_name(phase)))
    if isinstance(move, EngineerChoice):
        if phase != "engineer":
            return wrong
        return Msg("You need ${price} for an engineer; you have ${money}.", price=4, money=state.money[seat])
    if isinstance(move, Play):
        if phase != "choose":
            return wrong
        held = state.branch[seat]
        if move.card == "double":
            if state.round == 1:
                return Msg("In round 1 you must play a city card.")
            if not state.dt[seat]:
                return Msg("You have no double-turn card.")
        elif move.card not in state.cities[seat]:
            return Msg("You have no {city} card.", city=BOARD.name(move.card))
        if held is not None and move.branch is None:
            return Msg("You must play your branch card this round.")
        if move.branch is not None and held != move.branch:
            return Msg("You hold no {rr} branch card.", rr=move.branch.upper())
        return wrong
    if isinstance(move, Exchange):
        if phase != "exchange":
            return wrong
        hand = list(state.cities[seat])
        for city in move.cities:
            if city not in hand:
                return Msg("You have no {city} card to exchange.", city=BOARD.name(city))
            hand.remove(city)
        return Plural("The deck holds only {n} card.", "The deck holds only {n} cards.", n=len(state.deck))
    if isinstance(move, Lay | Branch | Pass):
        if phase not in ("lay1", "lay2"):
            return wrong
        if isinstance(move, Pass):
            return Msg("You must lay a tile while you can; passing is only allowed in the advanced game.")
        rr = move.rr
        if isinstance(move, Branch):
            if state.round_branch[seat] != rr:
                return Msg("You have not played a {rr} branch card this round.", rr=rr.upper())
            if state.branch_used[seat]:
                return Msg("You have already used your branch card this round.")
        if state.tiles_for(seat, rr) <= 0:
            if state.bought_phase():
                return Msg("You have no bought {rr} tile.", rr=rr.upper())
            return Msg("{rr} has no tiles left.", rr=rr.upper())
        try:
            sid, _, start, index = state._target(move)
        except IllegalMove as error:
            return error.reason if isinstance(error.reason, Msg) else Msg("{text}", text=error.reason)
        cost = state.space_cost(seat, sid, start, index)
        return Msg("You need ${cost} for this space; you have ${money}.", cost=cost, money=state.money[seat])
    if isinstance(move, Draw):
        if phase != "draw":
            return wrong
        if state.hand_size(seat) >= state.hand_limit[seat]:
            return Msg("Your hand is full.")
        if move.kind == "city":
            return Msg("The deck is empty.")
        if move.kind == "double":
            return Msg("The double-turn pile is empty.")
        if move.kind == "none":
            return Msg("You may stop drawing only when a branch card is the only draw left.")
        if move.kind == "engineer":
            if not state.advanced:
                return Msg("Engineers are only used in the advanced game.")
            if state.engineer[seat]:
                return Msg("You already have an engineer.")
            return Msg("No engineer is left.")
        if state.branch[seat] is not None:
            return Msg("You already hold a branch card.")
        if move.rr is not None and not state.branch_piles[move.rr]:
            return Msg("The {rr} branch pile is empty.", rr=move.rr.upper())
        return Msg("You need ${price} for a branch card; you have ${money}.", price=state.branch_price(),
                   money=state.money[seat])
    if isinstance(move, BuyTile):
        if phase != "buy":
            return wrong
        if state.money[seat] < 1:
            return Msg("You need ${price} to buy a tile; you have ${money}.", price=1, money=state.money[seat])
        return Msg("{rr} has no tiles left.", rr=(move.rr or "").upper())
    return wrong


def phase_name(phase: str) -> str:
    return PHASE_NAMES.get(phase, phase)
