/// An instrument that observes a property of a ``Thing`` and produces ``Observation``s of it;
/// object type `coaty.sensorThings.Sensor` (core type `CoatyObject`).
///
/// Its `parentObjectId` is the id of its thing. A `SensorSourceController` (module Agent)
/// advertises sensors and publishes their observations.
///
/// ```swift
/// let sensor = Sensor(
///     name: "Thermometer", description: "Kitchen thermometer", encodingType: .pdf,
///     metadata: "https://example.com/datasheet.pdf",
///     unitOfMeasurement: UnitOfMeasurement(name: "Degree Celsius", symbol: "degC"),
///     observationType: .measurement,
///     observedProperty: ObservedProperty(name: "Temperature", definition: "https://qudt.org/vocab/quantitykind/Temperature", description: "Air temperature"),
///     parentObjectID: kitchen.objectID)
/// ```
public struct Sensor: CoatyObject, ObjectBaseStoring, Hashable {
    /// The core type `CoatyObject`.
    public static let coreType = CoreType.coatyObject
    /// `coaty.sensorThings.Sensor`.
    public static let objectType = "coaty.sensorThings.Sensor"

    /// The base fields: ``objectID``, ``objectType``, ``name`` and the optional ones.
    public var base: ObjectBase
    /// A description of the sensor.
    public var description: String
    /// How ``metadata`` is encoded (``EncodingType/pdf``, ``EncodingType/sensorML``).
    public var encodingType: EncodingType
    /// The detailed description of the sensor, encoded as ``encodingType`` says; any JSON value.
    public var metadata: JSONValue
    /// The unit of the observations' results.
    public var unitOfMeasurement: UnitOfMeasurement
    /// The kind of result the observations carry.
    public var observationType: ObservationType
    /// The bounding box of the features of interest of all observations (a GeoJSON Polygon).
    public var observedArea: JSONObject?
    /// The interval of the phenomenon times of all observations.
    public var phenomenonTime: EpochInterval?
    /// The interval of the result times of all observations.
    public var resultTime: EpochInterval?
    /// The phenomenon every observation of this sensor observes.
    public var observedProperty: ObservedProperty
    /// Every member this type does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder = WireKeyOrder.none
}

extension Sensor {
    /// Creates a Sensor object; `parentObjectID` is the id of its ``Thing``.
    public init(
        objectID: String = ObjectID.make(), name: String, description: String, encodingType: EncodingType,
        metadata: JSONValue, unitOfMeasurement: UnitOfMeasurement, observationType: ObservationType,
        observedProperty: ObservedProperty, observedArea: JSONObject? = nil, phenomenonTime: EpochInterval? = nil,
        resultTime: EpochInterval? = nil, parentObjectID: String? = nil, externalID: String? = nil,
        locationID: String? = nil, isDeactivated: Bool? = nil, custom: JSONObject = [:]
    ) {
        self.init(
            base: ObjectBase(objectID, Self.objectType, name, externalID, parentObjectID, locationID, isDeactivated),
            description: description, encodingType: encodingType, metadata: metadata,
            unitOfMeasurement: unitOfMeasurement, observationType: observationType, observedArea: observedArea,
            phenomenonTime: phenomenonTime, resultTime: resultTime, observedProperty: observedProperty, custom: custom,
            wireOrder: .none)
    }
}

extension Sensor: SensorThingsObject {
    static let wireSchema = WireSchema<Sensor>([
        .required("description", \.description),
        .required("encodingType", \.encodingType),
        .required("metadata", \.metadata),
        .required("unitOfMeasurement", \.unitOfMeasurement),
        .required("observationType", \.observationType),
        .optional("observedArea", \.observedArea),
        .optional("phenomenonTime", \.phenomenonTime),
        .optional("resultTime", \.resultTime),
        .required("observedProperty", \.observedProperty),
    ])
    static let wireTemplate = Sensor(
        name: "", description: "", encodingType: .undefined, metadata: .null, unitOfMeasurement: UnitOfMeasurement(),
        observationType: .observation, observedProperty: ObservedProperty(name: "", definition: "", description: ""))

    func validateMembers(_ context: WireContext) throws(ObjectDecodingError) {
        try observedProperty.validateWire(context.nested("observedProperty"))
        try phenomenonTime?.validateWire(context.nested("phenomenonTime"))
        try resultTime?.validateWire(context.nested("resultTime"))
    }
}
