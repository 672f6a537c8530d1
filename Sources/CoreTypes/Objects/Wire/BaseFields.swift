/// The base fields of a Coaty object while it is being read, with coaty-js's rules
/// (`CoreTypes._isObject`): `objectId` and `objectType` non-empty strings, `name` a string,
/// `coreType` one of the twelve names, the optional ids non-empty strings, `isDeactivated` a boolean.
struct BaseFields {
    var objectId: String?
    var objectType: String?
    var coreType: CoreType?
    var name: String?
    var externalId: String?
    var parentObjectId: String?
    var locationId: String?
    var isDeactivated: Bool?

    /// The base field names in the order Swift-created objects write them.
    static let names: [String] = [
        "objectId", "objectType", "coreType", "name", "externalId", "parentObjectId", "locationId", "isDeactivated",
    ]

    /// A base field's name.
    enum Field {
        case objectId, objectType, coreType, name, externalId, parentObjectId, locationId, isDeactivated

        /// The field named `key` (by its UTF-8 bytes, as JavaScript compares names), or `nil`.
        ///
        /// Every member of every object read or written passes here, most of them not base fields:
        /// the length rules out most keys before any bytes are compared.
        @inline(__always)
        init?(_ key: String) {
            switch key.utf8.count {
            case 4:
                guard key.hasSameUTF8(as: "name") else { return nil }
                self = .name
            case 8:
                if key.hasSameUTF8(as: "objectId") {
                    self = .objectId
                } else if key.hasSameUTF8(as: "coreType") {
                    self = .coreType
                } else {
                    return nil
                }
            case 10:
                if key.hasSameUTF8(as: "objectType") {
                    self = .objectType
                } else if key.hasSameUTF8(as: "externalId") {
                    self = .externalId
                } else if key.hasSameUTF8(as: "locationId") {
                    self = .locationId
                } else {
                    return nil
                }
            case 13:
                guard key.hasSameUTF8(as: "isDeactivated") else { return nil }
                self = .isDeactivated
            case 14:
                guard key.hasSameUTF8(as: "parentObjectId") else { return nil }
                self = .parentObjectId
            default:
                return nil
            }
        }
    }

    /// Whether `key` names a base field.
    static func isBaseField(_ key: String) -> Bool {
        Field(key) != nil
    }

    /// Reads `value` when `key` is a base field and returns `true`; returns `false` for other keys.
    @inline(__always)
    mutating func read(_ key: String, _ value: JSONValue, _ context: WireContext) throws(ObjectDecodingError) -> Bool {
        guard let field = Field(key) else { return false }
        switch field {
        case .objectId: objectId = try Wire.nonEmptyString(value, key, context)
        case .objectType: objectType = try Wire.nonEmptyString(value, key, context)
        case .coreType:
            let name = try Wire.string(value, key, context)
            guard let type = CoreType(rawValue: name) else {
                throw context.error(key, "'\(name)' is not a Coaty core type")
            }
            coreType = type
        case .name: name = try Wire.string(value, key, context)
        case .externalId: externalId = try Wire.nonEmptyString(value, key, context)
        case .parentObjectId: parentObjectId = try Wire.nonEmptyString(value, key, context)
        case .locationId: locationId = try Wire.nonEmptyString(value, key, context)
        case .isDeactivated: isDeactivated = try Wire.bool(value, key, context)
        }
        return true
    }

    /// The required base fields, checking that the object is of core type `expected` (any core type
    /// when `expected` is `nil`).
    func required(
        as expected: CoreType?, _ context: WireContext
    ) throws(ObjectDecodingError) -> (objectId: String, objectType: String, coreType: CoreType, name: String) {
        guard let coreType else { throw context.missing("coreType") }
        guard let objectType else { throw context.missing("objectType") }
        guard let objectId else { throw context.missing("objectId") }
        guard let name else { throw context.missing("name") }
        if let expected, coreType != expected {
            throw context.error("coreType", "expected '\(expected.rawValue)', found '\(coreType.rawValue)'")
        }
        return (objectId, objectType, coreType, name)
    }

    /// Appends the optional base fields that are set, in their canonical order.
    static func appendOptional(
        externalId: String?, parentObjectId: String?, locationId: String?, isDeactivated: Bool?,
        to object: inout JSONObject
    ) {
        if let externalId { object.appendNew("externalId", .string(externalId)) }
        if let parentObjectId { object.appendNew("parentObjectId", .string(parentObjectId)) }
        if let locationId { object.appendNew("locationId", .string(locationId)) }
        if let isDeactivated { object.appendNew("isDeactivated", .bool(isDeactivated)) }
    }
}
