/// Discover (`DSC`): asks other agents for objects by id, external id or type; answered by ``Resolve``.
///
/// A Discover has exactly one of four shapes, and the initializers only build those:
///
/// | Shape | Initializer |
/// | --- | --- |
/// | object id | ``init(objectID:)`` |
/// | external id, optionally with type lists | ``init(externalID:objectTypes:coreTypes:)`` |
/// | external id and object id | ``init(externalID:objectID:)`` |
/// | one type list | ``init(objectTypes:)`` or ``init(coreTypes:)`` |
///
/// ```swift
/// let plan = try Discover(coreTypes: [.identity]).requestPlan(in: scope, makeCorrelationID: ObjectID.make)
/// ```
public struct Discover: RequestEvent {
    /// `.discover`.
    public static let eventType = EventType.discover

    /// The external id to look for.
    public let externalID: String?
    /// The object id to look for.
    public let objectID: String?
    /// The object types to look for (non-empty strings).
    public let objectTypes: [String]?
    /// The core types to look for.
    public let coreTypes: [CoreType]?

    private init(externalID: String?, objectID: String?, objectTypes: [String]?, coreTypes: [CoreType]?) {
        self.externalID = externalID
        self.objectID = objectID
        self.objectTypes = objectTypes
        self.coreTypes = coreTypes
    }

    /// Discovers the object with this id.
    public init(objectID: String) {
        self.init(externalID: nil, objectID: objectID, objectTypes: nil, coreTypes: nil)
    }

    /// Discovers objects with this external id, optionally only of the given types.
    ///
    /// With an external id both type lists may be given together.
    public init(externalID: String, objectTypes: [String]? = nil, coreTypes: [CoreType]? = nil) {
        self.init(externalID: externalID, objectID: nil, objectTypes: objectTypes, coreTypes: coreTypes)
    }

    /// Discovers the object with both this external id and this object id.
    public init(externalID: String, objectID: String) {
        self.init(externalID: externalID, objectID: objectID, objectTypes: nil, coreTypes: nil)
    }

    /// Discovers objects of these object types.
    public init(objectTypes: [String]) {
        self.init(externalID: nil, objectID: nil, objectTypes: objectTypes, coreTypes: nil)
    }

    /// Discovers objects of these core types.
    public init(coreTypes: [CoreType]) {
        self.init(externalID: nil, objectID: nil, objectTypes: nil, coreTypes: coreTypes)
    }

    /// Decodes an inbound Discover payload; only the four shapes are accepted.
    ///
    /// `objectId` and `externalId` must be strings (the empty string passes), `objectTypes` an
    /// array of non-empty strings, `coreTypes` an array of core type names; `null` counts as
    /// present and is never valid.
    ///
    /// - Throws: ``EventError`` saying which member is wrong.
    public init(json: JSONValue) throws(EventError) {
        let reader = try PayloadReader(json, Self.eventType)
        let externalID = try reader.string("externalId")
        let objectID = try reader.string("objectId")
        let objectTypes = try reader.stringArray("objectTypes")
        let coreTypes = try reader.coreTypeArray("coreTypes")
        self.init(externalID: externalID, objectID: objectID, objectTypes: objectTypes, coreTypes: coreTypes)
        try checkShape()
    }

    /// Whether this Discover looks for an object id only (no external id).
    public var isDiscoveringObjectID: Bool { externalID == nil && objectID != nil }
    /// Whether this Discover looks for an external id only (no object id).
    public var isDiscoveringExternalID: Bool { externalID != nil && objectID == nil }
    /// Whether this Discover looks for both an external id and an object id.
    public var isDiscoveringExternalAndObjectID: Bool { externalID != nil && objectID != nil }
    /// Whether this Discover looks for types only (no ids).
    public var isDiscoveringTypes: Bool { externalID == nil && objectID == nil }

    /// Whether `object` satisfies every restriction of this Discover (ids and type lists); a
    /// responder uses it to pick what to resolve. Ids and object types compare byte for byte, as
    /// JavaScript's `===` does.
    public func matches(_ object: any CoatyObject) -> Bool {
        (objectID.map { object.objectID.hasSameUTF8(as: $0) } ?? true)
            && (externalID.map { object.externalID?.hasSameUTF8(as: $0) == true } ?? true)
            && (coreTypes.map { $0.contains(object.coreType) } ?? true)
            && (objectTypes.map { $0.contains { $0.hasSameUTF8(as: object.objectType) } } ?? true)
    }

    /// `{"externalId":…,"objectId":…,"objectTypes":[…],"coreTypes":[…]}` with unset members left out.
    ///
    /// - Throws: ``EventError`` when an object type is empty.
    public func json() throws(EventError) -> JSONValue {
        try checkShape()
        var writer = PayloadWriter(Self.eventType)
        writer.set("externalId", externalID.map(JSONValue.string))
        writer.set("objectId", objectID.map(JSONValue.string))
        writer.set("objectTypes", objectTypes)
        writer.set("coreTypes", coreTypes?.map(\.rawValue))
        return writer.json
    }

    /// Checks a Resolve against this Discover, as coaty-js does on both sides.
    ///
    /// Only a Resolve's `object` is checked, `relatedObjects` never: its core type must be in
    /// ``coreTypes`` and its object type in ``objectTypes`` when those are set; its object id must
    /// equal a non-empty ``objectID`` and its external id a non-empty ``externalID`` (byte for byte,
    /// as coaty-js's `===`). A Resolve with only related objects always fits.
    ///
    /// - Throws: ``EventError`` with code `EventError.Code.responseMismatch`.
    public func check(_ response: Resolve) throws(EventError) {
        guard let object = response.object else { return }
        func mismatch(_ field: String, _ detail: String) -> EventError {
            EventError(code: .responseMismatch, eventType: .resolve, field: field, detail: detail)
        }
        if let coreTypes, !coreTypes.contains(object.coreType) {
            throw mismatch("object.coreType", "core type '\(object.coreType)' is not among the Discover's coreTypes")
        }
        if let objectTypes, !objectTypes.contains(where: { $0.hasSameUTF8(as: object.objectType) }) {
            throw mismatch(
                "object.objectType", "object type '\(object.objectType)' is not among the Discover's objectTypes")
        }
        if let objectID, !objectID.isEmpty, !object.objectID.hasSameUTF8(as: objectID) {
            throw mismatch("object.objectId", "object id '\(object.objectID)' is not the discovered '\(objectID)'")
        }
        if let externalID, !externalID.isEmpty, object.externalID?.hasSameUTF8(as: externalID) != true {
            throw mismatch(
                "object.externalId",
                "external id '\(object.externalID ?? "(none)")' is not the discovered '\(externalID)'")
        }
    }

    /// Decodes a Resolve payload.
    public func decodeResponse(_ json: JSONValue, registry: ObjectTypeRegistry) throws(EventError) -> Resolve {
        try Resolve(json: json, registry: registry)
    }

    /// Decodes a Resolve from its bytes, without a JSON tree when its objects allow it (see
    /// ``RequestEvent/decodeResponse(payload:registry:)``).
    public func decodeResponse(payload: [UInt8], registry: ObjectTypeRegistry) throws(EventError) -> Resolve {
        try Resolve.decoded(payload: payload, registry: registry)
    }

    /// One exchange: `coaty/3/<ns>/DSC/<identity>/<id>`, responses on `…/RSV/+/<id>`.
    package func requestPlan(
        in scope: AgentScope, makeCorrelationID: () -> String
    ) throws(EventError) -> RequestPlan {
        let payload = try payload()
        return .single(
            Self.eventType, filter: nil, payload: payload, responseType: Resolve.eventType, in: scope,
            makeCorrelationID: makeCorrelationID)
    }

    /// coaty-js `DiscoverEventData._hasValidParameters`: exactly one of the four shapes.
    private func checkShape() throws(EventError) {
        func invalid(_ field: String?, _ detail: String) -> EventError {
            EventError(code: .conflictingMembers, eventType: Self.eventType, field: field, detail: detail)
        }
        if let objectTypes {
            for (index, type) in objectTypes.enumerated() where type.isEmpty {
                throw EventError(
                    code: .invalidMember, eventType: Self.eventType, field: "objectTypes[\(index)]",
                    detail: "object types must not be empty")
            }
        }
        let hasTypes = objectTypes != nil || coreTypes != nil
        switch (externalID, objectID) {
        case (nil, .some):
            if hasTypes { throw invalid("objectId", "a Discover by object id cannot restrict types") }
        case (.some, .some):
            if hasTypes { throw invalid("objectId", "a Discover by external id and object id cannot restrict types") }
        case (.some, nil):
            return
        case (nil, nil):
            if objectTypes != nil, coreTypes != nil {
                throw invalid("coreTypes", "without an external id, give objectTypes or coreTypes, not both")
            }
            if !hasTypes {
                throw EventError(
                    code: .missingMember, eventType: Self.eventType, field: nil,
                    detail: "give an objectId, an externalId, objectTypes or coreTypes")
            }
        }
    }
}

extension Discover: PlannedRequest {}
