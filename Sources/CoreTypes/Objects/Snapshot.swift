/// A copy of an object at a point in time; core type `Snapshot`.
///
/// ``parentObjectId`` (the id of the captured object) is required, and ``creationTimestamp``
/// must not be 0 (coaty-js tests it for truthiness). ``object`` is any Coaty object: the registry
/// decodes it through the same chain as top-level objects, so a registered type comes back typed.
public struct Snapshot: CoatyObject {
    /// The core type `Snapshot`.
    public static let coreType = CoreType.snapshot

    /// The object's unique id.
    public var objectId: String
    /// The object's type; defaults to `coaty.Snapshot`, or a custom object type of this core type.
    public var objectType: String
    /// A name for the object; may be empty.
    public var name: String
    /// An id the object has outside Coaty; non-empty when set.
    public var externalId: String?
    /// The id of the captured object; required for a snapshot.
    public var parentObjectId: String?
    /// The id of a ``Location`` object; non-empty when set.
    public var locationId: String?
    /// Whether the object is deactivated; the meaning is up to the application.
    public var isDeactivated: Bool?
    /// When the snapshot was taken, in milliseconds since the Unix epoch; not 0.
    public var creationTimestamp: Double
    /// The id of the object (usually an agent's identity) that took the snapshot.
    public var creatorId: String
    /// Tags, non-empty strings.
    public var tags: [String]?
    /// The captured object: any Coaty object.
    public var object: any CoatyObject
    /// Every member this type does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder: WireKeyOrder

    /// Creates a Snapshot object.
    public init(
        objectId: String = ObjectID.make(), objectType: String = Snapshot.objectType, name: String,
        parentObjectId: String?, creationTimestamp: Double, creatorId: String, object: any CoatyObject,
        tags: [String]? = nil, externalId: String? = nil, locationId: String? = nil, isDeactivated: Bool? = nil,
        custom: JSONObject = [:]
    ) {
        self.objectId = objectId
        self.objectType = objectType
        self.name = name
        self.externalId = externalId
        self.parentObjectId = parentObjectId
        self.locationId = locationId
        self.isDeactivated = isDeactivated
        self.creationTimestamp = creationTimestamp
        self.creatorId = creatorId
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
        var creatorId: String?
        var tags: [String]?
        var captured: (any CoatyObject)?
        for (key, member) in object {
            if try base.read(key, member, context) { continue }
            switch key {
            case "creationTimestamp": creationTimestamp = try Wire.number(member, key, context)
            case "creatorId": creatorId = try Wire.nonEmptyString(member, key, context)
            case "tags": tags = try Wire.stringArray(member, key, context)
            case "object": captured = try registry.decodeNested(Wire.object(member, key, context), key, context)
            default: custom.appendNew(key, member)
            }
        }
        let required = try base.required(as: .snapshot, context)
        guard let creationTimestamp else { throw context.missing("creationTimestamp") }
        guard let creatorId else { throw context.missing("creatorId") }
        guard let captured else { throw context.missing("object") }
        guard base.parentObjectId != nil else { throw context.missing("parentObjectId") }
        guard creationTimestamp != 0 else { throw context.error("creationTimestamp", "must not be 0") }
        self.object = captured
        self.objectId = required.objectId
        self.objectType = required.objectType
        self.name = required.name
        self.externalId = base.externalId
        self.parentObjectId = base.parentObjectId
        self.locationId = base.locationId
        self.isDeactivated = base.isDeactivated
        self.creationTimestamp = creationTimestamp
        self.creatorId = creatorId
        self.tags = tags
        self.custom = custom
        self.wireOrder = WireKeyOrder(source: object)
    }

    func wireObject() throws -> JSONObject {
        var head = baseHead(capacity: 12)
        head.appendNew("creationTimestamp", .double(creationTimestamp))
        head.appendNew("creatorId", .string(creatorId))
        if let tags { head.appendNew("tags", .array(tags.map(JSONValue.string))) }
        head.appendNew("object", .object(try object.jsonObject()))
        return wireOrder.merge(head: head, custom: custom)
    }

    /// Decodes from any decoder holding a JSON object (see ``init(jsonObject:)``).
    public init(from decoder: any Decoder) throws { self = try Self.decodeCore(from: decoder) }
    /// Encodes the wire form.
    public func encode(to encoder: any Encoder) throws { try encodeCore(to: encoder) }
}
