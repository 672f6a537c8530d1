/// One MQTT message to publish: topic, payload bytes, QoS and retain flag.
///
/// Publication planning (``RequestEvent/requestPlan(in:makeCorrelationID:)``,
/// ``Advertise/publications(in:)``, ``JoinPlan``) returns these; the agent hands them to MQTT
/// unchanged and in order. Coaty always publishes with QoS 0; only Raw messages may be retained.
///
/// ```swift
/// let publication = try Deadvertise(objectIDs: [lampID]).publication(in: scope)
/// publication.topic     // "coaty/3/-/DAD/<identity id>"
/// ```
package struct Publication: Sendable, Hashable {
    /// The MQTT topic name (never a filter with wildcards).
    package var topic: String
    /// The payload bytes (UTF-8 JSON for Coaty events; anything for Raw and raw IO values).
    package var payload: [UInt8]
    /// The MQTT QoS level; coaty-js uses ``MQTTQoS/atMostOnce`` for every publication
    /// and for the last will.
    package var qos: MQTTQoS
    /// Whether the broker retains the message; coaty-js sets it only for Raw messages that ask for it.
    package var retain: Bool

    /// Creates a publication.
    package init(topic: String, payload: [UInt8], qos: MQTTQoS = .atMostOnce, retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }
}
