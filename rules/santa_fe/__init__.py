"""Santa Fe (Alan R. Moon): five shared railroads, secret city cards, bonuses for first arrivals."""

from __future__ import annotations

from rules.engine import GameDefinition, Option, RandomAI
from rules.santa_fe.ai import GreedyAI, hard_ai
from rules.santa_fe.state import SantaFeState
from rules.words import N_

SUMMARY = N_(
    "Nobody owns a railroad: on every placement you may extend any of the five lines west from the "
    "Mississippi. Each round everyone secretly plays a city card (or a double-turn card for two "
    "placements per pass), then two lay passes follow. Reaching a city first pays $2 and a railroad's "
    "bonus city pays $4 (both doubled with a double-turn card). At the end each played city card scores "
    "its value times the railroads that reach it, plus your money. The game ends when the track runs "
    "out or the player to lay cannot."
)

DEFINITION = GameDefinition(
    key="santa_fe",
    title=N_("Santa Fe"),
    min_players=2,
    max_players=5,
    options=(
        Option(
            "advanced",
            "bool",
            False,
            N_("Advanced game: $5 start, terrain costs, engineers, passing allowed, branch cards $2."),
        ),
        Option(
            "tile_buying",
            "bool",
            False,
            N_("Buy one track tile for $1 per round; once the supply is empty, bought tiles are laid."),
        ),
    ),
    state_class=SantaFeState,
    create=SantaFeState.create,
    # normal first: the bot seats and stands in with the first level when none is named.
    ais={"normal": GreedyAI, "easy": RandomAI, "hard": hard_ai},
    summary=SUMMARY,
)
