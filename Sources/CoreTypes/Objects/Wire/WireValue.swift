/// A Swift value that a core type's member holds: how it is read from a JSON value, with coaty-js's
/// check for its JSON type, and how it is written back.
protocol WireValue: Sendable {
    /// Reads `value`, the member `key` of the object `context` describes.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the member when `value` has the wrong JSON type.
    static func read(_ value: JSONValue, _ key: String, _ context: WireContext) throws(ObjectDecodingError) -> Self
    /// The value on the wire.
    var wireValue: JSONValue { get }
}

/// How a member's value is read when its type's ``WireValue/read(_:_:_:)`` is not the rule
/// (``Wire/nonEmptyString(_:_:_:)``, ``Wire/stringArray(_:_:_:allowsEmpty:)``).
typealias WireRead<Value> = @Sendable (JSONValue, String, WireContext) throws(ObjectDecodingError) -> Value

extension String: WireValue {
    static func read(_ value: JSONValue, _ key: String, _ context: WireContext) throws(ObjectDecodingError) -> String {
        try Wire.string(value, key, context)
    }
    var wireValue: JSONValue { .string(self) }
}

extension Double: WireValue {
    static func read(_ value: JSONValue, _ key: String, _ context: WireContext) throws(ObjectDecodingError) -> Double {
        try Wire.number(value, key, context)
    }
    var wireValue: JSONValue { .double(self) }
}

extension Bool: WireValue {
    static func read(_ value: JSONValue, _ key: String, _ context: WireContext) throws(ObjectDecodingError) -> Bool {
        try Wire.bool(value, key, context)
    }
    var wireValue: JSONValue { .bool(self) }
}

extension Int: WireValue {
    static func read(_ value: JSONValue, _ key: String, _ context: WireContext) throws(ObjectDecodingError) -> Int {
        try Wire.integer(value, key, context)
    }
    var wireValue: JSONValue { .int(self) }
}

extension JSONObject: WireValue {
    static func read(_ value: JSONValue, _ key: String, _ context: WireContext) throws(ObjectDecodingError)
        -> JSONObject
    {
        try Wire.object(value, key, context)
    }
    var wireValue: JSONValue { .object(self) }
}

extension JSONValue: WireValue {
    /// Any JSON value, `null` included.
    static func read(_ value: JSONValue, _ key: String, _ context: WireContext) throws(ObjectDecodingError)
        -> JSONValue
    {
        value
    }
    var wireValue: JSONValue { self }
}

extension Array: WireValue where Element: WireValue {
    /// An array whose elements are read as `Element`; an element's errors name it `key.index`.
    static func read(_ value: JSONValue, _ key: String, _ context: WireContext) throws(ObjectDecodingError) -> [Element]
    {
        let elements = try Wire.array(value, key, context)
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            result.append(try Element.read(element, key + "." + String(index), context))
        }
        return result
    }
    var wireValue: JSONValue { .array(map(\.wireValue)) }
}

/// An integer-backed enumeration on the wire (``TaskStatus``, ``LogLevel``, …).
protocol WireEnumeration: WireValue, RawRepresentable<Int> {}

extension WireEnumeration {
    static func read(_ value: JSONValue, _ key: String, _ context: WireContext) throws(ObjectDecodingError) -> Self {
        try Wire.enumeration(value, key, context)
    }
    var wireValue: JSONValue { .int(rawValue) }
}
