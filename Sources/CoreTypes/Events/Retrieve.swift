/// Retrieve (`RTV`): one answer to a ``Query``: the matching objects.
///
/// Every object must be of a type the Query asked for (``Query/check(_:)``); otherwise the
/// responder refuses to publish it and the requester drops it.
///
/// ```swift
/// let publication = try query.responsePublication(
///     Retrieve(objects: lamps), correlationID: topic.correlationID, in: scope)
/// ```
public struct Retrieve: CoatyEvent, ObjectCarryingEvent, ScannableEvent {
    /// `.retrieve`.
    public static let eventType = EventType.retrieve

    /// The retrieved objects (possibly none).
    public var objects: [any CoatyObject]
    /// Application data; always a JSON object when present.
    public var privateData: JSONObject?

    /// Answers with `objects`.
    public init(objects: [any CoatyObject], privateData: JSONObject? = nil) {
        self.objects = objects
        self.privateData = privateData
    }

    /// A Retrieve read from its bytes without a JSON tree (``ScannedPayload``); `nil` when the
    /// payload is not one it reads (the tree then decides).
    init?(scanning payload: [UInt8], registry: ObjectTypeRegistry) {
        guard
            let scanned = ScannedPayload.read(payload, registry: registry, member: .objects),
            let objects = scanned.objects
        else { return nil }
        self.init(objects: objects, privateData: scanned.privateData)
    }

    /// Decodes an inbound Retrieve payload: `objects` an array of valid objects, `privateData`
    /// absent or a JSON object.
    ///
    /// - Throws: ``EventError`` saying which member is wrong.
    public init(json: JSONValue, registry: ObjectTypeRegistry) throws(EventError) {
        let reader = try PayloadReader(json, Self.eventType)
        privateData = try reader.privateData()
        guard let objects = try reader.objects("objects", registry: registry) else {
            throw reader.error(.missingMember, "objects", "a Retrieve carries an array of objects (possibly empty)")
        }
        self.objects = objects
    }

    /// Writes the payload: `{"objects":[…],"privateData":…}`.
    func write(to writer: inout some PayloadSink) throws(EventError) {
        try writer.setObjects("objects", objects)
        writer.set("privateData", privateData)
    }
}
