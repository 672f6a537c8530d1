/// The feature whose property an ``Observation`` observes (a room, a river, a sensed area); object
/// type `coaty.sensorThings.FeatureOfInterest` (core type `CoatyObject`).
public struct FeatureOfInterest: CoatyObject, ObjectBaseStoring, Hashable {
    /// The core type `CoatyObject`.
    public static let coreType = CoreType.coatyObject
    /// `coaty.sensorThings.FeatureOfInterest`.
    public static let objectType = "coaty.sensorThings.FeatureOfInterest"

    /// The base fields: ``objectID``, ``objectType``, ``name`` and the optional ones.
    public var base: ObjectBase
    /// A description of the feature.
    public var description: String
    /// How ``metadata`` is encoded (``EncodingType/geoJSON`` for a location).
    public var encodingType: EncodingType
    /// The detailed description of the feature, encoded as ``encodingType`` says; any JSON value.
    public var metadata: JSONValue
    /// Every member this type does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder = WireKeyOrder.none
}

extension FeatureOfInterest {
    /// Creates a FeatureOfInterest object.
    public init(
        objectID: String = ObjectID.make(), name: String, description: String, encodingType: EncodingType,
        metadata: JSONValue, externalID: String? = nil, parentObjectID: String? = nil, locationID: String? = nil,
        isDeactivated: Bool? = nil, custom: JSONObject = [:]
    ) {
        self.init(
            base: ObjectBase(objectID, Self.objectType, name, externalID, parentObjectID, locationID, isDeactivated),
            description: description, encodingType: encodingType, metadata: metadata, custom: custom, wireOrder: .none)
    }
}

extension FeatureOfInterest: SensorThingsObject {
    static let wireSchema = WireSchema<FeatureOfInterest>([
        .required("description", \.description),
        .required("encodingType", \.encodingType),
        .required("metadata", \.metadata),
    ])
    static let wireTemplate = FeatureOfInterest(name: "", description: "", encodingType: .undefined, metadata: .null)

    func validateMembers(_ context: WireContext) throws(ObjectDecodingError) {}
}
