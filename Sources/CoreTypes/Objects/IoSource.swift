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
    var wireOrder = WireKeyOrder.none
}

extension IoSource {
    /// Creates an IoSource object.
    public init(
        objectID: String = ObjectID.make(), objectType: String = IoSource.objectType, name: String, valueType: String,
        updateStrategy: IoSourceBackpressureStrategy? = nil, updateRate: Double? = nil, useRawIoValues: Bool? = nil,
        externalRoute: String? = nil, externalID: String? = nil, parentObjectID: String? = nil,
        locationID: String? = nil, isDeactivated: Bool? = nil, custom: JSONObject = [:]
    ) {
        self.init(
            base: ObjectBase(objectID, objectType, name, externalID, parentObjectID, locationID, isDeactivated),
            valueType: valueType, updateStrategy: updateStrategy, updateRate: updateRate,
            useRawIoValues: useRawIoValues, externalRoute: externalRoute, custom: custom, wireOrder: .none)
    }
}

extension IoSource: CoreObject, WireDescribed, WireValue {
    static let wireSchema = WireSchema<IoSource>([
        .required("valueType", \.valueType, Wire.nonEmptyString),
        .optional("updateStrategy", \.updateStrategy),
        .optional("updateRate", \.updateRate),
        .optional("useRawIoValues", \.useRawIoValues),
        .optional("externalRoute", \.externalRoute),
    ])
    static let wireTemplate = IoSource(name: "", valueType: "")

    func validateWire(_ context: WireContext) throws(ObjectDecodingError) {
        try Wire.checkUpdateRate(updateRate, context)
    }
}

extension IoSourceBackpressureStrategy: WireEnumeration {}

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
