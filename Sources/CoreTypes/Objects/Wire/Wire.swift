/// Hand-written readers for the members of Coaty objects, with coaty-js's validation rules.
///
/// Each reader checks one member's JSON type and returns the Swift value, or throws an
/// ``ObjectDecodingError`` naming the member. `null` is never accepted where a reader expects a
/// typed value: coaty-js treats an explicit `null` as present and invalid (quirk 2).
enum Wire {
    static func string(_ value: JSONValue, _ key: String, _ context: WireContext) throws(ObjectDecodingError) -> String
    {
        guard case .string(let string) = value else { throw mismatch(value, "a string", key, context) }
        return string
    }

    static func nonEmptyString(
        _ value: JSONValue, _ key: String, _ context: WireContext
    ) throws(ObjectDecodingError) -> String {
        guard case .string(let string) = value else { throw mismatch(value, "a non-empty string", key, context) }
        guard !string.isEmpty else { throw context.error(key, "must be a non-empty string, found an empty string") }
        return string
    }

    static func bool(_ value: JSONValue, _ key: String, _ context: WireContext) throws(ObjectDecodingError) -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(value, "a boolean", key, context) }
        return bool
    }

    /// Any JSON number, as JavaScript sees it.
    static func number(_ value: JSONValue, _ key: String, _ context: WireContext) throws(ObjectDecodingError) -> Double
    {
        switch value {
        case .int(let int): return Double(int)
        case .double(let double): return double
        default: throw mismatch(value, "a number", key, context)
        }
    }

    static func object(_ value: JSONValue, _ key: String, _ context: WireContext) throws(ObjectDecodingError)
        -> JSONObject
    {
        guard case .object(let object) = value else { throw mismatch(value, "an object", key, context) }
        return object
    }

    static func array(_ value: JSONValue, _ key: String, _ context: WireContext) throws(ObjectDecodingError)
        -> [JSONValue]
    {
        guard case .array(let array) = value else { throw mismatch(value, "an array", key, context) }
        return array
    }

    /// An array of non-empty strings (coaty-js `CoreTypes.isStringArray`), or of any strings when
    /// `allowsEmpty`.
    static func stringArray(
        _ value: JSONValue, _ key: String, _ context: WireContext, allowsEmpty: Bool = false
    ) throws(ObjectDecodingError) -> [String] {
        let expected = allowsEmpty ? "a string" : "a non-empty string"
        guard case .array(let elements) = value else {
            throw mismatch(value, allowsEmpty ? "an array of strings" : "an array of non-empty strings", key, context)
        }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .string(let string) = element, allowsEmpty || !string.isEmpty else {
                throw context.error(key + "." + String(index), "must be \(expected), found \(describe(element))")
            }
            strings.append(string)
        }
        return strings
    }

    /// An array of non-empty strings (coaty-js `CoreTypes.isStringArray`).
    static func nonEmptyStrings(
        _ value: JSONValue, _ key: String, _ context: WireContext
    ) throws(ObjectDecodingError) -> [String] {
        try stringArray(value, key, context)
    }

    /// coaty-js's rule for the `updateRate` of an IO source or actor: a number that is not negative.
    static func checkUpdateRate(_ rate: Double?, _ context: WireContext) throws(ObjectDecodingError) {
        if let rate, !(rate >= 0) { throw context.error("updateRate", "must not be negative, found \(rate)") }
    }

    /// An integer that fits `Int`: a JSON integer, or a double that is one (`2.0`), as
    /// ``JSONValueDecoder`` reads an `Int`.
    static func integer(_ value: JSONValue, _ key: String, _ context: WireContext) throws(ObjectDecodingError) -> Int {
        guard value.isNumber else { throw mismatch(value, "an integer", key, context) }
        guard let int = value.intValue else {
            throw context.error(key, "must be an integer that fits 64 bits, found \(value.serializedString())")
        }
        return int
    }

    /// An array whose elements are JSON objects, each read by `read`.
    static func objectArray<Element>(
        _ value: JSONValue, _ key: String, _ context: WireContext,
        _ read: (JSONObject, WireContext) throws(ObjectDecodingError) -> Element
    ) throws(ObjectDecodingError) -> [Element] {
        guard case .array(let elements) = value else { throw mismatch(value, "an array of objects", key, context) }
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .object(let object) = element else {
                throw context.error(key + "." + String(index), "must be an object, found \(describe(element))")
            }
            result.append(try read(object, context.nested(key, index: index)))
        }
        return result
    }

    /// A number that names a case of an integer-backed enumeration; like coaty-js, an integral
    /// double (`2.0`) counts, any other number is rejected.
    static func enumeration<E: RawRepresentable<Int>>(
        _ value: JSONValue, _ key: String, _ context: WireContext, _ type: E.Type = E.self
    ) throws(ObjectDecodingError) -> E {
        guard value.isNumber else { throw mismatch(value, "an integer", key, context) }
        guard let raw = value.intValue, let result = E(rawValue: raw) else {
            throw context.error(key, "\(value.serializedString()) is not a known \(E.self) value")
        }
        return result
    }

    static func mismatch(
        _ value: JSONValue, _ expected: String, _ key: String, _ context: WireContext
    ) -> ObjectDecodingError {
        if value.isNull {
            return context.error(key, "must be \(expected), found null (omit the member instead of sending null)")
        }
        return context.error(key, "must be \(expected), found \(describe(value))")
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .string(let string) where string.isEmpty: return "an empty string"
        case .array, .object, .string, .int, .double, .bool: return "\(article(value.typeName)) \(value.typeName)"
        }
    }

    private static func article(_ word: String) -> String {
        word.first.map { "aeiou".contains($0) } == true ? "an" : "a"
    }
}

extension JSONObject {
    /// Appends a member when `value` is set; does nothing for `nil` (unset optionals are omitted).
    @inline(__always) mutating func appendNew(_ key: String, _ value: JSONValue?) {
        if let value { appendNew(key, value) }
    }

    /// Creates an empty object with room for `capacity` members.
    init(capacity: Int) {
        self.init()
        storage.reserveCapacity(capacity)
    }
}
