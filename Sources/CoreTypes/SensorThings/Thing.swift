/// An object of the physical or the information world that can be identified and integrated into
/// a network; object type `coaty.sensorThings.Thing` (core type `CoatyObject`).
///
/// Its ``Sensor``s name it as their `parentObjectId`.
public struct Thing: CoatyObject, ObjectBaseStoring, Hashable {
    /// The core type `CoatyObject`.
    public static let coreType = CoreType.coatyObject
    /// `coaty.sensorThings.Thing`.
    public static let objectType = "coaty.sensorThings.Thing"

    /// The base fields: ``objectID``, ``objectType``, ``name`` and the optional ones.
    public var base: ObjectBase
    /// A short description of the thing.
    public var description: String
    /// Application properties as key-value pairs.
    public var properties: JSONObject?
    /// The ids of the ``Location`` objects of the thing; each non-empty.
    public var locations: [String]?
    /// Every member this type does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder = WireKeyOrder.none
}

extension Thing {
    /// Creates a Thing object.
    public init(
        objectID: String = ObjectID.make(), name: String, description: String, properties: JSONObject? = nil,
        locations: [String]? = nil, externalID: String? = nil, parentObjectID: String? = nil,
        locationID: String? = nil, isDeactivated: Bool? = nil, custom: JSONObject = [:]
    ) {
        self.init(
            base: ObjectBase(objectID, Self.objectType, name, externalID, parentObjectID, locationID, isDeactivated),
            description: description, properties: properties, locations: locations, custom: custom, wireOrder: .none)
    }
}

extension Thing: SensorThingsObject {
    static let wireSchema = WireSchema<Thing>([
        .required("description", \.description),
        .optional("properties", \.properties),
        .optional("locations", \.locations),
    ])
    static let wireTemplate = Thing(name: "", description: "")

    func validateMembers(_ context: WireContext) throws(ObjectDecodingError) {
        try Wire.checkNonEmpty(locations, "locations", context)
    }
}
