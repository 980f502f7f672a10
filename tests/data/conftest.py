"""The tests in this folder compare the deck data with the rule documents in ../shared/seeds, which
exist where the project is built (and in CI), not in a lone clone of the repository.

Without them the folder's tests are not collected and one skip says why, unless REQUIRE_SEEDS=1 (set by
.ci/run): there a missing document is an error, so CI never passes by skipping the comparisons.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
MISSING = f"{SEEDS} not found: the seed-comparison tests run where the rule documents are (CI)"

if not SEEDS.is_dir():
    if os.environ.get("REQUIRE_SEEDS") == "1":
        raise pytest.UsageError(f"REQUIRE_SEEDS=1 but {SEEDS} does not exist: the seed comparisons cannot run.")
    collect_ignore_glob = ["test_*.py"]

    class SeedDocumentsMissing(pytest.File):
        def collect(self):
            pytest.skip(MISSING)

    def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
        # This file stands for the folder: its one collector reports the one skip.
        return SeedDocumentsMissing.from_parent(parent, path=file_path) if file_path == Path(__file__) else None


def as_printed(name: str, seed: str) -> str:
    """A catalog name as the seed prints it: the catalog writes names in title case (bot/engine/names.py), the
    seed prints most card headings in capitals."""
    return name if f"\n{name}\n" in seed else name.upper()
