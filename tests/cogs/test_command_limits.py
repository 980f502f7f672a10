"""What the bot registers with Discord fits Discord's limits as written: discord.py cuts a description over 100
characters to 99 and an ellipsis, so a player would read a sentence that stops halfway."""

from __future__ import annotations

from tests.cogs.harness import Harness

DESCRIPTION = 100
OPTIONS = 25


def every_node(node: dict, path: str):
    yield path, node
    for option in node.get("options") or []:
        yield from every_node(option, f"{path} {option['name']}")


async def test_no_command_or_option_description_is_cut(harness: Harness) -> None:
    cut, crowded = [], []
    for commands in harness.model.commands.values():
        for command in commands:
            for path, node in every_node(command, f"/{command['name']}"):
                description = node.get("description", "")
                if len(description) == DESCRIPTION and description.endswith("…"):
                    cut.append(path)
                if len(node.get("options") or []) > OPTIONS:
                    crowded.append(path)
    assert (cut, crowded) == ([], [])
