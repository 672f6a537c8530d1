import Agent
import ArgumentParser
import CoreTypes
import ServiceLifecycle
import Synchronization

/// `monitor`: prints every Coaty event in the namespace, one per line, until SIGTERM/SIGINT.
struct MonitorCommand: RunnerCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Prints every Coaty event in the namespace, one per line, until stopped (Ctrl-C).",
        discussion: """
            Text output has the columns time, event, type, source and summary; JSON output has one \
            object per event with event, topic, namespace, sourceId, correlationId (two-way events) \
            and data (the payload as received). The monitor's own events (a Discover of the identities online, to learn their names) and the answers to them are not shown. \
            With --cross-namespace every namespace is shown. Filters (--event, --object-type, \
            --core-type, --source, --where) combine with "and". --record writes what is shown to a \
            file that `replay` publishes again. A summary line goes to stderr at the end.
            """)

    @Option(name: .customLong("event"), parsing: .upToNextOption, help: "Only these event types, like Advertise Discover.")
    var events: [String] = []

    @Option(name: .customLong("object-type"), parsing: .upToNextOption, help: "Only events carrying objects of these object types.")
    var objectTypes: [String] = []

    @Option(name: .customLong("core-type"), parsing: .upToNextOption, help: "Only events carrying objects of these core types.")
    var coreTypes: [String] = []

    @Option(name: .customLong("source"), parsing: .upToNextOption, help: "Only events from these agents (identity id or name).")
    var sources: [String] = []

    @Option(name: .customLong("where"), help: #"Only events carrying an object this object filter matches, like '{"conditions":["brightness",[2,0.5]]}'."#)
    var whereFilter: String?

    @Option(help: "Also write each event shown to this file, as JSON lines with the time received (see replay).")
    var record: String?

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func execute(in context: CommandContext) async throws {
        let filter = try MonitorFilter(
            events: events, objectTypes: objectTypes, coreTypes: coreTypes, sources: sources, where: whereFilter)
        let recording = try record.map(MonitorRecording.init(path:))
        let agent = try context.agent(defaultName: "agent-runner monitor", reconnect: ReconnectPolicy())
        let printer = context.printer
        let tally = MonitorTally()
        defer { Output.error(tally.summary(agent.statistics)) }
        try await context.session().run(agent) { agent in
            let ownID = agent.identity.objectID
            let events = try await agent.observeAllEvents()
            if context.output.mode == .text {
                printer.row(event: "EVENT", type: "TYPE", source: "SOURCE", summary: "SUMMARY")
            }
            // Learn the names of the agents already online (for the source column). The Discover
            // also tells the network that the monitor now sees everything; the answers are not shown.
            _ = try? await agent.discover(Discover(coreTypes: [.identity]), timeout: .milliseconds(1))
            // Not events.cancelOnGracefulShutdown(): that merges two sequences, a task switch per event.
            try await cancelWhenGracefulShutdown {
                var ownRequests: Set<String> = []
                var echo = AdvertiseEcho()
                for try await message in events {
                    let topic = message.topic
                    if message.sourceID == ownID {
                        if topic.eventType.isRequest, let id = topic.correlationID { ownRequests.insert(id) }
                        continue
                    }
                    if topic.eventType.isResponse, let id = topic.correlationID, ownRequests.contains(id) {
                        printer.learnNames(from: try? JSONValue(parsing: message.payload))
                        continue
                    }
                    // Parsed once when a filter needs it; text output then prints from the same tree.
                    var parsed: JSONValue?? = nil
                    if !filter.isEmpty {
                        let json = try? JSONValue(parsing: message.payload)
                        parsed = .some(json)
                        printer.learnNames(from: json)
                        guard filter.admits(topic: topic, json: json, sourceName: printer.knownName(topic.sourceID))
                        else { continue }
                    }
                    // Text shows an Advertise sent on two topics once (JSON lines and the recording keep both).
                    if echo.isEcho(message), context.output.mode == .text {
                        try recording?.record(topic: topic.name, payload: message.payload, retain: message.isRetained)
                        continue
                    }
                    tally.count(topic.eventType)
                    try recording?.record(topic: topic.name, payload: message.payload, retain: message.isRetained)
                    if let parsed, context.output.mode == .text {
                        printer.print(topic: topic, json: parsed, bytes: message.payload)
                    } else {
                        printer.print(topic: topic, payload: message.payload)
                    }
                }
            }
        }
    }
}

/// What `monitor` showed, by event type, for its summary line on stderr.
final class MonitorTally: Sendable {
    private let counts = Mutex<[EventType: Int]>([:])

    func count(_ type: EventType) {
        counts.withLock { $0[type, default: 0] += 1 }
    }

    /// `monitor: 12 events (Advertise 10, Deadvertise 2); nothing dropped`.
    func summary(_ statistics: AgentStatistics) -> String {
        let counts = counts.withLock { $0 }
        let total = counts.values.reduce(0, +)
        let parts = EventType.allCases.compactMap { type in counts[type].map { "\(type) \($0)" } }
        var dropped: [String] = []
        if statistics.rejectedPayloads > 0 { dropped.append("\(statistics.rejectedPayloads) invalid payloads") }
        let lost = statistics.droppedObserverEvents + statistics.droppedOfflinePublications
        if lost > 0 { dropped.append("\(lost) events (see the line above)") }
        return "monitor: \(total) event\(total == 1 ? "" : "s") shown"
            + (parts.isEmpty ? "" : " (\(parts.joined(separator: ", ")))") + "; "
            + (dropped.isEmpty ? "nothing dropped" : "dropped " + dropped.joined(separator: " and "))
    }
}
