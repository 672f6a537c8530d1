/// A copy of an object at a point in time; core type `Snapshot`.
///
/// ``parentObjectID`` (the id of the captured object) is required, and ``creationTimestamp``
/// must not be 0 (coaty-js tests it for truthiness). ``object`` is any Coaty object: the registry
/// decodes it through the same chain as top-level objects, so a registered type comes back typed.
public struct Snapshot: CoatyObject, ObjectBaseStoring {
    /// The core type `Snapshot`.
    public static let coreType = CoreType.snapshot

    /// The base fields: ``objectID``, ``objectType``, ``name`` and the optional ones.
    public var base: ObjectBase
    /// When the snapshot was taken, in milliseconds since the Unix epoch; not 0.
    public var creationTimestamp: Double
    /// The id of the object (usually an agent's identity) that took the snapshot.
    public var creatorID: String
    /// Tags, non-empty strings.
    public var tags: [String]?
    /// The captured object: any Coaty object.
    public var object: any CoatyObject
    /// Every member this type does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder: WireKeyOrder

    /// Creates a Snapshot object.
    public init(
        objectID: String = ObjectID.make(), objectType: String = Snapshot.objectType, name: String,
        parentObjectID: String?, creationTimestamp: Double, creatorID: String, object: any CoatyObject,
        tags: [String]? = nil, externalID: String? = nil, locationID: String? = nil, isDeactivated: Bool? = nil,
        custom: JSONObject = [:]
    ) {
        self.base = ObjectBase(
            objectID: objectID, objectType: objectType, name: name, externalID: externalID,
            parentObjectID: parentObjectID, locationID: locationID, isDeactivated: isDeactivated)
        self.creationTimestamp = creationTimestamp
        self.creatorID = creatorID
        self.tags = tags
        self.object = object
        self.custom = custom
        self.wireOrder = .none
    }

    /// Decodes and validates an object of core type `Snapshot`, as coaty-js's
    /// `CoreTypes.isObject(obj, "Snapshot")` does; members this type does not declare go to ``custom``.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the first missing or invalid field.
    public init(jsonObject: JSONObject) throws(ObjectDecodingError) {
        try self.init(wire: jsonObject, context: WireContext(of: jsonObject), registry: ObjectTypeRegistry())
    }
}

extension Snapshot: CoreObject {
    init(wire object: JSONObject, context: WireContext, registry: ObjectTypeRegistry) throws(ObjectDecodingError) {
        var base = BaseFields()
        var custom = JSONObject()
        var creationTimestamp: Double?
        var creatorID: String?
        var tags: [String]?
        var captured: (any CoatyObject)?
        for (key, member) in object {
            if try base.read(key, member, context) { continue }
            switch key {
            case "creationTimestamp": creationTimestamp = try Wire.number(member, key, context)
            case "creatorId": creatorID = try Wire.nonEmptyString(member, key, context)
            case "tags": tags = try Wire.stringArray(member, key, context)
            case "object": captured = try registry.decodeNested(Wire.object(member, key, context), key, context)
            default: custom.appendNew(key, member)
            }
        }
        let fields = try base.required(as: .snapshot, context)
        guard let creationTimestamp else { throw context.missing("creationTimestamp") }
        guard let creatorID else { throw context.missing("creatorId") }
        guard let captured else { throw context.missing("object") }
        guard base.parentObjectID != nil else { throw context.missing("parentObjectId") }
        guard creationTimestamp != 0 else { throw context.error("creationTimestamp", "must not be 0") }
        self.object = captured
        self.base = fields
        self.creationTimestamp = creationTimestamp
        self.creatorID = creatorID
        self.tags = tags
        self.custom = custom
        self.wireOrder = WireKeyOrder(source: object)
    }

    func wireObject() throws -> JSONObject {
        var head = baseHead(capacity: 12)
        head.appendNew("creationTimestamp", .double(creationTimestamp))
        head.appendNew("creatorId", .string(creatorID))
        if let tags { head.appendNew("tags", .array(tags.map(JSONValue.string))) }
        head.appendNew("object", .object(try object.jsonObject()))
        return wireOrder.merge(head: head, custom: custom)
    }
}
