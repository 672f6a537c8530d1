/// A consumer of IO values in an IO context (an actuator, a display); core type `IoActor`.
///
/// An IoActor has no update strategy; coaty-js does not check an `updateStrategy` member on an
/// IoActor, so one that arrives is kept in ``custom``.
public struct IoActor: CoatyObject, Hashable {
    /// The core type `IoActor`.
    public static let coreType = CoreType.ioActor

    /// The object's unique id.
    public var objectId: String
    /// The object's type; defaults to `coaty.IoActor`, or a custom object type of this core type.
    public var objectType: String
    /// A name for the object; may be empty.
    public var name: String
    /// An id the object has outside Coaty; non-empty when set.
    public var externalId: String?
    /// The id of the object this one belongs to; non-empty when set.
    public var parentObjectId: String?
    /// The id of a ``Location`` object; non-empty when set.
    public var locationId: String?
    /// Whether the object is deactivated; the meaning is up to the application.
    public var isDeactivated: Bool?
    /// The type of the values the actor consumes.
    public var valueType: String
    /// The desired interval between values in milliseconds (not negative).
    public var updateRate: Double?
    /// Whether values are raw bytes instead of JSON.
    public var useRawIoValues: Bool?
    /// A non-Coaty MQTT topic the values arrive on.
    public var externalRoute: String?
    /// Every member this type does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder: WireKeyOrder

    /// Creates an IoActor object.
    public init(
        objectId: String = ObjectID.make(), objectType: String = IoActor.objectType, name: String, valueType: String,
        updateRate: Double? = nil, useRawIoValues: Bool? = nil, externalRoute: String? = nil, externalId: String? = nil,
        parentObjectId: String? = nil, locationId: String? = nil, isDeactivated: Bool? = nil, custom: JSONObject = [:]
    ) {
        self.objectId = objectId
        self.objectType = objectType
        self.name = name
        self.externalId = externalId
        self.parentObjectId = parentObjectId
        self.locationId = locationId
        self.isDeactivated = isDeactivated
        self.valueType = valueType
        self.updateRate = updateRate
        self.useRawIoValues = useRawIoValues
        self.externalRoute = externalRoute
        self.custom = custom
        self.wireOrder = .none
    }

    /// Decodes and validates an object of core type `IoActor`, as coaty-js's
    /// `CoreTypes.isObject(obj, "IoActor")` does; members this type does not declare go to ``custom``.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the first missing or invalid field.
    public init(jsonObject: JSONObject) throws(ObjectDecodingError) {
        try self.init(wire: jsonObject, context: WireContext(of: jsonObject), registry: ObjectTypeRegistry())
    }
}

extension IoActor: CoreObject {
    init(wire object: JSONObject, context: WireContext, registry: ObjectTypeRegistry) throws(ObjectDecodingError) {
        var base = BaseFields()
        var custom = JSONObject()
        var valueType: String?
        var updateRate: Double?
        var useRawIoValues: Bool?
        var externalRoute: String?
        for (key, member) in object {
            if try base.read(key, member, context) { continue }
            switch key {
            case "valueType": valueType = try Wire.nonEmptyString(member, key, context)
            case "updateRate": updateRate = try Wire.number(member, key, context)
            case "useRawIoValues": useRawIoValues = try Wire.bool(member, key, context)
            case "externalRoute": externalRoute = try Wire.string(member, key, context)
            default: custom.appendNew(key, member)
            }
        }
        let required = try base.required(as: .ioActor, context)
        guard let valueType else { throw context.missing("valueType") }
        if let updateRate, !(updateRate >= 0) {
            throw context.error("updateRate", "must not be negative, found \(updateRate)")
        }
        self.objectId = required.objectId
        self.objectType = required.objectType
        self.name = required.name
        self.externalId = base.externalId
        self.parentObjectId = base.parentObjectId
        self.locationId = base.locationId
        self.isDeactivated = base.isDeactivated
        self.valueType = valueType
        self.updateRate = updateRate
        self.useRawIoValues = useRawIoValues
        self.externalRoute = externalRoute
        self.custom = custom
        self.wireOrder = WireKeyOrder(source: object)
    }

    func wireObject() -> JSONObject {
        var head = baseHead(capacity: 12)
        head.appendNew("valueType", .string(valueType))
        if let updateRate { head.appendNew("updateRate", .double(updateRate)) }
        if let useRawIoValues { head.appendNew("useRawIoValues", .bool(useRawIoValues)) }
        if let externalRoute { head.appendNew("externalRoute", .string(externalRoute)) }
        return wireOrder.merge(head: head, custom: custom)
    }

    /// Decodes from any decoder holding a JSON object (see ``init(jsonObject:)``).
    public init(from decoder: any Decoder) throws { self = try Self.decodeCore(from: decoder) }
    /// Encodes the wire form.
    public func encode(to encoder: any Encoder) throws { try encodeCore(to: encoder) }
}
