#!/usr/bin/env bash
# Runs every test: the pure model, the agent, and the integration tests against a real mosquitto
# broker that the tests start themselves on a free loopback port.
set -euo pipefail
cd "$(dirname "$0")/.."
PATH="$PATH:/usr/sbin"  # Debian installs the mosquitto broker there
export PATH
exec swift test "$@"
