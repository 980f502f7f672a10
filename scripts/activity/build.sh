#!/usr/bin/env bash
# Builds bot/web/static/activity.js (or the file given as the argument, an absolute path: the test compares the two):
# src/activity.js bundled with Discord's Embedded App SDK (pinned in package-lock.json). Needs Node and npm; run from
# anywhere: bash scripts/activity/build.sh
# The same sources and lockfile give the same bytes on every run; on success it prints nothing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
npm ci --silent --no-audit --no-fund --loglevel=error >/dev/null
./node_modules/.bin/esbuild src/activity.js --bundle --minify --format=iife --target=es2020 \
  --legal-comments=none --log-level=warning --outfile="${1:-../../bot/web/static/activity.js}"
