/// Update (`UPD`): asks the observers of an object's type to apply a new version of the object;
/// answered by ``Complete``.
///
/// Like ``Advertise``, an Update goes out on the core type (`UPD:<coreType>`) and, when the object
/// type is not its core type's canonical one, also on the object type (`UPD::<objectType>`).
/// coaty-js treats these as two requests with their own correlation ids.
///
/// ```swift
/// let plan = try Update(object: lamp).requestPlan(in: scope, makeCorrelationID: ObjectID.make)
/// plan.exchanges.count   // 2 for a com.example.Light, 1 for a coaty.Task
/// ```
public struct Update: RequestEvent, ObjectCarryingEvent, ScannableEvent {
    /// `.update`.
    public static let eventType = EventType.update

    /// The full new version of the object (Coaty 2 has no partial updates).
    public var object: any CoatyObject

    /// Updates `object`.
    public init(object: any CoatyObject) {
        self.object = object
    }

    /// Decodes an inbound Update payload: a valid `object` whose type can be a topic level.
    ///
    /// - Throws: ``EventError`` saying which member is wrong.
    public init(json: JSONValue, registry: ObjectTypeRegistry) throws(EventError) {
        let reader = try PayloadReader(json, Self.eventType)
        guard let object = try reader.object("object", registry: registry) else {
            throw reader.error(.missingMember, "object", "an Update carries the full object")
        }
        self.object = object
        try EventObjects.checkObjectType(object, eventType: Self.eventType)
    }

    /// Decodes an inbound Update from its payload bytes: the same event, or the same error, as
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
        self.init(object: scanned.object)
    }

    /// Writes the payload: `{"object":…}`.
    func write(to writer: inout some PayloadSink) throws(EventError) {
        try EventObjects.checkObjectType(object, eventType: Self.eventType)
        try writer.setObject("object", object)
    }

    /// Checks a Complete against this Update: same object id (byte for byte, as coaty-js's `===`).
    ///
    /// - Throws: ``EventError`` with code `EventError.Code.responseMismatch`.
    public func check(_ response: Complete) throws(EventError) {
        guard response.object.objectID.hasSameUTF8(as: object.objectID) else {
            throw EventError(
                code: .responseMismatch, eventType: .complete, field: "object.objectId",
                detail: "object id '\(response.object.objectID)' is not the updated '\(object.objectID)'")
        }
    }

    /// Decodes a Complete payload.
    public func decodeResponse(_ json: JSONValue, registry: ObjectTypeRegistry) throws(EventError) -> Complete {
        try Complete(json: json, registry: registry)
    }

    /// Decodes a Complete from its bytes, without a JSON tree when its objects allow it (see
    /// ``RequestEvent/decodeResponse(payload:registry:)``).
    public func decodeResponse(payload: [UInt8], registry: ObjectTypeRegistry) throws(EventError) -> Complete {
        try Complete.decoded(payload: payload, registry: registry)
    }

    /// One or two exchanges, exactly as coaty-js makes them.
    ///
    /// The first correlation id goes with `UPD:<coreType>`. For a custom object type a second id
    /// goes with `UPD::<objectType>`, and that publication is sent first (coaty-js merges the two
    /// response streams with the object-type stream first). Subscribe to the response filters in
    /// ``RequestPlan/exchanges`` order, then publish ``RequestPlan/publications`` in order.
    package func requestPlan(
        in scope: AgentScope, makeCorrelationID: () -> String
    ) throws(EventError) -> RequestPlan {
        let payload = try payload()
        // coaty-js makes the core type's exchange first but publishes the object type's first.
        let publishOrder = CoatyTopic.eventTypeFilters(
            publishing: Self.eventType, coreType: object.coreType, objectType: object.objectType)
        let exchanges = publishOrder.reversed().map { filter in
            RequestPlan.exchange(
                Self.eventType, filter: filter, payload: payload, responseType: Complete.eventType, in: scope,
                correlationID: makeCorrelationID())
        }
        return RequestPlan(exchanges: exchanges, publications: exchanges.reversed().map(\.publication))
    }
}

extension Update: PlannedRequest {}
