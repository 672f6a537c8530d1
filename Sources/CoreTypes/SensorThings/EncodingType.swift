/// How the `metadata` of a ``Sensor`` or ``FeatureOfInterest`` is encoded: any string, with the
/// common ones of the OGC SensorThings API as constants (coaty-js's `EncodingTypes`).
public struct EncodingType: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral {
    /// The encoding type on the wire.
    public var rawValue: String

    /// An encoding type.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// An encoding type.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// No encoding type: the empty string.
    public static let undefined = EncodingType(rawValue: "")
    /// A PDF document, the usual form of a sensor's datasheet.
    public static let pdf = EncodingType(rawValue: "application/pdf")
    /// SensorML 2.0.
    public static let sensorML = EncodingType(rawValue: "http://www.opengis.net/doc/IS/SensorML/2.0")
    /// GeoJSON, for a feature of interest.
    public static let geoJSON = EncodingType(rawValue: "application/vnd.geo+json")
}

/// The kind of result a ``Sensor``'s observations carry: an OGC Observations and Measurements
/// 2.0 URI (coaty-js's `ObservationTypes`).
public struct ObservationType: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral {
    /// The observation type on the wire.
    public var rawValue: String

    /// An observation type.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// An observation type.
    public init(stringLiteral value: String) { self.rawValue = value }

    private static func om(_ name: String) -> ObservationType {
        ObservationType(rawValue: "http://www.opengis.net/def/observationType/OGC-OM/2.0/" + name)
    }

    /// Results are URIs (`OM_Category_Observation`).
    public static let category = om("OM_Category_Observation")
    /// Results are integers (`OM_CountObservation`).
    public static let count = om("OM_CountObservation")
    /// Results are doubles (`OM_Measurement`).
    public static let measurement = om("OM_Measurement")
    /// Results of any JSON type (`OM_Observation`, coaty-js's `ANY`).
    public static let observation = om("OM_Observation")
    /// Results are booleans (`OM_TruthObservation`).
    public static let truth = om("OM_TruthObservation")
}

extension EncodingType: WireValue {
    static func read(_ value: JSONValue, _ key: String, _ context: WireContext) throws(ObjectDecodingError) -> Self {
        Self(rawValue: try Wire.string(value, key, context))
    }
    var wireValue: JSONValue { .string(rawValue) }
}

extension ObservationType: WireValue {
    static func read(_ value: JSONValue, _ key: String, _ context: WireContext) throws(ObjectDecodingError) -> Self {
        Self(rawValue: try Wire.string(value, key, context))
    }
    var wireValue: JSONValue { .string(rawValue) }
}
