/// The operator of a filter condition, with its integer code on the wire.
///
/// The codes are coaty-js's `ObjectFilterOperator` values. Build expressions with the factories of
/// ``ObjectFilterExpression`` (`.equals(42)`, `.between(1, 5)`), which put the operands in place.
public enum FilterOperator: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// `value < operand`; strings by collation, other types by JavaScript's `<` (code 0).
    case lessThan = 0
    /// `value <= operand` (code 1).
    case lessThanOrEqual = 1
    /// `value > operand` (code 2).
    case greaterThan = 2
    /// `value >= operand` (code 3).
    case greaterThanOrEqual = 3
    /// `lower <= value <= upper`; the bounds are swapped when `lower > upper` (code 4).
    case between = 4
    /// `value < lower || value > upper`; the bounds are swapped when `lower > upper` (code 5).
    case notBetween = 5
    /// SQL `LIKE` on a string value: `_` one character, `%` any run, `\` escapes (code 6).
    case like = 6
    /// Deep equality (code 7).
    case equals = 7
    /// Not deep-equal (code 8).
    case notEquals = 8
    /// The property is present; a `null` value counts as present (code 9).
    case exists = 9
    /// The property is absent (code 10).
    case notExists = 10
    /// Deep containment: arrays contain elements, objects contain members (code 11).
    case contains = 11
    /// Not ``contains`` (code 12).
    case notContains = 12
    /// The value deep-equals an element of the operand array (code 13).
    case `in` = 13
    /// The value deep-equals no element of the operand array (code 14).
    case notIn = 14

    /// The integer written on the wire.
    public var code: Int { rawValue }

    /// The operator with wire code `code`, or `nil` for a code outside 0…14.
    public init?(code: Int) {
        self.init(rawValue: code)
    }

    /// The operator for a JSON number that is exactly one of the integer codes 0…14 (`7` and `7.0`
    /// alike, as in JavaScript), or `nil`.
    init?(codeValue: JSONValue) {
        guard let number = codeValue.numberValue, number >= 0, number <= 14, number == number.rounded(.towardZero)
        else { return nil }
        self.init(rawValue: Int(number))
    }

    /// The number of operands the operator reads: 0 for ``exists``/``notExists``, 2 for
    /// ``between``/``notBetween``, else 1.
    public var operandCount: Int {
        switch self {
        case .exists, .notExists: return 0
        case .between, .notBetween: return 2
        default: return 1
        }
    }

    /// The coaty-js name, for example `"LessThan"` or `"NotIn"`.
    public var name: String {
        switch self {
        case .lessThan: return "LessThan"
        case .lessThanOrEqual: return "LessThanOrEqual"
        case .greaterThan: return "GreaterThan"
        case .greaterThanOrEqual: return "GreaterThanOrEqual"
        case .between: return "Between"
        case .notBetween: return "NotBetween"
        case .like: return "Like"
        case .equals: return "Equals"
        case .notEquals: return "NotEquals"
        case .exists: return "Exists"
        case .notExists: return "NotExists"
        case .contains: return "Contains"
        case .notContains: return "NotContains"
        case .in: return "In"
        case .notIn: return "NotIn"
        }
    }

    /// The coaty-js name.
    public var description: String { name }
}
