package import CoreTypes
internal import CMosquitto
import Glibc

/// An MQTT client on libmosquitto, driven by a ``MosquittoEventLoop`` and reporting everything that
/// happens as ordered ``TransportEvent``s.
///
/// The agent owns one client and drives it from a single task: it calls ``connect()``, reads
/// ``events`` in order, subscribes and publishes. Operations return as soon as their packet is
/// queued; the acknowledgement arrives later as an event carrying the same ``MQTTMessageID``.
/// The client never reconnects by itself: after ``TransportEvent/disconnected(_:)`` the caller
/// decides when to call ``connect()`` again.
///
/// ```swift
/// let client = try MosquittoClient(configuration: .init(clientID: "Coaty5c3e1a2b7d4f4e6a9b",
///                                                        broker: try BrokerURL("mqtt://127.0.0.1:1883")))
/// try client.connect()
/// for try await event in client.events {
///     switch event {
///     case .connected(let code) where code.isAccepted: _ = try client.subscribe(to: ["coaty/3/-/#"])
///     case .message(let message): handle(message)
///     default: break
///     }
/// }
/// ```
///
/// Threading: every method may be called from any thread or task (calls are serialised by a lock
/// per client). Operations write their packet at once from the calling thread; the event loop
/// thread reads and produces the events (a few, such as ``TransportEvent/published(_:)`` for QoS 0,
/// come from the writing thread, in order). Releasing the client, or calling
/// ``close()``, closes the socket without DISCONNECT (the broker then publishes the will) and ends
/// ``events``; neither waits for the event loop.
package final class MosquittoClient: Sendable {
    /// The configuration the client was created with.
    package let configuration: Configuration
    /// The client's events in the order they happened; read them from one task.
    package let events: TransportEvents
    private let connection: MosquittoConnection

    /// Creates a client and configures libmosquitto; it does not connect yet.
    ///
    /// - Parameters:
    ///   - configuration: Client id, broker, credentials, TLS, will and socket options.
    ///   - eventLoop: The loop to drive the socket; when `nil`, the next loop of
    ///     ``MosquittoEventLoopGroup/shared``.
    /// - Throws: ``MosquittoError`` if an option is invalid (keep-alive, TLS files, will topic, client id).
    package init(configuration: Configuration, eventLoop: MosquittoEventLoop? = nil) throws {
        let loop = try eventLoop ?? MosquittoEventLoopGroup.shared.next()
        connection = try MosquittoConnection(configuration: configuration, loop: loop)
        events = TransportEvents(channel: connection.bridge.channel)
        self.configuration = configuration
    }

    deinit {
        connection.close()
    }

    /// The event loop that drives this client's socket.
    package var eventLoop: MosquittoEventLoop { connection.loop }

    /// Chooses whether ``TransportEvent/published(_:)`` and ``TransportEvent/unsubscribed(_:)`` are
    /// reported in ``events`` (both are, until this is called). A reader that ignores them should
    /// turn them off: each one wakes it up. A change affects acknowledgements that arrive afterwards;
    /// turn publications on before publishing the message whose acknowledgement matters.
    package func report(publications: Bool, unsubscriptions: Bool) {
        connection.bridge.report(publications: publications, unsubscriptions: unsubscriptions)
    }

    /// The client's inbound topics, each made and parsed once while it repeats.
    package var topics: TopicCache { connection.bridge.topics }

    /// Stops the client reading its socket while held: the agent holds it while an observer's
    /// buffer is over its capacity, so that TCP and the broker keep the messages.
    package var readPressure: ReadPressure { connection.bridge.readPressure }

    /// How many publications the broker refused with a PUBACK or PUBREC reason code of 0x80 or more.
    ///
    /// Only MQTT 5 brokers say so, and only for QoS 1 and 2; with MQTT 3.1.1 a broker drops a
    /// publication its ACL denies without telling the client.
    package var refusedPublicationCount: Int { connection.bridge.refusedPublicationCount }

    /// Starts connecting to the broker; the outcome arrives as ``TransportEvent/connected(_:)`` or
    /// ``TransportEvent/disconnected(_:)``.
    ///
    /// It blocks only for the DNS lookup of the host (none for an IP address); the TCP and TLS
    /// handshakes and CONNECT happen on the event loop. Call it again only after the previous
    /// connection's `disconnected` event.
    ///
    /// - Throws: ``MosquittoError`` naming the broker URL: `MosquittoError.Code.unreachable` when the
    ///   host does not resolve or (on loopback) nothing listens, `MosquittoError.Code.tlsFailure`
    ///   when the TLS files cannot be loaded, `MosquittoError.Code.alreadyConnected` or
    ///   `MosquittoError.Code.closed`.
    package func connect() throws {
        try connection.connect()
    }

    /// Waits until this client may start connecting without overflowing the broker's listen
    /// backlog: at most ``MosquittoEventLoop/handshakesInFlight`` clients of one event loop group are
    /// between their TCP connect and their CONNACK at a time. Call it before ``connect()``; it
    /// returns at once when the client is closed meanwhile or the task is cancelled.
    package func waitForConnectSlot() async {
        await connection.waitForHandshakeSlot()
    }

    /// Subscribes to topic filters in one SUBSCRIBE packet.
    ///
    /// - Parameters:
    ///   - filters: One or more MQTT topic filters.
    ///   - qos: The maximum QoS for all of them; Coaty uses ``QoS/atMostOnce``.
    /// - Returns: The id that ``TransportEvent/subscribed(_:grantedQoS:)`` will carry.
    /// - Throws: ``MosquittoError``: `MosquittoError.Code.invalidArgument` for an invalid filter,
    ///   `MosquittoError.Code.noConnection` while not connected.
    package func subscribe(to filters: [String], qos: MQTTQoS = .atMostOnce) throws -> MQTTMessageID {
        try requireFilters(filters, .subscribe)
        return try withCStrings(filters, .subscribe) { list in
            try connection.perform(.subscribe) { handle in
                var mid: Int32 = 0
                let result = mosquitto_subscribe_multiple(
                    handle, &mid, Int32(filters.count), list, Int32(qos.rawValue), 0, nil)
                return (result, MQTTMessageID(rawValue: mid))
            }
        }
    }

    /// Unsubscribes from topic filters in one UNSUBSCRIBE packet.
    ///
    /// - Returns: The id that ``TransportEvent/unsubscribed(_:)`` will carry.
    /// - Throws: ``MosquittoError`` for an invalid filter or while not connected.
    package func unsubscribe(from filters: [String]) throws -> MQTTMessageID {
        try requireFilters(filters, .unsubscribe)
        return try withCStrings(filters, .unsubscribe) { list in
            try connection.perform(.unsubscribe) { handle in
                var mid: Int32 = 0
                let result = mosquitto_unsubscribe_multiple(handle, &mid, Int32(filters.count), list, nil)
                return (result, MQTTMessageID(rawValue: mid))
            }
        }
    }

    /// Publishes a message. libmosquitto copies the payload, so it may change once this returns.
    ///
    /// - Parameters:
    ///   - topic: The topic, without wildcards.
    ///   - payload: The bytes to send, for example `[UInt8]` or `Data`.
    ///   - qos: The QoS; Coaty uses ``QoS/atMostOnce``.
    ///   - retain: Whether the broker keeps it for later subscribers.
    /// - Returns: The id that ``TransportEvent/published(_:)`` will carry.
    /// - Throws: ``MosquittoError``: `MosquittoError.Code.invalidArgument` for an invalid topic or a
    ///   payload that is too large, `MosquittoError.Code.noConnection` while not connected.
    package func publish(
        topic: String,
        payload: some Collection<UInt8>,
        qos: MQTTQoS = .atMostOnce,
        retain: Bool = false
    ) throws -> MQTTMessageID {
        if let id = try payload.withContiguousStorageIfAvailable({ bytes in
            try publish(topic: topic, bytes: UnsafeRawBufferPointer(bytes), qos: qos, retain: retain)
        }) {
            return id
        }
        return try Array(payload).withUnsafeBytes { bytes in
            try publish(topic: topic, bytes: bytes, qos: qos, retain: retain)
        }
    }

    /// Sends DISCONNECT; the broker then discards the will. ``TransportEvent/disconnected(_:)`` with
    /// `nil` follows once the packet has left and the socket is closed.
    ///
    /// - Throws: ``MosquittoError`` with code `MosquittoError.Code.noConnection` when not connected.
    package func disconnect() throws {
        try connection.perform(.disconnect) { handle in (mosquitto_disconnect(handle), ()) }
    }

    /// Replaces the last will (or removes it with `nil`); it takes effect on the next ``connect()``.
    ///
    /// - Throws: ``MosquittoError`` with code `MosquittoError.Code.invalidArgument` for an invalid topic.
    package func setWill(_ will: Will?) throws {
        try connection.setWill(will)
    }

    /// Closes the socket at once without DISCONNECT, so the broker publishes the will, and ends
    /// ``events``. Afterwards every operation throws `MosquittoError.Code.closed`.
    ///
    /// Use it when a graceful stop failed; the agent's normal stop is ``disconnect()``. It never
    /// waits for the event loop. Releasing the client does the same.
    package func close() {
        connection.close()
    }

    private func publish(topic: String, bytes: UnsafeRawBufferPointer, qos: MQTTQoS, retain: Bool) throws -> MQTTMessageID {
        guard bytes.count <= Int(Int32.max) else {
            throw MosquittoError.library(
                MOSQ_ERR_PAYLOAD_SIZE.rawValue, operation: .publish, broker: configuration.broker.description)
        }
        // `withCString` lends a native string's own NUL-terminated bytes; passing `topic` as a C
        // pointer directly would copy it into a new array on every publish.
        return try topic.withCString { cTopic in
            try connection.perform(.publish, subject: "topic '\(topic)'") { handle in
                var mid: Int32 = 0
                let result = mosquitto_publish(
                    handle, &mid, cTopic, Int32(bytes.count), bytes.baseAddress, Int32(qos.rawValue), retain)
                return (result, MQTTMessageID(rawValue: mid))
            }
        }
    }

    /// Checks the filters here, so that a bad one is named whether or not the client is connected
    /// (libmosquitto checks them only when it has a connection).
    private func requireFilters(_ filters: [String], _ operation: MosquittoError.Operation) throws {
        func invalid(_ detail: String) -> MosquittoError {
            MosquittoError(
                code: .invalidArgument, operation: operation, broker: configuration.broker.description, detail: detail)
        }
        guard !filters.isEmpty else { throw invalid("no topic filters given") }
        for filter in filters {
            let isValid = filter.withCString { text in
                mosquitto_sub_topic_check(text) == MOSQ_ERR_SUCCESS.rawValue
                    && mosquitto_validate_utf8(text, Int32(clamping: strlen(text))) == MOSQ_ERR_SUCCESS.rawValue
            }
            guard isValid, !filter.isEmpty else {
                throw invalid("'\(filter)' is not a valid topic filter ('#' only last, wildcards fill a whole level)")
            }
        }
    }

    /// Calls `body` with a C array of C strings that lives until `body` returns.
    private func withCStrings<Value>(
        _ strings: [String],
        _ operation: MosquittoError.Operation,
        _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) throws -> Value
    ) throws -> Value {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        guard !copies.contains(nil) else {
            throw MosquittoError.library(
                MOSQ_ERR_NOMEM.rawValue, operation: operation, broker: configuration.broker.description)
        }
        return try copies.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else {
                throw MosquittoError(code: .invalidArgument, operation: operation, detail: "no topic filters given")
            }
            return try body(base)
        }
    }
}
