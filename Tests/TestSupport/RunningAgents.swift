package import Agent
import CoreTypes

/// Agents running against a test broker for the duration of a closure.
package enum RunningAgents {
    /// A configuration for a test agent on `broker`, with a unique identity.
    package static func configuration(
        _ name: String, broker: TestBroker, namespace: String = "-", crossNamespacing: Bool = false
    ) -> Agent.Configuration {
        var configuration = Agent.Configuration(identity: Identity(name: name))
        configuration.broker.url = "mqtt://\(broker.host):\(broker.port)"
        configuration.namespace = namespace
        configuration.isCrossNamespacing = crossNamespacing
        return configuration
    }

    /// Runs every agent until `body` returns, waiting until all of them are online first; then
    /// stops them (cancellation leads to the graceful stop: Deadvertise, then DISCONNECT).
    package static func run<Result: Sendable>(
        _ agents: [Agent], _ body: @Sendable () async throws -> Result
    ) async throws -> Result {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for agent in agents {
                group.addTask { try await agent.run() }
            }
            for agent in agents { await waitUntilOnline(agent) }
            do {
                let result = try await body()
                group.cancelAll()
                try await group.waitForAll()
                return result
            } catch {
                group.cancelAll()
                try? await group.waitForAll()
                throw error
            }
        }
    }

    /// Returns when `agent` reports ``ConnectionState/online``.
    package static func waitUntilOnline(_ agent: Agent) async {
        for await state in agent.connectionStates() where state == .online { return }
    }
}
