"""Slash commands and components, one module per feature; each is a discord.py extension."""
