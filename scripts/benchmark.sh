#!/usr/bin/env bash
# Runs every benchmark and writes docs/performance.md.
#
# Builds the benchmark products in release, starts two mosquitto brokers on free loopback ports
# (mosquitto's default TCP settings, and the same with `set_tcp_nodelay true`; both with
# `max_queued_messages 0` so that a busy subscriber is never dropped), runs CoatyBenchmarks against
# them with the C baseline (mqtt-baseline) and the Foundation-free agent-probe, and stops the
# brokers again; the storage section also starts a PostgreSQL server (scripts/postgres-server.sh).
# Takes about half an hour (and a few more minutes the first time, to build).
#
#   scripts/benchmark.sh                 everything, report in docs/performance.md
#   scripts/benchmark.sh --quick         smaller counts (a minute or two), report on stdout
#   scripts/benchmark.sh --only b2,stall  some sections: codec b1 b7 b2 stall b4 b5 b6 metrics monitor storage
#                                         (b6: 1,000 and 10,000 agents in one process; raises RLIMIT_NOFILE)
#   scripts/benchmark.sh --repeats 5     more repetitions (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
PATH="$PATH:/usr/sbin"  # Debian installs the mosquitto broker there
export PATH

command -v mosquitto >/dev/null || { echo "benchmark: mosquitto is missing; run scripts/setup.sh" >&2; exit 1; }
# The monitor benchmark compares against mosquitto_sub and sends with mosquitto_pub.
if ! command -v mosquitto_sub >/dev/null; then
    echo "benchmark: installing mosquitto-clients (mosquitto_sub, mosquitto_pub)"
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mosquitto-clients >/dev/null
fi

markdown="docs/performance.md"
arguments=()
for argument in "$@"; do
    case "$argument" in
        --quick|--only) markdown="" ;;
    esac
    arguments+=("$argument")
done

# Built as we recommend deploying (README, "Deploying"): release, with the Swift runtime linked into
# the program. That needs its own build folder (switching the option rebuilds everything). B5 also
# measures an agent-probe built with swift build's defaults (the runtime in shared libraries).
echo "benchmark: building in release (--static-swift-stdlib, in .build/static)"
static=(-c release --static-swift-stdlib --scratch-path .build/static)
for product in CoatyBenchmarks mqtt-baseline agent-probe agent-runner StorageBenchmarks; do
    swift build "${static[@]}" --product "$product" 2>&1 | grep -E "error|warning: |Compiling|Build" || true
done
bin="$(swift build "${static[@]}" --show-bin-path)"
swift build -c release --product agent-probe 2>&1 | grep -E "error|warning: |Build" || true
dynamic_probe="$(swift build -c release --show-bin-path)/agent-probe"

# The scale benchmark (B6) opens up to 10,000 connections (a descriptor each here and in the broker):
# give the brokers and ourselves the room. Raising the hard limit needs CAP_SYS_RESOURCE;
# agent-probe and mqtt-baseline say what they need when it is too low.
ulimit -Hn 65536 2>/dev/null || true
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

work="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    [ -d "$work/postgres/data" ] && bash scripts/postgres-server.sh stop "$work/postgres" || true
    rm -rf "$work"
}
trap cleanup EXIT

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start_broker() {  # name port [extra line]
    local name="$1" port="$2" extra="${3:-}"
    {
        echo "listener $port 127.0.0.1"
        echo "allow_anonymous true"
        echo "max_queued_messages 0"
        echo "max_connections -1"
        echo "persistence false"
        echo "log_dest none"
        [ -n "$extra" ] && echo "$extra"
    } > "$work/$name.conf"
    mosquitto -c "$work/$name.conf" > "$work/$name.log" 2>&1 &
    pids+=("$!")
    for _ in $(seq 50); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
        sleep 0.1
    done
    echo "benchmark: the $name broker did not start:" >&2
    cat "$work/$name.log" >&2
    exit 1
}

port="$(free_port)"
start_broker default "$port"
nodelay_port="$(free_port)"
start_broker nodelay "$nodelay_port" "set_tcp_nodelay true"
echo "benchmark: brokers on $port (default) and $nodelay_port (set_tcp_nodelay true)"

report=()
[ -n "$markdown" ] && report=(--markdown "$markdown")
# The previous report, so that each figure of the new one shows its previous ratio beside it.
[ -n "$markdown" ] && [ -f "$markdown" ] && cp "$markdown" "$work/previous.md"
# The hand-written notes at the end of the report (from their heading on) are kept across runs.
notes_heading='^## Requests on a default broker: the 44 ms stall'
[ -n "$markdown" ] && [ -f "$markdown" ] && sed -n "/$notes_heading/,\$p" "$markdown" > "$work/notes.md"
"$bin/CoatyBenchmarks" all --port "$port" --nodelay-port "$nodelay_port" \
    --baseline "$bin/mqtt-baseline" --probe "$bin/agent-probe" --dynamic-probe "$dynamic_probe" \
    "${report[@]}" "${arguments[@]}"

# The monitor against mosquitto_sub (issues 29 and 33): every event of a burst printed, and how fast,
# plain, with filters and with --record.
runs_monitor=1
monitor_arguments=(--count 100000 --rounds 3)
previous=""
for argument in "$@"; do
    if [ "$previous" = "--only" ] && [[ ",$argument," != *",monitor,"* ]]; then runs_monitor=0; fi
    [ "$argument" = "--quick" ] && monitor_arguments=(--count 20000 --rounds 1)
    previous="$argument"
done
if [ "$runs_monitor" = 1 ]; then
    monitor_report=()
    [ -n "$markdown" ] && monitor_report=(--markdown "$markdown")
    python3 scripts/monitor-benchmark.py --port "$port" --runner "$bin/agent-runner" \
        "${monitor_arguments[@]}" "${monitor_report[@]}"
fi
# Storage: SQLite files and a throw-away PostgreSQL server (scripts/postgres-server.sh).
runs_storage=1
storage_arguments=()
previous=""
for argument in "$@"; do
    if [ "$previous" = "--only" ] && [[ ",$argument," != *",storage,"* ]]; then runs_storage=0; fi
    [ "$argument" = "--quick" ] && storage_arguments=(--objects 100000 --ingest 2000 --batch 20000 --live 200)
    previous="$argument"
done
if [ "$runs_storage" = 1 ]; then
    mkdir -p "$work/postgres" && chmod 755 "$work"
    postgres_url="$(bash scripts/postgres-server.sh start "$work/postgres" "$(free_port)")"
    storage_report=()
    [ -n "$markdown" ] && storage_report=(--markdown "$markdown")
    "$bin/StorageBenchmarks" --folder "$work/storage" --postgres "$postgres_url" \
        "${storage_arguments[@]}" "${storage_report[@]}" || storage_failed=1
    bash scripts/postgres-server.sh stop "$work/postgres"
    [ -z "${storage_failed:-}" ] || { echo "benchmark: the storage benchmarks failed" >&2; exit 1; }
fi
if [ -n "$markdown" ] && [ -f "$work/previous.md" ]; then
    python3 scripts/compare-performance.py "$work/previous.md" "$markdown"
fi
if [ -n "$markdown" ] && [ -s "$work/notes.md" ]; then
    { echo; cat "$work/notes.md"; } >> "$markdown"
fi
