import Foundation

// @testable for MosquittoClient.Configuration's memberwise init, as the integration tests' TestClient.
@testable import Agent

/// A bare MQTT client that ``BrokerStar`` uses to see whether a bridge carries messages: it
/// subscribes on a leaf, or publishes on the hub, and waits for the one event it needs.
struct BridgeProbe {
    /// A wait that saw the connection end instead of the event it wanted.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let client: MosquittoClient
    private var iterator: TransportEvents.Iterator

    private init(client: MosquittoClient) {
        self.client = client
        iterator = client.events.makeAsyncIterator()
    }

    /// Connects a probe to `broker` and waits for an accepted CONNACK.
    static func connect(to broker: TestBroker) async throws -> BridgeProbe {
        let clientID = "bridge-probe-\(UUID().uuidString.prefix(8).lowercased())"
        var probe = BridgeProbe(
            client: try MosquittoClient(configuration: .init(clientID: clientID, broker: broker.url)))
        try probe.client.connect()
        let code = try await probe.next("the CONNACK") { event -> ConnackCode? in
            if case .connected(let code) = event { code } else { nil }
        }
        guard code.isAccepted else {
            throw Failure(description: "\(broker.url) refused the bridge probe \(clientID): \(code)")
        }
        return probe
    }

    /// Subscribes to `topic` and waits for the SUBACK.
    mutating func subscribe(to topic: String) async throws {
        let id = try client.subscribe(to: [topic])
        _ = try await next("the SUBACK of \(topic)") { event -> Bool? in
            if case .subscribed(id, _) = event { true } else { nil }
        }
    }

    /// Publishes a retained message at QoS 0; an empty `payload` removes the retained message.
    func publishRetained(_ payload: [UInt8], on topic: String) throws {
        _ = try client.publish(topic: topic, payload: payload, retain: true)
    }

    /// Waits for a message with a payload on `topic`.
    mutating func waitForMessage(on topic: String) async throws {
        _ = try await next("a message on \(topic)") { event -> Bool? in
            if case .message(let message) = event, message.topic == topic, !message.payload.isEmpty {
                true
            } else {
                nil
            }
        }
    }

    /// Sends DISCONNECT after what was published and waits until the connection is closed.
    mutating func disconnect() async throws {
        try client.disconnect()
        while let event = await iterator.next(isolation: #isolation) {
            if case .disconnected = event { return }
        }
    }

    /// Closes the socket at once.
    func close() {
        client.close()
    }

    /// Skips events until `match` returns a value; the end of the connection ends the wait with an error.
    private mutating func next<Value>(_ awaited: String, _ match: (TransportEvent) -> Value?) async throws -> Value {
        while let event = await iterator.next(isolation: #isolation) {
            if let value = match(event) { return value }
            if case .disconnected(let error) = event {
                throw Failure(
                    description: "bridge probe \(client.configuration.clientID) on \(client.configuration.broker) "
                        + "disconnected while waiting for \(awaited): \(error.map { "\($0)" } ?? "by request")")
            }
        }
        throw Failure(
            description: "the events of bridge probe \(client.configuration.clientID) ended before \(awaited)")
    }
}
