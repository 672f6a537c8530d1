#!/usr/bin/env python3
"""The dashboard under load: does it stay responsive at 10,000 events/s?

Starts a private mosquitto (`max_queued_messages 0`, so the broker itself drops nothing), an
`agent-runner dashboard`, two `agent-runner run` agents with objects, optionally one run of
`agent-runner demo` against the same broker (every request pattern, for the latency table), then
publishes Channel events through `mosquitto_pub -l` at --rate events/s for --seconds. Meanwhile
it reads /snapshot twice a second (snapshot number, events received, the page's events/s, how
long the answer took) and, halfway, loads the page in a headless Chromium, which says how many
WebSocket pushes it rendered. At the end it checks that every event was either received or
counted as dropped: nothing may be lost silently.

    dashboard-load.py [--runner PATH] [--seconds 10] [--rate 10000] [--demo] [--screenshot FILE]

Needs mosquitto, mosquitto_pub (Debian: mosquitto, mosquitto-clients) and, for the page,
chromium. Nothing here asserts a timing: it prints what it saw.
"""

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid

AGENTS = {
    "lamp.yaml": "name: Lamp controller\nobjects:\n  - objectType: com.example.Light\n    coreType: CoatyObject\n"
    "    name: Desk lamp\n    brightness: 0.8\n  - objectType: com.example.Light\n    coreType: CoatyObject\n"
    "    name: Ceiling light\n    brightness: 0.35\n",
    "heating.yaml": "name: Heating controller\nobjects:\n  - objectType: com.example.Thermostat\n"
    "    coreType: CoatyObject\n    name: Hall thermostat\n    targetCelsius: 21.5\n    mode: eco\n",
}


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get_json(url):
    started = time.monotonic()
    with urllib.request.urlopen(url, timeout=10) as answer:
        body = json.load(answer)
    return body, (time.monotonic() - started) * 1000


def wait_for(url, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            return get_json(url)[0]
        except OSError:
            time.sleep(0.1)
    sys.exit(f"dashboard-load: {url} did not answer within {seconds} s")


def chromium(args, url):
    command = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"] + args + [url]
    return subprocess.run(command, capture_output=True, text=True, timeout=120).stdout


def publish(broker_port, rate, seconds, published):
    """Feeds mosquitto_pub -l with `rate` lines a second, in batches of a tenth of a second."""
    source = str(uuid.uuid4())
    topic = f"coaty/3/-/CHN:positions/{source}"
    pub = subprocess.Popen(
        ["mosquitto_pub", "-p", str(broker_port), "-t", topic, "-l"], stdin=subprocess.PIPE, text=True)
    batch = max(rate // 10, 1)
    started = time.monotonic()
    tick = 0
    while time.monotonic() - started < seconds:
        lines = []
        for _ in range(batch):
            number = published[0]
            published[0] += 1
            lines.append(json.dumps({"object": {
                "objectId": str(uuid.uuid4()), "objectType": "com.example.Position", "coreType": "CoatyObject",
                "name": f"Tracker {number % 50}", "x": number % 1000 / 10}}, separators=(",", ":")))
        pub.stdin.write("\n".join(lines) + "\n")
        pub.stdin.flush()
        tick += 1
        pause = started + tick / 10 - time.monotonic()
        if pause > 0:
            time.sleep(pause)
    pub.stdin.close()
    pub.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runner", default=".build/debug/agent-runner")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--rate", type=int, default=10_000)
    parser.add_argument("--demo", action="store_true", help="run agent-runner demo once before the load")
    parser.add_argument("--screenshot", help="save a screenshot of the page (1280x1400) at the end of the load")
    options = parser.parse_args()

    work = tempfile.mkdtemp(prefix="dashboard-load-")
    broker_port, http_port = free_port(), free_port()
    with open(os.path.join(work, "mosquitto.conf"), "w") as conf:
        conf.write(f"listener {broker_port} 127.0.0.1\nallow_anonymous true\nmax_queued_messages 0\n")
    mosquitto = os.environ.get("MOSQUITTO", "/usr/sbin/mosquitto")
    children = [subprocess.Popen([mosquitto, "-c", os.path.join(work, "mosquitto.conf")],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    broker = f"mqtt://127.0.0.1:{broker_port}"
    base = f"http://127.0.0.1:{http_port}"
    try:
        time.sleep(0.3)  # mosquitto binds at once; the dashboard retries its connection anyway
        children.append(subprocess.Popen(
            [options.runner, "dashboard", "--broker", broker, "--listen", f"127.0.0.1:{http_port}"],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "dashboard.log"), "w")))
        wait_for(base + "/snapshot")
        for name, text in AGENTS.items():
            path = os.path.join(work, name)
            with open(path, "w") as file:
                file.write(text)
            children.append(subprocess.Popen([options.runner, "run", "--config", path, "--broker", broker],
                                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        if options.demo:
            subprocess.run([options.runner, "demo", "--broker", broker], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=120)
        before = get_json(base + "/snapshot")[0]["received"]

        published = [0]
        load = threading.Thread(target=publish, args=(broker_port, options.rate, options.seconds, published))
        load.start()
        page = {}

        def load_page():
            page["dom"] = chromium(["--dump-dom", "--virtual-time-budget=3000"], base + "/")

        browser = threading.Timer(options.seconds / 2, load_page)
        browser.start()
        print(f"{'t (s)':>6} {'snapshot':>9} {'received':>10} {'page ev/s':>10} {'answer ms':>10} {'dropped':>8}")
        started = time.monotonic()
        while load.is_alive():
            snapshot, millis = get_json(base + "/snapshot")
            drops = snapshot["drops"]["observerBuffer"] + snapshot["drops"]["invalidPayloads"]
            print(f"{time.monotonic() - started:6.1f} {snapshot['sequence']:9d} {snapshot['received']:10d} "
                  f"{snapshot['rates']['perSecond']:10.0f} {millis:10.1f} {drops:8d}")
            time.sleep(0.5)
        browser.join()
        if options.screenshot:
            chromium(["--screenshot=" + os.path.abspath(options.screenshot), "--window-size=1280,1400",
                      "--virtual-time-budget=3000"], base + "/")
        # Drained when two answers a second apart agree.
        last = None
        while True:
            snapshot = get_json(base + "/snapshot")[0]
            if last is not None and snapshot["received"] == last:
                break
            last = snapshot["received"]
            time.sleep(1)
        dropped = snapshot["drops"]["observerBuffer"]
        received = snapshot["received"] - before
        dom = page.get("dom", "")
        pushes = dom.split('data-pushes="')[1].split('"')[0] if 'data-pushes="' in dom else "no"
        print(f"published {published[0]} events in {options.seconds:g} s ({published[0] / options.seconds:.0f}/s); "
              f"the dashboard received {received} (and its own and the agents' few), dropped {dropped}")
        print(f"the page loaded halfway rendered {pushes} WebSocket pushes in its 3 s")
        if received + dropped < published[0]:
            print(f"LOST SILENTLY: {published[0] - received - dropped} events")
            return 1
        print("nothing lost silently")
        return 0
    finally:
        for child in reversed(children):
            child.terminate()
        for child in children:
            try:
                child.wait(timeout=5)
            except subprocess.TimeoutExpired:
                child.kill()


if __name__ == "__main__":
    sys.exit(main())
