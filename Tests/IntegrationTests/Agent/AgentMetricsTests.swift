import Agent
import CoreTypes
import MetricsTestKit
import Testing
import TestSupport

/// The agent's swift-metrics after a known sequence of events, read from an in-process backend
/// given to the agent (not bootstrapped: tests run in parallel).
@Suite(.timeLimit(.minutes(1)))
struct AgentMetricsTests {
    @Test func countsPublishedReceivedDeliveredAndDroppedEventsByType() async throws {
        try await TestBroker.withBroker { broker in
            let metrics = TestMetrics()
            var configuration = RunningAgents.configuration("Measured", broker: broker)
            configuration.metricsFactory = metrics
            let measured = try Agent(configuration: configuration)
            let other = try Agent(configuration: RunningAgents.configuration("Other", broker: broker))
            try await RunningAgents.run([measured, other]) {
                try await measured.observeChannel("news") { news in
                    var iterator = news.makeAsyncIterator()
                    for index in 0..<3 {
                        try other.publish(Channel(id: "news", object: BaseObject(name: "item \(index)")))
                    }
                    // Not JSON: dropped as invalid.
                    try other.publishRecorded(
                        topic: "coaty/3/-/CHN:news/\(other.identity.objectID)", payload: Array("{".utf8), retain: false)
                    try other.publish(Channel(id: "news", object: BaseObject(name: "last")))
                    for _ in 0..<4 { _ = try await iterator.next() }
                }
                let light = try ObjectTypeRegistry().decodeObject(JSONValue.object([
                    "objectId": .string(ObjectID.make()), "objectType": "com.example.Light", "coreType": "CoatyObject",
                    "name": "Lamp",
                ]))
                try measured.advertise(light)  // on the core type's topic and the object type's
                try measured.publish(Raw(topic: "plain/topic", text: "hello"))
            }
            func counter(_ label: String, _ dimensions: [(String, String)]) throws -> Int64 {
                try metrics.expectCounter(label, dimensions).totalValue
            }
            #expect(try counter("coaty_events_received_total", [("event", "Channel")]) == 5)
            #expect(try counter("coaty_events_delivered_total", [("event", "Channel")]) == 4)
            #expect(try counter("coaty_events_dropped_total", [("event", "Channel"), ("reason", "invalid")]) == 1)
            // Its identity's Advertise at the join, then the light twice.
            #expect(try counter("coaty_events_published_total", [("event", "Advertise")]) == 3)
            #expect(try counter("coaty_events_published_total", [("event", "Raw")]) == 1)
            #expect(try counter("coaty_events_published_total", [("event", "Deadvertise")]) == 1, "the stop's")
            #expect(try counter("coaty_connections_total", []) == 1)
            #expect(try metrics.expectGauge("coaty_connected").values == [1, 0])
            #expect(try counter("coaty_inbound_bytes_total", []) > 0)
        }
    }

    @Test func timesRequestsToTheirFirstResponseAndEndAndCountsTimeouts() async throws {
        try await TestBroker.withBroker { broker in
            let metrics = TestMetrics()
            var configuration = RunningAgents.configuration("Asker", broker: broker)
            configuration.metricsFactory = metrics
            let asker = try Agent(configuration: configuration)
            let answerer = try Agent(configuration: RunningAgents.configuration("Answerer", broker: broker))
            try await RunningAgents.run([asker, answerer]) {
                let calls = try await answerer.observeCall("com.example.answer")
                let answering = Task {
                    for try await request in calls { try request.respond(Return(result: 42)) }
                }
                defer { answering.cancel() }
                let answered = try await asker.call(Call(operation: "com.example.answer"), timeout: .seconds(30))
                _ = try await answered.first()
                let unanswered = try await asker.call(Call(operation: "com.example.nobody"), timeout: .milliseconds(50))
                for try await _ in unanswered { Issue.record("nobody answers this call") }
            }
            let call = [("event", "Call")]
            #expect(try metrics.expectTimer("coaty_request_first_response_seconds", call).values.count == 1)
            #expect(try metrics.expectTimer("coaty_request_duration_seconds", call).values.count == 2)
            #expect(try metrics.expectCounter("coaty_requests_timed_out_total", call).totalValue == 1)
            #expect(try metrics.expectCounter("coaty_requests_timed_out_total", [("event", "Discover")]).totalValue == 0)
        }
    }

    @Test func reportsTheOfflineQueueDepthUntilTheQueueIsSent() async throws {
        try await TestBroker.withBroker { broker in
            let metrics = TestMetrics()
            var configuration = RunningAgents.configuration("Queued", broker: broker)
            configuration.metricsFactory = metrics
            let queued = try Agent(configuration: configuration)
            let depth = try metrics.expectGauge("coaty_offline_queue_depth")
            // Not running yet: every publication waits in the offline queue.
            for index in 0..<3 {
                try queued.publish(Channel(id: "held", object: BaseObject(name: "held \(index)")))
            }
            #expect(depth.values == [1, 2, 3])
            try await RunningAgents.run([queued]) {
                #expect(depth.lastValue == 0, "the CONNACK sends the queue")
            }
            #expect(depth.values == [1, 2, 3, 0])
        }
    }

    @Test func reportsTheFullestObserverBuffer() async throws {
        try await TestBroker.withBroker { broker in
            let metrics = TestMetrics()
            var configuration = RunningAgents.configuration("Slow", broker: broker)
            configuration.metricsFactory = metrics
            let slow = try Agent(configuration: configuration)
            let other = try Agent(configuration: RunningAgents.configuration("Fast", broker: broker))
            let fill = try metrics.expectGauge("coaty_observer_buffer_max_fill")
            let delivered = try metrics.expectCounter("coaty_events_delivered_total", [("event", "Channel")])
            try await RunningAgents.run([slow, other]) {
                try await slow.observeChannel("piling") { _ in
                    try await slow.observeChannel("taken") { taken in
                        var iterator = taken.makeAsyncIterator()
                        for index in 0..<5 {
                            try other.publish(Channel(id: "piling", object: BaseObject(name: "unread \(index)")))
                        }
                        try other.publish(Channel(id: "taken", object: BaseObject(name: "read")))
                        // Channel events of one publisher arrive in order: the five unread ones are buffered.
                        _ = try #require(await iterator.next())
                        #expect(delivered.totalValue == 6)
                        try await yieldUntil { fill.lastValue == 5 }
                    }
                }
            }
            #expect(fill.lastValue == 0, "no observer is left once the agent stopped")
        }
    }

    @Test func aResponderGroupAddsToTheAgentsEventCountsButNotToItsConnectionFigures() async throws {
        try await TestBroker.withBroker { broker in
            let metrics = TestMetrics()
            var configuration = RunningAgents.configuration("Replica", broker: broker)
            configuration.metricsFactory = metrics
            configuration.responderGroup = "measured"
            let replica = try Agent(configuration: configuration)
            let requester = try Agent(configuration: RunningAgents.configuration("Requester", broker: broker))
            try await RunningAgents.run([replica, requester]) {
                try await replica.serveQuery { try $0.respond(Retrieve(objects: [])) } while: {
                    for _ in 0..<3 { _ = try await requester.query(Query(objectTypes: ["com.example.X"])).first() }
                }
            }
            #expect(try metrics.expectCounter("coaty_events_received_total", [("event", "Query")]).totalValue == 3)
            #expect(try metrics.expectCounter("coaty_events_published_total", [("event", "Retrieve")]).totalValue == 3)
            #expect(try metrics.expectCounter("coaty_connections_total", []).totalValue == 1, "the identity's connection only")
            #expect(try metrics.expectRecorder("coaty_connected", []).lastValue == 0, "the agent stopped")
        }
    }
}
