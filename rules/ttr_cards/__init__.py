"""Ticket to Ride: The Card Game (engine key `ttr_cards`): the definition the registry loads."""

from __future__ import annotations

from rules.engine import GameDefinition, Option, RandomAI
from rules.ttr_cards.ai import GreedyAI, hard_ai
from rules.ttr_cards.setup import create
from rules.ttr_cards.state import TTRCardsState
from rules.words import N_

SUMMARY = N_(
    "Collect train cards, then lay sets of one colour (2+ cards, locomotives wild) or 3 different "
    "colours into your rail yard; a bigger set of a colour robs another player's row of it.\n"
    "Each turn starts by moving the top card of every row of your yard onto your face-down track "
    "stack, which nobody may look at. On your turn: draw 2 cards (a face-up locomotive counts as 2), "
    "play to your yard, or draw 4 tickets and keep any.\n"
    "When the deck runs out everyone plays one more turn; the track stacks then complete tickets "
    "(the engine finds the best set), uncompleted tickets cost their points, and the most tickets "
    "naming each of 6 big cities win bonuses. With 4 players the deck is played twice."
)

DEFINITION = GameDefinition(
    key="ttr_cards",
    title=N_("Ticket to Ride: The Card Game"),
    min_players=2,
    max_players=4,
    options=(
        Option(
            "open_track_stack",
            "bool",
            False,
            N_("Beginners: the track stacks are face up for everyone"),
        ),
        Option(
            "completion",
            "choice",
            "auto",
            N_("auto: the engine completes the best tickets; choose: players pick them at each scoring"),
            choices=("auto", "choose"),
        ),
    ),
    state_class=TTRCardsState,
    create=create,
    # normal first: the bot seats and stands in with the first level when none is named.
    ais={"normal": GreedyAI, "easy": RandomAI, "hard": hard_ai},
    summary=SUMMARY,
)
