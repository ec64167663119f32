"""Santa Fe AI players (placeholder greedy, replaced below)."""

from __future__ import annotations

import random
from typing import Any

from rules.engine import AIPlayer, Move


class GreedyAI(AIPlayer):
    name = "greedy"

    def choose(self, view: dict[str, Any], legal: list[Move], rng: random.Random) -> Move:
        return rng.choice(legal)
