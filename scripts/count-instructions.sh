#!/usr/bin/env bash
# Counts the instructions one Advertise costs to encode (its payload; with `publications`, also its
# two topics, as the agent publishes it) and to decode, and seven small and medium documents to
# parse (`parse`, per round of seven), and to route one inbound Advertise through an agent to its
# observer (`route`: topic, routing table, decode, delivery, the consumer taking it), with valgrind's callgrind:
# the same count on every run, where times on this shared machine swing by a third. Prints the
# instructions per operation (the loop's count minus the start-up's, divided by the operations).
#
#   scripts/count-instructions.sh [operations]      default 20000
#   KEEP=DIR scripts/count-instructions.sh          keeps the callgrind files in DIR (callgrind_annotate)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "count-instructions: valgrind is missing (apt-get install valgrind)" >&2; exit 1; }
operations="${1:-20000}"
swift build -c release --product CoatyBenchmarks 2>&1 | grep -E "error|warning: " || true
bin="$(swift build -c release --show-bin-path)/CoatyBenchmarks"
work="${KEEP:-$(mktemp -d)}"
mkdir -p "$work"
count() {  # path operations
    valgrind --tool=callgrind --callgrind-out-file="$work/$1.$2.out" "$bin" loop "$1" "$2" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
for path in encode publications decode parse route; do
    zero="$(count "$path" 0)"
    full="$(count "$path" "$operations")"
    echo "$path: $(( (full - zero) / operations )) instructions per operation ($operations operations)"
done
[ -n "${KEEP:-}" ] || rm -rf "$work"
