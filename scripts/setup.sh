#!/usr/bin/env bash
# Installs what swift-coaty needs from Debian/Ubuntu when it is missing:
# the mosquitto broker (tests, `agent-runner demo`), libmosquitto's headers (the build) and the
# openssl command (the TLS tests make their certificates with it).
set -euo pipefail

missing=()
command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ] || missing+=(mosquitto)
pkg-config --exists libmosquitto 2>/dev/null || missing+=(libmosquitto-dev pkg-config)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)  # the TLS tests generate their certificates

if [ ${#missing[@]} -eq 0 ]; then
    echo "setup: mosquitto and libmosquitto-dev are installed"
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
