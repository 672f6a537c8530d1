/// The value of a ``Sensor``'s observed property at one time; object type
/// `coaty.sensorThings.Observation` (core type `CoatyObject`).
///
/// Its `parentObjectId` is the id of its sensor. An observation made in Swift encodes its members
/// in the order coaty-js's `SensorSourceController` writes them (`name`, `objectId`,
/// `parentObjectId`, `coreType`, `objectType`, `phenomenonTime`, `result`, `resultTime`, …).
public struct Observation: CoatyObject, ObjectBaseStoring, Hashable {
    /// The core type `CoatyObject`.
    public static let coreType = CoreType.coatyObject
    /// `coaty.sensorThings.Observation`.
    public static let objectType = "coaty.sensorThings.Observation"

    /// The base fields: ``objectID``, ``objectType``, ``name`` and the optional ones.
    public var base: ObjectBase
    /// When the observed phenomenon happened, in milliseconds since the Unix epoch (not negative).
    public var phenomenonTime: Double
    /// The observed value; any JSON value, of the kind the sensor's observation type names.
    public var result: JSONValue
    /// When the result was made, in milliseconds since the Unix epoch (not negative).
    public var resultTime: Double
    /// The quality of the result; each non-empty.
    public var resultQuality: [String]?
    /// The time the result may be used in.
    public var validTime: EpochInterval?
    /// The environmental conditions of the measurement as key-value pairs.
    public var parameters: JSONObject?
    /// The id of the ``FeatureOfInterest`` (or ``Location``) observed; non-empty.
    public var featureOfInterestID: String?
    /// Every member this type does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder = WireKeyOrder.none
}

extension Observation {
    /// Creates an Observation object; `parentObjectID` is the id of its ``Sensor``.
    public init(
        objectID: String = ObjectID.make(), name: String, phenomenonTime: Double, result: JSONValue,
        resultTime: Double, resultQuality: [String]? = nil, validTime: EpochInterval? = nil,
        parameters: JSONObject? = nil, featureOfInterestID: String? = nil, parentObjectID: String? = nil,
        externalID: String? = nil, locationID: String? = nil, isDeactivated: Bool? = nil, custom: JSONObject = [:]
    ) {
        self.init(
            base: ObjectBase(objectID, Self.objectType, name, externalID, parentObjectID, locationID, isDeactivated),
            phenomenonTime: phenomenonTime, result: result, resultTime: resultTime, resultQuality: resultQuality,
            validTime: validTime, parameters: parameters, featureOfInterestID: featureOfInterestID, custom: custom,
            wireOrder: .none)
    }
}

extension Observation: SensorThingsObject {
    static let wireSchema = WireSchema<Observation>([
        .required("phenomenonTime", \.phenomenonTime),
        .required("result", \.result),
        .required("resultTime", \.resultTime),
        .optional("resultQuality", \.resultQuality),
        .optional("validTime", \.validTime),
        .optional("parameters", \.parameters),
        .optional("featureOfInterestId", \.featureOfInterestID, Wire.nonEmptyString),
    ])
    static let wireTemplate = Observation(name: "", phenomenonTime: 0, result: .null, resultTime: 0)

    func validateMembers(_ context: WireContext) throws(ObjectDecodingError) {
        try Wire.checkTimestamp(phenomenonTime, "phenomenonTime", context)
        try Wire.checkTimestamp(resultTime, "resultTime", context)
        try Wire.checkNonEmpty(resultQuality, "resultQuality", context)
        try validTime?.validateWire(context.nested("validTime"))
        if featureOfInterestID?.isEmpty == true {
            throw context.error("featureOfInterestId", "must be a non-empty string, found an empty string")
        }
    }

    /// The wire form, in coaty-js's order for observations made in Swift.
    func wireObject() throws -> JSONObject {
        try validateWire(encodingContext)
        var head = JSONObject(capacity: 16)
        head.appendNew("name", .string(name))
        head.appendNew("objectId", .string(objectID))
        if let parentObjectID { head.appendNew("parentObjectId", .string(parentObjectID)) }
        head.appendNew("coreType", .string(CoreType.coatyObject.rawValue))
        head.appendNew("objectType", .string(objectType))
        BaseFields.appendOptional(
            externalID: externalID, parentObjectID: nil, locationID: locationID, isDeactivated: isDeactivated,
            to: &head)
        Self.wireSchema.write(self, to: &head)
        return wireOrder.merge(head: head, custom: custom)
    }
}
