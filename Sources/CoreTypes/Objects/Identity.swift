/// The identity of an agent; core type `Identity`.
///
/// Only base fields; one per agent, named `"Coaty Agent"` unless configured. Created in Swift it
/// encodes as coaty-js does: `objectId`, `name`, the optional base fields, custom members, then
/// `objectType` and `coreType`.
public struct Identity: CoatyObject, Hashable {
    /// The core type `Identity`.
    public static let coreType = CoreType.identity

    /// The object's unique id.
    public var objectId: String
    /// The object's type; defaults to `coaty.Identity`, or a custom object type of this core type.
    public var objectType: String
    /// The agent's name; `"Coaty Agent"` by default.
    public var name: String
    /// An id the object has outside Coaty; non-empty when set.
    public var externalId: String?
    /// The id of the object this one belongs to; non-empty when set.
    public var parentObjectId: String?
    /// The id of a ``Location`` object; non-empty when set.
    public var locationId: String?
    /// Whether the object is deactivated; the meaning is up to the application.
    public var isDeactivated: Bool?
    /// Every member this type does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder: WireKeyOrder

    /// Creates an Identity object.
    public init(
        objectId: String = ObjectID.make(), objectType: String = Identity.objectType, name: String = "Coaty Agent",
        externalId: String? = nil, parentObjectId: String? = nil, locationId: String? = nil, isDeactivated: Bool? = nil,
        custom: JSONObject = [:]
    ) {
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
        let required = try base.required(as: .identity, context)
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
        // coaty-js builds identities as {objectId, name, …options, objectType, coreType}.
        var head = JSONObject(capacity: 6)
        head.appendNew("objectId", .string(objectId))
        head.appendNew("name", .string(name))
        BaseFields.appendOptional(
            externalId: externalId, parentObjectId: parentObjectId, locationId: locationId,
            isDeactivated: isDeactivated, to: &head)
        var tail = JSONObject(capacity: 2)
        tail.appendNew("objectType", .string(objectType))
        tail.appendNew("coreType", .string(CoreType.identity.rawValue))
        return wireOrder.merge(head: head, custom: custom, tail: tail)
    }

    /// Decodes from any decoder holding a JSON object (see ``init(jsonObject:)``).
    public init(from decoder: any Decoder) throws { self = try Self.decodeCore(from: decoder) }
    /// Encodes the wire form.
    public func encode(to encoder: any Encoder) throws { try encodeCore(to: encoder) }
}
