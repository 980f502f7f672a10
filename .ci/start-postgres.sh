#!/usr/bin/env bash
# Start a PostgreSQL server on 127.0.0.1 for the storage tests (Debian, as root; safe to run again).
# Prints one line on stdout, everything else goes to stderr:
#   TEST_POSTGRES_URL=postgresql+asyncpg://USER:PASSWORD@127.0.0.1:PORT/DB
# Use it as:  export "$(.ci/start-postgres.sh)"
set -euo pipefail

PG_USER="${PG_TEST_USER:-mission_deck}"
PG_PASSWORD="${PG_TEST_PASSWORD:-mission_deck}"
PG_DB="${PG_TEST_DB:-mission_deck_test}"

log() { echo "start-postgres: $*" >&2; }

if [ "$(id -u)" -ne 0 ]; then
    log "run me as root (installs packages and starts the server as the postgres user)"
    exit 1
fi

if ! dpkg-query -W -f='${Status}' postgresql 2>/dev/null | grep -q "install ok installed"; then
    log "installing PostgreSQL from Debian's packages"
    apt-get update >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql >&2
fi

# The package normally creates the "main" cluster; create it if a minimal image skipped that.
if [ -z "$(pg_lsclusters -h)" ]; then
    version="$(ls /usr/lib/postgresql | sort -V | tail -1)"
    log "creating cluster $version/main"
    pg_createcluster "$version" main >&2
fi
read -r version cluster port status _ < <(pg_lsclusters -h | head -1)

if [ "$status" != "online" ]; then
    log "starting cluster $version/$cluster on port $port"
    # Without systemd, pg_ctlcluster starts the server itself as the postgres user.
    pg_ctlcluster "$version" "$cluster" start >&2
fi
for _ in $(seq 1 30); do
    pg_isready -q -h 127.0.0.1 -p "$port" && break
    sleep 1
done
pg_isready -h 127.0.0.1 -p "$port" >&2

psql_admin() { runuser -u postgres -- psql -p "$port" -v ON_ERROR_STOP=1 -qtA "$@"; }

# CREATEDB: the test fixtures create and drop one scratch database per test.
if [ "$(psql_admin -c "SELECT 1 FROM pg_roles WHERE rolname = '$PG_USER'")" != "1" ]; then
    log "creating role $PG_USER"
    psql_admin -c "CREATE ROLE \"$PG_USER\" LOGIN CREATEDB PASSWORD '$PG_PASSWORD'"
else
    psql_admin -c "ALTER ROLE \"$PG_USER\" LOGIN CREATEDB PASSWORD '$PG_PASSWORD'"
fi
if [ "$(psql_admin -c "SELECT 1 FROM pg_database WHERE datname = '$PG_DB'")" != "1" ]; then
    log "creating database $PG_DB"
    psql_admin -c "CREATE DATABASE \"$PG_DB\" OWNER \"$PG_USER\""
fi

echo "TEST_POSTGRES_URL=postgresql+asyncpg://$PG_USER:$PG_PASSWORD@127.0.0.1:$port/$PG_DB"
