import Agent
import CoreTypes

extension DashboardModel {
    /// What the dashboard's agent dropped (from its ``AgentStatistics``).
    struct AgentDrops {
        /// Events the observer of all traffic let go because its buffer was full.
        var observerBuffer = 0
        /// Payloads the agent rejected as invalid.
        var invalidPayloads = 0
    }

    /// How many seconds each bar of the rate charts covers.
    static let rateBin = 5

    /// The JSON the page renders: everything the model keeps, at `time`, with the newest log
    /// entries that contain `logFilter` (case-insensitive, in the event, type, source or summary).
    ///
    /// - Parameters:
    ///   - sequence: The snapshot's number, so a reader sees that snapshots keep coming.
    ///   - drops: What the dashboard's agent dropped.
    ///   - ownID: The dashboard's own identity id, marked in the agents.
    func snapshot(
        at time: Double, sequence: Int, drops: AgentDrops, ownID: String, logFilter: String = ""
    ) -> JSONObject {
        let names = Dictionary(
            agents.trackedObjects.map { ($0.objectID, $0.name) }, uniquingKeysWith: { _, last in last })
        return [
            "sequence": .int(sequence),
            "time": Self.milliseconds(time),
            "received": .int(received),
            "agents": .array(agentRows(names: names, ownID: ownID)),
            "objectTypes": .array(objectGroups(names: names)),
            "rates": .object(rateSummary(at: time)),
            "latency": .array(latencyRows(at: time)),
            "drops": [
                "observerBuffer": .int(drops.observerBuffer),
                "invalidPayloads": .int(drops.invalidPayloads + invalidPayloads),
                "untrackedRequests": .int(latencies.untracked),
                "evictedObjects": .int(evictedObjects),
            ],
            "log": .object(logEntries(matching: logFilter, names: names)),
        ]
    }

    private func agentRows(names: [String: String], ownID: String) -> [JSONValue] {
        agents.trackedObjects.sorted { ($0.name, $0.objectID) < ($1.name, $1.objectID) }.map { agent in
            let times = joined[agent.objectID]
            return [
                "id": .string(agent.objectID), "name": .string(agent.name),
                "since": times.map { Self.milliseconds($0.since) } ?? .null,
                "lastSeen": times.map { Self.milliseconds($0.lastSeen) } ?? .null,
                "self": .bool(agent.objectID == ownID),
            ]
        }
    }

    /// The objects grouped by object type (sorted), each group by name.
    private func objectGroups(names: [String: String]) -> [JSONValue] {
        Dictionary(grouping: objects.values, by: \.objectType).sorted { $0.key < $1.key }.map { objectType, entries in
            let rows = entries.sorted { Self.name(of: $0.object) < Self.name(of: $1.object) }.map { entry in
                JSONValue.object([
                    "id": entry.object["objectId"] ?? .null, "name": entry.object["name"] ?? .null,
                    "coreType": entry.object["coreType"] ?? .null, "state": .string(Self.state(of: entry.object)),
                    "source": .string(names[entry.sourceID] ?? EventPrinter.shortID(entry.sourceID)),
                    "sourceOnline": .bool(names[entry.sourceID] != nil), "event": .string(entry.event.description),
                    "updated": Self.milliseconds(entry.updated),
                ])
            }
            return ["objectType": .string(objectType), "objects": .array(rows)]
        }
    }

    /// Per event type seen in the window: the total, the rate over the last 10 s and a series of
    /// ``rateBin``-second bars (events per second), oldest first.
    private func rateSummary(at time: Double) -> JSONObject {
        let now = Int(time.rounded(.down))
        var types: [JSONValue] = []
        var recent = 0
        for type in EventType.allCases {
            let series = rates.series(type, before: now)
            let total = series.reduce(0, +)
            guard total > 0 else { continue }
            let lastTen = series.suffix(10).reduce(0, +)
            recent += lastTen
            let bars = stride(from: 0, to: series.count, by: Self.rateBin).map { start in
                JSONValue.double(
                    Double(series[start..<min(start + Self.rateBin, series.count)].reduce(0, +)) / Double(Self.rateBin))
            }
            types.append([
                "event": .string(type.description), "total": .int(total), "perSecond": .double(Double(lastTen) / 10),
                "series": .array(bars),
            ])
        }
        return [
            "window": .int(rates.window), "bin": .int(Self.rateBin), "perSecond": .double(Double(recent) / 10),
            "types": .array(types),
        ]
    }

    /// Per request pattern seen: counts and the p50/p99 of the latencies within the rate window, in ms.
    private func latencyRows(at time: Double) -> [JSONValue] {
        let since = time - Double(rates.window)
        return EventType.allCases.compactMap { request in
            guard let response = request.responseType, let figures = latencies.figures[request] else { return nil }
            let p50 = figures.percentile(50, since: since)
            let p99 = figures.percentile(99, since: since)
            return [
                "pattern": .string("\(request) → \(response)"), "requests": .int(figures.requests),
                "answered": .int(figures.answered), "unanswered": .int(figures.unanswered),
                "p50": p50.map { .double($0 * 1000) } ?? .null, "p99": p99.map { .double($0 * 1000) } ?? .null,
            ]
        }
    }

    /// The newest log entries that match `filter`, newest first, summarised as `monitor` prints them.
    private func logEntries(matching filter: String, names: [String: String]) -> JSONObject {
        let needle = filter.lowercased()
        let kept = log.values.flatMap(\.elements).sorted { $0.sequence > $1.sequence }
        var shown: [JSONValue] = []
        for entry in kept {
            let topic = entry.topic
            let json = try? JSONValue(parsing: entry.payload)
            let summary = EventSummary(eventType: topic.eventType, filter: topic.eventTypeFilter, data: json)
            let source = names[topic.sourceID] ?? EventPrinter.shortID(topic.sourceID)
            let text = json == nil ? "\(entry.payload.count) bytes, not JSON" : summary.summary
            let row: [(String, String)] = [
                ("event", topic.eventType.description), ("type", summary.type), ("source", source), ("summary", text),
            ]
            if !needle.isEmpty, !row.contains(where: { $0.1.lowercased().contains(needle) }) { continue }
            shown.append(
                .object(JSONObject(row.map { ($0, JSONValue.string($1)) } + [("time", Self.milliseconds(entry.time))])))
            if shown.count == limits.logEntriesShown { break }
        }
        return ["entries": .array(shown), "kept": .int(kept.count), "filter": .string(filter)]
    }

    private static func milliseconds(_ time: Double) -> JSONValue {
        .int(Int((time * 1000).rounded()))
    }

    private static func name(of object: JSONValue) -> String {
        object["name"]?.stringValue ?? ""
    }

    /// The members of an object other than its id, types and name, as compact JSON (cut at 400 characters).
    private static func state(of object: JSONValue) -> String {
        guard var members = object.objectValue else { return "\(object)" }
        for key in ["objectId", "objectType", "coreType", "name"] { _ = members.removeValue(forKey: key) }
        let text = JSONValue.object(members).serializedString()
        return text.count > 400 ? String(text.prefix(399)) + "…" : text
    }
}
