import Agent
import CoreTypes
import Foundation
import Testing
import TestSupport

/// Two-way requests under load and in every publication and subscription mode: each request gets
/// exactly its own responses, and responses nobody waits for are dropped and counted (issue 8).
@Suite(.timeLimit(.minutes(2)))
struct RequestCorrelationTests {
    struct Mode: CustomTestStringConvertible, Sendable {
        let publication: Agent.RequestPublication
        let subscription: Agent.ResponseSubscription
        var testDescription: String { "\(publication), \(subscription)" }
    }

    static let modes = [
        Mode(publication: .afterSubscriptionAcknowledged, subscription: .perRequest),
        Mode(publication: .pipelined, subscription: .perRequest),
        Mode(publication: .afterSubscriptionAcknowledged, subscription: .namespaceWide),
        Mode(publication: .pipelined, subscription: .namespaceWide),
    ]

    static let echo = "com.example.echo"

    /// Answers every echo Call with its first parameter, until cancelled.
    static func echoResponder(_ agent: Agent) async throws -> Task<Void, Never> {
        let calls = try await agent.observeCall(echo)
        return Task {
            while let request = try? await calls.first(where: { _ in true }) {
                try? request.respond(Return(result: request.event.parameter(at: 0) ?? .null))
            }
        }
    }

    func requester(_ mode: Mode, broker: TestBroker) -> Agent.Configuration {
        var configuration = RunningAgents.configuration("requester", broker: broker)
        configuration.requestPublication = mode.publication
        configuration.responseSubscription = mode.subscription
        return configuration
    }

    @Test(arguments: modes)
    func aThousandConcurrentRequestsEachGetExactlyTheirOwnResponse(mode: Mode) async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: requester(mode, broker: broker))
            let b = try Agent(configuration: RunningAgents.configuration("responder", broker: broker))
            try await RunningAgents.run([a, b]) {
                let responder = try await Self.echoResponder(b)
                defer { responder.cancel() }
                let results = try await withThrowingTaskGroup(of: (Int, JSONValue?).self) { group in
                    for index in 0..<1_000 {
                        group.addTask {
                            let call = Call(operation: Self.echo, parameters: .positional([.int(index)]))
                            let response = try await a.call(call, timeout: .seconds(60)).first()
                            return (index, response.event.result)
                        }
                    }
                    var results: [Int: JSONValue?] = [:]
                    for try await (index, result) in group { results[index] = result }
                    return results
                }
                #expect(results.count == 1_000)
                let wrong = results.filter { $0.value != .int($0.key) }
                #expect(wrong.isEmpty, "requests that got another request's response: \(wrong.keys.sorted().prefix(10))")
                #expect(a.statistics.rejectedResponses == 0)
                #expect(a.statistics.droppedObserverEvents == 0)
            }
        }
    }

    @Test(arguments: modes)
    func aResponseAfterTheTimeoutIsDroppedAndCounted(mode: Mode) async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: requester(mode, broker: broker))
            let b = try Agent(configuration: RunningAgents.configuration("responder", broker: broker))
            try await RunningAgents.run([a, b]) {
                // The responder holds the first Call until the requester has given up on it.
                let calls = try await b.observeCall(Self.echo)
                let (gaveUp, gaveUpSignal) = AsyncStream.makeStream(of: Void.self)
                let responder = Task {
                    var waitForGiveUp = gaveUp.makeAsyncIterator()
                    var isFirst = true
                    for try await request in calls {
                        if isFirst {
                            isFirst = false
                            _ = await waitForGiveUp.next()
                        }
                        try? request.respond(Return(result: request.event.parameter(at: 0) ?? .null))
                    }
                }
                defer { responder.cancel() }
                let late = try await (a.call(Call(operation: Self.echo, parameters: .positional([1])), timeout: .milliseconds(200)))
                    .collect()
                #expect(late.isEmpty)
                let unroutedBefore = a.statistics.unroutedMessages
                gaveUpSignal.yield()
                // The responder answers in order, so once the second answer is here the late one has been handled.
                let next = try await a.call(Call(operation: Self.echo, parameters: .positional([2])), timeout: .seconds(30))
                    .first()
                #expect(next.event.result == 2)
                let unrouted = a.statistics.unroutedMessages - unroutedBefore
                if mode.subscription == .namespaceWide {
                    // The namespace-wide subscription still delivers the late response: dropped, counted.
                    #expect(unrouted == 1)
                } else {
                    // The broker may or may not have removed the subscription before the late response.
                    #expect(unrouted <= 1)
                }
            }
        }
    }

    @Test func aNamespaceWideSubscriptionDropsOtherAgentsResponses() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: requester(Mode(publication: .pipelined, subscription: .namespaceWide), broker: broker))
            let b = try Agent(configuration: RunningAgents.configuration("responder", broker: broker))
            let c = try Agent(configuration: RunningAgents.configuration("other requester", broker: broker))
            try await RunningAgents.run([a, b, c]) {
                let responder = try await Self.echoResponder(b)
                defer { responder.cancel() }
                // A's first Call makes its namespace-wide Return subscription.
                let own = try await a.call(Call(operation: Self.echo, parameters: .positional([1])), timeout: .seconds(30)).first()
                #expect(own.event.result == 1)
                let unroutedBefore = a.statistics.unroutedMessages
                let other = try await c.call(Call(operation: Self.echo, parameters: .positional([2])), timeout: .seconds(30)).first()
                #expect(other.event.result == 2)
                // B answers in order: after A's next answer, C's answer has reached A too (and was dropped).
                let again = try await a.call(Call(operation: Self.echo, parameters: .positional([3])), timeout: .seconds(30)).first()
                #expect(again.event.result == 3)
                #expect(a.statistics.unroutedMessages - unroutedBefore == 1)
                #expect(a.statistics.rejectedResponses == 0)
            }
        }
    }
}
