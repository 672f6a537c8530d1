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
    var wireOrder: WireKeyOrder

    /// Creates a Location object.
    public init(
        objectID: String = ObjectID.make(), objectType: String = Location.objectType, name: String,
        geoLocation: GeoLocation, externalID: String? = nil, parentObjectID: String? = nil, locationID: String? = nil,
        isDeactivated: Bool? = nil, custom: JSONObject = [:]
    ) {
        self.base = ObjectBase(
            objectID: objectID, objectType: objectType, name: name, externalID: externalID,
            parentObjectID: parentObjectID, locationID: locationID, isDeactivated: isDeactivated)
        self.geoLocation = geoLocation
        self.custom = custom
        self.wireOrder = .none
    }

    /// Decodes and validates an object of core type `Location`, as coaty-js's
    /// `CoreTypes.isObject(obj, "Location")` does; members this type does not declare go to ``custom``.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the first missing or invalid field.
    public init(jsonObject: JSONObject) throws(ObjectDecodingError) {
        try self.init(wire: jsonObject, context: WireContext(of: jsonObject), registry: ObjectTypeRegistry())
    }
}

extension Location: CoreObject {
    init(wire object: JSONObject, context: WireContext, registry: ObjectTypeRegistry) throws(ObjectDecodingError) {
        var base = BaseFields()
        var custom = JSONObject()
        var geoLocation: GeoLocation?
        for (key, member) in object {
            if try base.read(key, member, context) { continue }
            switch key {
            case "geoLocation": geoLocation = try GeoLocation.read(member, key, context)
            default: custom.appendNew(key, member)
            }
        }
        let fields = try base.required(as: .location, context)
        guard let geoLocation else { throw context.missing("geoLocation") }
        self.base = fields
        self.geoLocation = geoLocation
        self.custom = custom
        self.wireOrder = WireKeyOrder(source: object)
    }

    func wireObject() -> JSONObject {
        var head = baseHead(capacity: 9)
        head.appendNew("geoLocation", .object(geoLocation.wireObject()))
        return wireOrder.merge(head: head, custom: custom)
    }
}

/// A measured position (W3C Geolocation `Position`).
public struct GeoLocation: Hashable, Sendable, Codable {
    /// The coordinates.
    public var coords: GeoCoordinates
    /// When the position was measured, in milliseconds since the Unix epoch.
    public var timestamp: Double
    /// Members this structure does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder: WireKeyOrder

    /// Creates a `GeoLocation`.
    public init(coords: GeoCoordinates, timestamp: Double, custom: JSONObject = [:]) {
        self.coords = coords
        self.timestamp = timestamp
        self.custom = custom
        self.wireOrder = .none
    }

    /// Decodes and validates the structure with coaty-js's rules; undeclared members go to ``custom``.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the first missing or invalid field.
    public init(jsonObject: JSONObject) throws(ObjectDecodingError) {
        try self.init(wire: jsonObject, context: WireContext(objectType: nil, coreType: nil))
    }

    /// The wire form, in the decoded member order (or the declaration order for values made in Swift).
    public func jsonObject() -> JSONObject { wireObject() }
}

extension GeoLocation: WireStructure {
    init(wire object: JSONObject, context: WireContext) throws(ObjectDecodingError) {
        var custom = JSONObject()
        var coords: GeoCoordinates?
        var timestamp: Double?
        for (key, member) in object {
            switch key {
            case "coords": coords = try GeoCoordinates.read(member, key, context)
            case "timestamp": timestamp = try Wire.number(member, key, context)
            default: custom.appendNew(key, member)
            }
        }
        guard let coords else { throw context.missing("coords") }
        guard let timestamp else { throw context.missing("timestamp") }
        self.coords = coords
        self.timestamp = timestamp
        self.custom = custom
        self.wireOrder = WireKeyOrder(source: object)
    }

    func wireObject() -> JSONObject {
        var head = JSONObject(capacity: 2)
        head.appendNew("coords", .object(coords.wireObject()))
        head.appendNew("timestamp", .double(timestamp))
        return wireOrder.merge(head: head, custom: custom)
    }
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
    var wireOrder: WireKeyOrder

    /// Creates  `GeoCoordinates`.
    public init(
        latitude: Double, longitude: Double, accuracy: Double, altitude: Double? = nil, altitudeAccuracy: Double? = nil,
        heading: Double? = nil, speed: Double? = nil, custom: JSONObject = [:]
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
        self.altitude = altitude
        self.altitudeAccuracy = altitudeAccuracy
        self.heading = heading
        self.speed = speed
        self.custom = custom
        self.wireOrder = .none
    }

    /// Decodes and validates the structure with coaty-js's rules; undeclared members go to ``custom``.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the first missing or invalid field.
    public init(jsonObject: JSONObject) throws(ObjectDecodingError) {
        try self.init(wire: jsonObject, context: WireContext(objectType: nil, coreType: nil))
    }

    /// The wire form, in the decoded member order (or the declaration order for values made in Swift).
    public func jsonObject() -> JSONObject { wireObject() }
}

extension GeoCoordinates: WireStructure {
    init(wire object: JSONObject, context: WireContext) throws(ObjectDecodingError) {
        var custom = JSONObject()
        var latitude: Double?
        var longitude: Double?
        var accuracy: Double?
        var altitude: Double?
        var altitudeAccuracy: Double?
        var heading: Double?
        var speed: Double?
        for (key, member) in object {
            switch key {
            case "latitude": latitude = try Wire.number(member, key, context)
            case "longitude": longitude = try Wire.number(member, key, context)
            case "accuracy": accuracy = try Wire.number(member, key, context)
            case "altitude": altitude = try Wire.number(member, key, context)
            case "altitudeAccuracy": altitudeAccuracy = try Wire.number(member, key, context)
            case "heading": heading = try Wire.number(member, key, context)
            case "speed": speed = try Wire.number(member, key, context)
            default: custom.appendNew(key, member)
            }
        }
        guard let latitude else { throw context.missing("latitude") }
        guard let longitude else { throw context.missing("longitude") }
        guard let accuracy else { throw context.missing("accuracy") }
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
        self.altitude = altitude
        self.altitudeAccuracy = altitudeAccuracy
        self.heading = heading
        self.speed = speed
        self.custom = custom
        self.wireOrder = WireKeyOrder(source: object)
    }

    func wireObject() -> JSONObject {
        var head = JSONObject(capacity: 7)
        head.appendNew("latitude", .double(latitude))
        head.appendNew("longitude", .double(longitude))
        head.appendNew("accuracy", .double(accuracy))
        if let altitude { head.appendNew("altitude", .double(altitude)) }
        if let altitudeAccuracy { head.appendNew("altitudeAccuracy", .double(altitudeAccuracy)) }
        if let heading { head.appendNew("heading", .double(heading)) }
        if let speed { head.appendNew("speed", .double(speed)) }
        return wireOrder.merge(head: head, custom: custom)
    }
}
