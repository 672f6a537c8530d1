/// A value reached by resolving a property path the way coaty-js does, on the JavaScript objects
/// that `JSON.parse` produced.
///
/// Besides JSON values, JavaScript lookup also finds what every object inherits: `constructor`,
/// `hasOwnProperty`, `toString` and the other members of `Object.prototype` exist on every object
/// (and `map`, `join`, … on every array), and `__proto__` leads to the prototype itself. coaty-js's
/// matcher therefore says `"constructor"` exists on every object. These cases are kept apart so
/// the operators treat them as JavaScript would.
enum JavaScriptProperty {
    /// A JSON value (`arr.length` is one too).
    case json(JSONValue)
    /// A built-in method such as `hasOwnProperty`, named as its source text names it.
    case function(name: String)
    /// `Object.prototype`, reached through `__proto__` of an object.
    case objectPrototype
    /// `Array.prototype`, reached through `__proto__` of an array.
    case arrayPrototype

    /// Resolves `path` in `root`; `nil` is JavaScript's `undefined` (absent).
    static func resolve(_ path: [String], in root: JSONValue) -> JavaScriptProperty? {
        var current = JavaScriptProperty.json(root)
        for name in path {
            guard let next = current.member(name) else { return nil }
            current = next
        }
        return current
    }

    /// `self[name]` where `self` is an object; `nil` for primitives, `null`, functions and missing
    /// members.
    func member(_ name: String) -> JavaScriptProperty? {
        switch self {
        case .json(.object(let object)):
            if let value = object.ownValue(forJavaScriptKey: name) { return .json(value) }
            return Self.objectPrototypeMember(name)
        case .json(.array(let elements)):
            if let index = Self.arrayIndex(name) {
                return index < elements.count ? .json(elements[index]) : nil
            }
            if name == "length" { return .json(.int(elements.count)) }
            return Self.arrayPrototypeMember(name)
        case .json:
            return nil
        case .function:
            return nil
        case .objectPrototype:
            if name == "__proto__" { return .json(.null) }
            return Self.objectPrototypeMember(name)
        case .arrayPrototype:
            if name == "length" { return .json(.int(0)) }
            return Self.arrayPrototypeMember(name)
        }
    }

    /// The value as the operators see it: the prototypes behave exactly like `{}` and `[]` in every
    /// operator (they have no enumerable keys and no elements); functions have no JSON equivalent.
    var jsonEquivalent: JSONValue? {
        switch self {
        case .json(let value): return value
        case .function: return nil
        case .objectPrototype: return .object(JSONObject())
        case .arrayPrototype: return .array([])
        }
    }

    private static func objectPrototypeMember(_ name: String) -> JavaScriptProperty? {
        if name == "__proto__" { return .objectPrototype }
        if name == "constructor" { return .function(name: "Object") }
        return objectPrototypeMethods.contains(name) ? .function(name: name) : nil
    }

    private static func arrayPrototypeMember(_ name: String) -> JavaScriptProperty? {
        if name == "__proto__" { return .arrayPrototype }
        if name == "constructor" { return .function(name: "Array") }
        if arrayPrototypeMethods.contains(name) { return .function(name: name) }
        return objectPrototypeMember(name)
    }

    /// The array index that `name` denotes in JavaScript: a canonical decimal integer (`"0"`, `"12"`,
    /// not `"01"` or `"1.0"`).
    private static func arrayIndex(_ name: String) -> Int? {
        let utf8 = name.utf8
        guard let first = utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9"),
            first != UInt8(ascii: "0") || utf8.count == 1, utf8.count <= 10
        else { return nil }
        var index = 0
        for byte in utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            index = index * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return index < 4_294_967_295 ? index : nil
    }

    /// The methods of `Object.prototype` in Node.js 20 (besides `constructor` and `__proto__`).
    static let objectPrototypeMethods: Set<String> = [
        "__defineGetter__", "__defineSetter__", "hasOwnProperty", "__lookupGetter__", "__lookupSetter__",
        "isPrototypeOf", "propertyIsEnumerable", "toString", "valueOf", "toLocaleString",
    ]

    /// The methods of `Array.prototype` in Node.js 20 (besides `constructor` and `length`).
    static let arrayPrototypeMethods: Set<String> = [
        "at", "concat", "copyWithin", "fill", "find", "findIndex", "findLast", "findLastIndex", "lastIndexOf",
        "pop", "push", "reverse", "shift", "unshift", "slice", "sort", "splice", "includes", "indexOf", "join",
        "keys", "entries", "values", "forEach", "filter", "flat", "flatMap", "map", "every", "some", "reduce",
        "reduceRight", "toLocaleString", "toString", "toReversed", "toSorted", "toSpliced", "with",
    ]
}

extension JSONObject {
    /// The own member whose key has exactly the UTF-16 code units of `key`, as JavaScript compares
    /// keys (Swift's `==` would also accept a canonically equivalent key).
    func ownValue(forJavaScriptKey key: String) -> JSONValue? {
        guard let position = position(of: key) else { return nil }
        let member = self[position]
        // (An `if`, not `?:`, whose `nil` would become JSON `null`: JSONValue is nil-literal convertible.)
        guard member.key.hasSameCodeUnits(as: key) else { return nil }
        return member.value
    }

    /// Whether the object has an own member named exactly `key`.
    func hasOwnJavaScriptKey(_ key: String) -> Bool {
        ownValue(forJavaScriptKey: key) != nil
    }
}

extension String {
    /// Whether both strings have the same UTF-8 bytes, which is JavaScript's `===` on strings (same
    /// UTF-16 code units); Swift's `==` also equates canonically equivalent strings.
    func hasSameCodeUnits(as other: String) -> Bool {
        let count = utf8.count
        guard count == other.utf8.count else { return false }
        let fast = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in
                var i = 0
                while i < count {
                    if mine[i] != theirs[i] { return false }
                    i += 1
                }
                return true
            }
        }
        if let fast, let result = fast { return result }
        return utf8.elementsEqual(other.utf8)
    }
}
