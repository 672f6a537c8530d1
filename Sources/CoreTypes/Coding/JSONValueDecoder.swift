/// Decodes any `Decodable` type from a ``JSONValue``, without going through JSON text.
///
/// Members of type ``JSONValue`` and ``JSONObject`` receive the value as it is (no conversion, key
/// order kept). Numbers convert the way JavaScript sees them: an integer property accepts `2` and
/// `2.0` but not `2.5`; a `Double` accepts any number. A `null` member counts as present:
/// a non-optional property fails on it, an optional one decodes as `nil`.
///
/// Errors are `DecodingError`s whose context carries the coding path; their description names
/// it as a dotted path (`battery.cells.1.voltage`).
///
/// ```swift
/// struct Battery: Codable { var level: Double; var charging: Bool }
/// let battery = try JSONValueDecoder().decode(Battery.self, from: ["level": 0.5, "charging": true])
/// ```
public struct JSONValueDecoder: Sendable {
    /// How property names map to member names.
    public var keyStrategy: JSONKeyStrategy

    /// Creates a decoder.
    public init(keyStrategy: JSONKeyStrategy = .useDefaultKeys) {
        self.keyStrategy = keyStrategy
    }

    /// Decodes a value of type `type` from `value`.
    ///
    /// - Throws: `DecodingError` naming the coding path of the first member that does not fit.
    public func decode<T: Decodable>(_ type: T.Type = T.self, from value: JSONValue) throws -> T {
        if let passthrough = JSONValueDecoding.passthrough(value, as: T.self) { return passthrough }
        if let array = JSONValueDecoding.scalarArray(value, as: T.self) { return array }
        let decoder = JSONValueDecoding(value: value, keyStrategy: keyStrategy, keepsBaseFieldNames: false)
        return try T(from: decoder)
    }

    /// Decodes a value of type `type` from the object `object`.
    ///
    /// - Throws: `DecodingError` naming the coding path of the first member that does not fit.
    public func decode<T: Decodable>(_ type: T.Type = T.self, from object: JSONObject) throws -> T {
        try decode(type, from: .object(object))
    }
}

/// The `Decoder` behind ``JSONValueDecoder``. One instance decodes a whole tree: nested values
/// are decoded by swapping ``value`` and pushing the coding path, not by allocating new decoders.
final class JSONValueDecoding: Decoder {
    // The stored properties skip the runtime's exclusivity checks: a decoding belongs to one
    // decode on one thread, and no access to it overlaps another.
    @exclusivity(unchecked) var value: JSONValue
    @exclusivity(unchecked) var codingPath: [any CodingKey] = []
    let keyStrategy: JSONKeyStrategy
    /// Whether the base field names of Coaty objects bypass ``keyStrategy`` at the top level.
    let keepsBaseFieldNames: Bool
    /// Which members of the top-level object were looked up; set by the object type registry to
    /// find the members a type does not declare.
    @exclusivity(unchecked) var accessedTopLevelMembers: BitSet?

    /// Always empty; the type is fixed by the standard library protocol (the one `Any` in CoreTypes).
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(value: JSONValue, keyStrategy: JSONKeyStrategy, keepsBaseFieldNames: Bool) {
        self.value = value
        self.keyStrategy = keyStrategy
        self.keepsBaseFieldNames = keepsBaseFieldNames
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw Self.mismatch(JSONObject.self, value, codingPath)
        }
        let tracks = codingPath.isEmpty && accessedTopLevelMembers != nil
        return KeyedDecodingContainer(
            JSONValueKeyedDecodingContainer<Key>(decoder: self, object: object, codingPath: codingPath, tracks: tracks))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let array) = value else {
            throw Self.mismatch([JSONValue].self, value, codingPath)
        }
        return JSONValueUnkeyedDecodingContainer(decoder: self, array: array, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        JSONValueSingleValueDecodingContainer(decoder: self, value: value, codingPath: codingPath)
    }

    /// Decodes a nested value at `key`, reusing this decoder.
    @inline(__always)
    func decodeNested<T: Decodable>(_ type: T.Type, from child: JSONValue, key: any CodingKey) throws -> T {
        if let passthrough = Self.passthrough(child, as: T.self) { return passthrough }
        if let array = Self.scalarArray(child, as: T.self) { return array }
        let saved = value
        value = child
        codingPath.append(key)
        defer {
            value = saved
            codingPath.removeLast()
        }
        return try T(from: self)
    }

    /// The value itself when `T` is ``JSONValue`` or ``JSONObject`` (and the value is an object).
    @inline(__always)
    static func passthrough<T>(_ value: JSONValue, as type: T.Type) -> T? {
        if T.self == JSONValue.self { return value as? T }
        if T.self == JSONObject.self, case .object(let object) = value { return object as? T }
        return nil
    }

    /// An array of strings, numbers or booleans, read straight from the array's elements: what
    /// `Array.init(from:)` makes of them through an unkeyed container, whose generic code is not
    /// specialized and looks metadata up for each array it builds. `nil` for other types, and when
    /// an element does not fit: the way through the container then throws its usual error.
    @inline(__always)
    static func scalarArray<T>(_ value: JSONValue, as type: T.Type) -> T? {
        guard case .array(let elements) = value else { return nil }
        if T.self == [String].self { return unboxed(elements, { try unbox($0, as: String.self, []) }) as? T }
        if T.self == [Int].self { return unboxed(elements, { try unbox($0, as: Int.self, []) }) as? T }
        if T.self == [Double].self { return unboxed(elements, { try unbox($0, as: Double.self, []) }) as? T }
        if T.self == [Bool].self { return unboxed(elements, { try unbox($0, as: Bool.self, []) }) as? T }
        return nil
    }

    private static func unboxed<Element>(_ elements: [JSONValue], _ unbox: (JSONValue) throws -> Element) -> [Element]? {
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for element in elements {
            guard let value = try? unbox(element) else { return nil }
            result.append(value)
        }
        return result
    }

    // MARK: - Scalars

    @inline(__always)
    static func unbox(_ value: JSONValue, as type: String.Type, _ path: @autoclosure () -> [any CodingKey]) throws
        -> String
    {
        guard case .string(let string) = value else { throw mismatch(type, value, path()) }
        return string
    }

    @inline(__always)
    static func unbox(_ value: JSONValue, as type: Bool.Type, _ path: @autoclosure () -> [any CodingKey]) throws -> Bool
    {
        guard case .bool(let bool) = value else { throw mismatch(type, value, path()) }
        return bool
    }

    @inline(__always)
    static func unbox(_ value: JSONValue, as type: Double.Type, _ path: @autoclosure () -> [any CodingKey]) throws
        -> Double
    {
        switch value {
        case .double(let double): return double
        case .int(let int): return Double(int)
        default: throw mismatch(type, value, path())
        }
    }

    @inline(__always)
    static func unbox(_ value: JSONValue, as type: Float.Type, _ path: @autoclosure () -> [any CodingKey]) throws
        -> Float
    {
        let double = try unbox(value, as: Double.self, path())
        let float = Float(double)
        guard float.isFinite else { throw outOfRange(type, value, path()) }
        return float
    }

    @inline(__always)
    static func unbox<I: FixedWidthInteger>(
        _ value: JSONValue, as type: I.Type, _ path: @autoclosure () -> [any CodingKey]
    ) throws -> I {
        switch value {
        case .int(let int):
            guard let result = I(exactly: int) else { throw outOfRange(type, value, path()) }
            return result
        case .double(let double):
            guard let result = I(exactly: double) else { throw outOfRange(type, value, path()) }
            return result
        default:
            throw mismatch(type, value, path())
        }
    }

    // MARK: - Errors

    static func dottedPath(_ path: [any CodingKey]) -> String {
        path.isEmpty
            ? "the top level"
            : "'" + path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".") + "'"
    }

    static func mismatch<T>(_ type: T.Type, _ value: JSONValue, _ path: [any CodingKey]) -> DecodingError {
        if value.isNull {
            return DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: path, debugDescription: "expected \(type) at \(dottedPath(path)), found null"))
        }
        return DecodingError.typeMismatch(
            type,
            DecodingError.Context(
                codingPath: path, debugDescription: "expected \(type) at \(dottedPath(path)), found \(value.typeName)"))
    }

    static func outOfRange<T>(_ type: T.Type, _ value: JSONValue, _ path: [any CodingKey]) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: path,
                debugDescription: "number \(value.serializedString()) at \(dottedPath(path)) does not fit \(type)"))
    }
}
