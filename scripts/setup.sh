#!/usr/bin/env bash
# Installs what swift-coaty needs from Debian/Ubuntu when it is missing:
# the mosquitto broker (tests, `agent-runner demo`), libmosquitto's headers (the build) and the
# openssl command (the TLS tests make their certificates with it), and SQLite's headers (GRDB, the
# SQLite storage backend, links the system's libsqlite3).
set -euo pipefail

missing=()
command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ] || missing+=(mosquitto)
pkg-config --exists libmosquitto 2>/dev/null || missing+=(libmosquitto-dev pkg-config)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)  # the TLS tests generate their certificates
[ -f /usr/include/sqlite3.h ] || missing+=(libsqlite3-dev)  # GRDB's system library module includes it

if [ ${#missing[@]} -eq 0 ]; then
    echo "setup: mosquitto, libmosquitto-dev and libsqlite3-dev are installed"
    exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
fi
echo "setup: installing ${missing[*]}"
$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
