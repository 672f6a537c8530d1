#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ (an instrumented release build with its own build folder) and
# runs each one for a number of seconds, starting from seeds generated from Tests/Vectors.
#
#   scripts/fuzz.sh [seconds-per-target] [target ...]     # default: 60 seconds, every target
#   scripts/fuzz.sh 600 FuzzEvents                        # a longer run of one target
#
# Work files go to fuzz-out/<target>/ (gitignored; FUZZ_OUT moves it): seeds/ (regenerated each run),
# corpus/ (what libFuzzer found, kept between runs), crashes/ (crash, timeout and out-of-memory
# inputs) and log. Replay a crash with `Fuzz/.build/release/<target> <file>`.
# Prints one summary line per target and exits non-zero if any target crashed, hung or broke a property.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
[ $# -gt 0 ] && shift
all_targets=(FuzzJSON FuzzTopics FuzzObjects FuzzEvents FuzzFilters)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all_targets[@]}")
out="${FUZZ_OUT:-fuzz-out}"
vectors="${COATY_VECTORS_DIR:-Tests/Vectors}"
# -enable-testing: the event and topic targets fuzz the agent's planning internals (package API
# of swift-coaty, which another package reaches only through `@testable import`).
build_flags=(--package-path Fuzz -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing)

# Swift's crash backtracer would run before libFuzzer saves the input, and can take minutes.
export SWIFT_BACKTRACE=enable=no

start=$(date +%s)
swift build "${build_flags[@]}"
echo "fuzz: build took $(( $(date +%s) - start )) s"
bin="$(swift build "${build_flags[@]}" --show-bin-path)"

summary=()
details=()
failed=0
for target in "${targets[@]}"; do
    dir="$out/$target"
    rm -rf "$dir/seeds"
    mkdir -p "$dir/corpus" "$dir/crashes"
    "$bin/$target" --write-seeds "$vectors" "$dir/seeds" >/dev/null
    before=$(find "$dir/crashes" -type f | wc -l)
    set +e
    "$bin/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
        -artifact_prefix="$dir/crashes/" "$dir/corpus" "$dir/seeds" >"$dir/log" 2>&1
    status=$?
    set -e
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log" | tail -1)
    # A crash while loading the corpus leaves no status lines: these may find nothing.
    coverage=$({ grep -o 'cov: [0-9]*' "$dir/log" || true; } | tail -1 | sed 's/cov: //')
    corpus=$({ grep -o 'corp: [0-9]*' "$dir/log" || true; } | tail -1 | sed 's/corp: //')
    artifact=$(find "$dir/crashes" -type f -newer "$dir/seeds" | head -1)
    if [ "$status" -eq 0 ] && [ "$(find "$dir/crashes" -type f | wc -l)" -eq "$before" ]; then
        result="ok"
    else
        failed=1
        reason=$({ grep -m1 -E 'property violated|Fatal error|ERROR: (AddressSanitizer|libFuzzer)' "$dir/log" || true; } \
            | sed 's/^.*\(property violated\|Fatal error\|ERROR\)/\1/' | cut -c1-160)
        result="FAILED (exit $status: ${reason:-see $dir/log}; input ${artifact:-none})"
        # What a CI log needs to reproduce it: the failure's first lines and the input itself.
        details+=("$target: $({ grep -m1 -A8 -E 'property violated|Fatal error|ERROR: (AddressSanitizer|libFuzzer)' \
            "$dir/log" || true; } | cut -c1-2000)")
        if [ -n "$artifact" ] && [ "$(stat -c %s "$artifact")" -le 8192 ]; then
            details+=("$target input (base64; replay: base64 -d > crash && $bin/$target crash): $(base64 -w0 "$artifact")")
        fi
    fi
    summary+=("$(printf '%-12s runs %9s (%5s/s)  coverage %5s  corpus %5s  %s' \
        "$target" "${runs:-0}" "${rate:-0}" "${coverage:-?}" "${corpus:-?}" "$result")")
    echo "${summary[-1]}"
done

echo "fuzz: summary ($seconds s per target)"
printf '  %s\n' "${summary[@]}"
[ ${#details[@]} -gt 0 ] && printf '%s\n' "${details[@]}"
exit "$failed"
