/// The members of an incoming Coaty object, read by a ``WireCodable`` type's `init(wire:)`.
///
/// Values convert as ``JSONValueDecoder`` converts them (an `Int` accepts `2` and `2.0` but not
/// `2.5`, a `Double` any number), with the rules of coaty-js for the object's own members: a
/// required member must be present and not `null`, and `decodeIfPresent` reads an absent member
/// and a `null` one as `nil`. Errors are ``ObjectDecodingError``s naming the object type, the core
/// type and the member (`tags.1` for an element), as for any other object that fails to decode.
///
/// The reader remembers which members were read; the registry hands the others to
/// ``CoatyObject/custom`` once `init(wire:)` returns.
public struct WireReader {
    /// The whole incoming object, every member included.
    ///
    /// When an object of a registered type with the `coatyObject` core type is read from a
    /// payload's bytes without a tree (an Advertise, an Update or a response an agent receives),
    /// the members are bytes, and reading this property parses them all: it is there to look at an
    /// object as a whole, not for every member.
    public var object: JSONObject {
        source?.object() ?? tree
    }

    /// The members, when the object came as a tree.
    private let tree: JSONObject
    /// The members, when the object came as bytes.
    private let source: WireSource?
    let context: WireContext
    /// The positions of the members read so far.
    private(set) var read: BitSet
    /// Where the next member is looked for first: types usually read in the order they write.
    private var next = 0

    init(_ object: JSONObject, context: WireContext) {
        tree = object
        source = nil
        self.context = context
        self.read = BitSet(count: object.count)
    }

    init(_ source: WireSource, context: WireContext) {
        tree = JSONObject()
        self.source = source
        self.context = context
        self.read = BitSet(count: source.count)
    }

    /// Whether the object has a member named `key` (its value may be `null`). It does not count as
    /// reading the member.
    public func contains(_ key: String) -> Bool {
        if let source { return source.position(of: key, hint: 0) != nil }
        return tree.position(of: key) != nil
    }

    /// The members not read, except `objectType` and `coreType`: the object's ``CoatyObject/custom``.
    func unreadMembers() -> JSONObject {
        if let source { return source.unreadMembers(read) }
        return tree.unreadMembers(read)
    }

    // MARK: - Required members

    /// Reads a string member.
    ///
    /// - Throws: ``ObjectDecodingError`` when the member is missing, `null`, or not a string.
    public mutating func decode(_ type: String.Type, forKey key: String) throws(ObjectDecodingError) -> String {
        if let source, let string = take(key, from: source, WireSource.string(at:)) { return string }
        return try Wire.string(require(key), key, context)
    }

    /// Reads a boolean member.
    ///
    /// - Throws: ``ObjectDecodingError`` when the member is missing, `null`, or not a boolean.
    public mutating func decode(_ type: Bool.Type, forKey key: String) throws(ObjectDecodingError) -> Bool {
        try Wire.bool(require(key), key, context)
    }

    /// Reads a number member as a `Double`.
    ///
    /// - Throws: ``ObjectDecodingError`` when the member is missing, `null`, or not a number.
    public mutating func decode(_ type: Double.Type, forKey key: String) throws(ObjectDecodingError) -> Double {
        try Wire.number(require(key), key, context)
    }

    /// Reads a number member as an `Int`: an integer, or a double that is one (`2.0`).
    ///
    /// - Throws: ``ObjectDecodingError`` when the member is missing, `null`, not a number, or not
    ///   an integer that fits `Int`.
    public mutating func decode(_ type: Int.Type, forKey key: String) throws(ObjectDecodingError) -> Int {
        try Wire.integer(require(key), key, context)
    }

    /// Reads an array of strings.
    ///
    /// - Throws: ``ObjectDecodingError`` when the member is missing, `null`, not an array, or
    ///   has an element that is not a string (naming it, `tags.1`).
    public mutating func decode(_ type: [String].Type, forKey key: String) throws(ObjectDecodingError) -> [String] {
        if let source, let strings = take(key, from: source, WireSource.strings(at:)) { return strings }
        return try Wire.stringArray(require(key), key, context, allowsEmpty: true)
    }

    /// Reads a member as it is, whatever its JSON type.
    ///
    /// - Throws: ``ObjectDecodingError`` when the member is missing (`null` is a value here).
    public mutating func decode(_ type: JSONValue.Type, forKey key: String) throws(ObjectDecodingError) -> JSONValue {
        try require(key)
    }

    /// Reads an object member as it is.
    ///
    /// - Throws: ``ObjectDecodingError`` when the member is missing, `null`, or not an object.
    public mutating func decode(_ type: JSONObject.Type, forKey key: String) throws(ObjectDecodingError) -> JSONObject {
        try Wire.object(require(key), key, context)
    }

    /// Reads a member of any `Decodable` type with ``JSONValueDecoder``: for the members that
    /// have no method of their own (a nested struct, an enumeration, `[Int]`).
    ///
    /// - Throws: ``ObjectDecodingError`` when the member is missing or `null`, or naming the part
    ///   of it that does not decode (`battery.level`).
    public mutating func decode<T: Decodable>(_ type: T.Type, forKey key: String) throws(ObjectDecodingError) -> T {
        try Self.nested(type, require(key), key, context)
    }

    // MARK: - Optional members

    /// Reads a string member, or `nil` when it is absent or `null`.
    ///
    /// - Throws: ``ObjectDecodingError`` when the member is present but not a string.
    public mutating func decodeIfPresent(_ type: String.Type, forKey key: String) throws(ObjectDecodingError)
        -> String?
    {
        if let source, let string = take(key, from: source, WireSource.string(at:)) { return string }
        return try optional(key, Wire.string)
    }

    /// Reads a boolean member, or `nil` when it is absent or `null`.
    ///
    /// - Throws: ``ObjectDecodingError`` when the member is present but not a boolean.
    public mutating func decodeIfPresent(_ type: Bool.Type, forKey key: String) throws(ObjectDecodingError) -> Bool? {
        try optional(key, Wire.bool)
    }

    /// Reads a number member as a `Double`, or `nil` when it is absent or `null`.
    ///
    /// - Throws: ``ObjectDecodingError`` when the member is present but not a number.
    public mutating func decodeIfPresent(_ type: Double.Type, forKey key: String) throws(ObjectDecodingError)
        -> Double?
    {
        try optional(key, Wire.number)
    }

    /// Reads a number member as an `Int`, or `nil` when it is absent or `null`.
    ///
    /// - Throws: ``ObjectDecodingError`` when the member is present but not an integer that fits `Int`.
    public mutating func decodeIfPresent(_ type: Int.Type, forKey key: String) throws(ObjectDecodingError) -> Int? {
        try optional(key, Wire.integer)
    }

    /// Reads an array of strings, or `nil` when it is absent or `null`.
    ///
    /// - Throws: ``ObjectDecodingError`` when the member is present but not an array of strings.
    public mutating func decodeIfPresent(_ type: [String].Type, forKey key: String) throws(ObjectDecodingError)
        -> [String]?
    {
        if let source, let strings = take(key, from: source, WireSource.strings(at:)) { return strings }
        return try optional(key) { value, key, context throws(ObjectDecodingError) in
            try Wire.stringArray(value, key, context, allowsEmpty: true)
        }
    }

    /// Reads an object member as it is, or `nil` when it is absent or `null`.
    ///
    /// - Throws: ``ObjectDecodingError`` when the member is present but not an object.
    public mutating func decodeIfPresent(_ type: JSONObject.Type, forKey key: String) throws(ObjectDecodingError)
        -> JSONObject?
    {
        try optional(key, Wire.object)
    }

    /// Reads a member of any `Decodable` type with ``JSONValueDecoder``, or `nil` when it is
    /// absent or `null`.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the part of the member that does not decode.
    public mutating func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: String) throws(ObjectDecodingError)
        -> T?
    {
        try optional(key) { value, key, context throws(ObjectDecodingError) in try Self.nested(type, value, key, context) }
    }

    // MARK: - Bookkeeping

    private mutating func take(_ key: String) -> JSONValue? {
        if let source {
            guard let position = source.position(of: key, hint: next) else { return nil }
            markRead(position)
            return source.value(at: position)
        }
        guard let position = tree.position(of: key, hint: next) else { return nil }
        markRead(position)
        return tree.storage[position].value
    }

    /// Reads the member `key` from bytes with `read`, and marks it read when `read` gives a value;
    /// `nil` (the member not marked) when it is absent or `read` does not take its value, which
    /// leaves that member to the general path and its errors.
    @inline(__always)
    private mutating func take<T>(_ key: String, from source: WireSource, _ read: (WireSource) -> (Int) -> T?) -> T? {
        guard let position = source.position(of: key, hint: next), let value = read(source)(position) else { return nil }
        markRead(position)
        return value
    }

    /// Marks the member at `position` read; the next key is looked for first after it.
    @inline(__always)
    private mutating func markRead(_ position: Int) {
        read[position] = true
        next = position + 1
    }

    /// Reads an optional member with `read`: `nil` when it is absent or `null`.
    private mutating func optional<T>(
        _ key: String, _ read: (JSONValue, String, WireContext) throws(ObjectDecodingError) -> T
    ) throws(ObjectDecodingError) -> T? {
        guard let value = take(key), !value.isNull else { return nil }
        return try read(value, key, context)
    }

    private mutating func require(_ key: String) throws(ObjectDecodingError) -> JSONValue {
        guard let value = take(key) else { throw context.missing(key) }
        return value
    }

    private static func nested<T: Decodable>(
        _ type: T.Type, _ value: JSONValue, _ key: String, _ context: WireContext
    ) throws(ObjectDecodingError) -> T {
        do {
            return try JSONValueDecoder().decode(type, from: value)
        } catch let error as DecodingError {
            let inner = ObjectTypeRegistry.objectError(error, context: context)
            throw context.error(key + (inner.field.map { "." + $0 } ?? ""), inner.reason)
        } catch {
            throw context.error(key, "does not decode as \(T.self): \(error)")
        }
    }
}
