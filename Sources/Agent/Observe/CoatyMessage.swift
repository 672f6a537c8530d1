public import CoreTypes

/// A Coaty message as it arrived, before it is decoded: its parsed topic and its payload bytes.
///
/// Tools that show the traffic of a namespace (`agent-runner monitor`) observe these with
/// ``Agent/observeAllEvents(isolation:_:)``; applications observe typed events instead.
public struct CoatyMessage: Sendable, Hashable {
    /// The topic, parsed.
    public let topic: CoatyTopic
    /// The payload, exactly as received.
    public let payload: [UInt8]
    /// Whether the broker delivered it from its retained messages.
    public let isRetained: Bool

    /// Creates a message.
    public init(topic: CoatyTopic, payload: [UInt8], isRetained: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.isRetained = isRetained
    }

    /// The identity id of the publishing agent (for IO values, the IO source id).
    public var sourceID: String { topic.sourceID }
}
