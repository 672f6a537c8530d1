#!/usr/bin/env bash
# Runs every test: the pure model, the agent, the integration tests against a real mosquitto
# broker, and the storage tests against SQLite files and a real PostgreSQL server; the tests start
# the broker and the server themselves on free loopback ports.
set -euo pipefail
cd "$(dirname "$0")/.."
PATH="$PATH:/usr/sbin"  # Debian installs the mosquitto broker there
export PATH

# The storage tests run initdb/pg_ctl (Debian: /usr/lib/postgresql/<version>/bin); never skip them.
if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || { echo "test: need root or sudo to install postgresql" >&2; exit 1; }
        sudo="sudo"
    fi
    echo "test: installing postgresql (the storage tests start a server)"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null
fi

exec swift test "$@"
