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
    var wireOrder = WireKeyOrder.none
}

extension IoActor {
    /// Creates an IoActor object.
    public init(
        objectID: String = ObjectID.make(), objectType: String = IoActor.objectType, name: String, valueType: String,
        updateRate: Double? = nil, useRawIoValues: Bool? = nil, externalRoute: String? = nil, externalID: String? = nil,
        parentObjectID: String? = nil, locationID: String? = nil, isDeactivated: Bool? = nil, custom: JSONObject = [:]
    ) {
        self.init(
            base: ObjectBase(objectID, objectType, name, externalID, parentObjectID, locationID, isDeactivated),
            valueType: valueType, updateRate: updateRate, useRawIoValues: useRawIoValues, externalRoute: externalRoute,
            custom: custom, wireOrder: .none)
    }
}

extension IoActor: CoreObject, WireDescribed, WireValue {
    static let wireSchema = WireSchema<IoActor>([
        .required("valueType", \.valueType, Wire.nonEmptyString),
        .optional("updateRate", \.updateRate),
        .optional("useRawIoValues", \.useRawIoValues),
        .optional("externalRoute", \.externalRoute),
    ])
    static let wireTemplate = IoActor(name: "", valueType: "")

    func validateWire(_ context: WireContext) throws(ObjectDecodingError) {
        try Wire.checkUpdateRate(updateRate, context)
    }
}
