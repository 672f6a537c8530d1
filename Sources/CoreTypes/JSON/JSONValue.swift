/// Any JSON value, typed: the project's "AnyCodable".
///
/// `JSONValue` carries the open parts of Coaty objects and events (custom fields, Call parameters,
/// Return results, filter operands, IO values) without going through `Any`. It keeps what JSON
/// text says:
/// - integers and floating-point numbers stay apart: `42` is ``int(_:)``, `1.5` is ``double(_:)``,
///   and every integer that fits in 64 bits (2^53 and beyond) stays exact;
/// - objects keep their key order (``JSONObject``);
/// - a `null` value is ``null``, which is different from a missing key.
///
/// Equality and hashing are structural: two objects are equal when they have the same keys with
/// equal values, whatever their key order; `.int(1)` and `.double(1)` are different values (use
/// ``numberValue`` to compare numbers by value).
///
/// ```swift
/// let value = try JSONValue(parsing: #"{"isOn":true,"brightness":0.8,"tags":["a"]}"#)
/// value["brightness"]?.doubleValue   // 0.8
/// value.serializedString()          // the same text back
/// ```
public enum JSONValue: Sendable, Hashable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits in a signed 64-bit integer.
    case int(Int)
    /// Any other number. Never NaN or infinite when parsed from JSON text.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, with its key order.
    case object(JSONObject)
}

// MARK: - Typed access

extension JSONValue {
    /// Whether this is JSON `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The Boolean, if this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The integer, if this is ``int(_:)`` or a ``double(_:)`` with an integral value that fits `Int`.
    public var intValue: Int? {
        switch self {
        case .int(let i): return i
        case .double(let d):
            guard let i = Int(exactly: d) else { return nil }
            return i
        default: return nil
        }
    }

    /// The number as a `Double`, if this is ``int(_:)`` or ``double(_:)``.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// The number as a `Double` (JavaScript's view of every JSON number), or `nil` for non-numbers.
    public var numberValue: Double? { doubleValue }

    /// Whether this is a number (``int(_:)`` or ``double(_:)``).
    public var isNumber: Bool {
        switch self {
        case .int, .double: return true
        default: return false
        }
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The object, if this is an object.
    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The member named `key`, if this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let o) = self else { return nil }
        return o[key]
    }

    /// The element at `index`, if this is an array that long.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let a) = self, a.indices.contains(index) else { return nil }
        return a[index]
    }

    /// The name of this value's JSON type, as used in error messages: `"null"`, `"boolean"`,
    /// `"integer"`, `"number"`, `"string"`, `"array"` or `"object"`.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .int: return "integer"
        case .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// Creates JSON `null`.
    public init(nilLiteral: ()) { self = .null }
    /// Creates a Boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Creates an integer.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// Creates a floating-point number.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// Creates a string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Creates an array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// Creates an object with the members in the order written.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text of this value.
    public var description: String { serializedString() }
}
