/// Resolve (`RSV`): one answer to a ``Discover``: an object, related objects, or both.
///
/// A responder may resolve a Discover any number of times. Before publishing, the responder
/// checks the Resolve against the Discover (``Discover/check(_:)``), and so does the requester
/// when it arrives.
///
/// ```swift
/// let publication = try discover.responsePublication(
///     Resolve(object: lamp), correlationID: topic.correlationID, in: scope)
/// ```
public struct Resolve: CoatyEvent, ObjectCarryingEvent, ScannableEvent {
    /// `.resolve`.
    public static let eventType = EventType.resolve

    /// The resolved object, if any.
    public var object: (any CoatyObject)?
    /// Objects related to the request, if any.
    public var relatedObjects: [any CoatyObject]?
    /// Application data; always a JSON object when present.
    public var privateData: JSONObject?

    /// Resolves with an object and, optionally, related objects.
    public init(object: any CoatyObject, relatedObjects: [any CoatyObject]? = nil, privateData: JSONObject? = nil) {
        self.object = object
        self.relatedObjects = relatedObjects
        self.privateData = privateData
    }

    /// Resolves with related objects only (the list may be empty).
    public init(relatedObjects: [any CoatyObject], privateData: JSONObject? = nil) {
        self.object = nil
        self.relatedObjects = relatedObjects
        self.privateData = privateData
    }

    /// A Resolve read from its bytes without a JSON tree (``ScannedPayload``): one `object` and no
    /// `relatedObjects`; `nil` when the payload is not such a payload (the tree then decides).
    init?(scanning payload: [UInt8], registry: ObjectTypeRegistry) {
        guard let scanned = ScannedPayload.object(in: payload, registry: registry) else { return nil }
        self.init(object: scanned.object, privateData: scanned.privateData)
    }

    /// Decodes an inbound Resolve payload: at least one of `object` and `relatedObjects`, each
    /// valid when present; `privateData` absent or a JSON object.
    ///
    /// - Throws: ``EventError`` saying which member is wrong.
    public init(json: JSONValue, registry: ObjectTypeRegistry) throws(EventError) {
        let reader = try PayloadReader(json, Self.eventType)
        privateData = try reader.privateData()
        object = try reader.object("object", registry: registry)
        relatedObjects = try reader.objects("relatedObjects", registry: registry)
        if object == nil, relatedObjects == nil {
            throw reader.error(.missingMember, "object", "a Resolve carries 'object', 'relatedObjects' or both")
        }
    }

    /// Writes the payload: `{"object":…,"relatedObjects":[…],"privateData":…}` with unset members left out.
    func write(to writer: inout some PayloadSink) throws(EventError) {
        guard object != nil || relatedObjects != nil else {
            throw writer.error(.missingMember, "object", "a Resolve carries 'object', 'relatedObjects' or both")
        }
        try writer.setObject("object", object)
        try writer.setObjects("relatedObjects", relatedObjects)
        writer.set("privateData", privateData)
    }
}
