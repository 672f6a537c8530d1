/// The IO sources and actors one agent has in an IO context; core type `IoNode`.
///
/// ``name`` is the IO context's name. coaty-js sends both lists (possibly empty) but accepts
/// either missing; every element must be a valid IoSource or IoActor respectively.
public struct IoNode: CoatyObject, ObjectBaseStoring, Hashable {
    /// The core type `IoNode`.
    public static let coreType = CoreType.ioNode

    /// The base fields: ``objectID``, ``objectType``, ``name`` and the optional ones.
    public var base: ObjectBase
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
        objectID: String = ObjectID.make(), objectType: String = IoNode.objectType, name: String,
        ioSources: [IoSource]? = nil, ioActors: [IoActor]? = nil, characteristics: JSONObject? = nil,
        externalID: String? = nil, parentObjectID: String? = nil, locationID: String? = nil, isDeactivated: Bool? = nil,
        custom: JSONObject = [:]
    ) {
        self.base = ObjectBase(
            objectID: objectID, objectType: objectType, name: name, externalID: externalID,
            parentObjectID: parentObjectID, locationID: locationID, isDeactivated: isDeactivated)
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
        self.base = try base.required(as: .ioNode, context)
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
}
