/// The dashboard's page, style and script, built into the binary: the page loads nothing from
/// anywhere else, so it works on machines without internet. Plain HTML, CSS and JavaScript, no
/// framework; the script renders each snapshot the `/live` WebSocket pushes (see ``DashboardServer``).
enum DashboardAssets {
    static let html = #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Coaty dashboard</title>
        <link rel="stylesheet" href="dashboard.css">
        </head>
        <body>
        <header>
          <h1>Coaty dashboard</h1>
          <span id="scope"></span>
          <span id="status" class="offline">connecting…</span>
          <span id="totals"></span>
        </header>
        <main>
          <section id="agents-card"><h2>Agents online <span id="agent-count" class="count"></span></h2>
            <table><thead><tr><th>Name</th><th>Identity</th><th>Online since</th><th>Last event</th></tr></thead>
            <tbody id="agents"></tbody></table></section>
          <section id="drops-card"><h2>Drops</h2><dl id="drops"></dl></section>
          <section id="objects-card" class="wide"><h2>Objects <span id="object-count" class="count"></span></h2>
            <div id="objects"></div></section>
          <section id="rates-card"><h2>Events per second <span id="rate-window" class="count"></span></h2>
            <table><thead><tr><th>Event</th><th>Now</th><th>Total</th><th>Last 5 minutes</th></tr></thead>
            <tbody id="rates"></tbody></table></section>
          <section id="latency-card"><h2>Request latency <span class="count">to the first response</span></h2>
            <table><thead><tr><th>Pattern</th><th>Requests</th><th>Answered</th><th>Unanswered</th>
            <th>p50 ms</th><th>p99 ms</th></tr></thead><tbody id="latency"></tbody></table></section>
          <section id="log-card" class="wide"><h2>Event log <span id="log-count" class="count"></span></h2>
            <input id="filter" type="search" placeholder="Filter: event, type, source or text" autocomplete="off">
            <table><thead><tr><th>Time</th><th>Event</th><th>Type</th><th>Source</th><th>Summary</th></tr></thead>
            <tbody id="log"></tbody></table></section>
        </main>
        <script src="dashboard.js"></script>
        </body>
        </html>
        """#

    static let css = #"""
        * { box-sizing: border-box; }
        body { margin: 0; font: 14px/1.4 system-ui, sans-serif; background: #f4f5f7; color: #1d2330; }
        header { display: flex; gap: 1.5em; align-items: baseline; padding: 0.6em 1.2em; background: #1d2330; color: #fff; }
        header h1 { font-size: 1.2em; margin: 0; }
        #status::before { content: "●"; margin-right: 0.3em; }
        #status.online::before { color: #3fcf6f; }
        #status.offline::before { color: #e5534b; }
        main { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 1em; padding: 1em; }
        section { background: #fff; border-radius: 6px; padding: 0.8em 1em; box-shadow: 0 1px 2px #0002; overflow: auto; }
        section.wide { grid-column: 1 / -1; }
        h2 { font-size: 1em; margin: 0 0 0.5em; }
        h3 { font-size: 0.95em; margin: 0.8em 0 0.3em; color: #44506a; }
        .count { font-weight: normal; color: #6b7385; margin-left: 0.4em; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: 0.2em 0.6em 0.2em 0; vertical-align: top; }
        th { font-weight: 600; color: #6b7385; border-bottom: 1px solid #dde1e8; }
        td.num { text-align: right; font-variant-numeric: tabular-nums; }
        .mono, .state { font-family: ui-monospace, monospace; font-size: 0.9em; }
        .state { word-break: break-all; }
        .object-type table { table-layout: fixed; }
        .object-type td:nth-child(1) { width: 20%; } .object-type td:nth-child(2) { width: 50%; }
        .object-type td:nth-child(3) { width: 15%; }
        .self td:first-child::after { content: " (this dashboard)"; color: #6b7385; }
        .offline-source { color: #a0a6b3; }
        dl { display: grid; grid-template-columns: auto 1fr; gap: 0.2em 1em; margin: 0; }
        dt { color: #6b7385; } dd { margin: 0; font-variant-numeric: tabular-nums; }
        dd.lost { color: #e5534b; font-weight: 600; }
        #log-card table { table-layout: fixed; }
        #log-card th:nth-child(1) { width: 7em; } #log-card th:nth-child(2) { width: 7em; }
        #log-card th:nth-child(3) { width: 16em; } #log-card th:nth-child(4) { width: 12em; }
        #log-card td { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        #log-card td.state { white-space: normal; }
        #filter { width: 100%; padding: 0.3em 0.5em; margin-bottom: 0.5em; font: inherit; }
        svg.spark { display: block; }
        svg.spark rect { fill: #4a7bd0; }
        .empty { color: #a0a6b3; }
        """#

    static let javaScript = #"""
        "use strict";
        const $ = (id) => document.getElementById(id);
        let socket = null;
        let filter = "";
        let pushes = 0;

        function el(tag, attributes, ...children) {
          const node = document.createElement(tag);
          for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
          for (const child of children) node.append(child instanceof Node ? child : String(child ?? ""));
          return node;
        }
        function replace(id, nodes) { $(id).replaceChildren(...nodes); }
        const time = (ms) => new Date(ms).toLocaleTimeString();
        function ago(ms, now) {
          const s = Math.max(0, Math.round((now - ms) / 1000));
          if (s < 60) return s + " s";
          if (s < 3600) return Math.floor(s / 60) + " min " + (s % 60) + " s";
          return Math.floor(s / 3600) + " h " + Math.floor((s % 3600) / 60) + " min";
        }
        const fixed = (value) => value == null ? "–" : value < 10 ? value.toFixed(2) : value.toFixed(1);
        const ms = (value) => value == null ? "–" : value < 1 ? value.toFixed(3) : fixed(value);
        const empty = (columns, text) => el("tr", {}, el("td", {colspan: columns, class: "empty"}, text));

        function spark(series) {
          const width = 180, height = 18, max = Math.max(1, ...series), bar = width / series.length;
          const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
          svg.setAttribute("class", "spark"); svg.setAttribute("width", width); svg.setAttribute("height", height);
          series.forEach((value, i) => {
            const h = value / max * height;
            const rect = document.createElementNS("http://www.w3.org/2000/svg", "rect");
            rect.setAttribute("x", i * bar); rect.setAttribute("y", height - h);
            rect.setAttribute("width", Math.max(1, bar - 1)); rect.setAttribute("height", h);
            svg.append(rect);
          });
          return svg;
        }

        function render(s) {
          $("scope").textContent = "namespace " + s.namespace + " on " + s.broker;
          $("totals").textContent = s.received + " events received, " + fixed(s.rates.perSecond) +
            "/s; snapshot " + s.sequence;
          $("totals").dataset.sequence = s.sequence;
          $("totals").dataset.pushes = ++pushes;
          $("agent-count").textContent = s.agents.length;
          replace("agents", s.agents.length ? s.agents.map((a) =>
            el("tr", {class: "agent" + (a.self ? " self" : ""), "data-id": a.id},
              el("td", {class: "agent-name"}, a.name), el("td", {class: "mono"}, a.id.slice(0, 8) + "…"),
              el("td", {}, a.since ? time(a.since) + " (" + ago(a.since, s.time) + ")" : "–"),
              el("td", {}, a.lastSeen ? ago(a.lastSeen, s.time) + " ago" : "–"))) : [empty(4, "none seen yet")]);
          const drops = [["Events the dashboard could not keep up with", s.drops.observerBuffer],
            ["Invalid payloads", s.drops.invalidPayloads],
            ["Requests not timed (too many waiting)", s.drops.untrackedRequests],
            ["Objects not shown (oldest let go)", s.drops.evictedObjects]];
          replace("drops", drops.flatMap(([label, value]) =>
            [el("dt", {}, label), el("dd", {class: value > 0 ? "lost" : ""}, value)]));
          let objectCount = 0;
          replace("objects", s.objectTypes.length ? s.objectTypes.map((group) => {
            objectCount += group.objects.length;
            return el("div", {class: "object-type", "data-type": group.objectType},
              el("h3", {}, group.objectType + " (" + group.objects.length + ")"),
              el("table", {}, el("tbody", {}, ...group.objects.map((o) =>
                el("tr", {class: "object", "data-id": o.id},
                  el("td", {class: "object-name"}, o.name ?? "(no name)"), el("td", {class: "state"}, o.state),
                  el("td", {class: o.sourceOnline ? "" : "offline-source"}, o.source),
                  el("td", {}, o.event + " " + ago(o.updated, s.time) + " ago"))))));
          }) : [el("p", {class: "empty"}, "none seen yet")]);
          $("object-count").textContent = objectCount;
          $("rate-window").textContent = "bars of " + s.rates.bin + " s";
          replace("rates", s.rates.types.length ? s.rates.types.map((r) =>
            el("tr", {class: "rate", "data-event": r.event}, el("td", {}, r.event),
              el("td", {class: "num"}, fixed(r.perSecond)), el("td", {class: "num"}, r.total),
              el("td", {}, spark(r.series)))) : [empty(4, "no events in the last 5 minutes")]);
          replace("latency", s.latency.length ? s.latency.map((l) =>
            el("tr", {class: "latency"}, el("td", {}, l.pattern), el("td", {class: "num"}, l.requests),
              el("td", {class: "num"}, l.answered), el("td", {class: "num"}, l.unanswered),
              el("td", {class: "num"}, ms(l.p50)), el("td", {class: "num"}, ms(l.p99)))) :
            [empty(6, "no requests yet")]);
          $("log-count").textContent = "latest " + s.log.entries.length + (s.log.filter ? " matching" : "") +
            " of " + s.log.kept + " kept";
          replace("log", s.log.entries.length ? s.log.entries.map((e) =>
            el("tr", {class: "log-entry"}, el("td", {class: "mono"}, time(e.time)), el("td", {}, e.event),
              el("td", {}, e.type), el("td", {}, e.source), el("td", {class: "state"}, e.summary))) :
            [empty(5, "nothing yet")]);
        }

        function connect() {
          const scheme = location.protocol === "https:" ? "wss://" : "ws://";
          socket = new WebSocket(scheme + location.host + "/live");
          socket.onopen = () => {
            $("status").className = "online"; $("status").textContent = "live";
            if (filter) socket.send(filter);
          };
          socket.onmessage = (message) => render(JSON.parse(message.data));
          socket.onclose = () => {
            $("status").className = "offline"; $("status").textContent = "reconnecting…";
            setTimeout(connect, 1000);
          };
        }

        $("filter").addEventListener("input", (event) => {
          filter = event.target.value;
          if (socket && socket.readyState === WebSocket.OPEN) socket.send(filter);
        });
        connect();
        """#
}
