/// An MQTT quality of service level (not `QualityOfService`, which Foundation has). coaty-js publishes everything at ``atMostOnce``.
public enum MQTTQoS: Int, Sendable, Hashable, CaseIterable {
    /// At most once (QoS 0): fire and forget, as coaty-js.
    case atMostOnce = 0
    /// At least once (QoS 1): acknowledged by the broker.
    case atLeastOnce = 1
    /// Exactly once (QoS 2).
    case exactlyOnce = 2
}
