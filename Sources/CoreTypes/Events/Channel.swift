/// Channel (`CHN`): broadcasts one object or a list of objects to the observers of a channel id.
///
/// The channel id is the topic's event filter (`CHN:<channelId>`); it must be non-empty and
/// contain no `/`, `+`, `#` or U+0000.
///
/// ```swift
/// let event = Channel(id: "sensors.floor1", objects: readings)
/// publish(try event.publication(in: scope))
/// ```
public struct Channel: CoatyEvent, ObjectCarryingEvent {
    /// `.channel`.
    public static let eventType = EventType.channel

    /// What a Channel event carries: exactly one of an object or a list of objects.
    ///
    /// ```swift
    /// switch event.content {
    /// case .object(let object): show(object)
    /// case .objects(let objects): objects.forEach(show)
    /// }
    /// ```
    public enum Content: Sendable {
        /// One object, sent as `"object"`.
        case object(any CoatyObject)
        /// A list of objects (possibly empty), sent as `"objects"`.
        case objects([any CoatyObject])
    }

    /// The channel id (the topic's event filter).
    public var id: String
    /// The object or objects.
    public var content: Content
    /// Application data; always a JSON object when present.
    public var privateData: JSONObject?

    /// Sends one object on channel `id`.
    public init(id: String, object: any CoatyObject, privateData: JSONObject? = nil) {
        self.init(id: id, content: .object(object), privateData: privateData)
    }

    /// Sends a list of objects (possibly empty) on channel `id`.
    public init(id: String, objects: [any CoatyObject], privateData: JSONObject? = nil) {
        self.init(id: id, content: .objects(objects), privateData: privateData)
    }

    /// Sends `content` on channel `id`.
    public init(id: String, content: Content, privateData: JSONObject? = nil) {
        self.id = id
        self.content = content
        self.privateData = privateData
    }

    /// Decodes an inbound Channel payload received on channel `id`.
    ///
    /// Exactly one of `object` (a valid object) and `objects` (an array of valid objects) must be
    /// present; `privateData` must be absent or a JSON object; the channel id must be a valid
    /// event filter.
    ///
    /// - Throws: ``EventError`` saying which member is wrong.
    public init(id: String, json: JSONValue, registry: ObjectTypeRegistry) throws(EventError) {
        let reader = try PayloadReader(json, Self.eventType)
        let privateData = try reader.privateData()
        if reader["object"] != nil, reader["objects"] != nil {
            throw reader.error(.conflictingMembers, "objects", "a Channel carries 'object' or 'objects', not both")
        }
        if let object = try reader.object("object", registry: registry) {
            content = .object(object)
        } else if let objects = try reader.objects("objects", registry: registry) {
            content = .objects(objects)
        } else {
            throw reader.error(.missingMember, "object", "a Channel carries 'object' or 'objects'")
        }
        self.id = id
        self.privateData = privateData
        try Self.checkID(id)
    }

    /// The objects carried, whichever form the event uses.
    public var objects: [any CoatyObject] {
        switch content {
        case .object(let object): return [object]
        case .objects(let objects): return objects
        }
    }

    /// Writes the payload: `{"object":…}` or `{"objects":[…]}`, then `"privateData"` when set.
    func write(to writer: inout some PayloadSink) throws(EventError) {
        try Self.checkID(id)
        switch content {
        case .object(let object): try writer.setObject("object", object)
        case .objects(let objects): try writer.setObjects("objects", objects)
        }
        writer.set("privateData", privateData)
    }

    /// The publication on `coaty/3/<namespace>/CHN:<id>/<identity>`.
    ///
    /// - Throws: ``EventError`` when the event is not valid.
    package func publication(in scope: AgentScope) throws(EventError) -> Publication {
        let payload = try payload()
        return Publication(
            topic: scope.topic(Self.eventType, filter: id),
            payload: payload)
    }

    static func checkID(_ id: String) throws(EventError) {
        guard CoatyTopic.isValidEventFilter(id) else {
            throw EventError(
                code: .invalidEventFilter, eventType: eventType, field: "channelId",
                detail: "channel id '\(id)' must be non-empty and contain no '/', '+', '#' or U+0000")
        }
    }
}
