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
public struct BaseObject: CoatyObject, ObjectBaseStoring, Hashable {
    /// The core type `CoatyObject`.
    public static let coreType = CoreType.coatyObject

    /// The core type on the wire: `CoatyObject`, unless a base view of another core type's object was decoded.
    public var coreType: CoreType
    /// The base fields: ``objectID``, ``objectType``, ``name`` and the optional ones.
    public var base: ObjectBase
    /// Every member beyond the base fields, in wire order.
    public var custom: JSONObject
    var wireOrder: WireKeyOrder

    /// Creates an object of core type `CoatyObject`.
    public init(
        objectID: String = ObjectID.make(), objectType: String = BaseObject.objectType, name: String,
        externalID: String? = nil, parentObjectID: String? = nil, locationID: String? = nil,
        isDeactivated: Bool? = nil, custom: JSONObject = [:]
    ) {
        self.coreType = .coatyObject
        self.base = ObjectBase(
            objectID: objectID, objectType: objectType, name: name, externalID: externalID,
            parentObjectID: parentObjectID, locationID: locationID, isDeactivated: isDeactivated)
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
        // Room for every member but the four required base fields: one allocation, not one per doubling.
        var custom = JSONObject(capacity: max(object.count - 4, 0))
        for (key, value) in object {
            if try base.read(key, value, context) { continue }
            custom.appendNew(key, value)
        }
        let fields = try base.required(as: nil, context)
        self.coreType = base.coreType ?? .coatyObject
        self.base = fields
        self.custom = custom
        self.wireOrder = WireKeyOrder(source: object)
    }

    func wireObject() -> JSONObject {
        wireOrder.merge(head: baseHead(capacity: 8), custom: custom)
    }
}
