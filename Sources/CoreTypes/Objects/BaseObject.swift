/// A plain Coaty object of core type `CoatyObject`: the base fields and any custom fields.
///
/// The decode chain produces a `BaseObject` for every object of core type `CoatyObject` whose
/// object type has no registered Swift type; all members beyond the base fields land in
/// ``custom`` and are written back, in their wire order, when the object is encoded.
///
/// ```swift
/// var light = BaseObject(objectType: "com.example.Light", name: "Lamp")
/// light.custom["isOn"] = true
/// try light.jsonObject()   // {"objectId":"…","objectType":"com.example.Light","coreType":"CoatyObject","name":"Lamp","isOn":true}
/// ```
///
/// ``init(jsonObject:)`` accepts the base shape of an object of *any* core type, as coaty-js's
/// `CoreTypes.isObject(obj, "CoatyObject")` does, and keeps that core type in ``coreType-property``.
public struct BaseObject: CoatyObject, Hashable {
    /// The core type `CoatyObject`.
    public static let coreType = CoreType.coatyObject

    /// The core type on the wire: `CoatyObject`, unless a base view of another core type's object was decoded.
    public var coreType: CoreType
    /// The object's unique id.
    public var objectId: String
    /// The object's type, such as `com.example.Light`; defaults to `coaty.CoatyObject`.
    public var objectType: String
    /// A name for the object; may be empty.
    public var name: String
    /// An id the object has outside Coaty; non-empty when set.
    public var externalId: String?
    /// The id of the object this one belongs to; non-empty when set.
    public var parentObjectId: String?
    /// The id of a ``Location`` object; non-empty when set.
    public var locationId: String?
    /// Whether the object is deactivated.
    public var isDeactivated: Bool?
    /// Every member beyond the base fields, in wire order.
    public var custom: JSONObject
    var wireOrder: WireKeyOrder

    /// Creates an object of core type `CoatyObject`.
    public init(
        objectId: String = ObjectID.make(), objectType: String = BaseObject.objectType, name: String,
        externalId: String? = nil, parentObjectId: String? = nil, locationId: String? = nil,
        isDeactivated: Bool? = nil, custom: JSONObject = [:]
    ) {
        self.coreType = .coatyObject
        self.objectId = objectId
        self.objectType = objectType
        self.name = name
        self.externalId = externalId
        self.parentObjectId = parentObjectId
        self.locationId = locationId
        self.isDeactivated = isDeactivated
        self.custom = custom
        self.wireOrder = .none
    }

    /// Decodes the base fields of a Coaty object of any core type; every other member goes to ``custom``.
    ///
    /// - Throws: ``ObjectDecodingError`` when a base field is missing or invalid.
    public init(jsonObject: JSONObject) throws(ObjectDecodingError) {
        try self.init(wire: jsonObject, context: WireContext(of: jsonObject), registry: ObjectTypeRegistry())
    }
}

extension BaseObject: CoreObject {
    init(wire object: JSONObject, context: WireContext, registry: ObjectTypeRegistry) throws(ObjectDecodingError) {
        var base = BaseFields()
        var custom = JSONObject()
        for (key, value) in object {
            if try base.read(key, value, context) { continue }
            custom.appendNew(key, value)
        }
        let required = try base.required(as: nil, context)
        self.coreType = required.coreType
        self.objectId = required.objectId
        self.objectType = required.objectType
        self.name = required.name
        self.externalId = base.externalId
        self.parentObjectId = base.parentObjectId
        self.locationId = base.locationId
        self.isDeactivated = base.isDeactivated
        self.custom = custom
        self.wireOrder = WireKeyOrder(source: object)
    }

    func wireObject() -> JSONObject {
        wireOrder.merge(head: baseHead(capacity: 8), custom: custom)
    }

    /// Decodes from any decoder holding a JSON object (see ``init(jsonObject:)``).
    public init(from decoder: any Decoder) throws { self = try Self.decodeCore(from: decoder) }
    /// Encodes the wire form.
    public func encode(to encoder: any Encoder) throws { try encodeCore(to: encoder) }
}
