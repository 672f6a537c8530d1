import Agent
import CoreTypes
import Foundation
import Testing
import TestSupport

/// The capture client of a scenario: an MQTT client subscribed to `coaty/#` (and the scenario's
/// other topics), like the client that recorded `sessions.json`, plus the barriers that cut the
/// capture into steps without sleeping.
///
/// It subscribes with QoS 2, so every message arrives with the QoS its publisher used.
///
/// How a step is cut (``recordStep(expecting:agents:)``), relying on two properties of mosquitto:
/// it handles one client's packets in order, and it hands each PUBLISH to every subscriber before
/// it reads the next packet. So a subscriber receives one publisher's messages in the order they
/// were sent, and whatever the broker delivered to anyone before a later PUBLISH, it delivered to
/// every subscriber before that PUBLISH too.
/// 1. Wait until the recorder has as many messages as the step expects.
/// 2. The recorder publishes barrier 1. When an agent's raw observer sees it, the agent's single
///    routing task has handled every message the broker delivered before it, including all the
///    recorder saw in 1: events are in their observers' buffers, the agent's own synchronous
///    answers (the identity Resolve) are published.
/// 3. Every agent then publishes its barrier 2. When the recorder has all of them, it has every
///    message each agent published before, in particular anything extra it published in 2.
/// Everything the recorder got up to there belongs to the step.
struct SessionRecorder {
    /// A stream ended or a message arrived where it should not.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// An agent's view of the barriers: its raw observer, read from the test task.
    struct BarrierWatch {
        let label: String
        let agent: Agent
        var iterator: EventStream<Raw>.AsyncIterator

        /// Waits until the agent's routing task delivers the barrier on `topic`.
        mutating func wait(for topic: String) async throws {
            while let raw = try await iterator.next(isolation: #isolation) {
                if raw.topic == topic { return }
            }
            throw Failure(description: "agent \(label) stopped before it received the barrier \(topic)")
        }
    }

    private var client: TestClient
    /// The topic prefix of this run's barriers (never a Coaty topic, never in the vectors).
    let barrierPrefix: String
    private var stepIndex = 0

    /// Connects and subscribes to `coaty/#`, the barriers and `extraTopics`, with QoS 2.
    init(broker: TestBroker, extraTopics: [String]) async throws {
        try await self.init(broker: broker) { barriers in ["coaty/#", barriers] + extraTopics }
    }

    /// Connects and subscribes to the topics that `topics` returns for the barriers' filter, with QoS 2
    /// (`{ _ in ["#"] }` captures everything, the barriers included, as the IO captures did).
    init(broker: TestBroker, topics: (_ barriers: String) -> [String]) async throws {
        let id = UInt32.random(in: 0...UInt32.max)
        barrierPrefix = "sessions-barrier/\(id)"
        client = try TestClient("sessions-recorder-\(id)", broker: broker.url)
        try await client.connect()
        try await client.subscribe(topics(barrierPrefix + "/#"), qos: .exactlyOnce)
    }

    /// The raw observers that let the recorder know when an agent has routed everything before a barrier.
    /// Made before the agents run, so the subscription goes out with their first CONNACK.
    func barrierWatches(for run: SessionRun) async throws -> [BarrierWatch] {
        var watches: [BarrierWatch] = []
        for (label, agent) in run.agents {
            watches.append(try await barrierWatch(label, agent))
        }
        return watches
    }

    /// The barrier observer of one agent, made before it runs.
    func barrierWatch(_ label: String, _ agent: Agent) async throws -> BarrierWatch {
        let stream = try await agent.observeRaw(barrierPrefix + "/#")
        return BarrierWatch(label: label, agent: agent, iterator: stream.makeAsyncIterator())
    }

    /// The messages of one step: at least `count` of them, and every message that the live agents
    /// published before the step's barriers (see the type's description).
    mutating func recordStep(expecting count: Int, agents watches: inout [BarrierWatch]) async throws
        -> [SessionCase.Message]
    {
        stepIndex += 1
        let stepPrefix = "\(barrierPrefix)/\(stepIndex)"
        var messages: [SessionCase.Message] = []
        while messages.count < count {
            let message = try await client.nextMessage()
            guard !message.topic.hasPrefix(barrierPrefix + "/") else {
                throw Failure(description: "barrier \(message.topic) arrived before step \(stepIndex)'s messages")
            }
            messages.append(Self.message(message))
        }
        let first = stepPrefix + "/1"
        _ = try client.client.publish(topic: first, payload: [UInt8](), qos: .atMostOnce)
        for index in watches.indices { try await watches[index].wait(for: first) }
        var pending = Set<String>()
        for watch in watches {
            let topic = stepPrefix + "/2/" + watch.label
            try watch.agent.publish(Raw(topic: topic, payload: []))
            pending.insert(topic)
        }
        while !pending.isEmpty {
            let message = try await client.nextMessage()
            if message.topic.hasPrefix(barrierPrefix + "/") {
                pending.remove(message.topic)
            } else {
                messages.append(Self.message(message))
            }
        }
        return messages
    }

    /// The topics on which the broker holds a retained message now, among those the recorder
    /// subscribes to. A fresh client gets them right after its SUBACK, before its own barrier.
    static func retainedTopics(broker: TestBroker, topics: [String]) async throws -> [String] {
        let id = UInt32.random(in: 0...UInt32.max)
        let barrier = "sessions-barrier/retained-probe/\(id)"
        var probe = try TestClient("sessions-retained-probe-\(id)", broker: broker.url)
        try await probe.connect()
        try await probe.subscribe(topics + [barrier], qos: .exactlyOnce)
        _ = try probe.client.publish(topic: barrier, payload: [UInt8](), qos: .atMostOnce)
        var retained: [String] = []
        while true {
            let message = try await probe.nextMessage()
            if message.topic == barrier { break }
            if message.retain { retained.append(message.topic) }
        }
        probe.client.close()
        return retained
    }

    /// Publishes `payload` on `topic` from the recorder's plain MQTT client (QoS 0, not retained),
    /// as `mosquitto_pub` did for the captures' external publishers.
    func publishExternally(topic: String, payload: [UInt8]) throws {
        _ = try client.client.publish(topic: topic, payload: payload, qos: .atMostOnce)
    }

    /// Closes the recorder's connection.
    func close() {
        client.client.close()
    }

    private static func message(_ message: InboundMessage) -> SessionCase.Message {
        SessionCase.Message(
            topic: message.topic, payload: message.payload, retain: message.retain, qos: Int(message.qos.rawValue))
    }
}
