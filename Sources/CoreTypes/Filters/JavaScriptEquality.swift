/// coaty-js's deep `equals`, `contains` and `includes` (`@coaty/core` `util/deep`), step for step:
/// same iteration order, same short-circuits, and a thrown error wherever JavaScript would throw a
/// `TypeError` (calling `hasOwnProperty` on an object that has its own `hasOwnProperty` member, or
/// `Object.keys(null)`), so a filter fails on exactly the objects where it fails in coaty-js.
enum JavaScriptEquality {
    /// `a === b` for JSON values: numbers by value (`1` equals `1.0`), strings by UTF-16 code
    /// units; arrays and objects are never identical.
    static func strictlyEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.string(let x), .string(let y)): return x.hasSameCodeUnits(as: y)
        default:
            guard let x = a.numberValue, let y = b.numberValue else { return false }
            return x == y
        }
    }

    /// `equals(a, b)`: deep structural equality; object key order is irrelevant.
    static func equals(_ a: JSONValue, _ b: JSONValue) throws -> Bool {
        switch (a, b) {
        case (.array(let x), .array(let y)):
            guard x.count == y.count else { return false }
            for (left, right) in zip(x, y) where !(try equals(left, right)) { return false }
            return true
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            var keysPresent = true
            try forEachKey(of: x) { key, _ in
                try requireCallableHasOwnProperty(y)
                keysPresent = y.hasOwnJavaScriptKey(key)
                return keysPresent
            }
            guard keysPresent else { return false }
            var allEqual = true
            try forEachKey(of: x) { key, value in
                allEqual = try equals(value, y.ownValue(forJavaScriptKey: key) ?? .null)
                return allEqual
            }
            return allEqual
        default:
            return strictlyEqual(a, b)
        }
    }

    /// `equals` with the property value on the left (`Equals`, `NotEquals`); `nil` is `undefined`.
    static func equals(_ value: JavaScriptProperty, _ operand: JSONValue?) throws -> Bool {
        guard let operand, let left = value.jsonEquivalent else { return false }
        return try equals(left, operand)
    }

    /// `includes(array, value)` (`In`, `NotIn`): whether some element of `array` deep-equals `value`.
    ///
    /// - Throws: ``FilterError`` when `array` is not an array ("first argument must be an array").
    static func includes(_ array: JSONValue?, _ value: JavaScriptProperty) throws -> Bool {
        guard case .array(let elements)? = array else {
            let found = array.map { "\($0.typeName) \($0.serializedString())" } ?? "no operand"
            throw FilterError.evaluation("In and NotIn need an array operand, found \(found)")
        }
        guard let right = value.jsonEquivalent else { return false }
        for element in elements where try equals(element, right) { return true }
        return false
    }

    /// `contains(value, operand)` (`Contains`, `NotContains`); `nil` is `undefined`.
    static func contains(_ value: JavaScriptProperty, _ operand: JSONValue?) throws -> Bool {
        switch value {
        case .json(let json): return try contains(json, operand, isTopLevel: true)
        case .function: return false
        case .arrayPrototype: return try contains(.array([]), operand, isTopLevel: true)
        case .objectPrototype:
            // Its own members are methods (never containing anything) and `__proto__`, which is null.
            return try containsMembers(of: operand) { key, member in
                key == "__proto__" && member.isNull
            }
        }
    }

    private static func contains(_ x: JSONValue, _ y: JSONValue?, isTopLevel: Bool) throws -> Bool {
        switch x {
        case .array(let elements):
            guard case .array(let wanted)? = y else {
                // A primitive (or null) is contained in a top-level array that has it as an element.
                guard isTopLevel, let y, !y.isObjectOrArray else { return false }
                return elements.contains { strictlyEqual($0, y) }
            }
            for yv in wanted {
                var found = false
                for xv in elements where try contains(xv, yv, isTopLevel: false) {
                    found = true
                    break
                }
                if !found { return false }
            }
            return true
        case .object(let object):
            return try containsMembers(of: y) { key, member in
                try requireCallableHasOwnProperty(object)
                guard let own = object.ownValue(forJavaScriptKey: key) else { return false }
                return try contains(own, member, isTopLevel: false)
            }
        default:
            guard let y else { return false }
            return strictlyEqual(x, y)
        }
    }

    /// `Object.keys(y).every(…)` for a `y` that is contained in an object: false for primitives and
    /// `undefined`, a thrown error for `null`, array elements keyed `"0"`, `"1"`, ….
    private static func containsMembers(
        of y: JSONValue?, _ check: (String, JSONValue) throws -> Bool
    ) throws -> Bool {
        switch y {
        case .null?:
            throw FilterError.evaluation("Contains cannot look for null inside an object (Object.keys(null))")
        case .array(let elements)?:
            for (index, element) in elements.enumerated() where !(try check(String(index), element)) { return false }
            return true
        case .object(let members)?:
            var all = true
            try forEachKey(of: members) { key, member in
                all = try check(key, member)
                return all
            }
            return all
        default:
            return false
        }
    }

    /// A JSON object with its own `hasOwnProperty` member shadows the method, so JavaScript's
    /// `obj.hasOwnProperty(key)` throws.
    private static func requireCallableHasOwnProperty(_ object: JSONObject) throws {
        if object.hasOwnJavaScriptKey("hasOwnProperty") {
            throw FilterError.evaluation("an object with its own \"hasOwnProperty\" member cannot be searched")
        }
    }

    /// Visits the members in `Object.keys` order (integer keys ascending first, then the others in
    /// insertion order) until `body` returns false.
    static func forEachKey(of object: JSONObject, _ body: (String, JSONValue) throws -> Bool) throws {
        var hasIntegerKey = false
        for (key, _) in object where integerKey(key) != nil {
            hasIntegerKey = true
            break
        }
        guard hasIntegerKey else {
            for (key, value) in object where !(try body(key, value)) { return }
            return
        }
        let integers = object.indices.compactMap { i in integerKey(object[i].key).map { (i, $0) } }
            .sorted { $0.1 < $1.1 }
        for (i, _) in integers where !(try body(object[i].key, object[i].value)) { return }
        for (key, value) in object where integerKey(key) == nil {
            if !(try body(key, value)) { return }
        }
    }

    /// The value of an array-index-like key (`"0"`, `"42"`, at most 2^32 − 2), as JavaScript orders
    /// object keys.
    private static func integerKey(_ key: String) -> Int? {
        let utf8 = key.utf8
        guard let first = utf8.first, utf8.count <= 10, first != UInt8(ascii: "0") || utf8.count == 1 else {
            return nil
        }
        var value = 0
        for byte in utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value <= 4_294_967_294 ? value : nil
    }
}

extension JSONValue {
    var isObjectOrArray: Bool {
        switch self {
        case .array, .object: return true
        default: return false
        }
    }
}
