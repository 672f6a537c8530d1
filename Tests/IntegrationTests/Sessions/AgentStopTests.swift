import Agent
import CoreTypes
import Testing
import TestSupport

/// Regression tests for agent bugs the session scenarios found.
@Suite(.timeLimit(.minutes(1)))
struct AgentStopTests {
    /// Waits until `agent` reports `wanted`; fails if its state stream ends first.
    func waitUntil(_ wanted: ConnectionState, _ states: inout ConnectionStates.Iterator) async throws {
        while let state = await states.next(isolation: #isolation) {
            if state == wanted { return }
        }
        Issue.record("the agent's connection states ended before \(wanted)")
    }

    /// A stop that was asked for ends `run()` normally, even when the broker went away before: the
    /// last connection error is not the outcome of a requested stop. (`run()` used to throw
    /// `connectionFailed: connection lost`.)
    @Test func stoppingWhileOfflineEndsRunWithoutError() async throws {
        try await TestBroker.withBroker { broker in
            let agent = try Agent(configuration: RunningAgents.configuration("Stopped offline", broker: broker))
            var states = agent.connectionStates().makeAsyncIterator()
            let running = Task { try await agent.run() }
            try await waitUntil(.online, &states)
            broker.stop()
            try await waitUntil(.offline, &states)
            running.cancel()
            try await running.value
            #expect(agent.connectionState == .stopped)
        }
    }
}
