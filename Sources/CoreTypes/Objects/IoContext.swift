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
    var wireOrder = WireKeyOrder.none
}

extension IoContext {
    /// Creates an IoContext object.
    public init(
        objectID: String = ObjectID.make(), objectType: String = IoContext.objectType, name: String,
        externalID: String? = nil, parentObjectID: String? = nil, locationID: String? = nil, isDeactivated: Bool? = nil,
        custom: JSONObject = [:]
    ) {
        self.init(
            base: ObjectBase(objectID, objectType, name, externalID, parentObjectID, locationID, isDeactivated),
            custom: custom, wireOrder: .none)
    }
}

extension IoContext: CoreObject, WireDescribed {
    static let wireSchema = WireSchema<IoContext>([])
    static let wireTemplate = IoContext(name: "")
}
