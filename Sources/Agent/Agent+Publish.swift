import Synchronization
public import CoreTypes

extension Agent {
    /// Advertises an object: on its core-type topic, and also on its object-type topic unless the
    /// object type is its core type's canonical one (coaty-js's rule).
    ///
    /// Publishing never waits: offline, the publication waits in the offline queue.
    ///
    /// - Throws: `AgentError.Code.invalidEvent` when the object breaks its core type's rules,
    ///   `AgentError.Code.stopped` after the agent stopped.
    public func advertise(_ object: any CoatyObject, privateData: JSONObject? = nil) throws {
        try publish(Advertise(object: object, privateData: privateData))
    }

    /// Publishes an Advertise event.
    public func publish(_ event: Advertise) throws {
        try publish(plan { () throws(EventError) in try event.publications(in: scope) })
    }

    /// Deadvertises objects by id.
    public func deadvertise(_ objectIDs: [String]) throws {
        try publish(Deadvertise(objectIDs: objectIDs))
    }

    /// Publishes a Deadvertise event.
    public func publish(_ event: Deadvertise) throws {
        try publish(plan { () throws(EventError) in try event.publication(in: scope) })
    }

    /// Publishes a Channel event.
    public func publish(_ event: Channel) throws {
        try publish(plan { () throws(EventError) in try event.publication(in: scope) })
    }

    /// Publishes an Associate event (IO routers do this).
    public func publish(_ event: Associate) throws {
        try publish(plan { () throws(EventError) in try event.publication(in: scope) })
    }

    /// Publishes a message recorded earlier on its own topic, Coaty topics included, exactly as it
    /// was (`agent-runner replay`); the topic must be a valid MQTT topic name.
    ///
    /// - Throws: `AgentError.Code.invalidEvent` for an invalid topic name, `AgentError.Code.stopped`
    ///   after the agent stopped.
    package func publishRecorded(topic: String, payload: [UInt8], retain: Bool) throws {
        guard MQTTTopic.isValidTopic(topic) else {
            throw AgentError(code: .invalidEvent, detail: "'\(topic)' is not a valid MQTT topic name")
        }
        try publish(Publication(topic: topic, payload: payload, retain: retain))
    }

    /// Publishes a raw MQTT message (never on a `coaty/…` topic), optionally retained.
    public func publish(_ raw: Raw) throws {
        try publish(plan { () throws(EventError) in try raw.publication() })
    }

    /// Publishes an IO value on an IO route: the bare JSON value, or the raw bytes.
    public func publish(_ value: IoValue, on route: String, usesRawValues: Bool = false) throws {
        try publish(plan { () throws(EventError) in try value.publication(on: route, sourceUsesRawValues: usesRawValues) })
    }
}
