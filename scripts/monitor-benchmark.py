#!/usr/bin/env python3
"""The monitor benchmark: `agent-runner --output json monitor` against `mosquitto_sub -v`.

All subscribe to the same broker (started by the caller with `max_queued_messages 0`) and get the
same burst of Advertises from `mosquitto_pub -l`, in alternating rounds: mosquitto_sub, then each
monitor variant (plain; with filters that pass the whole burst; with a filter that passes exactly
half of it; with `--record FILE`). Each round first waits until the subscriber prints a marker
message (so it is subscribed), then sends the burst, which ends with a marker, and times the lines from the
first to the last event of the burst. A subscriber that has not printed every event it should by
the end marker (or once the stream has been quiet for ten seconds) has lost some, and the round
says how many; with `--record`, the events in the file are counted too.

    monitor-benchmark.py --port P --runner PATH [--count 100000] [--rounds 3] [--markdown FILE]

Prints one line per round and variant and a summary; with --markdown, appends a section to FILE.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid

NAMESPACE = "monitor-bench"
QUIET_SECONDS = 10.0
# The burst's last line: on the burst's own connection, so the broker forwards it after the burst.
END_MARKER = "end-of-burst"


def advertise_line(number):
    source = str(uuid.uuid4())
    payload = {
        "object": {
            "objectId": str(uuid.uuid4()),
            "coreType": "CoatyObject",
            "objectType": "com.example.Reading",
            "name": f"Reading {number}",
            "value": number,
        }
    }
    return source, json.dumps(payload, separators=(",", ":"))


class Variant:
    """A subscriber: how it is started, and which events of the burst it must print."""

    def __init__(self, name, monitor_arguments=None, half=False, records=False):
        self.name = name
        self.monitor_arguments = monitor_arguments
        self.half = half
        self.records = records

    def expected(self, count):
        return count // 2 if self.half else count


def variants(count):
    return [
        Variant("mosquitto_sub"),
        Variant("monitor", []),
        Variant("monitor --event Advertise --object-type com.example.Reading",
                ["--event", "Advertise", "--object-type", "com.example.Reading"]),
        # ObjectFilter operator 0 is LessThan: the readings numbered below half the burst.
        Variant(f"monitor --where value<{count // 2}",
                ["--where", json.dumps({"conditions": ["value", [0, count // 2]]})], half=True),
        Variant("monitor --record FILE", ["--record", "RECORDING"], records=True),
    ]


def marker_payload(name):
    # A reading that every variant's filter passes (value -1 is below half of any burst).
    return json.dumps({"object": {"objectId": str(uuid.uuid4()), "coreType": "CoatyObject",
                                  "objectType": "com.example.Reading", "name": name, "value": -1}})


def run_round(variant, port, runner, burst_file, count, topic):
    """Runs one subscriber; returns (lines of the burst printed, seconds from first to last,
    events of the burst in the recording or None, stderr lines)."""
    recording = None
    if variant.monitor_arguments is None:
        command = ["mosquitto_sub", "-h", "127.0.0.1", "-p", str(port), "-v", "-t", f"coaty/3/{NAMESPACE}/#"]
    else:
        arguments = list(variant.monitor_arguments)
        if variant.records:
            handle, recording = tempfile.mkstemp(suffix=".jsonl")
            os.close(handle)
            arguments = [recording if argument == "RECORDING" else argument for argument in arguments]
        command = [runner, "--broker", f"mqtt://127.0.0.1:{port}", "--namespace", NAMESPACE,
                   "--output", "json", "monitor"] + arguments
    subscriber = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=1 << 20)
    stderr_lines = []
    threading.Thread(target=lambda: stderr_lines.extend(subscriber.stderr), daemon=True).start()
    marker = f"marker-{uuid.uuid4()}"
    state = {"ready": False, "count": 0, "first": None, "last": None, "last_line": time.monotonic()}

    def read():
        for line in subscriber.stdout:
            now = time.monotonic()
            if not state["ready"]:
                if marker.encode() in line:
                    state["ready"] = True
                continue
            if END_MARKER.encode() in line:
                return
            if b"Reading " not in line:
                continue
            state["count"] += 1
            state["last_line"] = now
            if state["first"] is None:
                state["first"] = now
            state["last"] = now

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.monotonic() + 30
    while not state["ready"]:
        if time.monotonic() > deadline or subscriber.poll() is not None:
            subscriber.kill()
            raise SystemExit(f"monitor-benchmark: {variant.name} never saw its marker; "
                             f"stderr: {b''.join(stderr_lines)[-2000:]!r}")
        subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(port), "-t", topic, "-m",
                        marker_payload(marker)], check=True)
        time.sleep(0.05)
    state["last_line"] = time.monotonic()
    with open(burst_file, "rb") as burst:
        subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(port), "-t", topic, "-l"], stdin=burst,
                       check=True)
    while reader.is_alive():
        reader.join(0.5)
        if time.monotonic() - state["last_line"] > QUIET_SECONDS:
            break
    subscriber.terminate()
    try:
        subscriber.wait(10)
    except subprocess.TimeoutExpired:
        subscriber.kill()
    recorded = None
    if recording is not None:
        with open(recording, "rb") as file:
            recorded = sum(1 for line in file if b"Reading " in line)
        os.unlink(recording)
    seconds = (state["last"] - state["first"]) if state["first"] is not None else 0.0
    notes = [line.decode(errors="replace").strip() for line in stderr_lines if line.strip()]
    return state["count"], seconds, recorded, notes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--runner", required=True)
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--markdown")
    arguments = parser.parse_args()

    source, _ = advertise_line(0)
    topic = f"coaty/3/{NAMESPACE}/ADV:CoatyObject/{source}"
    with tempfile.NamedTemporaryFile("w", suffix=".lines", delete=False) as burst:
        for number in range(arguments.count):
            burst.write(advertise_line(number)[1] + "\n")
        burst.write(marker_payload(END_MARKER) + "\n")
        burst_file = burst.name

    kinds = variants(arguments.count)
    # Per variant and round: (lines printed, lines/s, events of the burst read per second, recorded).
    results = {variant.name: [] for variant in kinds}
    try:
        for round_number in range(arguments.rounds):
            for variant in kinds:
                printed, seconds, recorded, notes = run_round(variant, arguments.port, arguments.runner,
                                                              burst_file, arguments.count, topic)
                rate = (printed - 1) / seconds if seconds > 0 else 0.0
                # A filter that passes half prints half as many lines over the same burst: compare
                # the events read per second, the burst's count over the same span.
                read_rate = rate * arguments.count / variant.expected(arguments.count)
                results[variant.name].append((printed, rate, read_rate, recorded))
                note = f"; stderr: {notes[-1]}" if notes else ""
                extra = f", {recorded} recorded" if recorded is not None else ""
                extra += f", {read_rate:.0f} burst events/s" if variant.half else ""
                print(f"monitor-benchmark: round {round_number + 1} {variant.name:60} printed {printed:7} of "
                      f"{variant.expected(arguments.count)}{extra}, {rate:10.0f} lines/s{note}", flush=True)
    finally:
        os.unlink(burst_file)

    def complete(variant):
        expected = variant.expected(arguments.count)
        return all(printed == expected and (recorded is None or recorded == expected)
                   for printed, _, _, recorded in results[variant.name])

    def ratios(variant):
        """Each round's ratio to mosquitto_sub's rate in the same round."""
        return [read / sub[1] if sub[1] > 0 else 0.0
                for (_, _, read, _), sub in zip(results[variant.name], results["mosquitto_sub"])]

    def median(values):
        ordered = sorted(values)
        return ordered[len(ordered) // 2]

    sub_rate = median([rate for _, rate, _, _ in results["mosquitto_sub"]])
    monitors = [variant for variant in kinds if variant.monitor_arguments is not None]
    lost = False
    for variant in monitors:
        ratio = median(ratios(variant))
        everything = complete(variant)
        lost = lost or not everything
        print(f"monitor-benchmark: {variant.name}: median {median([r for _, r, _, _ in results[variant.name]]):.0f} "
              f"lines/s against {sub_rate:.0f} (mosquitto_sub): {ratio:.2f}x (median of the rounds' ratios"
              f"{', burst events read per second' if variant.half else ''}); printed "
              f"{'every' if not variant.half else 'exactly the half of the'} event{'s' if variant.half else ''} "
              f"it should in every round{' and recorded them' if variant.records else ''}: "
              f"{'yes' if everything else 'NO'}", flush=True)
    print(f"monitor-benchmark: mosquitto_sub printed every event in every round: "
          f"{'yes' if complete(kinds[0]) else 'NO'}", flush=True)
    if arguments.markdown:
        with open(arguments.markdown, "a") as report:
            report.write("\n## Monitor: `agent-runner --output json monitor` against `mosquitto_sub -v`\n\n")
            report.write(f"A burst of {arguments.count:,} Advertises from `mosquitto_pub -l`, mosquitto_sub and "
                         f"each monitor variant in alternating rounds on one broker (`max_queued_messages 0`); "
                         f"lines per second from the burst's first line to its last. The `--where` variant "
                         f"prints exactly half the burst: its ratio compares the burst's events read per "
                         f"second over the same span.\n\n")
            report.write("| figure | printed per round | recorded per round | lines/s | mosquitto_sub lines/s | "
                         "ratio | target |\n")
            report.write("| --- | --- | --- | --- | --- | --- | --- |\n")
            for variant in monitors:
                rows = results[variant.name]
                printed = ", ".join(f"{row[0]:,}" for row in rows) + f" of {variant.expected(arguments.count):,}"
                recorded = ", ".join(f"{row[3]:,}" for row in rows) if variant.records else ""
                verdict = "meets" if median(ratios(variant)) >= 0.8 and complete(variant) else "MISSES"
                report.write(f"| `{variant.name}` | {printed} | {recorded} | "
                             f"{median([row[1] for row in rows]):,.0f} | {sub_rate:,.0f} | "
                             f"{median(ratios(variant)):.2f}× | ≥ 0.8×, nothing lost: {verdict} |\n")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
