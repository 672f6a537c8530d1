import Agent
import CoreTypes

/// An agent running in a task of its own, for as long as a benchmark needs it.
struct RunningAgent {
    let agent: Agent
    private let task: Task<Void, any Error>

    /// Creates and starts an agent on `broker`; returns once it is online.
    static func start(
        _ name: String,
        broker: String,
        qos: MQTTQoS = .atMostOnce,
        registry: ObjectTypeRegistry = Fixtures.registry(),
        configure: (inout Agent.Configuration) -> Void = { _ in }
    ) async throws -> RunningAgent {
        let agent = try Agent(
            configuration: configuration(name, broker: broker, qos: qos, configure: configure), registry: registry,
            logger: Fixtures.quietLogger)
        let task = Task { try await agent.run() }
        await waitUntilOnline(agent)
        return RunningAgent(agent: agent, task: task)
    }

    static func configuration(
        _ name: String, broker: String, qos: MQTTQoS,
        configure: (inout Agent.Configuration) -> Void = { _ in }
    ) -> Agent.Configuration {
        var configuration = Agent.Configuration(identity: Identity(name: name))
        configuration.broker.url = broker
        configuration.qos = qos
        configure(&configuration)
        return configuration
    }

    static func waitUntilOnline(_ agent: Agent) async {
        for await state in agent.connectionStates() where state == .online { return }
    }

    /// Stops the agent gracefully (Deadvertise, DISCONNECT) and waits until it has.
    func stop() async {
        task.cancel()
        _ = try? await task.value
    }
}
