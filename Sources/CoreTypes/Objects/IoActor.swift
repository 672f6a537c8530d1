/// A consumer of IO values in an IO context (an actuator, a display); core type `IoActor`.
///
/// An IoActor has no update strategy; coaty-js does not check an `updateStrategy` member on an
/// IoActor, so one that arrives is kept in ``custom``.
public struct IoActor: CoatyObject, ObjectBaseStoring, Hashable {
    /// The core type `IoActor`.
    public static let coreType = CoreType.ioActor

    /// The base fields: ``objectID``, ``objectType``, ``name`` and the optional ones.
    public var base: ObjectBase
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
        objectID: String = ObjectID.make(), objectType: String = IoActor.objectType, name: String, valueType: String,
        updateRate: Double? = nil, useRawIoValues: Bool? = nil, externalRoute: String? = nil, externalID: String? = nil,
        parentObjectID: String? = nil, locationID: String? = nil, isDeactivated: Bool? = nil, custom: JSONObject = [:]
    ) {
        self.base = ObjectBase(
            objectID: objectID, objectType: objectType, name: name, externalID: externalID,
            parentObjectID: parentObjectID, locationID: locationID, isDeactivated: isDeactivated)
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
        let fields = try base.required(as: .ioActor, context)
        guard let valueType else { throw context.missing("valueType") }
        if let updateRate, !(updateRate >= 0) {
            throw context.error("updateRate", "must not be negative, found \(updateRate)")
        }
        self.base = fields
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
}
