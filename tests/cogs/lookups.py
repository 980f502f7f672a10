"""For a module of look-up commands, which keep no state: one bot (shared_harness) serves the whole module.

    from tests.cogs.lookups import LOOKUPS, module_harness  # noqa: F401
    pytestmark = LOOKUPS
"""

from __future__ import annotations

import pytest

from tests.cogs.harness import Harness

LOOKUPS = pytest.mark.asyncio(loop_scope="module")  # the module's tests run on its bot's loop


@pytest.fixture(name="harness")
def module_harness(shared_harness: Harness) -> Harness:
    return shared_harness
