import CoreTypes
import Testing

/// The JSON types a hostile peer can put in any field, with the plain example value used for each.
///
/// An empty string is its own kind, because many Coaty fields accept strings but not empty ones.
enum JSONKind: String, CaseIterable, Sendable {
    case null, bool, int, double, string, emptyString, array, object

    /// A value of this kind that fits no particular field.
    var plainValue: JSONValue {
        switch self {
        case .null: nil
        case .bool: true
        case .int: 7
        case .double: 2.5
        case .string: "text"
        case .emptyString: ""
        case .array: [1]
        case .object: ["k": 1]
        }
    }
}

/// Which JSON kinds a field accepts, each with a value of that kind that is valid for the field.
///
/// Every kind not listed is rejected; substituting it uses ``JSONKind/plainValue``.
struct FieldRule: Sendable {
    let field: String
    let accepted: [JSONKind: JSONValue]

    init(_ field: String, _ accepted: [JSONKind: JSONValue]) {
        self.field = field
        self.accepted = accepted
    }

    /// Any string, the empty one included.
    static func string(_ field: String) -> FieldRule { FieldRule(field, [.string: "text", .emptyString: ""]) }
    /// A non-empty string.
    static func nonEmptyString(_ field: String, _ example: JSONValue = "text") -> FieldRule {
        FieldRule(field, [.string: example])
    }
    /// `true` or `false`.
    static func bool(_ field: String) -> FieldRule { FieldRule(field, [.bool: false]) }
    /// Any number, integer or not.
    static func number(_ field: String) -> FieldRule { FieldRule(field, [.int: 7, .double: 2.5]) }
    /// An integer naming a case of an enumeration; 2.5 names none.
    static func enumeration(_ field: String, _ example: Int) -> FieldRule { FieldRule(field, [.int: .int(example)]) }
    /// A JSON object of the given shape.
    static func object(_ field: String, _ example: JSONValue = ["k": 1]) -> FieldRule {
        FieldRule(field, [.object: example])
    }
    /// An array of the given shape.
    static func array(_ field: String, _ example: JSONValue = ["a"]) -> FieldRule {
        FieldRule(field, [.array: example])
    }
    /// Any JSON value at all.
    static func anyValue(_ field: String) -> FieldRule {
        FieldRule(field, Dictionary(uniqueKeysWithValues: JSONKind.allCases.map { ($0, $0.plainValue) }))
    }
}

/// One substitution: `kind` in `field` of a valid object or payload, and whether it must be accepted.
struct Substitution: Sendable, CustomTestStringConvertible {
    let subject: String
    let base: JSONObject
    let field: String
    let kind: JSONKind
    let value: JSONValue
    let isAccepted: Bool

    /// Every kind in the field of `rule`, substituted into `base`.
    static func all(_ subject: String, _ base: JSONObject, _ rule: FieldRule) -> [Substitution] {
        JSONKind.allCases.map { kind in
            let valid = rule.accepted[kind]
            return Substitution(
                subject: subject, base: base, field: rule.field, kind: kind, value: valid ?? kind.plainValue,
                isAccepted: valid != nil)
        }
    }

    /// `base` with `field` set to `value`, sent through JSON text as a peer would send it.
    var json: JSONValue {
        get throws {
            var object = base
            object[field] = value
            return try JSONValue(parsing: JSONValue.object(object).serialized())
        }
    }

    var testDescription: String { "\(subject).\(field) = \(kind) \(value)\(isAccepted ? "" : " (rejected)")" }
}
