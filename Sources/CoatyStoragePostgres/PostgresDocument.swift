import CoatyStorage
import CoreTypes

/// The two forms in which the PostgreSQL backend stores an object.
///
/// - `data` (`text`): the exact JSON text from `EncodedObject`, which reads give back, so an
///   object comes back with its members in their order and its numbers as written, as from the
///   other backends.
/// - `doc` (`jsonb`, GIN-indexed): the same object for the SQL pre-filter. JSONB reorders members
///   and cannot hold U+0000, so here every U+0000 in a string or member name is U+FFFF; no SQL
///   condition looks at a string holding either (`SQLFilterPlan`), so the pre-filter answers for
///   `doc` as it would for `data`.
enum PostgresDocument {
    /// The SQL of the member of `doc` at a plain member path (`doc -> $1 -> $2`, the last step
    /// `->>` for its text): SQL `NULL` where a member is absent or a non-object is in the way.
    /// One `->` a name, rather than `#>` with the path as an array, which the server unpacks for
    /// every row.
    static func member(_ path: [String], _ arguments: inout PostgresArguments, asText: Bool = false) -> String {
        var sql = "doc"
        for (index, name) in path.enumerated() {
            sql += (asText && index == path.count - 1 ? " ->> " : " -> ") + arguments.text(name)
        }
        return sql
    }

    /// The JSON text of `doc` for `object` when it differs from `data` (the object holds U+0000).
    static func differingQueryText(of object: EncodedObject) throws -> String? {
        guard holdsEscapedNUL(object.text) else { return nil }
        return replacingNUL(in: try JSONValue(parsing: object.text)).serializedString()
    }

    /// Whether `text` (JSON) holds an escaped U+0000, `\u0000` as JSONWriter writes it. A byte
    /// loop: `String.contains` compares characters and cost more than the rest of a batch.
    static func holdsEscapedNUL(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: "\\") else {
                    index += 1
                    continue
                }
                if index + 5 < bytes.count, bytes[index + 1] == UInt8(ascii: "u"),
                    bytes[index + 2..<index + 6].allSatisfy({ $0 == UInt8(ascii: "0") })
                {
                    return true
                }
                index += 2  // past the escaped character: `\\u0000` is a backslash and text
            }
            return false
        }
    }

    private static func replacingNUL(in value: JSONValue) -> JSONValue {
        switch value {
        case .string(let string): return .string(replacingNUL(in: string))
        case .array(let elements): return .array(elements.map(replacingNUL))
        case .object(let object):
            return .object(JSONObject(object.map { (replacingNUL(in: $0.key), replacingNUL(in: $0.value)) }))
        default: return value
        }
    }

    private static func replacingNUL(in string: String) -> String {
        String(String.UnicodeScalarView(string.unicodeScalars.map { $0.value == 0 ? "\u{FFFF}" : $0 }))
    }
}
