/// The application object types one container knows, and the decode chain for incoming objects.
///
/// A registry is a value owned by a container (there is no global registry, and nothing is
/// registered at import time). The container registers its application types while it
/// bootstraps, then calls ``freeze()``; a duplicate or invalid object type is a bootstrap error.
///
/// ``decodeObject(_:)-(JSONObject)`` turns an incoming JSON object into a Swift value:
/// 1. the Swift type registered for its `objectType`, decoded with `Decodable` (the object must
///    also pass coaty-js's validation for its core type, and declare the type's core type);
/// 2. else the struct of its `coreType` (``BaseObject``, ``TaskObject``, …), with every member the
///    struct does not declare kept in ``CoatyObject/custom``;
/// 3. else an ``ObjectDecodingError`` naming the object type, the core type and the field.
///
/// Without registered types, an object decodes exactly when coaty-js's `CoreTypes.isObject`
/// accepts it; a registered type must in addition find the members its `Decodable` conformance needs.
///
/// ```swift
/// var registry = ObjectTypeRegistry()
/// try registry.register(Light.self)
/// registry.freeze()
/// let object = try registry.decodeObject(json)   // a Light, or a core type struct
/// ```
public struct ObjectTypeRegistry: Sendable {
    struct Entry: Sendable {
        let type: any CoatyObject.Type
        let decode:
            @Sendable (JSONObject, WireContext, ObjectTypeRegistry) throws(ObjectDecodingError) -> any CoatyObject
    }

    /// A registered ``WireCodable`` type of the `coatyObject` core type (whose core type rules are
    /// the base fields' alone, which a scan checks), found by the bytes of its object type when an
    /// object is decoded without a tree (``decodeScanned(_:bytes:)``).
    struct ScannedEntry: Sendable {
        let objectType: String
        let utf8: [UInt8]
        let decode: @Sendable (inout WireReader) throws(ObjectDecodingError) -> any CoatyObject
    }

    struct Fragment: Sendable {
        let type: any Sendable.Type
        let field: String
    }

    private var entries: [String: Entry] = [:]
    private(set) var scannedEntries: [ScannedEntry] = []
    var fragmentsByType: [ObjectIdentifier: Fragment] = [:]
    var fragmentTypesByField: [String: ObjectIdentifier] = [:]

    /// Creates a registry that knows only the core types.
    public init() {}

    /// Whether the registry has been frozen (after the container bootstrapped).
    public private(set) var isFrozen = false

    /// The object types of the registered application types, sorted.
    public var registeredObjectTypes: [String] { entries.keys.sorted() }

    /// The Swift type registered for `objectType`, if any.
    public func registeredType(for objectType: String) -> (any CoatyObject.Type)? {
        entries[objectType]?.type
    }

    /// Registers an application type under its ``CoatyObject/objectType-swift.type.property``.
    ///
    /// The object type must be a valid event filter (non-empty, without `+`, `#`, `/` and NUL, as
    /// it appears in topics) and must not start with `coaty.`, the prefix Coaty reserves for its
    /// own types (the core types need no registration). The exception are the SensorThings types
    /// Coaty defines (``Thing``, ``Sensor``, ``Observation``, ``FeatureOfInterest``; see
    /// ``registerSensorThings()``).
    ///
    /// - Throws: ``ObjectTypeRegistryError`` with code `ObjectTypeRegistryError.Code.frozen`,
    ///   `ObjectTypeRegistryError.Code.duplicateObjectType`,
    ///   `ObjectTypeRegistryError.Code.invalidObjectType` or
    ///   `ObjectTypeRegistryError.Code.reservedObjectType`.
    public mutating func register<T: CoatyObject>(_ type: T.Type) throws {
        try register(type, allowsReservedPrefix: T.self is any SensorThingsObject.Type)
    }

    /// Registers `type`; `allowsReservedPrefix` lets framework-defined types (such as SensorThings
    /// types) use the `coaty.` prefix.
    mutating func register<T: CoatyObject>(_ type: T.Type, allowsReservedPrefix: Bool) throws(ObjectTypeRegistryError) {
        let objectType = T.objectType
        guard !isFrozen else {
            throw ObjectTypeRegistryError(
                code: .frozen,
                detail:
                    "cannot register '\(objectType)' (\(T.self)): the registry is frozen; register types before bootstrap ends"
            )
        }
        guard CoatyTopic.isValidEventFilter(objectType) else {
            throw ObjectTypeRegistryError(
                code: .invalidObjectType,
                detail:
                    "object type '\(objectType)' of \(T.self) must be non-empty and must not contain '+', '#', '/' or NUL"
            )
        }
        guard allowsReservedPrefix || !objectType.hasPrefix("coaty.") else {
            throw ObjectTypeRegistryError(
                code: .reservedObjectType,
                detail:
                    "object type '\(objectType)' of \(T.self) starts with the reserved prefix 'coaty.'; use your own reverse-domain name"
            )
        }
        if let existing = entries[objectType] {
            throw ObjectTypeRegistryError(
                code: .duplicateObjectType,
                detail:
                    "object type '\(objectType)' is already registered for \(existing.type); cannot register \(T.self) too"
            )
        }
        if let framework = T.self as? any SensorThingsObject.Type {
            entries[objectType] = Entry(type: T.self, decode: Self.frameworkDecoder(framework))
        } else if let wireType = T.self as? any WireCodable.Type {
            entries[objectType] = Entry(type: T.self, decode: Self.wireDecoder(wireType))
            if T.coreType == .coatyObject {
                scannedEntries.append(
                    ScannedEntry(objectType: objectType, utf8: Array(objectType.utf8), decode: Self.scannedDecoder(wireType)))
            }
        } else {
            entries[objectType] = Entry(type: T.self) { object, context, registry throws(ObjectDecodingError) in
                try registry.decodeRegistered(T.self, from: object, context: context)
            }
        }
    }

    /// The decoder of a SensorThings type: its hand-written wire form, as for the core types.
    private static func frameworkDecoder<T: SensorThingsObject>(_ type: T.Type)
        -> @Sendable (JSONObject, WireContext, ObjectTypeRegistry) throws(ObjectDecodingError) -> any CoatyObject
    {
        { object, context, registry throws(ObjectDecodingError) in
            try T(wire: object, context: context, registry: registry)
        }
    }

    /// The decoder of a registered ``WireCodable`` type, chosen once when it is registered.
    private static func wireDecoder<T: WireCodable>(_ type: T.Type)
        -> @Sendable (JSONObject, WireContext, ObjectTypeRegistry) throws(ObjectDecodingError) -> any CoatyObject
    {
        { object, context, registry throws(ObjectDecodingError) in
            try registry.decodeWire(T.self, from: object, context: context)
        }
    }

    /// The decoder of a registered ``WireCodable`` type from bytes, chosen once when it is registered.
    private static func scannedDecoder<T: WireCodable>(_ type: T.Type)
        -> @Sendable (inout WireReader) throws(ObjectDecodingError) -> any CoatyObject
    {
        { reader throws(ObjectDecodingError) in
            var object = try T(wire: &reader)
            let custom = reader.unreadMembers()
            if !custom.isEmpty { object.custom = custom }
            return object
        }
    }

    /// Freezes the registry: later registrations fail.
    public mutating func freeze() { isFrozen = true }

    /// Decodes an incoming object through the chain: registered type, else core type with
    /// unknown members in `custom`, else an error.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the object type, the core type and the field.
    public func decodeObject(_ json: JSONObject) throws(ObjectDecodingError) -> any CoatyObject {
        try decode(json, context: WireContext(of: json))
    }

    /// Decodes an incoming object held in any JSON value (it must be an object).
    ///
    /// - Throws: ``ObjectDecodingError`` when the value is not an object or does not decode.
    public func decodeObject(_ json: JSONValue) throws(ObjectDecodingError) -> any CoatyObject {
        guard case .object(let object) = json else {
            throw ObjectDecodingError(
                objectType: nil, coreType: nil, field: nil,
                reason: "expected a JSON object, found \(Wire.describe(json))")
        }
        return try decodeObject(object)
    }

    /// Decodes an incoming object as the Swift type `type`: a core type struct (validated as that
    /// core type) or a registered type (which must be registered under the object's object type).
    ///
    /// - Throws: ``ObjectDecodingError`` when the object does not decode as `type`.
    public func decodeObject<T: CoatyObject>(_ json: JSONObject, as type: T.Type) throws(ObjectDecodingError) -> T {
        let context = WireContext(of: json)
        if let core = T.self as? any CoreObject.Type {
            let decoded = try core.init(wire: json, context: context, registry: self)
            guard let result = decoded as? T else { throw context.error(nil, "internal: \(core) is not \(T.self)") }
            return result
        }
        guard let objectType = context.objectType, let entry = entries[objectType], entry.type == T.self else {
            throw context.error("objectType", "is not the object type registered for \(T.self) ('\(T.objectType)')")
        }
        guard let result = try entry.decode(json, context, self) as? T else {
            throw context.error(nil, "internal: the decoder registered for \(T.self) made another type")
        }
        return result
    }

    /// Decodes a Coaty object nested in another one (``Snapshot/object``) through the chain.
    func decodeNested(_ json: JSONObject, _ key: String, _ outer: WireContext) throws(ObjectDecodingError)
        -> any CoatyObject
    {
        do {
            return try decodeObject(json)
        } catch {
            let field = outer.fieldPath(key) + (error.field.map { "." + $0 } ?? "")
            throw ObjectDecodingError(
                objectType: outer.objectType, coreType: outer.coreType, field: field, reason: error.reason)
        }
    }

    private func decode(_ json: JSONObject, context: WireContext) throws(ObjectDecodingError) -> any CoatyObject {
        if !entries.isEmpty, let objectType = context.objectType, let entry = entries[objectType] {
            return try entry.decode(json, context, self)
        }
        guard let coreTypeValue = json["coreType"] else { throw context.missing("coreType") }
        let name = try Wire.string(coreTypeValue, "coreType", context)
        guard let coreType = CoreType(rawValue: name) else {
            throw context.error("coreType", "'\(name)' is not a Coaty core type")
        }
        return try Self.coreStruct(for: coreType).init(wire: json, context: context, registry: self)
    }

    /// Checks that `json` decodes through this registry's chain, without building the object where
    /// the chain would build a `CoatyObject` core object (its object type is not registered) and
    /// the quick check of its base fields passes.
    ///
    /// - Throws: ``ObjectDecodingError`` as decoding it would.
    package func validate(_ json: JSONObject) throws(ObjectDecodingError) {
        let isRegistered = json["objectType"]?.stringValue.map { entries[$0] != nil } ?? false
        if !isRegistered, BaseFields.isValidCoatyObjectForm(json) { return }
        _ = try decodeObject(json)
    }

    /// Checks `json` with exactly the rules of the core type it declares, as decoding it with a
    /// registry of core types only would, without building the object when that core type is
    /// `CoatyObject` (whose rules are the base fields'): outbound events check every object so.
    static func validateCoreForm(_ json: JSONObject) throws(ObjectDecodingError) {
        if BaseFields.isValidCoatyObjectForm(json) { return }
        let context = WireContext(of: json)
        guard context.coreType == CoreType.coatyObject.rawValue else {
            _ = try ObjectTypeRegistry().decode(json, context: context)
            return
        }
        var base = BaseFields()
        for (key, value) in json { _ = try base.read(key, value, context) }
        _ = try base.required(as: nil, context)
    }

    /// The struct that decodes objects of `coreType`.
    static func coreStruct(for coreType: CoreType) -> any CoreObject.Type {
        switch coreType {
        case .coatyObject: return BaseObject.self
        case .user: return User.self
        case .annotation: return Annotation.self
        case .task: return TaskObject.self
        case .ioContext: return IoContext.self
        case .ioNode: return IoNode.self
        case .ioSource: return IoSource.self
        case .ioActor: return IoActor.self
        case .identity: return Identity.self
        case .log: return Log.self
        case .location: return Location.self
        case .snapshot: return Snapshot.self
        }
    }
}
