#!/usr/bin/env bash
# Install the bot into .venv and start it (settings come from .env: see .env.example).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/pip install --quiet --upgrade pip
.venv/bin/pip install --quiet -e '.[postgres]'
exec .venv/bin/python -m bot
