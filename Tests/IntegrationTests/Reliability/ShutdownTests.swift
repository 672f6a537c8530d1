import Agent
import CoreTypes
import Foundation
import ServiceLifecycleTestKit
import Testing
import TestSupport

/// Graceful shutdown at awkward moments: `run()` must return (the time limit is generous on
/// purpose; nothing here measures time) and, whenever the broker was reachable, the Deadvertise
/// of the identity must be on the wire, which a raw client records.
@Suite(.timeLimit(.minutes(1)))
struct ShutdownTests {
    /// A raw client subscribed to Deadvertise events (and `more` filters) on `broker`.
    func recorder(_ broker: TestBroker, more: [String] = []) async throws -> TestClient {
        var recorder = try TestClient("recorder-\(UUID().uuidString.prefix(8))", broker: broker.url) {
            $0.eventBufferSize = 1_000_000
        }
        try await recorder.connect()
        try await recorder.subscribe(["coaty/3/-/DAD/+"] + more)
        return recorder
    }

    /// Reads the recorder until the Deadvertise of `agent`; returns the messages before it.
    func messagesUntilDeadvertise(of agent: Agent, on recorder: inout TestClient) async throws -> [InboundMessage] {
        var before: [InboundMessage] = []
        while true {
            let message = try await recorder.nextMessage()
            if message.topic == "coaty/3/-/DAD/\(agent.identity.objectID)" {
                let payload = try JSONValue(parsing: message.payload)
                #expect(payload["objectIds"] == [.string(agent.identity.objectID)])
                return before
            }
            before.append(message)
        }
    }

    /// Stopped while waiting out a reconnect backoff of a minute: `run()` returns at once, without an error.
    @Test func aStopDuringReconnectBackoffReturnsPromptly() async throws {
        try await TestBroker.withBroker { broker in
            var configuration = Reliability.configuration("A", broker: broker)
            configuration.reconnect = ReconnectPolicy(initialDelay: .seconds(60), maximumDelay: .seconds(60), jitter: 0)
            let log = LogRecorder()
            let a = try Agent(configuration: configuration, logger: log.logger)
            try await testGracefulShutdown { trigger in
                let outcome = try await Reliability.outcome(of: a) {
                    await Reliability.waitFor(.online, a)
                    broker.stop()
                    _ = await log.next { $0.message == "Reconnecting" }
                    trigger.triggerGracefulShutdown()
                }
                #expect(throws: Never.self) { try outcome.get() }
                #expect(a.connectionState == .stopped)
            }
        }
    }

    /// Stopped while a request waits for a response that never comes: `run()` returns, the request
    /// ends saying the agent stopped, and the Deadvertise is on the wire.
    @Test func aStopDuringAPendingRequestDeadvertisesAndEndsTheRequest() async throws {
        try await TestBroker.withBroker { broker in
            var recorder = try await recorder(broker)
            let a = try Agent(configuration: Reliability.configuration("A", broker: broker))
            let b = try Agent(configuration: Reliability.configuration("B", broker: broker))
            try await RunningAgents.run([b]) {
                let calls = try await b.observeCall("com.example.never")
                try await testGracefulShutdown { trigger in
                    let outcome = try await Reliability.outcome(of: a) {
                        await Reliability.waitFor(.online, a)
                        let responses = try await a.call(Call(operation: "com.example.never"), timeout: .seconds(3600))
                        var iterator = calls.makeAsyncIterator()
                        _ = try #require(await iterator.next())  // the request is out and pending
                        trigger.triggerGracefulShutdown()
                        let error = await #expect(throws: AgentError.self) { try await responses.first() }
                        #expect(error?.code == .stopped)
                    }
                    #expect(throws: Never.self) { try outcome.get() }
                }
            }
            #expect(try await messagesUntilDeadvertise(of: a, on: &recorder).isEmpty)
        }
    }

    /// Stopped in the middle of a burst of publications: `run()` returns; the burst ends with
    /// ``AgentError/Code/stopped``; on the wire the burst is an unbroken prefix, in order, and the
    /// Deadvertise comes after all of it.
    @Test func aStopDuringAPublicationBurstDeadvertisesLast() async throws {
        try await TestBroker.withBroker { broker in
            var recorder = try await recorder(broker, more: ["coaty/3/-/CHN:burst/+"])
            let a = try Agent(configuration: Reliability.configuration("A", broker: broker))
            let published = try await testGracefulShutdown { trigger in
                try await withThrowingTaskGroup(of: Int?.self) { group in
                    group.addTask {
                        try await a.run()
                        return nil
                    }
                    group.addTask {
                        await Reliability.waitFor(.online, a)
                        for number in 0..<1_000_000 {
                            if number == 2_000 { trigger.triggerGracefulShutdown() }
                            do {
                                try a.publish(Reliability.numbered(number, on: "burst"))
                            } catch let error as AgentError where error.code == .stopped {
                                return number
                            }
                        }
                        Issue.record("the burst never saw the agent stop")
                        return nil
                    }
                    var published: Int?
                    for try await result in group where result != nil { published = result }
                    return try #require(published)
                }
            }
            #expect(published >= 2_000)
            let burst = try await messagesUntilDeadvertise(of: a, on: &recorder)
            let numbers = try burst.map { message in
                let channel = try #require(try JSONValue(parsing: message.payload)["object"]?["name"]?.stringValue)
                return try #require(Int(channel))
            }
            #expect(numbers == Array(0..<numbers.count), "an unbroken prefix of the burst, in order")
            #expect(numbers.count <= published)
            Reliability.report(
                "stop during burst: \(published) published before the stop, \(numbers.count) on the wire before the Deadvertise"
            )
        }
    }
}
