import CoreTypes
@testable import Agent
import Testing
import TestSupport

/// A ``MosquittoClient`` with the iterator over its events, and waits that name what they expect.
struct TestClient {
    /// A wait that saw the connection end instead of the event it wanted.
    struct UnexpectedDisconnect: Error, CustomStringConvertible {
        let clientID: String
        let error: MosquittoError?
        var description: String { "\(clientID) disconnected while waiting: \(error.map { "\($0)" } ?? "by request")" }
    }

    let client: MosquittoClient
    private var iterator: TransportEvents.Iterator

    /// Creates a client for `broker`; `configure` may change the defaults before it is created.
    init(
        _ clientID: String,
        broker: BrokerURL,
        eventLoop: MosquittoEventLoop? = nil,
        configure: (inout MosquittoClient.Configuration) -> Void = { _ in }
    ) throws {
        var configuration = MosquittoClient.Configuration(clientID: clientID, broker: broker)
        configure(&configuration)
        client = try MosquittoClient(configuration: configuration, eventLoop: eventLoop)
        iterator = client.events.makeAsyncIterator()
    }

    /// The next event, whatever it is.
    mutating func next() async throws -> TransportEvent {
        try #require(
            await iterator.next(isolation: #isolation), "the event stream of \(client.configuration.clientID) ended")
    }

    /// The next event, or `nil` when the stream has ended.
    mutating func nextOrEnd() async -> TransportEvent? {
        await iterator.next(isolation: #isolation)
    }

    /// Skips events until `match` returns a value. A disconnect that `match` does not want ends the wait.
    mutating func next<Value>(_ match: (TransportEvent) -> Value?) async throws -> Value {
        while true {
            let event = try await next()
            if let value = match(event) { return value }
            if case .disconnected(let error) = event {
                throw UnexpectedDisconnect(clientID: client.configuration.clientID, error: error)
            }
        }
    }

    /// Connects and waits for an accepted CONNACK.
    mutating func connect() async throws {
        try client.connect()
        let code = try await next { event -> ConnackCode? in
            if case .connected(let code) = event { code } else { nil }
        }
        #expect(code.isAccepted, "CONNACK: \(code)")
    }

    /// Subscribes and waits for the SUBACK with the same message id; returns the granted QoS list.
    @discardableResult
    mutating func subscribe(_ filters: [String], qos: MQTTQoS = .atMostOnce) async throws -> [Int32] {
        let id = try client.subscribe(to: filters, qos: qos)
        return try await next { event -> [Int32]? in
            if case .subscribed(id, let granted) = event { granted } else { nil }
        }
    }

    /// Waits for the next message.
    mutating func nextMessage() async throws -> InboundMessage {
        try await next { event -> InboundMessage? in
            if case .message(let message) = event { message } else { nil }
        }
    }
}
