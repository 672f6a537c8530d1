package import Agent
import ServiceLifecycle
import ServiceLifecycleTestKit

/// Containers running against a test broker for the duration of a closure.
package enum RunningContainers {
    /// A container configuration for a test agent on `broker`, with a unique identity and quick reconnects.
    package static func configuration(
        _ name: String, broker: TestBroker, options: [String: ControllerOptions] = [:]
    ) -> Container.Configuration {
        var agent = RunningAgents.configuration(name, broker: broker)
        agent.reconnect = ReconnectPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(200))
        return Container.Configuration(agent: agent, controllerOptions: options)
    }

    /// Runs `container` until `body` returns, once its agent is online; then shuts it down
    /// gracefully (as a ServiceGroup would) and waits until it returned.
    package static func run<Result: Sendable>(
        _ container: Container, _ body: @Sendable () async throws -> Result
    ) async throws -> Result {
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await container.run() }
                await RunningAgents.waitUntilOnline(container.agent)
                let result: Result
                do {
                    result = try await body()
                } catch {
                    trigger.triggerGracefulShutdown()
                    try? await group.waitForAll()
                    throw error
                }
                trigger.triggerGracefulShutdown()
                try await group.waitForAll()
                return result
            }
        }
    }
}
