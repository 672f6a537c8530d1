/// The members a core type or nested structure declares, in their canonical wire order: the one
/// description its decoding, validation and encoding follow.
struct WireSchema<Root>: Sendable {
    let members: [WireMember<Root>]

    init(_ members: [WireMember<Root>]) {
        self.members = members
    }

    /// Reads `object` into `root`: a key that `other` reads (the base fields) is done; a declared
    /// member is read and checked; every other member, and a declared one its reader declines,
    /// goes to `custom`. Returns which declared members were read.
    func read(
        _ object: JSONObject, into root: inout Root, custom: inout JSONObject, _ context: WireContext,
        _ registry: ObjectTypeRegistry, other: (String, JSONValue) throws(ObjectDecodingError) -> Bool
    ) throws(ObjectDecodingError) -> BitSet {
        var found = BitSet(count: members.count)
        for (key, value) in object {
            if try other(key, value) { continue }
            if let index = members.firstIndex(where: { $0.key == key }), try members[index].read(&root, value, context, registry) {
                found[index] = true
            } else {
                custom.appendNew(key, value)
            }
        }
        return found
    }

    /// Throws for the first required member, in schema order, that `found` lacks.
    func checkRequired(_ found: BitSet, _ context: WireContext) throws(ObjectDecodingError) {
        for (index, member) in members.enumerated() where member.isRequired && !found[index] {
            throw context.missing(member.key)
        }
    }

    /// Appends the declared members `root` has, in schema order.
    func write(_ root: Root, to object: inout JSONObject) {
        for member in members { member.write(root, &object) }
    }
}

/// A core type or nested structure whose wire form its ``WireSchema`` describes: conforming gives
/// it decoding (``CoreObject`` or ``WireStructure``) and encoding.
protocol WireDescribed: Sendable {
    /// The declared members.
    static var wireSchema: WireSchema<Self> { get }
    /// The value decoding starts from; every member read replaces the template's.
    static var wireTemplate: Self { get }
    /// Every member the type does not declare, in wire order.
    var custom: JSONObject { get set }
    /// The order the members arrived in.
    var wireOrder: WireKeyOrder { get set }
    /// The checks coaty-js makes across members, once every member is read.
    func validateWire(_ context: WireContext) throws(ObjectDecodingError)
}

extension WireDescribed {
    func validateWire(_ context: WireContext) throws(ObjectDecodingError) {}
}

extension WireDescribed where Self: CoreObject & ObjectBaseStoring {
    init(wire object: JSONObject, context: WireContext, registry: ObjectTypeRegistry) throws(ObjectDecodingError) {
        self = Self.wireTemplate
        var base = BaseFields()
        var custom = JSONObject()
        let found = try Self.wireSchema.read(object, into: &self, custom: &custom, context, registry) {
            key, value throws(ObjectDecodingError) in try base.read(key, value, context)
        }
        self.base = try base.required(as: Self.coreType, context)
        try Self.wireSchema.checkRequired(found, context)
        self.custom = custom
        wireOrder = WireKeyOrder(source: object)
        try validateWire(context)
    }

    func wireObject() -> JSONObject { describedWireObject() }

    /// The base fields, the declared members and ``CoatyObject/custom``, in the wire order.
    func describedWireObject() -> JSONObject {
        var head = baseHead(capacity: 8 + Self.wireSchema.members.count)
        Self.wireSchema.write(self, to: &head)
        return wireOrder.merge(head: head, custom: custom)
    }

    /// A core object nested in another one (an ``IoNode``'s sources and actors).
    static func read(_ value: JSONValue, _ key: String, _ context: WireContext) throws(ObjectDecodingError) -> Self {
        try Self(wire: Wire.object(value, key, context), context: context.nested(key), registry: ObjectTypeRegistry())
    }

    var wireValue: JSONValue { .object(describedWireObject()) }
}

extension WireDescribed where Self: WireStructure {
    init(wire object: JSONObject, context: WireContext) throws(ObjectDecodingError) {
        self = Self.wireTemplate
        var custom = JSONObject()
        let found = try Self.wireSchema.read(object, into: &self, custom: &custom, context, ObjectTypeRegistry()) {
            _, _ in false
        }
        try Self.wireSchema.checkRequired(found, context)
        self.custom = custom
        wireOrder = WireKeyOrder(source: object)
        try validateWire(context)
    }

    func wireObject() -> JSONObject {
        var head = JSONObject(capacity: Self.wireSchema.members.count)
        Self.wireSchema.write(self, to: &head)
        return wireOrder.merge(head: head, custom: custom)
    }
}
