/// An IO context: the name that IO routers and IO nodes share; core type `IoContext`.
///
/// Only base fields; ``name`` is the context name (a valid event filter). Routers set
/// ``parentObjectId`` to their identity's id.
public struct IoContext: CoatyObject, Hashable {
    /// The core type `IoContext`.
    public static let coreType = CoreType.ioContext

    /// The object's unique id.
    public var objectId: String
    /// The object's type; defaults to `coaty.IoContext`, or a custom object type of this core type.
    public var objectType: String
    /// The context name, shared by routers and IO nodes.
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

    /// Creates an IoContext object.
    public init(
        objectId: String = ObjectID.make(), objectType: String = IoContext.objectType, name: String,
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
        let required = try base.required(as: .ioContext, context)
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
        let head = baseHead(capacity: 8)
        return wireOrder.merge(head: head, custom: custom)
    }

    /// Decodes from any decoder holding a JSON object (see ``init(jsonObject:)``).
    public init(from decoder: any Decoder) throws { self = try Self.decodeCore(from: decoder) }
    /// Encodes the wire form.
    public func encode(to encoder: any Encoder) throws { try encodeCore(to: encoder) }
}
