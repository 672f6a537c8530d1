import Agent
import Logging
import ServiceLifecycle
import Synchronization
import UnixSignals

/// Runs one agent for one command in a `ServiceGroup` that shuts down gracefully on SIGTERM and
/// SIGINT: the agent first, then the command's body once the agent is online. When the body
/// returns (or throws, or a signal arrives), the group shuts down in reverse order, so the agent
/// deadvertises its identity and disconnects last.
struct Session {
    /// How long a command waits for the first connection before it gives up (exit 3);
    /// `nil` waits for ever (`run`).
    var connectTimeout: Duration?
    let logger: Logger

    /// Runs `agent` and `body`; returns when both are done.
    ///
    /// - Throws: ``RunnerError``: the agent's connection failure first (exit 3), else the body's error.
    func run(_ agent: Agent, body: @escaping @Sendable (Agent) async throws -> Void) async throws {
        let agentService = RecordingAgent(agent: agent)
        let command = CommandService(agent: agent, connectTimeout: connectTimeout, body: body)
        var configuration = ServiceGroupConfiguration(
            services: [
                .init(service: agentService),
                .init(
                    service: command, successTerminationBehavior: .gracefullyShutdownGroup,
                    failureTerminationBehavior: .gracefullyShutdownGroup),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger)
        // The agent needs well under a second to deadvertise; never let a dead link keep us past 2 s.
        configuration.maximumGracefulShutdownDuration = .milliseconds(1500)
        let broker = agent.configuration.broker.url
        defer { LossReport.report(agent) }
        do {
            try await ServiceGroup(configuration: configuration).run()
        } catch {
            if let agentError = agentService.error { throw RunnerError.from(agentError, broker: broker) }
            throw RunnerError.from(error, broker: broker)
        }
        if let agentError = agentService.error { throw RunnerError.from(agentError, broker: broker) }
    }
}

/// The agent as a service that remembers why it ended, so the session can report the broker's
/// reason rather than whatever the other service saw afterwards.
private final class RecordingAgent: Service, Sendable {
    let agent: Agent
    private let failure = Mutex<(any Error)?>(nil)

    init(agent: Agent) {
        self.agent = agent
    }

    var error: (any Error)? { failure.withLock { $0 } }

    func run() async throws {
        do {
            try await agent.run()
        } catch {
            failure.withLock { $0 = error }
            throw error
        }
    }
}

/// The command's body as a service: waits until the agent is online, then runs.
private struct CommandService: Service {
    let agent: Agent
    let connectTimeout: Duration?
    let body: @Sendable (Agent) async throws -> Void

    func run() async throws {
        guard try await waitUntilOnline() else { return }
        try await body(agent)
    }

    /// `true` once online; `false` when the agent stopped or a shutdown came first.
    private func waitUntilOnline() async throws -> Bool {
        let agent = self.agent
        let broker = agent.configuration.broker.url
        return try await withThrowingTaskGroup(of: Bool?.self) { group in
            group.addTask {
                for await state in agent.connectionStates().cancelOnGracefulShutdown() {
                    if state == .online { return true }
                    if state == .stopped { return false }
                }
                return false
            }
            if let connectTimeout {
                group.addTask {
                    try? await Task.sleep(for: connectTimeout)
                    return nil
                }
            }
            let first = try await group.next() ?? false
            group.cancelAll()
            guard let first else {
                throw RunnerError.connection(broker, "no connection within \(connectTimeout ?? .zero)")
            }
            return first
        }
    }
}
