/// The wire form of an outgoing Coaty object, written by a ``WireCodable`` type's `write(to:)`.
///
/// It starts with the object's base fields (`objectId`, `objectType`, `coreType`, `name`, then
/// the optional ones that are set); the type writes its own members after them. Writing a key that
/// is already there replaces its value in place. `encodeIfPresent` leaves `nil` out, as coaty-js
/// leaves out `undefined`: the writer never writes `null` unless given ``JSONValue/null``.
public struct WireWriter {
    /// The members written so far.
    public private(set) var object: JSONObject
    /// How many base fields ``object`` starts with.
    private let headCount: Int

    init(_ source: some CoatyObject) {
        object = source.baseHead(capacity: 16)
        headCount = object.count
    }

    /// Writes a string member.
    public mutating func encode(_ value: String, forKey key: String) {
        set(key, .string(value))
    }

    /// Writes a boolean member.
    public mutating func encode(_ value: Bool, forKey key: String) {
        set(key, .bool(value))
    }

    /// Writes an integer member.
    public mutating func encode(_ value: Int, forKey key: String) {
        set(key, .int(value))
    }

    /// Writes a number member.
    ///
    /// - Throws: `EncodingError.invalidValue` when `value` is not finite: JSON has no NaN or infinity.
    public mutating func encode(_ value: Double, forKey key: String) throws(EncodingError) {
        guard value.isFinite else { throw Self.notFinite(value, key) }
        set(key, .double(value))
    }

    /// Writes an array of strings.
    public mutating func encode(_ value: [String], forKey key: String) {
        set(key, .array(value.map(JSONValue.string)))
    }

    /// Writes a member as it is.
    public mutating func encode(_ value: JSONValue, forKey key: String) {
        set(key, value)
    }

    /// Writes an object member as it is.
    public mutating func encode(_ value: JSONObject, forKey key: String) {
        set(key, .object(value))
    }

    /// Writes a member of any `Encodable` type with ``JSONValueEncoder``: for the members that
    /// have no method of their own (a nested struct, an enumeration, `[Int]`).
    ///
    /// - Throws: `EncodingError` when the value does not encode.
    public mutating func encode<T: Encodable>(_ value: T, forKey key: String) throws {
        set(key, try JSONValueEncoder().encode(value))
    }

    /// Writes a string member, or nothing when `value` is `nil`.
    public mutating func encodeIfPresent(_ value: String?, forKey key: String) {
        if let value { encode(value, forKey: key) }
    }

    /// Writes a boolean member, or nothing when `value` is `nil`.
    public mutating func encodeIfPresent(_ value: Bool?, forKey key: String) {
        if let value { encode(value, forKey: key) }
    }

    /// Writes an integer member, or nothing when `value` is `nil`.
    public mutating func encodeIfPresent(_ value: Int?, forKey key: String) {
        if let value { encode(value, forKey: key) }
    }

    /// Writes a number member, or nothing when `value` is `nil`.
    ///
    /// - Throws: `EncodingError.invalidValue` when `value` is not finite.
    public mutating func encodeIfPresent(_ value: Double?, forKey key: String) throws(EncodingError) {
        if let value { try encode(value, forKey: key) }
    }

    /// Writes an array of strings, or nothing when `value` is `nil`.
    public mutating func encodeIfPresent(_ value: [String]?, forKey key: String) {
        if let value { encode(value, forKey: key) }
    }

    /// Writes an object member, or nothing when `value` is `nil`.
    public mutating func encodeIfPresent(_ value: JSONObject?, forKey key: String) {
        if let value { encode(value, forKey: key) }
    }

    /// Writes a member of any `Encodable` type, or nothing when `value` is `nil`.
    ///
    /// - Throws: `EncodingError` when the value does not encode.
    public mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: String) throws {
        if let value { try encode(value, forKey: key) }
    }

    /// The object with `custom`'s members appended, those whose keys were not written.
    consuming func finish(custom: JSONObject) -> JSONObject {
        for member in custom.storage where !object.contains(key: member.key) {
            object.appendNew(member.key, member.value)
        }
        return object
    }

    /// Appends `key` with `value`, or replaces the value of a key already written. A key that is
    /// not a base field can only be among those written after the base fields, so a small object
    /// compares it with those alone; a large one has an index to look it up.
    private mutating func set(_ key: String, _ value: JSONValue) {
        guard BaseFields.Field(key) == nil, object.count <= JSONObject.indexThreshold else {
            object.updateValue(value, forKey: key)
            return
        }
        for i in headCount..<object.storage.count where object.storage[i].key.hasSameUTF8(as: key) {
            object.storage[i].value = value
            return
        }
        object.appendNew(key, value)
    }

    private static func notFinite(_ value: Double, _ key: String) -> EncodingError {
        EncodingError.invalidValue(
            value,
            EncodingError.Context(
                codingPath: [AnyCodingKey(key)], debugDescription: "\(value) at '\(key)' cannot be written as a JSON number"))
    }
}
