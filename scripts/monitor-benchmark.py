#!/usr/bin/env python3
"""The monitor benchmark: `agent-runner --output json monitor` against `mosquitto_sub -v`.

Both subscribe to the same broker (started by the caller with `max_queued_messages 0`) and get the
same burst of Advertises from `mosquitto_pub -l`, in alternating rounds. Each round first waits
until the subscriber prints a marker message (so it is subscribed), then sends the burst and times
the lines from the first to the last event of the burst. A subscriber that has not printed every
event once the stream has been quiet for ten seconds has lost some, and the round says how many.

    monitor-benchmark.py --port P --runner PATH [--count 100000] [--rounds 3] [--markdown FILE]

Prints one line per round and a summary; with --markdown, appends a section to FILE.
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


def run_round(kind, port, runner, burst_file, count, topic):
    """Runs one subscriber; returns (lines of the burst printed, seconds from first to last)."""
    if kind == "monitor":
        command = [runner, "--broker", f"mqtt://127.0.0.1:{port}", "--namespace", NAMESPACE,
                   "--output", "json", "monitor"]
    else:
        command = ["mosquitto_sub", "-h", "127.0.0.1", "-p", str(port), "-v", "-t", f"coaty/3/{NAMESPACE}/#"]
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
            if b"Reading " not in line:
                continue
            state["count"] += 1
            state["last_line"] = now
            if state["first"] is None:
                state["first"] = now
            state["last"] = now
            if state["count"] >= count:
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    marker_payload = json.dumps({"object": {"objectId": str(uuid.uuid4()), "coreType": "CoatyObject",
                                            "objectType": "com.example.Marker", "name": marker}})
    deadline = time.monotonic() + 30
    while not state["ready"]:
        if time.monotonic() > deadline or subscriber.poll() is not None:
            subscriber.kill()
            raise SystemExit(f"monitor-benchmark: {kind} never saw its marker; stderr: {b''.join(stderr_lines)[-2000:]!r}")
        subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(port), "-t", topic, "-m", marker_payload],
                       check=True)
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
    seconds = (state["last"] - state["first"]) if state["first"] is not None else 0.0
    notes = [line.decode(errors="replace").strip() for line in stderr_lines if line.strip()]
    return state["count"], seconds, notes


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
        burst_file = burst.name

    results = {"mosquitto_sub": [], "monitor": []}
    try:
        for round_number in range(arguments.rounds):
            for kind in ("mosquitto_sub", "monitor"):
                printed, seconds, notes = run_round(kind, arguments.port, arguments.runner, burst_file,
                                                    arguments.count, topic)
                rate = (printed - 1) / seconds if seconds > 0 else 0.0
                results[kind].append((printed, rate))
                note = f"; stderr: {notes[-1]}" if notes else ""
                print(f"monitor-benchmark: round {round_number + 1} {kind:13} printed {printed:7} of "
                      f"{arguments.count}, {rate:10.0f} lines/s{note}", flush=True)
    finally:
        os.unlink(burst_file)

    def median(values):
        ordered = sorted(values)
        return ordered[len(ordered) // 2]

    sub_rate = median([rate for _, rate in results["mosquitto_sub"]])
    monitor_rate = median([rate for _, rate in results["monitor"]])
    ratio = monitor_rate / sub_rate if sub_rate > 0 else 0.0
    monitor_all = all(printed == arguments.count for printed, _ in results["monitor"])
    sub_all = all(printed == arguments.count for printed, _ in results["mosquitto_sub"])
    summary = (f"monitor-benchmark: median {monitor_rate:.0f} lines/s (monitor) against {sub_rate:.0f} "
               f"(mosquitto_sub): {ratio:.2f}x; monitor printed every event in every round: "
               f"{'yes' if monitor_all else 'NO'}; mosquitto_sub: {'yes' if sub_all else 'NO'}")
    print(summary, flush=True)
    if arguments.markdown:
        with open(arguments.markdown, "a") as report:
            report.write("\n## Monitor: `agent-runner --output json monitor` against `mosquitto_sub -v`\n\n")
            report.write(f"A burst of {arguments.count:,} Advertises from `mosquitto_pub -l`, the two subscribers "
                         f"in alternating rounds on one broker (`max_queued_messages 0`); lines per second "
                         f"from the burst's first line to its last.\n\n")
            report.write("| round | mosquitto_sub printed | lines/s | monitor printed | lines/s | ratio |\n")
            report.write("| --- | --- | --- | --- | --- | --- |\n")
            for index, ((sub_printed, sub), (mon_printed, mon)) in enumerate(
                    zip(results["mosquitto_sub"], results["monitor"])):
                report.write(f"| {index + 1} | {sub_printed:,} | {sub:,.0f} | {mon_printed:,} | {mon:,.0f} | "
                             f"{mon / sub if sub else 0:.2f}x |\n")
            report.write(f"\nMedian: {ratio:.2f}x (target ≥ 0.8x, every event printed: "
                         f"{'yes' if monitor_all else 'no'}).\n")
    return 0 if monitor_all else 1


if __name__ == "__main__":
    sys.exit(main())
