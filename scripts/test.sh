#!/usr/bin/env bash
# Install the bot and its test tools into .venv, then run the whole test suite.
# WITH_POSTGRES=1 also starts a local PostgreSQL (Debian, as root) so the storage tests run on it too.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/pip install --quiet --upgrade pip
.venv/bin/pip install --quiet -e '.[test,postgres]'
if [ "${WITH_POSTGRES:-0}" = "1" ] && [ -z "${TEST_POSTGRES_URL:-}" ]; then
    export "$(bash .ci/start-postgres.sh)"
fi
exec .venv/bin/python -m pytest "$@"
