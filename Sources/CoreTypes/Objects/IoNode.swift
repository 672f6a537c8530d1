/// The IO sources and actors one agent has in an IO context; core type `IoNode`.
///
/// ``name`` is the IO context's name. coaty-js sends both lists (possibly empty) but accepts
/// either missing; every element must be a valid IoSource or IoActor respectively.
public struct IoNode: CoatyObject, Hashable {
    /// The core type `IoNode`.
    public static let coreType = CoreType.ioNode

    /// The object's unique id.
    public var objectId: String
    /// The object's type; defaults to `coaty.IoNode`, or a custom object type of this core type.
    public var objectType: String
    /// The name of the IO context the node belongs to.
    public var name: String
    /// An id the object has outside Coaty; non-empty when set.
    public var externalId: String?
    /// The id of the agent's identity.
    public var parentObjectId: String?
    /// The id of a ``Location`` object; non-empty when set.
    public var locationId: String?
    /// Whether the object is deactivated; the meaning is up to the application.
    public var isDeactivated: Bool?
    /// The IO sources of the node.
    public var ioSources: [IoSource]?
    /// The IO actors of the node.
    public var ioActors: [IoActor]?
    /// Application-defined properties that routers use.
    public var characteristics: JSONObject?
    /// Every member this type does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder: WireKeyOrder

    /// Creates an IoNode object.
    public init(
        objectId: String = ObjectID.make(), objectType: String = IoNode.objectType, name: String,
        ioSources: [IoSource]? = nil, ioActors: [IoActor]? = nil, characteristics: JSONObject? = nil,
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
        self.ioSources = ioSources
        self.ioActors = ioActors
        self.characteristics = characteristics
        self.custom = custom
        self.wireOrder = .none
    }

    /// Decodes and validates an object of core type `IoNode`, as coaty-js's
    /// `CoreTypes.isObject(obj, "IoNode")` does; members this type does not declare go to ``custom``.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the first missing or invalid field.
    public init(jsonObject: JSONObject) throws(ObjectDecodingError) {
        try self.init(wire: jsonObject, context: WireContext(of: jsonObject), registry: ObjectTypeRegistry())
    }
}

extension IoNode: CoreObject {
    init(wire object: JSONObject, context: WireContext, registry: ObjectTypeRegistry) throws(ObjectDecodingError) {
        var base = BaseFields()
        var custom = JSONObject()
        var ioSources: [IoSource]?
        var ioActors: [IoActor]?
        var characteristics: JSONObject?
        for (key, member) in object {
            if try base.read(key, member, context) { continue }
            switch key {
            case "ioSources":
                ioSources = try Wire.objectArray(member, key, context) { object, context throws(ObjectDecodingError) in
                    try IoSource(wire: object, context: context, registry: registry)
                }
            case "ioActors":
                ioActors = try Wire.objectArray(member, key, context) { object, context throws(ObjectDecodingError) in
                    try IoActor(wire: object, context: context, registry: registry)
                }
            case "characteristics": characteristics = try Wire.object(member, key, context)
            default: custom.appendNew(key, member)
            }
        }
        let required = try base.required(as: .ioNode, context)
        self.objectId = required.objectId
        self.objectType = required.objectType
        self.name = required.name
        self.externalId = base.externalId
        self.parentObjectId = base.parentObjectId
        self.locationId = base.locationId
        self.isDeactivated = base.isDeactivated
        self.ioSources = ioSources
        self.ioActors = ioActors
        self.characteristics = characteristics
        self.custom = custom
        self.wireOrder = WireKeyOrder(source: object)
    }

    func wireObject() -> JSONObject {
        var head = baseHead(capacity: 11)
        if let ioSources { head.appendNew("ioSources", .array(ioSources.map { .object($0.wireObject()) })) }
        if let ioActors { head.appendNew("ioActors", .array(ioActors.map { .object($0.wireObject()) })) }
        if let characteristics { head.appendNew("characteristics", .object(characteristics)) }
        return wireOrder.merge(head: head, custom: custom)
    }

    /// Decodes from any decoder holding a JSON object (see ``init(jsonObject:)``).
    public init(from decoder: any Decoder) throws { self = try Self.decodeCore(from: decoder) }
    /// Encodes the wire form.
    public func encode(to encoder: any Encoder) throws { try encodeCore(to: encoder) }
}
