"""Off the Rails' words as messages: gem lists, carts, tile kinds, mission names and conditions, result labels.

The engine says everything as `rules.words` messages; this module builds the parts several lines share, so
a catalog holds each sentence once and each word once (a gem, a colour, a cart, a mission) instead of
every combination. `str()` of each is the English the engine always wrote ("1 ruby, 2 gold", "{s0}'s white
cart", "red-3"), so logs and English posts are unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules.off_the_rails import board
from rules.words import N_, Items, Msg, Plural, Seat, Term

# TRANSLATORS: what separates the items of a list of gems ("1 ruby, 2 gold").
COMMA = N_(", ")

# Words the engine and the images use as `Term`s (extracted here so every catalog has them).
GEMS = (N_("rock"), N_("ruby"), N_("emerald"), N_("gold"), N_("diamond"))
COLOURS = (N_("red"), N_("yellow"), N_("blue"), N_("green"))  # the clans (seats), mines and rifts
# TRANSLATORS: a cart's name (the white cart, the black cart): each player has one of each. It stands
# before the word for cart in every line that uses it ("the {cart} cart"): translate it in that form.
CARTS = (N_("white"), N_("black"))

# The missions as the cards print them, and what each asks (the images list the face-up ones).
MISSION_NAMES = (
    N_("RED LEADER!"), N_("GREEN FINGERS!"), N_("THERE'S GOLD IN THEM THAR HILLS!"), N_("DIAMONDS AREN'T FOREVER"),
    N_("GEM COLLECTOR!"), N_("BEHIND ENEMY LINES!"), N_("JEWEL HEIST!"), N_("BUMPER CARTS!"), N_("HEAD TO HEAD!"),
    N_("THE SPICE OF LIFE!"), N_("DIRTY GOBLINS!"),
)
# Each mission card's line on the images: its id (what `claim` reads) and what it asks. Whole lines, not a
# "{mission}: {condition}" template: the bot still reads composed English by pattern, and a template of
# placeholders and punctuation would match any "x: y" line of any game.
MISSION_LINES = (
    N_("red-leader: one delivered load has at least 4 rubies"),
    N_("green-fingers: one delivered load has at least 2 emeralds"),
    N_("gold-hills: one delivered load has at least 2 gold"),
    N_("diamonds: one delivered load has at least 1 diamond"),
    N_("gem-collector: one delivered load is 5 gems, none of them a rock"),
    N_("enemy-lines: a load of at least 1 gem delivered at a start square whose colour belongs to another seated "
       "player"),
    N_("jewel-heist: your moving cart hits another player's cart and at least 1 of its gems is dropped"),
    N_("bumper-carts: your moving cart hits another player's cart and that cart derails"),
    N_("head-to-head: your moving cart has a head-on collision with another player's cart"),
    N_("spice-of-life: when your movement phase ends your stockpile holds at least 1 rock, ruby, emerald, gold and "
       "diamond"),
    N_("dirty-goblins: most rocks in stockpile (at least 1); all tied players score it"),
)
# A seat's clan colour in brackets, as the images put it after a name.
CLAN_LABELS: dict[str, str] = {"red": N_("(red)"), "yellow": N_("(yellow)"), "blue": N_("(blue)"),
                               "green": N_("(green)")}

# How the game ends (state.ended_by, the result's ended_by key) and the words a result shows.
RIFTS_GONE = N_("the rift supply is empty")
NO_CARTS = N_("no cart is left on the board")

# The result's keys in a player's words (bot posts and files show these, translated as terms).
RESULT_LABELS: dict[str, str] = {
    "ruby_majority": N_("ruby majority bonus"),
    "missions": N_("missions"),
    "dirty_goblins": N_("Dirty Goblins bonus"),
    "carts": N_("carts in reserve"),
    "carts_in_reserve": N_("carts in reserve"),
    **{mission: data["name"] for mission, data in board.MISSIONS.items()},
    NO_CARTS: N_("The game ended: no cart is left on the board."),
    RIFTS_GONE: N_("The game ended: the rift supply is empty."),
}
# A result's detail keys without a label, and the empty list, as the bot shows them.
DETAIL_WORDS = (N_("colour"), N_("gems"), N_("nothing"))

def counted(kind: str, n: int) -> Msg:
    """`n` gems of one kind ("2 ruby": the engine's English never adds a plural s; a translation agrees
    with the count)."""
    if kind == "rock":
        return Plural("{n} rock", "{n} rock", n=n)
    if kind == "ruby":
        return Plural("{n} ruby", "{n} ruby", n=n)
    if kind == "emerald":
        return Plural("{n} emerald", "{n} emerald", n=n)
    if kind == "gold":
        return Plural("{n} gold", "{n} gold", n=n)
    if kind == "diamond":
        return Plural("{n} diamond", "{n} diamond", n=n)
    raise ValueError(f"unknown gem {kind!r}")


def gems(load: Mapping[str, int]) -> Items:
    """Gems counted by kind in the canonical order ("1 ruby, 2 gold"); an empty list when there are none."""
    return Items([counted(k, load[k]) for k in board.GEM_KINDS if load.get(k, 0) > 0], "comma")


def gem_words(kinds: Iterable[str]) -> Items:
    """One word per gem, as a hand or a load lists them ("ruby, ruby, gold")."""
    return Items([Term(k) for k in kinds], "comma")


def choices(options: Iterable[Any]) -> Any:
    """Options to choose from, as the decision lines show them: "ruby | gold" (each option a parameter)."""
    items = list(options)
    if len(items) == 1:
        return items[0]
    # TRANSLATORS: two or more options to choose from ("ruby | gold | rock"); keep the bar.
    return Msg("{first} | {rest}", first=items[0], rest=choices(items[1:]))


def run(name: str) -> Msg:
    """The move that runs a cart first ("run white"), as a decision offers it."""
    # TRANSLATORS: move notation a player types: keep "run {cart}" in English; backticks show it as a command.
    return Msg("run {cart}", cart=name)


def cart(seat: int, name: str) -> Msg:
    """A seat's cart as the lines name it ("{s0}'s white cart")."""
    # TRANSLATORS: a player's cart as the lines name it; the lines put an article before it where a language
    # needs one ("{cart} runs from ..." is "Die {cart} fährt ..." in German).
    return Msg("{who}'s {cart} cart", who=Seat(seat), cart=Term(name))


# TRANSLATORS: a deposit card: the colour of its mine and its number ("red-3").
_CARDS: dict[str, str] = {"red": N_("red-{number}"), "yellow": N_("yellow-{number}"), "blue": N_("blue-{number}"),
                          "green": N_("green-{number}")}


def card(card_id: str) -> Msg:
    """A deposit card as the players read it: its mine's colour and number ("red-3")."""
    info = board.CARDS[card_id]
    return Msg(_CARDS[info["colour"]], number=info["number"])


def mission_name(mission: str) -> Term:
    return Term(board.MISSIONS[mission]["name"])


def mission_line(mission: str) -> Msg:
    """A mission card's line: its id and what it asks ("red-leader: one delivered load has ...")."""
    return Msg(f"{mission}: {board.MISSIONS[mission]['condition']}")


def gem_count(n: int) -> Msg:
    """A number of gems ("1 gem", "3 gems")."""
    return Plural("{n} gem", "{n} gems", n=n)


# ---------------------------------------------------------------------------- lines in several shapes

# Why a cart derails, each with and without a load going back to the bag.
_DERAIL: dict[str, tuple[str, str]] = {
    "off": (N_("{cart} runs off the track and derails; {gems} back to the bag."),
            N_("{cart} runs off the track and derails; nothing back to the bag.")),
    "mine": (N_("{cart} hits the mine at {target} and derails; {gems} back to the bag."),
             N_("{cart} hits the mine at {target} and derails; nothing back to the bag.")),
    "start": (N_("{cart} hits the side of start square {target} and derails; {gems} back to the bag."),
              N_("{cart} hits the side of start square {target} and derails; nothing back to the bag.")),
    "no_track": (N_("{cart} finds no track into {target} and derails; {gems} back to the bag."),
                 N_("{cart} finds no track into {target} and derails; nothing back to the bag.")),
    "no_way": (N_("{cart} finds no track from {via} on {target} and derails; {gems} back to the bag."),
               N_("{cart} finds no track from {via} on {target} and derails; nothing back to the bag.")),
    "knocked": (N_("{cart} is knocked off the rails and derails; {gems} back to the bag."),
                N_("{cart} is knocked off the rails and derails; nothing back to the bag.")),
}


def derailed(why: str, cart_msg: Msg, load: Mapping[str, int], **where: str) -> Msg:
    """A cart derails (`why`: off, mine, start, no_track, no_way, knocked); its load goes back to the bag."""
    with_gems, empty = _DERAIL[why]
    if any(load.values()):
        return Msg(with_gems, cart=cart_msg, gems=gems(load), **where)
    return Msg(empty, cart=cart_msg, **where)


_COLLISION: dict[str, str] = {
    "head-on": N_("{mover} hits {hit} on {square} (head-on); the {cart} cart reverses on {back}."),
    "rear": N_("{mover} hits {hit} on {square} (rear); the {cart} cart reverses on {back}."),
    "side": N_("{mover} hits {hit} on {square} (side); the {cart} cart reverses on {back}."),
}


def collision(kind: str, **params: Any) -> Msg:
    return Msg(_COLLISION[kind], **params)


_TURN: dict[str, str] = {
    "n": N_("{cart} turns n on {square}."),
    "e": N_("{cart} turns e on {square}."),
    "s": N_("{cart} turns s on {square}."),
    "w": N_("{cart} turns w on {square}."),
}


def turned(edge: str, **params: Any) -> Msg:
    return Msg(_TURN[edge], **params)


_PICK: dict[str, str] = {
    "left": N_("{who} picks the left hand: {cart} drops {gems} on {square}."),
    "right": N_("{who} picks the right hand: {cart} drops {gems} on {square}."),
}


def picked(side: str, **params: Any) -> Msg:
    return Msg(_PICK[side], **params)


_LAY: dict[str, str] = {
    "straight": N_("{who} lays straight {edges} on {square}."),
    "curve": N_("{who} lays curve {edges} on {square}."),
}


def laid(kind: str, **params: Any) -> Msg:
    return Msg(_LAY[kind], **params)


NO_TILES: dict[str, str] = {
    "straight": N_("no straight tiles left"),
    "curve": N_("no curve tiles left"),
    "t": N_("no T tiles left"),
    "cross": N_("no cross tiles left"),
}
