/// A source of IO values in an IO context (a sensor, a data feed); core type `IoSource`.
public struct IoSource: CoatyObject, ObjectBaseStoring, Hashable {
    /// The core type `IoSource`.
    public static let coreType = CoreType.ioSource

    /// The base fields: ``objectID``, ``objectType``, ``name`` and the optional ones.
    public var base: ObjectBase
    /// The type of the values the source publishes, such as `com.example.Temperature[Celsius]`.
    public var valueType: String
    /// How a router limits the rate of values.
    public var updateStrategy: IoSourceBackpressureStrategy?
    /// The desired interval between values in milliseconds (not negative).
    public var updateRate: Double?
    /// Whether values are raw bytes instead of JSON.
    public var useRawIoValues: Bool?
    /// A non-Coaty MQTT topic the values are published on.
    public var externalRoute: String?
    /// Every member this type does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder: WireKeyOrder

    /// Creates an IoSource object.
    public init(
        objectID: String = ObjectID.make(), objectType: String = IoSource.objectType, name: String, valueType: String,
        updateStrategy: IoSourceBackpressureStrategy? = nil, updateRate: Double? = nil, useRawIoValues: Bool? = nil,
        externalRoute: String? = nil, externalID: String? = nil, parentObjectID: String? = nil,
        locationID: String? = nil, isDeactivated: Bool? = nil, custom: JSONObject = [:]
    ) {
        self.base = ObjectBase(
            objectID: objectID, objectType: objectType, name: name, externalID: externalID,
            parentObjectID: parentObjectID, locationID: locationID, isDeactivated: isDeactivated)
        self.valueType = valueType
        self.updateStrategy = updateStrategy
        self.updateRate = updateRate
        self.useRawIoValues = useRawIoValues
        self.externalRoute = externalRoute
        self.custom = custom
        self.wireOrder = .none
    }

    /// Decodes and validates an object of core type `IoSource`, as coaty-js's
    /// `CoreTypes.isObject(obj, "IoSource")` does; members this type does not declare go to ``custom``.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the first missing or invalid field.
    public init(jsonObject: JSONObject) throws(ObjectDecodingError) {
        try self.init(wire: jsonObject, context: WireContext(of: jsonObject), registry: ObjectTypeRegistry())
    }
}

extension IoSource: CoreObject {
    init(wire object: JSONObject, context: WireContext, registry: ObjectTypeRegistry) throws(ObjectDecodingError) {
        var base = BaseFields()
        var custom = JSONObject()
        var valueType: String?
        var updateStrategy: IoSourceBackpressureStrategy?
        var updateRate: Double?
        var useRawIoValues: Bool?
        var externalRoute: String?
        for (key, member) in object {
            if try base.read(key, member, context) { continue }
            switch key {
            case "valueType": valueType = try Wire.nonEmptyString(member, key, context)
            case "updateStrategy":
                updateStrategy = try Wire.enumeration(member, key, context, IoSourceBackpressureStrategy.self)
            case "updateRate": updateRate = try Wire.number(member, key, context)
            case "useRawIoValues": useRawIoValues = try Wire.bool(member, key, context)
            case "externalRoute": externalRoute = try Wire.string(member, key, context)
            default: custom.appendNew(key, member)
            }
        }
        let fields = try base.required(as: .ioSource, context)
        guard let valueType else { throw context.missing("valueType") }
        if let updateRate, !(updateRate >= 0) {
            throw context.error("updateRate", "must not be negative, found \(updateRate)")
        }
        self.base = fields
        self.valueType = valueType
        self.updateStrategy = updateStrategy
        self.updateRate = updateRate
        self.useRawIoValues = useRawIoValues
        self.externalRoute = externalRoute
        self.custom = custom
        self.wireOrder = WireKeyOrder(source: object)
    }

    func wireObject() -> JSONObject {
        var head = baseHead(capacity: 13)
        head.appendNew("valueType", .string(valueType))
        if let updateStrategy { head.appendNew("updateStrategy", .int(updateStrategy.rawValue)) }
        if let updateRate { head.appendNew("updateRate", .double(updateRate)) }
        if let useRawIoValues { head.appendNew("useRawIoValues", .bool(useRawIoValues)) }
        if let externalRoute { head.appendNew("externalRoute", .string(externalRoute)) }
        return wireOrder.merge(head: head, custom: custom)
    }
}

/// How values of an ``IoSource`` are rate-limited; an integer on the wire.
public enum IoSourceBackpressureStrategy: Int, Sendable, Hashable, CaseIterable, Codable {
    /// The router decides (`Default` in coaty-js).
    case `default` = 0
    /// Every value is published (`None` in coaty-js).
    case noBackpressure = 1
    /// The most recent value is published at the update rate.
    case sample = 2
    /// The first value is published, then none for the update rate.
    case throttle = 3
}
