"""The discord.py side of Junction: slash commands and the handlers behind every button."""
