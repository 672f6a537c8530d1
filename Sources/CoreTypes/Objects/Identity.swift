/// The identity of an agent; core type `Identity`.
///
/// Only base fields; one per agent, named `"Coaty Agent"` unless configured. Created in Swift it
/// encodes as coaty-js does: `objectId`, `name`, the optional base fields, custom members, then
/// `objectType` and `coreType`.
public struct Identity: CoatyObject, ObjectBaseStoring, Hashable {
    /// The core type `Identity`.
    public static let coreType = CoreType.identity

    /// The base fields: ``objectID``, ``objectType``, ``name`` and the optional ones.
    public var base: ObjectBase
    /// Every member this type does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder = WireKeyOrder.none
}

extension Identity {
    /// Creates an Identity object.
    public init(
        objectID: String = ObjectID.make(), objectType: String = Identity.objectType, name: String = "Coaty Agent",
        externalID: String? = nil, parentObjectID: String? = nil, locationID: String? = nil, isDeactivated: Bool? = nil,
        custom: JSONObject = [:]
    ) {
        self.init(
            base: ObjectBase(objectID, objectType, name, externalID, parentObjectID, locationID, isDeactivated),
            custom: custom, wireOrder: .none)
    }
}

extension Identity: CoreObject, WireDescribed {
    static let wireSchema = WireSchema<Identity>([])
    static let wireTemplate = Identity()

    func wireObject() -> JSONObject {
        // coaty-js builds identities as {objectId, name, …options, objectType, coreType}.
        var head = JSONObject(capacity: 6)
        head.appendNew("objectId", .string(objectID))
        head.appendNew("name", .string(name))
        BaseFields.appendOptional(
            externalID: externalID, parentObjectID: parentObjectID, locationID: locationID,
            isDeactivated: isDeactivated, to: &head)
        var tail = JSONObject(capacity: 2)
        tail.appendNew("objectType", .string(objectType))
        tail.appendNew("coreType", .string(CoreType.identity.rawValue))
        return wireOrder.merge(head: head, custom: custom, tail: tail)
    }
}
