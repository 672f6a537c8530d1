import Agent
import ArgumentParser
import CoreTypes
import ServiceLifecycle

/// `monitor`: prints every Coaty event in the namespace, one per line, until SIGTERM/SIGINT.
struct MonitorCommand: RunnerCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Prints every Coaty event in the namespace, one per line, until stopped (Ctrl-C).",
        discussion: """
            Text output has the columns time, event, type, source and summary; JSON output has one \
            object per event with event, topic, namespace, sourceId, correlationId (two-way events) \
            and data (the payload as received). The monitor's own events (a Discover of the identities online, to learn their names) and the answers to them are not shown. \
            With --cross-namespace every namespace is shown.
            """)

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func execute(in context: CommandContext) async throws {
        let agent = try context.agent(defaultName: "agent-runner monitor", reconnect: ReconnectPolicy())
        let printer = context.printer
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
                    printer.print(topic: topic, payload: message.payload)
                }
            }
        }
    }
}
