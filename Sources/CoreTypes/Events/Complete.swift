/// Complete (`CPL`): one answer to an ``Update``: the object as the responder now has it.
///
/// The object id must be the updated object's (``Update/check(_:)``).
///
/// ```swift
/// let publication = try update.responsePublication(
///     Complete(object: changedLamp), correlationID: topic.correlationID, in: scope)
/// ```
public struct Complete: CoatyEvent, ObjectCarryingEvent, ScannableEvent {
    /// `.complete`.
    public static let eventType = EventType.complete

    /// The updated object.
    public var object: any CoatyObject
    /// Application data; always a JSON object when present.
    public var privateData: JSONObject?

    /// Answers with `object`.
    public init(object: any CoatyObject, privateData: JSONObject? = nil) {
        self.object = object
        self.privateData = privateData
    }

    /// A Complete read from its bytes without a JSON tree (``ScannedPayload``); `nil` when the
    /// payload is not one it reads (the tree then decides).
    init?(scanning payload: [UInt8], registry: ObjectTypeRegistry) {
        guard let scanned = ScannedPayload.object(in: payload, registry: registry) else { return nil }
        self.init(object: scanned.object, privateData: scanned.privateData)
    }

    /// Decodes an inbound Complete payload: a valid `object`, `privateData` absent or a JSON object.
    ///
    /// - Throws: ``EventError`` saying which member is wrong.
    public init(json: JSONValue, registry: ObjectTypeRegistry) throws(EventError) {
        let reader = try PayloadReader(json, Self.eventType)
        guard let object = try reader.object("object", registry: registry) else {
            throw reader.error(.missingMember, "object", "a Complete carries the updated object")
        }
        self.object = object
        privateData = try reader.privateData()
    }

    /// Writes the payload: `{"object":…,"privateData":…}`.
    func write(to writer: inout some PayloadSink) throws(EventError) {
        try writer.setObject("object", object)
        writer.set("privateData", privateData)
    }
}
