/// The identity of an agent; core type `Identity`.
///
/// Only base fields; one per agent, named `"Coaty Agent"` unless configured. Created in Swift it
/// encodes as coaty-js does: `objectId`, `name`, the optional base fields, custom members, then
/// `objectType` and `coreType`.
public struct Identity: CoatyObject, ObjectBaseStoring, Hashable {
    /// The core type `Identity`.
    public static let coreType = CoreType.identity

    /// The base fields: ``objectID``, ``objectType``, ``name`` and the optional ones.
    public var base: ObjectBase
    /// Every member this type does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder: WireKeyOrder

    /// Creates an Identity object.
    public init(
        objectID: String = ObjectID.make(), objectType: String = Identity.objectType, name: String = "Coaty Agent",
        externalID: String? = nil, parentObjectID: String? = nil, locationID: String? = nil, isDeactivated: Bool? = nil,
        custom: JSONObject = [:]
    ) {
        self.base = ObjectBase(
            objectID: objectID, objectType: objectType, name: name, externalID: externalID,
            parentObjectID: parentObjectID, locationID: locationID, isDeactivated: isDeactivated)
        self.custom = custom
        self.wireOrder = .none
    }

    /// Decodes and validates an object of core type `Identity`, as coaty-js's
    /// `CoreTypes.isObject(obj, "Identity")` does; members this type does not declare go to ``custom``.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the first missing or invalid field.
    public init(jsonObject: JSONObject) throws(ObjectDecodingError) {
        try self.init(wire: jsonObject, context: WireContext(of: jsonObject), registry: ObjectTypeRegistry())
    }
}

extension Identity: CoreObject {
    init(wire object: JSONObject, context: WireContext, registry: ObjectTypeRegistry) throws(ObjectDecodingError) {
        var base = BaseFields()
        var custom = JSONObject()
        for (key, member) in object {
            if try base.read(key, member, context) { continue }
            custom.appendNew(key, member)
        }
        self.base = try base.required(as: .identity, context)
        self.custom = custom
        self.wireOrder = WireKeyOrder(source: object)
    }

    func wireObject() -> JSONObject {
        // coaty-js builds identities as {objectId, name, …options, objectType, coreType}.
        var head = JSONObject(capacity: 6)
        head.appendNew("objectId", .string(objectID))
        head.appendNew("name", .string(name))
        BaseFields.appendOptional(
            externalID: externalID, parentObjectID: parentObjectID, locationID: locationID,
            isDeactivated: isDeactivated, to: &head)
        var tail = JSONObject(capacity: 2)
        tail.appendNew("objectType", .string(objectType))
        tail.appendNew("coreType", .string(CoreType.identity.rawValue))
        return wireOrder.merge(head: head, custom: custom, tail: tail)
    }
}
