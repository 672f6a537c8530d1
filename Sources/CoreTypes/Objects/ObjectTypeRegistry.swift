/// The object types one container knows, and the decode chain for incoming objects.
///
/// STUB: the object-model work replaces this file. The signatures below are the contract the
/// event payloads build on.
public struct ObjectTypeRegistry: Sendable {
    /// Creates a registry that knows only the core types.
    public init() {}

    /// Whether the registry has been frozen (after the container bootstrapped).
    public private(set) var isFrozen = false

    /// Registers an application type under its ``CoatyObject/objectType-swift.type.property``.
    public mutating func register<T: CoatyObject>(_ type: T.Type) throws {}

    /// Freezes the registry: later registrations fail.
    public mutating func freeze() { isFrozen = true }

    /// Decodes an incoming object through the chain: registered type, else core type with
    /// unknown members in `custom`, else an error.
    public func decodeObject(_ json: JSONObject) throws(ObjectDecodingError) -> any CoatyObject {
        throw ObjectDecodingError(objectType: json["objectType"]?.stringValue, coreType: json["coreType"]?.stringValue, field: nil, reason: "not implemented")
    }

    /// Decodes an incoming object held in any JSON value (it must be an object).
    public func decodeObject(_ json: JSONValue) throws(ObjectDecodingError) -> any CoatyObject {
        guard case .object(let object) = json else {
            throw ObjectDecodingError(objectType: nil, coreType: nil, field: nil, reason: "expected a JSON object, found \(json.typeName)")
        }
        return try decodeObject(object)
    }
}

extension CoatyObject {
    /// The wire form of this object: its fields, `coreType`, `objectType`, and ``custom`` at the top level.
    public func jsonObject() throws -> JSONObject { [:] }
}

/// Why an incoming object could not be decoded.
public struct ObjectDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The object's `objectType`, when it had a readable one.
    public let objectType: String?
    /// The object's `coreType`, when it had a readable one.
    public let coreType: String?
    /// The offending field (a dotted path for nested fields), when one field is to blame.
    public let field: String?
    /// What is wrong.
    public let reason: String

    /// Creates an error.
    public init(objectType: String?, coreType: String?, field: String?, reason: String) {
        self.objectType = objectType
        self.coreType = coreType
        self.field = field
        self.reason = reason
    }

    /// One line naming the object type, the core type, the field and the reason.
    public var description: String {
        var text = "cannot decode object"
        if let objectType { text += " of object type '\(objectType)'" }
        if let coreType { text += " (core type '\(coreType)')" }
        if let field { text += ": field '\(field)'" }
        return text + ": " + reason
    }
}
