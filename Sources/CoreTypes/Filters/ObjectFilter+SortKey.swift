/// Sort keys as text, so a backend outside CoreTypes (an SQL `ORDER BY` with a custom collation)
/// orders objects exactly as ``ObjectFilter/apply(to:)`` does.
///
/// A key is one rank character (absent `0`, `null` `1`, Boolean `2`, number `3`, string `4`,
/// array `5`, object `6`, function `7`) followed by the value where the rank alone does not
/// decide: `0`/`1` for Booleans, the double's round-trip digits for numbers, the string itself.
extension ObjectFilter {
    /// The sort key of the value at `path` in `object`, resolved as the matcher resolves paths.
    package static func sortKey(_ path: PropertyPath, in object: JSONValue) -> String {
        let value = JavaScriptProperty.resolve(path.components, in: object)
        switch value {
        case nil: return "0"
        case .json(.null)?: return "1"
        case .json(.bool(let b))?: return b ? "21" : "20"
        case .json(.int(let i))?: return "3" + Double(i).description
        case .json(.double(let d))?: return "3" + d.description
        case .json(.string(let s))?: return "4" + s
        case .json(.array)?, .arrayPrototype?: return "5"
        case .json(.object)?, .objectPrototype?: return "6"
        case .function?: return "7"
        }
    }

    /// Compares two keys made by ``sortKey(_:in:)`` as ``apply(to:)`` compares the values: a
    /// negative number, zero or a positive number.
    package static func compareSortKeys(_ a: String, _ b: String) -> Int {
        let (rankA, rankB) = (a.utf8.first ?? 0, b.utf8.first ?? 0)
        if rankA != rankB { return rankA < rankB ? -1 : 1 }
        let (x, y) = (a.utf8.dropFirst(), b.utf8.dropFirst())
        switch rankA {
        case UInt8(ascii: "2"):
            return x.elementsEqual(y) ? 0 : (x.first == UInt8(ascii: "0") ? -1 : 1)
        case UInt8(ascii: "3"):
            guard let m = Double(Substring(x)), let n = Double(Substring(y)), m != n else { return 0 }
            return m < n ? -1 : 1
        case UInt8(ascii: "4"):
            return JavaScriptCollator.compare(String(Substring(x)), String(Substring(y))).signum()
        default:
            return 0
        }
    }
}

extension PropertyPath {
    /// Whether every name of the path can only ever resolve to an own member of a JSON object, as
    /// an SQL JSON path (`$.a.b`) resolves it: non-empty names of ASCII letters, digits and `_`
    /// that start with a letter or `_`, and are no array index, no `length` and nothing that
    /// JavaScript objects or arrays inherit (`constructor`, `__proto__`, `toString`, `map`, …).
    /// A path that is not plain needs the matcher itself.
    package var isPlainMemberPath: Bool {
        !components.isEmpty && components.allSatisfy(Self.isPlainMemberName)
    }

    private static func isPlainMemberName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        guard name.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || isLetter($0) || ($0 >= 48 && $0 <= 57) }) else {
            return false
        }
        return name != "length" && name != "constructor" && name != "__proto__"
            && !JavaScriptProperty.objectPrototypeMethods.contains(name)
            && !JavaScriptProperty.arrayPrototypeMethods.contains(name)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
    }
}

/// String order for backends: the ICU root collation that filters and ordering use.
package enum FilterCollation {
    /// A negative number, zero or a positive number as `a` sorts before, equal to or after `b`.
    package static func compare(_ a: String, _ b: String) -> Int {
        JavaScriptCollator.compare(a, b).signum()
    }
}
