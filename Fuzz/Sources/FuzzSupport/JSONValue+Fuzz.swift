public import CoreTypes

extension JSONValue {
    /// Whether two values are the same JSON as JavaScript sees it: numbers compare by value (`1`,
    /// `1.0` and `-0.0`/`0` are equal, as after `JSON.stringify`), everything else structurally.
    ///
    /// - Parameter keyOrder: Whether objects must also list their keys in the same order.
    public func isSameJSON(as other: JSONValue, keyOrder: Bool = true) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.int, .double), (.double, .int), (.double, .double):
            return doubleValue == other.doubleValue
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return false }
            return zip(a, b).allSatisfy { $0.isSameJSON(as: $1, keyOrder: keyOrder) }
        case (.object(let a), .object(let b)):
            return a.isSameJSON(as: b, keyOrder: keyOrder)
        default: return false
        }
    }

    /// The deepest nesting of arrays and objects: 0 for a scalar, 1 for `[]` or `{"a":1}`.
    public var nestingDepth: Int {
        switch self {
        case .array(let elements): return 1 + (elements.map(\.nestingDepth).max() ?? 0)
        case .object(let object): return 1 + (object.values.map(\.nestingDepth).max() ?? 0)
        default: return 0
        }
    }

    /// The value with every integral double that fits `Int` turned into an integer, as it reads back
    /// after being written (the writer prints `2.0` as `2`).
    public var normalizedNumbers: JSONValue {
        switch self {
        case .double(let d) where d.magnitude < 1e15:
            if let i = Int(exactly: d) { return .int(i) }
            return self
        case .array(let elements): return .array(elements.map(\.normalizedNumbers))
        case .object(let object):
            return .object(JSONObject(object.map { ($0.key, $0.value.normalizedNumbers) }))
        default: return self
        }
    }
}

extension JSONObject {
    /// Whether two objects are the same JSON as JavaScript sees it (see ``JSONValue/isSameJSON(as:keyOrder:)``).
    public func isSameJSON(as other: JSONObject, keyOrder: Bool = true) -> Bool {
        guard count == other.count else { return false }
        if keyOrder {
            return zip(self, other).allSatisfy { $0.key == $1.key && $0.value.isSameJSON(as: $1.value, keyOrder: true) }
        }
        for (key, value) in self {
            guard let match = other[key], value.isSameJSON(as: match, keyOrder: false) else { return false }
        }
        return true
    }
}
