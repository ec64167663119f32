"""Japanese for this game's engine texts: event lines, refusal reasons, option descriptions, result words.

English (exactly as the engine writes it) -> Japanese; see rules.engine.Catalog for patterns.
"""

JA: dict[str, str] = {}
