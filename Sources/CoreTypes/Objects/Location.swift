/// A geographic position; core type `Location`.
public struct Location: CoatyObject, ObjectBaseStoring, Hashable {
    /// The core type `Location`.
    public static let coreType = CoreType.location

    /// The base fields: ``objectID``, ``objectType``, ``name`` and the optional ones.
    public var base: ObjectBase
    /// The position and when it was measured.
    public var geoLocation: GeoLocation
    /// Every member this type does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder = WireKeyOrder.none
}

extension Location {
    /// Creates a Location object.
    public init(
        objectID: String = ObjectID.make(), objectType: String = Location.objectType, name: String,
        geoLocation: GeoLocation, externalID: String? = nil, parentObjectID: String? = nil, locationID: String? = nil,
        isDeactivated: Bool? = nil, custom: JSONObject = [:]
    ) {
        self.init(
            base: ObjectBase(objectID, objectType, name, externalID, parentObjectID, locationID, isDeactivated),
            geoLocation: geoLocation, custom: custom, wireOrder: .none)
    }
}

extension Location: CoreObject, WireDescribed {
    static let wireSchema = WireSchema<Location>([.required("geoLocation", \.geoLocation)])
    static let wireTemplate = Location(name: "", geoLocation: GeoLocation.wireTemplate)
}

/// A measured position (W3C Geolocation `Position`).
public struct GeoLocation: Hashable, Sendable, Codable {
    /// The coordinates.
    public var coords: GeoCoordinates
    /// When the position was measured, in milliseconds since the Unix epoch.
    public var timestamp: Double
    /// Members this structure does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder = WireKeyOrder.none

    /// The wire form, in the decoded member order (or the declaration order for values made in Swift).
    public func jsonObject() -> JSONObject { wireObject() }
}

extension GeoLocation {
    /// Creates a `GeoLocation`.
    public init(coords: GeoCoordinates, timestamp: Double, custom: JSONObject = [:]) {
        self.init(coords: coords, timestamp: timestamp, custom: custom, wireOrder: .none)
    }
}

extension GeoLocation: WireStructure, WireDescribed {
    static let wireSchema = WireSchema<GeoLocation>([
        .required("coords", \.coords),
        .required("timestamp", \.timestamp),
    ])
    static let wireTemplate = GeoLocation(coords: GeoCoordinates.wireTemplate, timestamp: 0)
}

/// Coordinates of a ``GeoLocation`` (W3C Geolocation `Coordinates`).
///
/// Leave optional values `nil` when unknown: coaty-js rejects `null` (and NaN, which JSON turns into `null`).
public struct GeoCoordinates: Hashable, Sendable, Codable {
    /// Latitude in decimal degrees.
    public var latitude: Double
    /// Longitude in decimal degrees.
    public var longitude: Double
    /// Accuracy of latitude and longitude in meters.
    public var accuracy: Double
    /// Height in meters above the WGS84 ellipsoid.
    public var altitude: Double?
    /// Accuracy of the altitude in meters.
    public var altitudeAccuracy: Double?
    /// Direction of travel in degrees clockwise from true north.
    public var heading: Double?
    /// Speed in meters per second.
    public var speed: Double?
    /// Members this structure does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder = WireKeyOrder.none

    /// The wire form, in the decoded member order (or the declaration order for values made in Swift).
    public func jsonObject() -> JSONObject { wireObject() }
}

extension GeoCoordinates {
    /// Creates  `GeoCoordinates`.
    public init(
        latitude: Double, longitude: Double, accuracy: Double, altitude: Double? = nil, altitudeAccuracy: Double? = nil,
        heading: Double? = nil, speed: Double? = nil, custom: JSONObject = [:]
    ) {
        self.init(
            latitude: latitude, longitude: longitude, accuracy: accuracy, altitude: altitude,
            altitudeAccuracy: altitudeAccuracy, heading: heading, speed: speed, custom: custom, wireOrder: .none)
    }
}

extension GeoCoordinates: WireStructure, WireDescribed {
    static let wireSchema = WireSchema<GeoCoordinates>([
        .required("latitude", \.latitude),
        .required("longitude", \.longitude),
        .required("accuracy", \.accuracy),
        .optional("altitude", \.altitude),
        .optional("altitudeAccuracy", \.altitudeAccuracy),
        .optional("heading", \.heading),
        .optional("speed", \.speed),
    ])
    static let wireTemplate = GeoCoordinates(latitude: 0, longitude: 0, accuracy: 0)
}
