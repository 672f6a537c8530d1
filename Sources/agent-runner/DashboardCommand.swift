import Agent
import ArgumentParser
import CoreTypes
import ServiceLifecycle

/// `dashboard`: a live web page of the namespace, served by the runner itself.
struct DashboardCommand: RunnerCommand {
    static let configuration = CommandConfiguration(
        commandName: "dashboard",
        abstract: "Serves a live web page of the namespace: agents, objects, event rates, latency and a log.",
        discussion: """
            The page (http://HOST:PORT/, assets built in, nothing loaded from the internet) shows \
            the agents online with when they joined, the objects advertised or found by type with \
            their latest state, the event rate per type over the last 5 minutes, the latency of \
            requests to their first response per pattern (p50 and p99), what was dropped, and a \
            filterable log of the latest events. It is updated over a WebSocket four times a \
            second, whatever the event rate. /snapshot answers the same data as JSON. Runs until \
            stopped (Ctrl-C).
            """)

    @Option(help: "Serve the page on HOST:PORT, like 0.0.0.0:8080 for other machines.")
    var listen = "127.0.0.1:8080"

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func execute(in context: CommandContext) async throws {
        let address = try ListenAddress(listen, option: "--listen", example: "127.0.0.1:8080")
        let agent = try context.agent(defaultName: "agent-runner dashboard", reconnect: ReconnectPolicy())
        let logger = context.logger
        try await context.session().run(agent) { agent in
            let hub = DashboardHub(agent: agent)
            // Dropping rather than holding the connection back: a page that falls behind must not
            // make the broker drop messages unseen; what the dashboard drops, it shows.
            let events = try await agent.observeAllEvents().overflowPolicy(.dropOldest)
            // Learn who and what is there already; the answers arrive with the other events.
            _ = try? await agent.discover(Discover(coreTypes: [.identity]), timeout: .milliseconds(1))
            _ = try? await agent.query(
                Query(coreTypes: CoreType.allCases.filter { $0 != .identity }), timeout: .milliseconds(1))
            let server = DashboardServer.service(address: address, hub: hub, logger: logger)
            // Both end on a graceful shutdown; when one fails, the group cancels the other.
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask {
                    do {
                        try await server.run()
                    } catch {
                        throw RunnerError(
                            code: .failure,
                            message: "dashboard: cannot serve on \(address): \(error); choose another --listen")
                    }
                }
                group.addTask {
                    // Not events.cancelOnGracefulShutdown(): that merges two sequences, a task switch per event.
                    try await cancelWhenGracefulShutdown {
                        for try await message in events { hub.record(message) }
                    }
                }
            }
        }
    }
}
