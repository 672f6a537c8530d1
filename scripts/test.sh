#!/usr/bin/env bash
# Runs every test: the pure model, the agent, the integration tests against a real mosquitto
# broker, the storage tests against SQLite files and a real PostgreSQL server, and the dashboard
# test in a real headless Chromium; the tests start the broker and the server themselves on free
# loopback ports.
set -euo pipefail
cd "$(dirname "$0")/.."
PATH="$PATH:/usr/sbin"  # Debian installs the mosquitto broker there
export PATH

# Installs Debian package $1 (the tests need it: $2); never skip those tests.
install_package() {
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || { echo "test: need root or sudo to install $1" >&2; exit 1; }
        sudo="sudo"
    fi
    echo "test: installing $1 ($2)"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$1" >/dev/null
}

# The storage tests run initdb/pg_ctl (Debian: /usr/lib/postgresql/<version>/bin).
if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    install_package postgresql "the storage tests start a server"
fi
# The dashboard test reads the rendered page in Chromium (headless).
if ! command -v chromium >/dev/null 2>&1; then
    install_package chromium "the dashboard test reads its page in a headless browser"
fi

exec swift test "$@"
