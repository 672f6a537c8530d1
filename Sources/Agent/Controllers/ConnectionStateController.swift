public import Logging
import Synchronization

/// Tells whether the container's agent is online, waits until it is, and logs each change.
///
/// ```swift
/// let connection = try #require(container.controller(ConnectionStateController.self))
/// try await connection.waitUntilOnline()
/// try await container.agent.observeConnectionState { states in
///     for await state in states { logger.info("\(state)") }
/// }
/// ```
///
/// It logs going online at debug and losing the connection at info (the agent reconnects by
/// itself); ``onlineCount`` counts the connections seen by the container's hooks.
public final class ConnectionStateController: Controller {
    /// The agent whose connection this is.
    public let agent: Agent
    let logger: Logger
    private let connections = Atomic<Int>(0)

    /// Creates a controller for `agent`.
    public init(agent: Agent, logger: Logger = Logger.current) {
        self.agent = agent
        self.logger = logger
    }

    /// Creates the controller from its container context; it has no options.
    public convenience init(context: ControllerContext) {
        self.init(agent: context.agent, logger: context.logger)
    }

    /// The connection state now.
    public var state: ConnectionState { agent.connectionState }

    /// Whether the agent is online now.
    public var isOnline: Bool { agent.connectionState == .online }

    /// How many times the agent went online while the container ran (1 after the first
    /// connection, one more for each reconnect).
    public var onlineCount: Int { connections.load(ordering: .relaxed) }

    /// The state now and at every change, until the agent stops.
    package func states() -> ConnectionStates {
        agent.connectionStates()
    }

    /// Returns once the agent is online (at once if it is).
    ///
    /// - Throws: ``AgentError`` with code `AgentError.Code.stopped` when the agent stops first,
    ///   `CancellationError` when the task is cancelled.
    public func waitUntilOnline() async throws {
        for await state in agent.connectionStates() where state == .online { return }
        try Task.checkCancellation()
        throw AgentError(code: .stopped, detail: "the agent stopped before it was online")
    }

    /// Counts and logs the connection.
    public func didGoOnline() async throws {
        let count = connections.add(1, ordering: .relaxed).newValue
        logger.debug("Agent online", metadata: ["mqtt.connections": "\(count)"])
    }

    /// Logs the lost connection.
    public func didGoOffline() async throws {
        logger.info("Agent offline; reconnecting", metadata: ["mqtt.broker": "\(agent.configuration.broker.url)"])
    }
}
