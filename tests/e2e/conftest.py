"""A fake Discord on 127.0.0.1, with discord.py pointed at it for the length of one test."""

from __future__ import annotations

import discord
import pytest
import yarl

from tests.e2e.fake_discord import FakeDiscord


@pytest.fixture
async def fake_discord(monkeypatch: pytest.MonkeyPatch):
    async with FakeDiscord(lifetime=60) as fake:
        monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
        monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))
        yield fake
