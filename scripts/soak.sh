#!/usr/bin/env bash
# Soak test: two agents on a local mosquitto exchange numbered events at QoS 1 for a long time.
# Passes when nothing is lost, repeated or reordered and the process's resident memory stays flat;
# writes the figures into docs/reliability.md (between the soak markers).
#
#   scripts/soak.sh                  # 10 minutes at half the measured maximum rate
#   SOAK_DURATION=60 scripts/soak.sh # a short run
#   SOAK_RATE=5000 scripts/soak.sh   # a fixed rate instead of measuring
#
# Environment: SOAK_DURATION (s, 600), SOAK_RATE (events/s, measured when empty), SOAK_MEASURE (s, 10),
# SOAK_SAMPLE (s, 10), SOAK_CONFIGURATION (release|debug, release), SOAK_DOC (docs/reliability.md,
# "none" to skip writing it).
set -euo pipefail
cd "$(dirname "$0")/.."
PATH="$PATH:/usr/sbin"

duration="${SOAK_DURATION:-600}"
rate="${SOAK_RATE:-}"
measure="${SOAK_MEASURE:-10}"
sample="${SOAK_SAMPLE:-10}"
configuration="${SOAK_CONFIGURATION:-release}"
doc="${SOAK_DOC:-docs/reliability.md}"

command -v mosquitto >/dev/null || { echo "soak: mosquitto is not installed (bash scripts/setup.sh)" >&2; exit 1; }
echo "soak: building CoatySoak ($configuration)"
swift build -c "$configuration" --product CoatySoak >/dev/null
binary="$(swift build -c "$configuration" --show-bin-path)/CoatySoak"

work="$(mktemp -d)"
broker_pid=""
cleanup() {
    if [ -n "$broker_pid" ]; then kill "$broker_pid" 2>/dev/null || true; wait "$broker_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

# A free loopback port: one that nothing accepts connections on.
port=""
for _ in $(seq 1 50); do
    candidate=$((20000 + RANDOM % 40000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$candidate") 2>/dev/null; then port="$candidate"; break; fi
done
[ -n "$port" ] || { echo "soak: found no free port" >&2; exit 1; }

cat >"$work/mosquitto.conf" <<EOF
listener $port 127.0.0.1
allow_anonymous true
max_queued_messages 0
persistence false
log_dest stderr
log_type error
log_type warning
EOF
mosquitto -c "$work/mosquitto.conf" 2>"$work/broker.log" &
broker_pid=$!
for _ in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
    sleep 0.1
done
broker_rss() { awk '/VmRSS/ { printf "%.1f MiB", $2 / 1024 }' "/proc/$broker_pid/status" 2>/dev/null || echo "?"; }
broker_start_rss="$(broker_rss)"
load_average="$(cut -d ' ' -f 1-3 /proc/loadavg)"

arguments=(--broker "mqtt://127.0.0.1:$port" --duration "$duration" --measure "$measure" --sample "$sample"
    --markdown "$work/figures.md")
[ -n "$rate" ] && arguments+=(--rate "$rate")
echo "soak: broker on port $port; running ${duration} s"
status=0
"$binary" "${arguments[@]}" || status=$?
broker_end_rss="$(broker_rss)"

if [ "$doc" != "none" ] && [ -f "$work/figures.md" ]; then
    {
        echo "<!-- soak:begin (written by scripts/soak.sh; do not edit by hand) -->"
        echo "Last run: $(date -u '+%Y-%m-%d %H:%M UTC'), \`SOAK_DURATION=$duration\`$([ -n "$rate" ] && echo ", \`SOAK_RATE=$rate\`"),"
        echo "$configuration build, $(nproc) CPU cores (load average $load_average at the start), $(uname -sr),"
        echo "$(mosquitto -h 2>/dev/null | head -1)."
        echo
        cat "$work/figures.md"
        echo
        echo "mosquitto's resident memory: $broker_start_rss at the start, $broker_end_rss at the end."
        echo "<!-- soak:end -->"
    } >"$work/section.md"
    mkdir -p "$(dirname "$doc")"
    touch "$doc"
    if grep -q '<!-- soak:begin' "$doc"; then
        awk -v section="$work/section.md" '
            /<!-- soak:begin/ { while ((getline line < section) > 0) print line; skipping = 1; next }
            /<!-- soak:end -->/ { skipping = 0; next }
            !skipping { print }
        ' "$doc" >"$work/doc.md"
        cp "$work/doc.md" "$doc"
    else
        { echo; cat "$work/section.md"; } >>"$doc"
    fi
    echo "soak: figures written to $doc"
fi
[ -s "$work/broker.log" ] && { echo "soak: broker output:"; cat "$work/broker.log"; }
exit "$status"
