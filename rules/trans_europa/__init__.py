"""Trans Europa (engine key trans_europa): the game definition the registry loads."""

from __future__ import annotations

from rules.engine import GameDefinition, Option, RandomAI
from rules.trans_europa.ai import GreedyAI, hard_ai
from rules.trans_europa.state import TransEuropaState, create
from rules.words import N_

SUMMARY = N_(
    "Each round every player secretly gets five European cities, one per region, and places a start marker.\n"
    "On your turn lay one or two black tracks on single lines, or one track on a double line (river, mountain, sea),\n"
    "always touching your network; tracks are shared, so networks that touch join for both players.\n"
    "The round ends as soon as someone's marker and five cities are linked in their network.\n"
    "Everyone else loses one point per single line (two per double line) they still lack, counted exactly.\n"
    "Everyone starts at 13; after the round in which someone reaches 0 or less, the highest score wins."
)

# TRANSLATORS: how this game's lists are joined (cities, tracks, scores): locales.Words.join looks the
# separator up in the game's domain first
LIST_SEPARATOR = N_(", ")

DEFINITION = GameDefinition(
    key="trans_europa",
    title=N_("Trans Europa"),
    min_players=2,
    max_players=6,
    options=(
        Option("vexation", "bool", False, N_("Coloured-track variant: 3 blocking tracks of your own colour.")),
        Option("vexation_refill", "choice", "game", N_("Coloured tracks: 3 for the whole game or 3 every round."),
               choices=("game", "round")),
        Option("start_score", "int", 13, N_("Starting points (shorter or longer game)."), minimum=5, maximum=25),
        Option("first_player", "choice", "random", N_("Start seat of round 1: random or seat 0."),
               choices=("random", "seat0")),
        Option("show_tracks_needed", "bool", True, N_("Show each player privately how many tracks they still need.")),
    ),
    state_class=TransEuropaState,
    create=create,
    # normal first: the bot seats and stands in with the first level when none is named.
    ais={"normal": GreedyAI, "easy": RandomAI, "hard": hard_ai},
    summary=SUMMARY,
)

__all__ = ["DEFINITION", "SUMMARY", "TransEuropaState", "GreedyAI"]
