import Agent
import CoreTypes
import Testing
import TestSupport

/// A call that waits for a SUBACK (an observation, or a request published after its SUBACK) ends
/// with `CancellationError` when its task is cancelled, instead of waiting for a SUBACK that may
/// never come; the agent goes on working. A test hook holds the SUBACKs back, so the call is
/// certainly waiting.
@Suite(.timeLimit(.minutes(1)))
struct AcknowledgementCancellationTests {
    @Test func cancellingAnObservationThatWaitsForItsSUBACKEndsIt() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: RunningAgents.configuration("observer", broker: broker))
            try await RunningAgents.run([a]) {
                var held = a.holdSubscriptionAcknowledgements().makeAsyncIterator()
                let observing = Task { try await a.observeChannel("held") }
                #expect(await held.next() == 1)
                observing.cancel()
                await #expect(throws: CancellationError.self) { try await observing.value }
                a.releaseSubscriptionAcknowledgements()
                let channel = try await a.observeChannel("after")
                try a.publish(Reliability.numbered(1, on: "after"))
                var events = channel.makeAsyncIterator()
                #expect(try Reliability.number(of: try #require(await events.next())) == 1)
            }
        }
    }

    @Test func cancellingARequestThatWaitsForItsSUBACKEndsItUnpublished() async throws {
        try await TestBroker.withBroker { broker in
            var configuration = RunningAgents.configuration("requester", broker: broker)
            configuration.requestPublication = .afterSubscriptionAcknowledged
            let a = try Agent(configuration: configuration)
            let b = try Agent(configuration: RunningAgents.configuration("responder", broker: broker))
            try await RunningAgents.run([a, b]) {
                let calls = try await b.observeCall("com.example.held")
                var held = a.holdSubscriptionAcknowledgements().makeAsyncIterator()
                let requesting = Task { try await a.call(Call(operation: "com.example.held"), timeout: .seconds(60)) }
                #expect(await held.next() == 1)
                requesting.cancel()
                await #expect(throws: CancellationError.self) { try await requesting.value }
                a.releaseSubscriptionAcknowledgements()
                // The cancelled Call was never published: the responder's first Call is the next one.
                let answering = Task {
                    for await request in calls {
                        try? request.respond(Return(result: request.event.parameter(at: 0) ?? .null))
                        return request.event.parameter(at: 0)
                    }
                    return nil
                }
                let next = Call(operation: "com.example.held", parameters: .positional([2]))
                #expect(try await a.call(next, timeout: .seconds(60)).first().event.result == .int(2))
                #expect(await answering.value == .int(2))
            }
        }
    }
}
