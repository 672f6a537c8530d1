/// A topic that starts with `coaty/` but cannot be read as a ``CoatyTopic``.
///
/// Thrown by ``CoatyTopic/init(parsing:)``. A receiver drops such a message: it is neither a
/// Coaty event it can dispatch nor a Raw message (coaty-js never hands `coaty/…` topics to Raw
/// observers).
///
/// coaty-js `MqttTopic.createByName` throws only for `Code.missingEventLevel`. For the other
/// codes it returns a topic with an `undefined` or `NaN` field, which coaty-js then drops (unknown
/// event) or dispatches with that field undefined; a `CoatyTopic` has no such fields.
public struct TopicParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the topic.
    public typealias Code = ErrorCode<TopicParseError>

    /// What is wrong with the topic.
    public let code: Code

    /// The topic that was read.
    public let topic: String

    /// Creates an error for `topic`.
    public init(code: Code, topic: String) {
        self.code = code
        self.topic = topic
    }

    /// The code and what it means for the topic.
    public var description: String {
        switch code {
        case .missingEventLevel:
            "\(code): '\(topic)' starts with 'coaty/' but has no event level; drop the message"
        case .invalidVersion:
            "\(code): the version level of '\(topic)' is not a decimal integer; drop the message"
        case .unknownEventType:
            "\(code): the event level of '\(topic)' names no Coaty event; drop the message"
        default:
            "\(code): '\(topic)' has no source level; drop the message"
        }
    }
}
