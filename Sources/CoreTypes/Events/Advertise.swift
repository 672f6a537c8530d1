/// Advertise (`ADV`): tells other agents that an object exists or has changed.
///
/// Observers subscribe by core type or by object type. The publisher therefore sends the same
/// payload on `ADV:<coreType>` and, when the object's type is not the canonical object type of its
/// core type, also on `ADV::<objectType>`.
///
/// ```swift
/// let event = Advertise(object: lamp, privateData: ["reason": "startup"])
/// for publication in try event.publications(in: scope) { publish(publication) }
/// ```
public struct Advertise: CoatyEvent, ObjectCarryingEvent, ScannableEvent {
    /// `.advertise`.
    public static let eventType = EventType.advertise

    /// The advertised object.
    public var object: any CoatyObject
    /// Application data that is not part of the object; always a JSON object when present.
    public var privateData: JSONObject?

    /// Advertises `object`, with optional private data.
    public init(object: any CoatyObject, privateData: JSONObject? = nil) {
        self.object = object
        self.privateData = privateData
    }

    /// Decodes an inbound Advertise payload; `registry` turns the JSON object into a Swift object.
    ///
    /// Accepts what coaty-js accepts: a valid object of its core type, optional `privateData`
    /// that is a JSON object, and an object type that can be a topic level. Other members are
    /// ignored. The topic's core type is not compared with the object (coaty-js does not either).
    ///
    /// - Throws: ``EventError`` saying which member is wrong.
    public init(json: JSONValue, registry: ObjectTypeRegistry) throws(EventError) {
        let reader = try PayloadReader(json, Self.eventType)
        guard let object = try reader.object("object", registry: registry) else {
            throw reader.error(.missingMember, "object", "an Advertise carries one Coaty object in 'object'")
        }
        self.object = object
        self.privateData = try reader.privateData()
        try EventObjects.checkObjectType(object, eventType: Self.eventType)
    }

    /// Decodes an inbound Advertise from its payload bytes: the same event, or the same error, as
    /// ``init(json:registry:)`` with the parsed payload. An object of a registered ``WireCodable``
    /// type with the `coatyObject` core type is read from the bytes without building their JSON
    /// tree (an agent decodes what it observes so); anything else goes through the tree.
    ///
    /// - Throws: ``EventError`` as ``init(json:registry:)`` throws it, with code
    ///   `EventError.Code.notJSON` when the bytes are not JSON.
    public init(payload: [UInt8], registry: ObjectTypeRegistry) throws(EventError) {
        self = try Self.decoded(payload: payload, registry: registry)
    }

    init?(scanning payload: [UInt8], registry: ObjectTypeRegistry) {
        guard let scanned = ScannedPayload.object(in: payload, registry: registry, checkingTypeFor: Self.eventType)
        else { return nil }
        self.init(object: scanned.object, privateData: scanned.privateData)
    }

    /// Writes the payload: `{"object":…,"privateData":…}`, leaving out `privateData` when it is `nil`.
    func write(to writer: inout some PayloadSink) throws(EventError) {
        try EventObjects.checkObjectType(object, eventType: Self.eventType)
        try writer.setObject("object", object)
        writer.set("privateData", privateData)
    }

    /// The publications of this event: on `ADV:<coreType>`, then on `ADV::<objectType>` unless the
    /// object type is its core type's canonical one (`coaty.Task` for a Task); same payload both
    /// times.
    ///
    /// - Throws: ``EventError`` when the event is not valid.
    package func publications(in scope: AgentScope) throws(EventError) -> [Publication] {
        let payload = try payload()
        let filters = CoatyTopic.eventTypeFilters(
            publishing: Self.eventType, coreType: object.coreType, objectType: object.objectType)
        return filters.map { Publication(topic: scope.topic(Self.eventType, filter: $0), payload: payload) }
    }
}
