/// An IO context: the name that IO routers and IO nodes share; core type `IoContext`.
///
/// Only base fields; ``name`` is the context name (a valid event filter). Routers set
/// ``parentObjectID`` to their identity's id.
public struct IoContext: CoatyObject, ObjectBaseStoring, Hashable {
    /// The core type `IoContext`.
    public static let coreType = CoreType.ioContext

    /// The base fields: ``objectID``, ``objectType``, ``name`` and the optional ones.
    public var base: ObjectBase
    /// Every member this type does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder: WireKeyOrder

    /// Creates an IoContext object.
    public init(
        objectID: String = ObjectID.make(), objectType: String = IoContext.objectType, name: String,
        externalID: String? = nil, parentObjectID: String? = nil, locationID: String? = nil, isDeactivated: Bool? = nil,
        custom: JSONObject = [:]
    ) {
        self.base = ObjectBase(
            objectID: objectID, objectType: objectType, name: name, externalID: externalID,
            parentObjectID: parentObjectID, locationID: locationID, isDeactivated: isDeactivated)
        self.custom = custom
        self.wireOrder = .none
    }

    /// Decodes and validates an object of core type `IoContext`, as coaty-js's
    /// `CoreTypes.isObject(obj, "IoContext")` does; members this type does not declare go to ``custom``.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the first missing or invalid field.
    public init(jsonObject: JSONObject) throws(ObjectDecodingError) {
        try self.init(wire: jsonObject, context: WireContext(of: jsonObject), registry: ObjectTypeRegistry())
    }
}

extension IoContext: CoreObject {
    init(wire object: JSONObject, context: WireContext, registry: ObjectTypeRegistry) throws(ObjectDecodingError) {
        var base = BaseFields()
        var custom = JSONObject()
        for (key, member) in object {
            if try base.read(key, member, context) { continue }
            custom.appendNew(key, member)
        }
        self.base = try base.required(as: .ioContext, context)
        self.custom = custom
        self.wireOrder = WireKeyOrder(source: object)
    }

    func wireObject() -> JSONObject {
        let head = baseHead(capacity: 8)
        return wireOrder.merge(head: head, custom: custom)
    }
}
