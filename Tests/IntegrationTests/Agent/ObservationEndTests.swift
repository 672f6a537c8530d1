import Agent
import CoreTypes
import Testing
import TestSupport

/// How an observation ends: normally (`nil`) when its observer lets go, with the reason thrown
/// when the agent stops under it.
@Suite(.timeLimit(.minutes(1)))
struct ObservationEndTests {
    @Test func anObserverOfAStoppedAgentGetsTheReasonThrown() async throws {
        try await TestBroker.withBroker { broker in
            let agent = try Agent(configuration: RunningAgents.configuration("Stopping", broker: broker))
            let running = Task { try await agent.run() }
            for await state in agent.connectionStates() where state == .online { break }
            let events = try await agent.observeChannel("end")
            let reader = Task {
                do {
                    for try await _ in events {}
                    return AgentError.Code?.none
                } catch let error as AgentError {
                    return error.code
                }
            }
            running.cancel()
            _ = try? await running.value
            let code = try await reader.value
            #expect(code == .stopped)
        }
    }

    @Test func anObservationEndsNormallyWhenItsIteratorIsDropped() async throws {
        try await TestBroker.withBroker { broker in
            let agent = try Agent(configuration: RunningAgents.configuration("Dropping", broker: broker))
            try await RunningAgents.run([agent]) {
                let events = try await agent.observeChannel("end")
                try agent.publish(Channel(id: "end", objects: [BaseObject(name: "one")]))
                var iterator = events.makeAsyncIterator()
                let first = try await iterator.next()
                #expect(first?.event.objects.first?.name == "one")
            }
            // After the agent stopped, the statistics show no observer held back.
            #expect(agent.statistics.heldBackObservers == 0)
        }
    }

    @Test func responsesOfAStoppedAgentThrowTheReason() async throws {
        try await TestBroker.withBroker { broker in
            let agent = try Agent(configuration: RunningAgents.configuration("Asking", broker: broker))
            let running = Task { try await agent.run() }
            for await state in agent.connectionStates() where state == .online { break }
            let responses = try await agent.discover(Discover(objectID: "nobody"), timeout: .seconds(30))
            running.cancel()
            _ = try? await running.value
            await #expect(throws: AgentError.self) { _ = try await responses.collect() }
        }
    }

    @Test func runningAnAgentTwiceSaysItRunsOnce() async throws {
        try await TestBroker.withBroker { broker in
            let agent = try Agent(configuration: RunningAgents.configuration("Twice", broker: broker))
            try await RunningAgents.run([agent]) {
                let error = await #expect(throws: AgentError.self) { try await agent.run() }
                #expect(error?.code == .alreadyRunning)
                #expect(error?.detail.contains("make a new Agent") == true)
            }
        }
    }
}
