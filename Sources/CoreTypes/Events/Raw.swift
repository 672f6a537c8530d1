/// A Raw message: any bytes on any MQTT topic outside the Coaty topic space.
///
/// Raw messages let an agent talk to non-Coaty MQTT clients. The topic must be a valid topic
/// name (non-empty, at most 65535 UTF-8 bytes, no `+`, `#` or U+0000) and must not start with
/// `coaty/`; inbound Coaty topics never reach Raw observers.
///
/// ```swift
/// publish(try Raw(topic: "sensors/1/temp", text: "21.5").publication())
/// ```
public struct Raw: Sendable, Hashable {
    /// The MQTT topic name.
    public var topic: String
    /// The payload bytes, sent and delivered unchanged.
    public var payload: [UInt8]
    /// Whether the broker should retain the message.
    public var retain: Bool

    /// A message with raw bytes.
    public init(topic: String, payload: [UInt8], retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
    }

    /// A message whose payload is the UTF-8 bytes of `text` (coaty-js sends strings this way).
    public init(topic: String, text: String, retain: Bool = false) {
        self.init(topic: topic, payload: Array(text.utf8), retain: retain)
    }

    /// The publication, after checking the topic.
    ///
    /// - Throws: ``EventError`` with code `EventError.Code.invalidTopic` when the topic starts
    ///   with `coaty/` or is not a valid topic name (coaty-js logs and drops such messages).
    package func publication() throws(EventError) -> Publication {
        guard MQTTTopic.isValidRawPublicationTopic(topic) else {
            throw EventError(
                code: .invalidTopic, eventType: nil, field: "topic",
                detail: "Raw topic '\(topic)' must be a non-empty topic name without '+', '#' or U+0000, "
                    + "at most 65535 bytes, not starting with 'coaty/'")
        }
        return Publication(topic: topic, payload: payload, retain: retain)
    }
}
