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

    @Test func aScopedObservationEndsWhenItsBodyReturns() async throws {
        try await TestBroker.withBroker { broker in
            let agent = try Agent(configuration: RunningAgents.configuration("Scoped", broker: broker))
            try await RunningAgents.run([agent]) {
                // The stream kept past the scope has ended: its iterator returns nil at once.
                let kept = try await agent.observeChannel("scoped") { events in
                    try agent.publish(Channel(id: "scoped", objects: [BaseObject(name: "inside")]))
                    var iterator = events.makeAsyncIterator()
                    let inside = try await iterator.next()
                    #expect(inside?.event.objects.first?.name == "inside")
                    return events
                }
                try agent.publish(Channel(id: "scoped", objects: [BaseObject(name: "after")]))
                var iterator = kept.makeAsyncIterator()
                let after = try await iterator.next()
                #expect(after == nil)
            }
        }
    }

    @Test func aServeCallEndsNormallyOnCancellationAndThrowsWhenTheAgentStops() async throws {
        try await TestBroker.withBroker { broker in
            let agent = try Agent(configuration: RunningAgents.configuration("Serving", broker: broker))
            let running = Task { try await agent.run() }
            for await state in agent.connectionStates() where state == .online { break }
            // Cancelled: a normal end. Calls are repeated until the responder, which says nothing
            // when it is ready, answers one.
            let cancelled = Task { try await agent.serveCall("com.example.op") { try $0.respond(Return(result: 1)) } }
            var answer: Received<Return>?
            while answer == nil {
                answer = try? await agent.call(Call(operation: "com.example.op"), timeout: .milliseconds(200)).first()
            }
            #expect(answer?.event.result == 1)
            cancelled.cancel()
            try await cancelled.value
            // The agent stops under it: the reason is thrown.
            let serving = Task { try await agent.serveQuery { _ in } }
            let asked = try await agent.query(Query(objectTypes: ["com.example.none"]), timeout: .milliseconds(1)).collect()
            #expect(asked.isEmpty)
            running.cancel()
            _ = try? await running.value
            let error = await #expect(throws: AgentError.self) { try await serving.value }
            #expect(error?.code == .stopped)
        }
    }
}
