"""Off the Rails greedy AI (placeholder while the engine is built)."""

from __future__ import annotations

import random
from typing import Any

from rules.engine import AIPlayer, Move


class GreedyAI(AIPlayer):
    name = "greedy"

    def choose(self, view: dict[str, Any], legal: list[Move], rng: random.Random) -> Move:
        return rng.choice(legal)
