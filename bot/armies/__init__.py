"""Armies: factions, detachments and lists."""
