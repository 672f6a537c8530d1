/// Encodes any `Encodable` value as a ``JSONValue``, without going through JSON text.
///
/// Keyed members keep the order in which the type encodes them (for synthesized conformances, the
/// order of the stored properties), so the result serializes in a predictable order. Members of
/// type ``JSONValue`` and ``JSONObject`` are taken over as they are. `nil` optionals are left out
/// (never written as `null`) unless a type calls `encodeNil` itself.
///
/// ```swift
/// struct Battery: Codable { var level: Double; var charging: Bool }
/// try JSONValueEncoder().encode(Battery(level: 0.5, charging: true))   // {"level":0.5,"charging":true}
/// ```
public struct JSONValueEncoder: Sendable {
    /// How property names map to member names.
    public var keyStrategy: JSONKeyStrategy

    /// Creates an encoder.
    public init(keyStrategy: JSONKeyStrategy = .useDefaultKeys) {
        self.keyStrategy = keyStrategy
    }

    /// Encodes `value`.
    ///
    /// - Throws: `EncodingError.invalidValue` for a number JSON cannot carry (NaN, infinity, a
    ///   `UInt64` above `Int.max` that no double holds exactly) or a value that encodes nothing,
    ///   naming its coding path. A `UInt64` above `Int.max` that a double holds exactly (such as
    ///   2^63, or any such value ``JSONValueDecoder`` read from JSON) is written as that double.
    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        try JSONValueEncoding(keyStrategy: keyStrategy, keepsBaseFieldNames: false).encodeRoot(value)
    }

    /// Encodes `value`, which must encode as a JSON object (a struct or class with keyed members).
    ///
    /// - Throws: `EncodingError.invalidValue` when the value is not encoded as an object, and for
    ///   the reasons listed at ``encode(_:)``.
    public func encodeObject<T: Encodable>(_ value: T) throws -> JSONObject {
        let encoded = try encode(value)
        guard case .object(let object) = encoded else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: [], debugDescription: "\(T.self) encodes as \(encoded.typeName), not as an object"))
        }
        return object
    }
}

/// Storage for a keyed or unkeyed container that nested encoders write into after the container
/// was handed out.
///
/// Its stored properties skip the runtime's exclusivity checks: a box belongs to one encode on one
/// thread, and no access to it overlaps another (each is one update or append, with the value
/// computed before).
final class JSONValueEncodingBox {
    @exclusivity(unchecked) var object: JSONObject
    @exclusivity(unchecked) var array: [JSONValue]
    let isArray: Bool
    /// Containers opened with `nestedContainer`, and encoders handed out by `superEncoder`, resolved
    /// when the box is read.
    @exclusivity(unchecked) var nested: [(key: String?, index: Int, source: NestedSource)] = []

    /// Where a nested value is written.
    enum NestedSource {
        /// A nested keyed or unkeyed container.
        case box(JSONValueEncodingBox)
        /// A super encoder: its value is whatever container its user opened (an empty object if none).
        case encoder(JSONValueEncoding)

        func takeValue() -> JSONValue {
            switch self {
            case .box(let box): return box.takeValue()
            case .encoder(let encoder):
                switch encoder.result {
                case .none: return .object(JSONObject())
                case .value(let value): return value
                case .box(let box): return box.takeValue()
                }
            }
        }
    }

    /// A box for an array, or for an object with room for `capacity` members (growing an empty
    /// object one member at a time reallocated it five times for a dozen members).
    init(isArray: Bool, capacity: Int = 8) {
        self.isArray = isArray
        object = isArray ? JSONObject() : JSONObject(capacity: capacity)
        array = []
    }

    /// The container's value, moved out of the box (which is left empty): the value holds the only
    /// reference to its storage, so whoever adds to it next (a nested container's value, the
    /// object's `objectType`) does not copy it first. Read once, when the encoding is finished.
    func takeValue() -> JSONValue {
        if isArray {
            var result = array
            array = []
            for entry in nested { result[entry.index] = entry.source.takeValue() }
            return .array(result)
        }
        var result = object
        object = JSONObject()
        for entry in nested {
            if let key = entry.key { result[key] = entry.source.takeValue() }
        }
        return .object(result)
    }
}

/// The `Encoder` behind ``JSONValueEncoder``. One instance encodes a whole tree: nested values are
/// encoded by saving and restoring ``result`` and the coding path, not by allocating new encoders.
final class JSONValueEncoding: Encoder {
    enum Result {
        case none
        case value(JSONValue)
        case box(JSONValueEncodingBox)
    }

    // Unchecked for the reason given at JSONValueEncodingBox: one encode, one thread, no overlap.
    @exclusivity(unchecked) var codingPath: [any CodingKey] = []
    @exclusivity(unchecked) var result = Result.none
    let keyStrategy: JSONKeyStrategy
    let keepsBaseFieldNames: Bool

    /// Always empty; the type is fixed by the standard library protocol (the one `Any` in CoreTypes).
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(keyStrategy: JSONKeyStrategy, keepsBaseFieldNames: Bool) {
        self.keyStrategy = keyStrategy
        self.keepsBaseFieldNames = keepsBaseFieldNames
    }

    func encodeRoot<T: Encodable>(_ value: T) throws -> JSONValue {
        if let passthrough = Self.passthrough(value) { return passthrough }
        if let array = Self.scalarArray(value) { return array }
        try value.encode(to: self)
        return try finish(value)
    }

    /// Encodes a nested value, reusing this encoder.
    func encodeNested<T: Encodable>(_ value: T, key: any CodingKey) throws -> JSONValue {
        if let passthrough = Self.passthrough(value) { return passthrough }
        if let array = Self.scalarArray(value) { return array }
        let saved = result
        result = .none
        codingPath.append(key)
        defer {
            result = saved
            codingPath.removeLast()
        }
        try value.encode(to: self)
        return try finish(value)
    }

    private func finish<T>(_ value: T) throws -> JSONValue {
        switch result {
        case .value(let encoded): return encoded
        case .box(let box): return box.takeValue()
        case .none:
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(codingPath: codingPath, debugDescription: "\(T.self) did not encode any value"))
        }
    }

    @inline(__always)
    static func passthrough<T>(_ value: T) -> JSONValue? {
        if T.self == JSONValue.self, let json = value as? JSONValue { return json }
        if T.self == JSONObject.self, let object = value as? JSONObject { return .object(object) }
        return nil
    }

    /// An array of strings, integers, finite doubles or booleans as a JSON array at once: what
    /// `Array.encode(to:)` makes of it through an unkeyed container, whose generic code (not
    /// specialized) dominated encoding a short array. `nil` for other types, and for doubles that are
    /// not all finite: the way through the container then throws the error it always did.
    @inline(__always)
    static func scalarArray<T>(_ value: T) -> JSONValue? {
        if T.self == [String].self, let strings = value as? [String] { return .array(strings.map(JSONValue.string)) }
        if T.self == [Int].self, let ints = value as? [Int] { return .array(ints.map(JSONValue.int)) }
        if T.self == [Double].self, let doubles = value as? [Double], doubles.allSatisfy(\.isFinite) {
            return .array(doubles.map(JSONValue.double))
        }
        if T.self == [Bool].self, let bools = value as? [Bool] { return .array(bools.map(JSONValue.bool)) }
        return nil
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: JSONValueEncodingBox
        if case .box(let existing) = result, !existing.isArray {
            box = existing
        } else {
            // A Coaty object at the top: its fields, the base fields, `objectType`, `coreType` and custom.
            box = JSONValueEncodingBox(isArray: false, capacity: codingPath.isEmpty ? 16 : 8)
            result = .box(box)
        }
        return KeyedEncodingContainer(
            JSONValueKeyedEncodingContainer<Key>(encoder: self, box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box: JSONValueEncodingBox
        if case .box(let existing) = result, existing.isArray {
            box = existing
        } else {
            box = JSONValueEncodingBox(isArray: true)
            result = .box(box)
        }
        return JSONValueUnkeyedEncodingContainer(encoder: self, box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONValueSingleValueEncodingContainer(encoder: self, codingPath: codingPath)
    }

    /// The wire name of `key` in a container at `path`.
    @inline(__always)
    func wireName(_ key: some CodingKey, at path: [any CodingKey]) -> String {
        let name = key.stringValue
        if keepsBaseFieldNames && path.isEmpty, let wireName = BaseFields.wireName(ofSwiftName: name) { return wireName }
        if keyStrategy.isIdentity { return name }
        if keepsBaseFieldNames && path.isEmpty && BaseFields.isBaseField(name) { return name }
        return keyStrategy.wireName(for: name)
    }

    static func box(_ value: Double, _ path: @autoclosure () -> [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: path(), debugDescription: "\(value) cannot be written as a JSON number"))
        }
        return .double(value)
    }

    static func box<I: FixedWidthInteger>(_ value: I, _ path: @autoclosure () -> [any CodingKey]) throws -> JSONValue {
        if let int = Int(exactly: value) { return .int(int) }
        // Beyond Int, a double is what JavaScript reads anyway; the decoder accepts exact doubles too.
        if let double = Double(exactly: value) { return .double(double) }
        throw EncodingError.invalidValue(
            value,
            EncodingError.Context(
                codingPath: path(),
                debugDescription: "\(value) does not fit a 64-bit signed integer, and no double holds it exactly"))
    }
}
