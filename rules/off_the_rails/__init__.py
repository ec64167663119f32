"""Off the Rails: goblin minecarts, gem deposits, collisions and a spreading chasm (engine key off_the_rails)."""

from __future__ import annotations

from rules.engine import GameDefinition, Option, RandomAI
from rules.off_the_rails.ai import GreedyAI, hard_ai
from rules.off_the_rails.setup import create
from rules.off_the_rails.state import OffTheRailsState
from rules.words import N_

OPTIONS = (
    Option(
        "game_length",
        "choice",
        "auto",
        N_("deposit deck size incl. the collapse card (auto: 13/17/21/25 for 1/2/3/4 players)"),
        choices=("auto", "13", "17", "21", "25"),
    ),
    Option(
        "bumper_carts", "bool", False, N_("collisions stop and reverse carts but never derail them or drop gems")
    ),
    Option("rift_die", "bool", False, N_("chasm tokens go on a d8-rolled mine square instead of a chosen one")),
    Option("missions", "bool", True, N_("play with the mission cards")),
    Option("auto_split", "bool", False, N_("the engine splits a hit cart's gems (no out-of-turn waits)")),
)

SUMMARY = N_(
    "Lay track, put your two minecarts on your start squares and set their speed: up to 4 actions a turn. "
    "Then your carts run exactly their speed, picking up a gem on each square they pass and two where they "
    "stop; you choose the way at T and cross junctions. Bring gems back to any start square to score "
    "(ruby 1, emerald 2, gold 3, diamond 4, rock 0; +5 for most rubies). Hitting a cart reverses yours; "
    "the victim splits its gems into two hands and you pick one blind to drop. Missions are worth 4, each "
    "cart in hand 3. After the collapse card the chasm spreads a rift every turn; carts on the board at "
    "the end are lost."
)

DEFINITION = GameDefinition(
    key="off_the_rails",
    title=N_("Off the Rails"),
    min_players=1,
    max_players=4,
    options=OPTIONS,
    state_class=OffTheRailsState,
    create=create,
    # normal first: the bot seats and stands in with the first level when none is named.
    ais={"normal": GreedyAI, "easy": RandomAI, "hard": hard_ai},
    summary=SUMMARY,
)
