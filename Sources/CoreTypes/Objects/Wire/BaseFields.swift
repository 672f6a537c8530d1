/// The base fields of a Coaty object while it is being read, with coaty-js's rules
/// (`CoreTypes._isObject`): `objectId` and `objectType` non-empty strings, `name` a string,
/// `coreType` one of the twelve names, the optional ids non-empty strings, `isDeactivated` a boolean.
struct BaseFields {
    var objectID: String?
    var objectType: String?
    var coreType: CoreType?
    var name: String?
    var externalID: String?
    var parentObjectID: String?
    var locationID: String?
    var isDeactivated: Bool?

    /// The base field names in the order Swift-created objects write them.
    static let names: [String] = [
        "objectId", "objectType", "coreType", "name", "externalId", "parentObjectId", "locationId", "isDeactivated",
    ]

    /// A base field's name; the cases and their raw values follow ``names``.
    enum Field: UInt8, CaseIterable {
        case objectID, objectType, coreType, name, externalID, parentObjectID, locationID, isDeactivated

        /// The field's name on the wire.
        var key: String { BaseFields.names[Int(rawValue)] }

        /// The field named `key` (by its UTF-8 bytes, as JavaScript compares names), or `nil`.
        ///
        /// Every member of every object read or written passes here, most of them not base fields:
        /// the length rules out most keys, and the others are told apart by one or two eight-byte
        /// words of their UTF-8 (the first eight bytes and the last eight, which overlap for names
        /// shorter than sixteen) instead of byte-wise comparisons with each candidate.
        @inline(__always)
        init?(_ key: String) {
            let length = key.utf8.count
            guard length == 4 || length == 8 || length == 10 || length == 13 || length == 14 else { return nil }
            let found = key.utf8.withContiguousStorageIfAvailable { Self.match(UnsafeRawBufferPointer($0)) }
            guard let field = found ?? Self.match(Array(key.utf8)) else { return nil }
            self = field
        }

        /// The field named by the UTF-8 bytes `key`, if any.
        @inline(__always)
        init?(utf8 key: UnsafeRawBufferPointer) {
            let length = key.count
            guard length == 4 || length == 8 || length == 10 || length == 13 || length == 14, let field = Self.match(key) else {
                return nil
            }
            self = field
        }

        private static func match(_ bytes: [UInt8]) -> Field? {
            bytes.withUnsafeBytes { match($0) }
        }

        private static func match(_ bytes: UnsafeRawBufferPointer) -> Field? {
            if bytes.count == 4 { return UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)) == Words.name ? .name : nil }
            let head = UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))
            let tail = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
            switch bytes.count {
            case 8:
                if head == Words.objectID.head { return .objectID }
                if head == Words.coreType.head { return .coreType }
            case 10:
                if head == Words.objectType.head && tail == Words.objectType.tail { return .objectType }
                if head == Words.externalID.head && tail == Words.externalID.tail { return .externalID }
                if head == Words.locationID.head && tail == Words.locationID.tail { return .locationID }
            case 13:
                if head == Words.isDeactivated.head && tail == Words.isDeactivated.tail { return .isDeactivated }
            case 14:
                if head == Words.parentObjectID.head && tail == Words.parentObjectID.tail { return .parentObjectID }
            default: break
            }
            return nil
        }

        /// The first and last eight bytes of each name as little-endian words, as `match` reads them, written
        /// out so that no lazy initialization runs per lookup; a test checks them against the names.
        enum Words {
            static let name: UInt32 = 0x656D_616E
            static let objectID: (head: UInt64, tail: UInt64) = (0x6449_7463_656A_626F, 0x6449_7463_656A_626F)
            static let coreType: (head: UInt64, tail: UInt64) = (0x6570_7954_6572_6F63, 0x6570_7954_6572_6F63)
            static let objectType: (head: UInt64, tail: UInt64) = (0x7954_7463_656A_626F, 0x6570_7954_7463_656A)
            static let externalID: (head: UInt64, tail: UInt64) = (0x6C61_6E72_6574_7865, 0x6449_6C61_6E72_6574)
            static let locationID: (head: UInt64, tail: UInt64) = (0x6E6F_6974_6163_6F6C, 0x6449_6E6F_6974_6163)
            static let isDeactivated: (head: UInt64, tail: UInt64) = (0x6974_6361_6544_7369, 0x6465_7461_7669_7463)
            static let parentObjectID: (head: UInt64, tail: UInt64) = (0x624F_746E_6572_6170, 0x6449_7463_656A_624F)
        }
    }

    /// The wire name of a base field's Swift name (`objectID` → `objectId`), or `nil` when `name`
    /// is not one of the four that Swift spells differently: how `Codable` application types keep
    /// the wire's names at the top level of an object.
    @inline(__always)
    static func wireName(ofSwiftName name: String) -> String? {
        guard name.utf8.last == UInt8(ascii: "D") else { return nil }
        switch name {
        case "objectID": return "objectId"
        case "externalID": return "externalId"
        case "parentObjectID": return "parentObjectId"
        case "locationID": return "locationId"
        default: return nil
        }
    }

    /// The Swift name of a base field's wire name (`objectId` → `objectID`), or `nil` (see
    /// ``wireName(ofSwiftName:)``).
    @inline(__always)
    static func swiftName(ofWireName name: String) -> String? {
        guard name.utf8.last == UInt8(ascii: "d") else { return nil }
        switch name {
        case "objectId": return "objectID"
        case "externalId": return "externalID"
        case "parentObjectId": return "parentObjectID"
        case "locationId": return "locationID"
        default: return nil
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
        case .objectID: objectID = try Wire.nonEmptyString(value, key, context)
        case .objectType: objectType = try Wire.nonEmptyString(value, key, context)
        case .coreType:
            let name = try Wire.string(value, key, context)
            guard let type = CoreType(rawValue: name) else {
                throw context.error(key, "'\(name)' is not a Coaty core type")
            }
            coreType = type
        case .name: name = try Wire.string(value, key, context)
        case .externalID: externalID = try Wire.nonEmptyString(value, key, context)
        case .parentObjectID: parentObjectID = try Wire.nonEmptyString(value, key, context)
        case .locationID: locationID = try Wire.nonEmptyString(value, key, context)
        case .isDeactivated: isDeactivated = try Wire.bool(value, key, context)
        }
        return true
    }

    /// The base fields, checking that the required ones are there and that the object is of core
    /// type `expected` (any core type when `expected` is `nil`).
    func required(as expected: CoreType?, _ context: WireContext) throws(ObjectDecodingError) -> ObjectBase {
        guard let coreType else { throw context.missing("coreType") }
        guard let objectType else { throw context.missing("objectType") }
        guard let objectID else { throw context.missing("objectId") }
        guard let name else { throw context.missing("name") }
        if let expected, coreType != expected {
            throw context.error("coreType", "expected '\(expected.rawValue)', found '\(coreType.rawValue)'")
        }
        return ObjectBase(
            objectID: objectID, objectType: objectType, name: name, externalID: externalID,
            parentObjectID: parentObjectID, locationID: locationID, isDeactivated: isDeactivated)
    }

    /// Whether `json` declares the core type `CoatyObject` and passes the rules of
    /// ``read(_:_:_:)`` and ``required(as:_:)`` (which are all of that core type's), checked in
    /// place in one pass: no strings are copied out and no context is built, for the check of every
    /// outbound object (`ObjectTypeRegistry.validateCoreForm`). `false` sends that check the full
    /// way, which also explains what is wrong. Change both together; a test ties them to decoding.
    static func isValidCoatyObjectForm(_ json: JSONObject) -> Bool {
        var required: UInt8 = 0  // objectId, objectType, coreType, name: one bit each
        for member in json.storage {
            guard let field = Field(member.key) else { continue }
            switch (field, member.value) {
            case (.objectID, .string(let string)) where !string.isEmpty: required |= 1
            case (.objectType, .string(let string)) where !string.isEmpty: required |= 2
            case (.coreType, .string(let string)) where string == CoreType.coatyObject.rawValue: required |= 4
            case (.name, .string): required |= 8
            case (.externalID, .string(let string)) where !string.isEmpty: continue
            case (.parentObjectID, .string(let string)) where !string.isEmpty: continue
            case (.locationID, .string(let string)) where !string.isEmpty: continue
            case (.isDeactivated, .bool): continue
            default: return false
            }
        }
        return required == 0b1111
    }

    /// Appends the optional base fields that are set, in their canonical order.
    static func appendOptional(
        externalID: String?, parentObjectID: String?, locationID: String?, isDeactivated: Bool?,
        to object: inout JSONObject
    ) {
        if let externalID { object.appendNew("externalId", .string(externalID)) }
        if let parentObjectID { object.appendNew("parentObjectId", .string(parentObjectID)) }
        if let locationID { object.appendNew("locationId", .string(locationID)) }
        if let isDeactivated { object.appendNew("isDeactivated", .bool(isDeactivated)) }
    }
}
