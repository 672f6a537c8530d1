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
    var wireOrder = WireKeyOrder.none
}

extension IoNode {
    /// Creates an IoNode object.
    public init(
        objectID: String = ObjectID.make(), objectType: String = IoNode.objectType, name: String,
        ioSources: [IoSource]? = nil, ioActors: [IoActor]? = nil, characteristics: JSONObject? = nil,
        externalID: String? = nil, parentObjectID: String? = nil, locationID: String? = nil, isDeactivated: Bool? = nil,
        custom: JSONObject = [:]
    ) {
        self.init(
            base: ObjectBase(objectID, objectType, name, externalID, parentObjectID, locationID, isDeactivated),
            ioSources: ioSources, ioActors: ioActors, characteristics: characteristics, custom: custom,
            wireOrder: .none)
    }
}

extension IoNode: CoreObject, WireDescribed {
    static let wireSchema = WireSchema<IoNode>([
        .optional("ioSources", \.ioSources),
        .optional("ioActors", \.ioActors),
        .optional("characteristics", \.characteristics),
    ])
    static let wireTemplate = IoNode(name: "")
}
