"""Frozen copies of each game's greedy AI as on main before issue 15, for bench/ai_strength.py only."""
