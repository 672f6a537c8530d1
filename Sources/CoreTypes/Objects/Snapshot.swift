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
    var wireOrder = WireKeyOrder.none
}

extension Snapshot {
    /// Creates a Snapshot object.
    public init(
        objectID: String = ObjectID.make(), objectType: String = Snapshot.objectType, name: String,
        parentObjectID: String?, creationTimestamp: Double, creatorID: String, object: any CoatyObject,
        tags: [String]? = nil, externalID: String? = nil, locationID: String? = nil, isDeactivated: Bool? = nil,
        custom: JSONObject = [:]
    ) {
        self.init(
            base: ObjectBase(objectID, objectType, name, externalID, parentObjectID, locationID, isDeactivated),
            creationTimestamp: creationTimestamp, creatorID: creatorID, tags: tags, object: object, custom: custom,
            wireOrder: .none)
    }
}

extension Snapshot: CoreObject, WireDescribed {
    static let wireSchema = WireSchema<Snapshot>([
        .required("creationTimestamp", \.creationTimestamp),
        .required("creatorId", \.creatorID, Wire.nonEmptyString),
        .optional("tags", \.tags, Wire.nonEmptyStrings),
        .decodedOnly("object", isRequired: true) { snapshot, value, context, registry throws(ObjectDecodingError) in
            snapshot.object = try registry.decodeNested(Wire.object(value, "object", context), "object", context)
            return true
        },
    ])
    static let wireTemplate = Snapshot(
        name: "", parentObjectID: nil, creationTimestamp: 0, creatorID: "", object: BaseObject(objectType: "", name: ""))

    func validateWire(_ context: WireContext) throws(ObjectDecodingError) {
        guard parentObjectID != nil else { throw context.missing("parentObjectId") }
        guard creationTimestamp != 0 else { throw context.error("creationTimestamp", "must not be 0") }
    }

    /// The declared members, then the captured object (which only the registry decodes), then ``custom``.
    func wireObject() throws -> JSONObject {
        var head = baseHead(capacity: 12)
        Self.wireSchema.write(self, to: &head)
        head.appendNew("object", .object(try object.jsonObject()))
        return wireOrder.merge(head: head, custom: custom)
    }
}
