import Agent
import CoreTypes
import Foundation
import Testing
import TestSupport

/// The broker dies and comes back (or not): what reaches the observers, in what order, and what is lost.
@Suite(.timeLimit(.minutes(2)))
struct BrokerRestartTests {
    /// The broker is killed (SIGKILL) after 100 of 400 numbered publications and started again on
    /// the same port once both agents noticed.
    ///
    /// Publications 0..<200 were handed over before the publisher knew: those still in flight
    /// when the broker died are lost (QoS 0), or re-sent after the reconnect by libmosquitto (QoS 1,
    /// so they may arrive twice). 200..<300 were made while the publisher was offline: its offline
    /// queue sends them in order after the reconnect, right behind the resubscription, so its
    /// own observer gets every one. 300..<400 were made once both agents were back: everybody gets them.
    @Test(arguments: [MQTTQoS.atMostOnce, .atLeastOnce])
    func restartInTheMiddleOfAStream(qos: MQTTQoS) async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: Reliability.configuration("A", broker: broker, qos: qos))
            let b = try Agent(configuration: Reliability.configuration("B", broker: broker, qos: qos))
            try await RunningAgents.run([a, b]) {
                let channel = "stream"
                let atA = try await a.observeChannel(channel)
                let atB = try await b.observeChannel(channel)
                let identities = try await a.observeAdvertise(coreType: .identity)
                for number in 0..<100 { try a.publish(Reliability.numbered(number, on: channel)) }
                broker.stop()
                for number in 100..<200 { try a.publish(Reliability.numbered(number, on: channel)) }
                await Reliability.waitFor(.offline, a)
                await Reliability.waitFor(.offline, b)
                for number in 200..<300 { try a.publish(Reliability.numbered(number, on: channel)) }
                try await broker.startOnSamePort()
                try await Reliability.waitUntilSubscribed(a)
                try await Reliability.waitUntilSubscribed(b)
                for number in 300..<400 { try a.publish(Reliability.numbered(number, on: channel)) }

                var iteratorA = atA.makeAsyncIterator()
                var iteratorB = atB.makeAsyncIterator()
                let receivedA = try await Reliability.numbers(from: &iteratorA, through: 399)
                let receivedB = try await Reliability.numbers(from: &iteratorB, through: 399)
                for (name, received, keptFrom) in [("A", receivedA, 200), ("B", receivedB, 300)] {
                    // At QoS 1, libmosquitto re-sends the publications that were in flight when the
                    // broker died (numbers < 200) right after the CONNACK, in its own order; ordering is
                    // promised for everything the agent published knowing it was offline, and after.
                    let firsts = Reliability.firstArrivals(received).filter { qos == .atMostOnce || $0 >= 200 }
                    #expect(firsts == firsts.sorted(), "\(name) received out of order: \(received)")
                    #expect(
                        Reliability.missing(keptFrom..<400, in: received).isEmpty,
                        "\(name) lost publications after \(keptFrom)")
                    #expect(
                        Reliability.missing(0..<400, in: received).allSatisfy { $0 < 200 || name == "B" && $0 < 300 })
                    let repeated = Set(received.filter { number in received.filter { $0 == number }.count > 1 })
                    if qos == .atMostOnce {
                        #expect(repeated.isEmpty, "QoS 0 never delivers twice: \(received)")
                    } else {
                        #expect(
                            repeated.allSatisfy { $0 < 200 }, "only publications in flight when the broker died repeat")
                    }
                }
                // On the new connection A resubscribed before re-advertising its identity, so it sees its own Advertise.
                var sawOwnAdvertise = false
                for try await advertise in identities where advertise.event.object.objectID == a.identity.objectID {
                    sawOwnAdvertise = true
                    break
                }
                #expect(sawOwnAdvertise)
                for agent in [a, b] {
                    let statistics = agent.statistics
                    #expect(statistics.connections == 2)
                    #expect(statistics.droppedOfflinePublications == 0)
                    #expect(statistics.droppedObserverEvents == 0)
                }
                Reliability.report(
                    "broker restart, \(qos): A lost \(Reliability.missing(0..<400, in: receivedA)), "
                        + "B lost \(Reliability.missing(0..<400, in: receivedB).count), "
                        + "A repeated \(receivedA.count - Set(receivedA).count)")
            }
        }
    }

    /// A request is out and its responder got it; the broker restarts before the response is sent.
    /// The requester resubscribed to the response topic on reconnect, so the late response arrives.
    @Test func aPendingRequestIsAnsweredAfterTheBrokerRestarts() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: Reliability.configuration("A", broker: broker))
            let b = try Agent(configuration: Reliability.configuration("B", broker: broker))
            try await RunningAgents.run([a, b]) {
                let calls = try await b.observeCall("com.example.slow")
                let responses = try await a.call(Call(operation: "com.example.slow"), timeout: .seconds(60))
                var callIterator = calls.makeAsyncIterator()
                let request = try #require(await callIterator.next())
                try await broker.restart()
                try await Reliability.waitUntilSubscribed(a)
                try await Reliability.waitUntilSubscribed(b)
                try request.respond(Return(result: 42))
                let response = try await responses.first()
                #expect(response.event.result == 42)
                #expect(response.sourceID == b.identity.objectID)
            }
        }
    }

    /// While the broker is down, a request cannot be answered: it ends with a timeout that says so.
    @Test func aRequestWhileTheBrokerIsDownEndsWithAClearTimeout() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: Reliability.configuration("A", broker: broker))
            let b = try Agent(configuration: Reliability.configuration("B", broker: broker))
            try await RunningAgents.run([a, b]) {
                let calls = try await b.observeCall("com.example.unanswered")
                let pending = try await a.call(Call(operation: "com.example.unanswered"), timeout: .milliseconds(500))
                broker.stop()
                await Reliability.waitFor(.offline, a)
                let whileDown = try await a.call(Call(operation: "com.example.unanswered"), timeout: .milliseconds(500))
                for responses in [pending, whileDown] {
                    let error = await #expect(throws: AgentError.self) { try await responses.first() }
                    #expect(error?.code == .responseTimedOut)
                    #expect(
                        error?.detail.contains("no Return arrived within 0.5 seconds") == true,
                        "\(String(describing: error))")
                }
                #expect(a.connectionState == .offline)
                withExtendedLifetime(calls) {}
            }
        }
    }

    /// The agent starts before its broker: it retries with backoff and joins when the broker appears,
    /// with the observations and publications it was given before.
    @Test func anAgentStartedBeforeItsBrokerJoinsWhenTheBrokerAppears() async throws {
        let broker = try TestBroker.reserve()
        defer { broker.stop() }
        let log = LogRecorder()
        let a = try Agent(configuration: Reliability.configuration("A", broker: broker), logger: log.logger)
        let early = try await a.observeChannel("early")
        try a.publish(Reliability.numbered(0, on: "early"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await a.run() }
            var failures = 0
            while failures < 2 {
                _ = await log.next { $0.message == "Connect failed" || $0.message == "Disconnected" }
                failures += 1
            }
            #expect(a.connectionState == .connecting)
            try await broker.startOnSamePort()
            await Reliability.waitFor(.online, a)
            let b = try Agent(configuration: Reliability.configuration("B", broker: broker))
            try await RunningAgents.run([b]) {
                var iterator = early.makeAsyncIterator()
                #expect(try Reliability.number(of: try #require(await iterator.next())) == 0)
                try b.publish(Reliability.numbered(1, on: "early"))
                #expect(try Reliability.number(of: try #require(await iterator.next())) == 1)
                let resolve = try await b.discover(Discover(objectID: a.identity.objectID), timeout: .seconds(30))
                    .first()
                #expect(resolve.event.object?.objectID == a.identity.objectID)
            }
            #expect(a.statistics.connections == 1)
            group.cancelAll()
            try await group.waitForAll()
        }
    }

    /// No broker ever appears and the policy allows three retries: `run()` throws an error that names
    /// the broker, the policy and the last failure.
    @Test func aBrokerThatNeverAppearsEndsTheAgentAfterTheAllowedRetries() async throws {
        let broker = try TestBroker.reserve()
        defer { broker.stop() }
        var configuration = Reliability.configuration("A", broker: broker)
        configuration.reconnect = ReconnectPolicy(
            initialDelay: .milliseconds(10), maximumDelay: .milliseconds(20), maximumAttempts: 3)
        let a = try Agent(configuration: configuration)
        let error = Reliability.agentError(try await Reliability.outcome(of: a))
        #expect(error?.code == .connectionFailed)
        let detail = error?.detail ?? ""
        #expect(detail.contains("cannot connect to mqtt://127.0.0.1:\(broker.port)"), "\(detail)")
        #expect(detail.contains("gave up after 3 retries (ReconnectPolicy.maximumAttempts is 3)"), "\(detail)")
        #expect(detail.contains("Connection refused"), "\(detail)")
        #expect(a.connectionState == .stopped)
    }

    /// The broker goes away for good while the agent runs: the agent retries as allowed, then ends
    /// its observations and pending requests and throws.
    @Test func aBrokerGoneForGoodEndsTheAgentAndItsObservations() async throws {
        try await TestBroker.withBroker { broker in
            var configuration = Reliability.configuration("A", broker: broker)
            configuration.reconnect = ReconnectPolicy(
                initialDelay: .milliseconds(10), maximumDelay: .milliseconds(20), maximumAttempts: 2)
            let a = try Agent(configuration: configuration)
            let outcome = try await Reliability.outcome(of: a) {
                await Reliability.waitFor(.online, a)
                let events = try await a.observeChannel("gone")
                let responses = try await a.call(Call(operation: "com.example.nobody"), timeout: .seconds(600))
                broker.stop()
                let ended = await #expect(throws: AgentError.self) { for try await _ in events {} }
                #expect(ended?.code == .stopped)
                let error = await #expect(throws: AgentError.self) { try await responses.first() }
                #expect(error?.code == .stopped)
            }
            let error = Reliability.agentError(outcome)
            #expect(error?.code == .connectionFailed)
            #expect(error?.detail.contains("mqtt://127.0.0.1:\(broker.port)") == true)
            #expect(error?.detail.contains("gave up after 2 retries") == true, "\(String(describing: error))")
        }
    }
}

extension Reliability {
    /// Prints a figure for docs/reliability.md when `COATY_RELIABILITY_REPORT` is set.
    static func report(_ line: String) {
        guard ProcessInfo.processInfo.environment["COATY_RELIABILITY_REPORT"] != nil else { return }
        print("RELIABILITY: \(line)")
    }
}
