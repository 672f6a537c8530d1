import CoreTypes
import Synchronization
import Testing
import TestSupport

@testable import Agent

/// A call that waits for a SUBACK (an observation, or a request published after its SUBACK) ends
/// with `CancellationError` when its task is cancelled, instead of waiting for a SUBACK that may
/// never come. The agent's state machine is put online without a broker, so no SUBACK ever comes.
@Suite(.timeLimit(.minutes(1)))
struct AcknowledgementWaitTests {
    static func onlineAgent(_ configure: (inout Agent.Configuration) -> Void = { _ in }) throws -> Agent {
        var configuration = Agent.Configuration(identity: Identity(name: "waiting"))
        configuration.broker.url = "mqtt://127.0.0.1:1"
        configure(&configuration)
        let agent = try Agent(configuration: configuration)
        agent.state.withLock { state in
            _ = state.machine.start()
            _ = state.machine.connected()
        }
        return agent
    }

    static func waitUntilSomebodyWaits(_ agent: Agent) async throws {
        try await yieldUntil { !agent.state.withLock({ $0.acknowledgementWaiters.isEmpty }) }
    }

    @Test func cancellingAnObservationThatWaitsForItsSUBACKEndsIt() async throws {
        let agent = try Self.onlineAgent()
        let observing = Task { try await agent.observeChannel("held") }
        try await Self.waitUntilSomebodyWaits(agent)
        observing.cancel()
        await #expect(throws: CancellationError.self) { try await observing.value }
        #expect(agent.state.withLock { $0.acknowledgementWaiters.isEmpty })
        #expect(agent.state.withLock { $0.machine.subscriptions.users(of: "coaty/3/-/CHN:held/+") } == 0, "the observer is gone")
    }

    @Test func cancellingARequestThatWaitsForItsSUBACKEndsItUnpublished() async throws {
        let agent = try Self.onlineAgent { $0.requestPublication = .afterSubscriptionAcknowledged }
        let requesting = Task { try await agent.call(Call(operation: "com.example.held"), timeout: .seconds(60)) }
        try await Self.waitUntilSomebodyWaits(agent)
        requesting.cancel()
        await #expect(throws: CancellationError.self) { try await requesting.value }
        // Published, it would have failed on the missing connection and waited in the offline queue.
        #expect(agent.state.withLock { $0.machine.offlineQueue.count } == 0)
    }
}
