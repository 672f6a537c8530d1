package import CoreTypes
internal import CMosquitto

/// Something that happened on a ``MosquittoClient``'s connection, in the order it happened.
///
/// libmosquitto's callbacks create these (on the event loop thread, or on the thread that wrote a
/// packet) and yield them into the client's ``TransportEvents``; one task reads them in order and
/// drives the agent.
package enum TransportEvent: Sendable {
    /// The broker answered CONNECT. Check ``ConnackCode/isAccepted``: a refusal is followed by
    /// ``disconnected(_:)`` with the same reason.
    case connected(ConnackCode)
    /// The connection ended. `nil` when it ended because of ``MosquittoClient/disconnect()``; otherwise
    /// the error says why (refused, not authorised, unreachable, TLS failure, lost, keep-alive timeout).
    /// The client may ``MosquittoClient/connect()`` again once this event has arrived.
    case disconnected(MosquittoError?)
    /// A message arrived on a subscribed topic.
    case message(InboundMessage)
    /// The broker acknowledged a subscription (SUBACK). One granted QoS per filter, in the order the
    /// filters were given; a value of 128 (0x80) or more means the broker refused that filter.
    case subscribed(MQTTMessageID, grantedQoS: [Int32])
    /// The broker acknowledged an unsubscription (UNSUBACK).
    case unsubscribed(MQTTMessageID)
    /// A publication left: written to the socket for QoS 0, acknowledged by the broker for QoS 1 and 2.
    case published(MQTTMessageID)
}

/// A message received from the broker, copied out of libmosquitto.
package struct InboundMessage: Hashable, Sendable {
    /// The topic the message was published on.
    package var topic: String
    /// The payload bytes, exactly as received.
    package var payload: [UInt8]
    /// The QoS the message was delivered with.
    package var qos: MQTTQoS
    /// Whether the broker delivered it from its retained messages.
    package var retain: Bool

    /// Creates a message.
    package init(topic: String, payload: [UInt8], qos: MQTTQoS, retain: Bool) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }
}

/// The identifier libmosquitto gives a SUBSCRIBE, UNSUBSCRIBE or PUBLISH, so that its acknowledgement
/// event can be matched to the call that sent it.
package struct MQTTMessageID: Hashable, Sendable, CustomStringConvertible {
    /// The raw value, as libmosquitto reports it.
    package let rawValue: Int32

    /// Creates an identifier from libmosquitto's value.
    package init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The number.
    package var description: String { "\(rawValue)" }
}

/// The broker's answer to CONNECT: the CONNACK return code (MQTT 3.1.1) or reason code (MQTT 5).
package struct ConnackCode: Hashable, Sendable, CustomStringConvertible {
    /// The raw code; 0 means accepted.
    package let rawValue: Int32
    /// The MQTT protocol version the code belongs to (4 for 3.1.1, 5 for 5).
    package let protocolVersion: Int32

    /// Whether the broker accepted the connection.
    package var isAccepted: Bool { rawValue == 0 }

    /// libmosquitto's text for the code (`mosquitto_connack_string` or `mosquitto_reason_string`).
    package var description: String {
        let text =
            protocolVersion == MQTT_PROTOCOL_V5
            ? mosquitto_reason_string(rawValue) : mosquitto_connack_string(rawValue)
        return text.map { String(cString: $0) } ?? "reason code \(rawValue)"
    }
}

/// The ordered stream of a client's ``TransportEvent``s.
///
/// It is bounded (``MosquittoClient/Configuration/eventBufferSize``): when the reader falls behind
/// and the buffer is full, the client stops reading its socket until the reader has taken the
/// events; nothing is dropped. It has a single reader; it ends after ``MosquittoClient/close()``
/// or when the client is released.
package struct TransportEvents: AsyncSequence, Sendable {
    /// The element type.
    package typealias Element = TransportEvent

    let channel: TransportChannel

    /// Every event that arrived since the last call, in order, waiting for one if none has;
    /// `nil` once the stream has ended. A reader that handles events one by one anyway saves the
    /// per-event cost of the iterator this way. Use either this or one iterator, not both.
    package func nextBatch() async -> [TransportEvent]? {
        await channel.nextBatch()
    }

    /// Gives a handled batch back (emptied), so that its storage can take the next events.
    package func recycle(_ batch: inout [TransportEvent]) {
        channel.recycle(&batch)
    }

    /// Creates the iterator; make only one.
    package func makeAsyncIterator() -> Iterator {
        Iterator(channel: channel)
    }

    /// Hands out the events of each batch one by one.
    package struct Iterator: AsyncIteratorProtocol {
        let channel: TransportChannel
        private var batch: [TransportEvent] = []
        private var position = 0

        init(channel: TransportChannel) {
            self.channel = channel
        }

        /// The next event, or `nil` once the stream has ended (or the waiting task was cancelled).
        package mutating func next() async -> TransportEvent? {
            if position == batch.count {
                guard let next = await channel.nextBatch() else { return nil }
                batch = next
                position = 0
            }
            defer { position += 1 }
            return batch[position]
        }
    }
}

/// A code from a SUBACK (or PUBACK): MQTT 3.1.1's granted QoS or `0x80` failure, or an MQTT 5
/// reason code. `0x80` and above mean the broker refused.
package struct ReasonCode: Hashable, Sendable, CustomStringConvertible {
    /// The raw code.
    package let rawValue: Int32
    /// The MQTT protocol version the code belongs to (4 for 3.1.1, 5 for 5).
    package let protocolVersion: Int32

    /// Whether the broker refused (`0x80` or more).
    package var isFailure: Bool { rawValue >= 0x80 }

    /// `reason code 0x87 (Not authorized)` with MQTT 5; `return code 0x80 (failure)` with MQTT 3.1.1.
    package var description: String {
        let hex = "0x" + String(rawValue, radix: 16, uppercase: true)
        guard protocolVersion == MQTT_PROTOCOL_V5 else {
            return isFailure ? "return code \(hex) (failure)" : "granted QoS \(rawValue)"
        }
        let text = mosquitto_reason_string(rawValue).map { String(cString: $0) } ?? "unknown"
        return "reason code \(hex) (\(text))"
    }
}
