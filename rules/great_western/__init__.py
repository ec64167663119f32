"""Great Western Railway (Martin Wallace, spielbox 2/2011): the game definition for Junction."""

from __future__ import annotations

from rules.engine import GameDefinition, Option
from rules.great_western.ai import GreedyAI, RandomGWAI, hard_ai
from rules.great_western.setup import new_game
from rules.great_western.state import GreatWesternState
from rules.words import N_

SUMMARY = N_(
    "Everyone starts in London. Each round three dice load black cubes onto each train; then you auction "
    "the trains with your own cubes (`bid t2 3`; outbid cubes come back). The winner reloads its train "
    "with its own cubes and the trains build in order of the cube nearest the front. Connect a city "
    "(`connect oxford`) by paying its people with passenger cubes and its route (links, plus 1 for each "
    "other player's city you pass) with any cubes; one cube stays on the city. Income depends on your "
    "city count. When every city holds a cube, the most gold wins (tie: fewer cities)."
)

# TRANSLATORS: how this game's lists are joined (income, bids, a payment): locales.Words.join looks the
# separator up in the game's domain first
LIST_SEPARATOR = N_(", ")

DEFINITION = GameDefinition(
    key="great_western",
    title=N_("Great Western Railway"),
    min_players=2,
    max_players=4,
    options=(
        Option(
            "round_limit",
            "int",
            40,
            N_("End the game after this round's income even if cities are empty (0 = no limit)."),
            minimum=0,
            maximum=200,
        ),
    ),
    state_class=GreatWesternState,
    create=new_game,
    # normal first: the bot seats and stands in with the first level when none is named.
    ais={"normal": GreedyAI, "easy": RandomGWAI, "hard": hard_ai},
    summary=SUMMARY,
)

__all__ = ["DEFINITION", "GreatWesternState"]
