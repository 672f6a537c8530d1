/// The SensorThings object types (``Thing``, ``Sensor``, ``Observation``, ``FeatureOfInterest``):
/// custom object types of core type `CoatyObject` that Coaty itself defines, so they may use the
/// reserved `coaty.` prefix. They decode, validate and encode like the core types, keeping the
/// wire order and unknown members; the validation is coaty-js's `SensorThingsTypes.is…`.
protocol SensorThingsObject: CoreObject, WireDescribed, ObjectBaseStoring {
    /// The checks beyond each member's JSON type, made when decoding and again when encoding.
    func validateMembers(_ context: WireContext) throws(ObjectDecodingError)
}

extension SensorThingsObject {
    func validateWire(_ context: WireContext) throws(ObjectDecodingError) {
        guard objectType == Self.objectType else {
            throw context.error("objectType", "must be '\(Self.objectType)' for \(Self.self), found '\(objectType)'")
        }
        try validateMembers(context)
    }

    /// The wire form, after the checks decoding makes: an invalid object is not sent.
    func wireObject() throws -> JSONObject {
        try validateWire(encodingContext)
        return describedWireObject()
    }

    var encodingContext: WireContext {
        WireContext(objectType: objectType, coreType: CoreType.coatyObject.rawValue)
    }
}

/// The SensorThings object types, to register them all at once.
///
/// ```swift
/// let components = Components(controllers: [.sensorSource()], objectTypes: SensorThings.objectTypes)
/// // or, with a registry of your own:
/// try registry.registerSensorThings()
/// ```
public enum SensorThings {
    /// ``Thing``, ``Sensor``, ``Observation`` and ``FeatureOfInterest``.
    public static var objectTypes: [any CoatyObject.Type] {
        [Thing.self, Sensor.self, Observation.self, FeatureOfInterest.self]
    }
}

extension ObjectTypeRegistry {
    /// Registers ``Thing``, ``Sensor``, ``Observation`` and ``FeatureOfInterest``, so that incoming
    /// objects of their object types decode as these structs (and are validated).
    ///
    /// - Throws: ``ObjectTypeRegistryError`` when the registry is frozen or one of them is already registered.
    public mutating func registerSensorThings() throws {
        for type in SensorThings.objectTypes { try register(type) }
    }
}

extension Wire {
    /// coaty-js's `CoreTypes.isStringArray` on a value made in Swift: every element non-empty.
    static func checkNonEmpty(_ strings: [String]?, _ key: String, _ context: WireContext) throws(ObjectDecodingError) {
        guard let strings else { return }
        for (index, string) in strings.enumerated() where string.isEmpty {
            throw context.error(key + "." + String(index), "must be a non-empty string, found an empty string")
        }
    }

    /// A time stamp of an observation: a number that is not negative.
    static func checkTimestamp(_ value: Double, _ key: String, _ context: WireContext) throws(ObjectDecodingError) {
        guard value >= 0 else { throw context.error(key, "must be a number of milliseconds not below 0, found \(value)") }
    }
}
