import Agent
import CoreTypes
import Foundation
import Logging
import Testing
import TestSupport

/// Bad payloads on a topic the agent observes, published by a raw client: none reaches the observer,
/// each is counted and logged at debug with its topic, and the agent goes on.
@Suite(.timeLimit(.minutes(1)))
struct BadInputTests {
    static let sourceID = "5c3e1a2b-7d4f-4e6a-9b8c-0d1e2f3a4b5c"

    static func object(coreType: String = "CoatyObject", name: String) -> String {
        #"{"object":{"objectId":"0f9e8d7c-6b5a-4c3d-a2e1-f0e9d8c7b6a5","coreType":"\#(coreType)","objectType":"com.example.Thing","name":"\#(name)"}}"#
    }

    /// Each bad payload with what is wrong with it.
    static let badPayloads: [(String, [UInt8])] = [
        ("not JSON", Array(#"{"object": {"#.utf8)),
        ("empty", []),
        ("wrong shape", Array(#"{"object": 42}"#.utf8)),
        ("not an object at all", Array("[1, 2, 3]".utf8)),
        ("unknown core type", Array(object(coreType: "Banana", name: "b").utf8)),
        ("invalid UTF-8", Array(#"{"object":{"name":""#.utf8) + [0xFF, 0xFE] + Array(#""}}"#.utf8)),
        ("over the size limit", Array(object(name: String(repeating: "x", count: 4_096)).utf8)),
    ]

    @Test func badPayloadsAreDroppedCountedAndLogged() async throws {
        try await TestBroker.withBroker { broker in
            let log = LogRecorder()
            var configuration = Reliability.configuration("A", broker: broker)
            configuration.maximumPayloadSize = 2_048
            let a = try Agent(configuration: configuration, logger: log.logger)
            var publisher = try TestClient("bad-input-\(UUID().uuidString.prefix(8))", broker: broker.url)
            try await publisher.connect()
            let client = publisher.client
            try await RunningAgents.run([a]) {
                let events = try await a.observeChannel("input")
                let topic = "coaty/3/-/CHN:input/\(Self.sourceID)"
                for (_, payload) in Self.badPayloads {
                    _ = try client.publish(topic: topic, payload: payload)
                }
                _ = try client.publish(topic: topic, payload: Array(Self.object(name: "good").utf8))
                var iterator = events.makeAsyncIterator()
                let first = try #require(await iterator.next())
                #expect(first.event.objects.first?.name == "good", "nothing bad reached the observer first")
                #expect(a.statistics.rejectedPayloads == Self.badPayloads.count)
                let logged = log.all.filter { $0.message == "Dropped invalid payload" }
                #expect(logged.count == Self.badPayloads.count)
                #expect(logged.allSatisfy { $0.level == .debug && $0.metadata["mqtt.topic"] == topic })
                #expect(a.connectionState == .online)
            }
        }
    }
}
