#!/usr/bin/env bash
# Regenerate bot/armies/data/40kdc.json from the 40kdc package version pinned in package-lock.json (needs Node 20+
# and npm; the bot itself needs neither). To move to a newer version: npm install @alpaca-software/40kdc-data@X.Y.Z
# --save-exact here, run this, and run tests/armies/test_army_data.py.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --silent --no-audit --no-fund >&2
node extract.mjs > "${1:-../../bot/armies/data/40kdc.json}"
