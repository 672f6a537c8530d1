package import CoreTypes

/// An `ObjectFilterConditions` split for the SQL backends: the conditions that SQL over an
/// object's stored JSON can decide exactly as `ObjectMatcher` does (``plain``), those it can
/// decide for most values (``guarded``: numbers and `Like`), and the rest, which only the
/// matcher decides. Each backend writes the plain ones in its own SQL dialect;
/// what it does with the rest is its own business (SQLite calls the matcher in a function,
/// PostgreSQL filters in Swift).
///
/// A condition is plain when its path is `PropertyPath/isPlainMemberPath` (own object members
/// only, so an SQL JSON path resolves it as JavaScript does) and it is one of
/// ``PlainCondition/Test``'s cases. A string holding U+0000 or U+FFFF stays with the matcher:
/// SQLite's JSON functions cut text at U+0000, and PostgreSQL's JSONB cannot hold U+0000, so the
/// PostgreSQL backend queries a copy that has U+FFFF in its place.
package struct SQLFilterPlan: Sendable {
    /// How the conditions combine.
    package enum Junction: Sendable {
        case and
        case or
    }

    /// How ``plain`` and ``rest`` combine; no conditions at all is an empty `and` (everything).
    package let junction: Junction
    /// The conditions SQL decides exactly.
    package let plain: [PlainCondition]
    /// The conditions SQL decides except for a few values, which it leaves to the matcher.
    package let guarded: [GuardedCondition]
    /// The other conditions joined by ``junction``, for the matcher; `nil` when there are none.
    package let rest: ObjectFilterConditions?

    /// Splits `conditions`.
    package init(_ conditions: ObjectFilterConditions?) {
        let list: [ObjectFilterCondition]
        switch conditions {
        case nil, .empty?: (junction, list) = (.and, [])
        case .condition(let condition)?: (junction, list) = (.and, [condition])
        case .and(let conditions)?: (junction, list) = (.and, conditions)
        case .or(let conditions)?: (junction, list) = (.or, conditions)
        }
        var plain: [PlainCondition] = []
        var guarded: [GuardedCondition] = []
        var rest: [ObjectFilterCondition] = []
        for condition in list {
            if let test = PlainCondition.Test(condition) {
                plain.append(PlainCondition(path: condition.path.components, test: test, condition: condition))
            } else if let test = GuardedCondition.Test(condition) {
                guarded.append(GuardedCondition(path: condition.path.components, test: test, condition: condition))
            } else {
                rest.append(condition)
            }
        }
        self.plain = plain
        self.guarded = guarded
        if rest.isEmpty {
            self.rest = nil
        } else {
            self.rest = junction == .and ? .and(rest) : .or(rest)
        }
    }
}

/// One condition that SQL decides exactly, in terms every SQL backend can write.
package struct PlainCondition: Sendable {
    /// A JSON literal whose type alone decides strict equality.
    package enum Literal: String, Sendable {
        case `true`, `false`, null
    }

    /// A string comparison; the raw value is the SQL operator.
    package enum Comparison: String, Sendable {
        case lessThan = "<"
        case lessThanOrEqual = "<="
        case greaterThan = ">"
        case greaterThanOrEqual = ">="
    }

    /// What the condition tests of the value at ``path``.
    package enum Test: Sendable {
        /// `Exists` (`true`) or `NotExists` (`false`): whether the member is present; a JSON
        /// `null` is present.
        case exists(Bool)
        /// `Equals`/`In` (not negated), `NotEquals`/`NotIn` (negated): whether the value strictly
        /// equals one of the strings (same UTF-8 bytes) or literals. No other type equals a string,
        /// Boolean or `null`; an absent member fails the negated test too.
        case equalsOneOf(strings: [String], literals: [Literal], negated: Bool)
        /// `<`, `<=`, `>`, `>=` with a string operand: for a string value, the ICU root collation
        /// decides (`FilterCollation`); any other value needs the matcher.
        case comparesString(Comparison, String)
        /// `Between`/`NotBetween` with two string operands (`low` not after `high` in collation
        /// order): for a string value, the ICU root collation decides; any other value needs the
        /// matcher.
        case betweenStrings(low: String, high: String, negated: Bool)
    }

    /// The member names, each plain.
    package let path: [String]
    /// What is tested.
    package let test: Test
    /// The condition it came from, for the matcher where a backend cannot write ``test``.
    package let condition: ObjectFilterCondition
}

extension PlainCondition.Test {
    /// The plain test of `condition`, or `nil` when only the matcher can decide it.
    init?(_ condition: ObjectFilterCondition) {
        guard condition.path.isPlainMemberPath else { return nil }
        let expression = condition.expression
        let operands = expression.operands
        switch expression.operator {
        case .exists: self = .exists(true)
        case .notExists: self = .exists(false)
        case .equals, .notEquals:
            guard let operand = operands.first, let (strings, literals) = Self.scalars([operand]) else { return nil }
            self = .equalsOneOf(strings: strings, literals: literals, negated: expression.operator == .notEquals)
        case .in, .notIn:
            guard case .array(let elements)? = operands.first, let (strings, literals) = Self.scalars(elements) else {
                return nil
            }
            self = .equalsOneOf(strings: strings, literals: literals, negated: expression.operator == .notIn)
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            guard case .string(let operand)? = operands.first, Self.isPlain(operand) else { return nil }
            let comparisons: [PlainCondition.Comparison] = [.lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual]
            self = .comparesString(comparisons[expression.operator.code], operand)
        case .between, .notBetween:
            guard operands.count >= 2, case .string(var low) = operands[0], case .string(var high) = operands[1],
                Self.isPlain(low), Self.isPlain(high)
            else { return nil }
            if FilterCollation.compare(low, high) > 0 { swap(&low, &high) }
            self = .betweenStrings(low: low, high: high, negated: expression.operator == .notBetween)
        case .like, .contains, .notContains:
            return nil
        }
    }

    /// The strings and literals among `operands`; `nil` when any operand is something else.
    private static func scalars(_ operands: [JSONValue]) -> (strings: [String], literals: [PlainCondition.Literal])? {
        var strings: [String] = []
        var literals: [PlainCondition.Literal] = []
        for operand in operands {
            switch operand {
            case .string(let s) where isPlain(s): strings.append(s)
            case .bool(let b): literals.append(b ? .true : .false)
            case .null: literals.append(.null)
            default: return nil
            }
        }
        return (strings, literals)
    }

    /// Whether SQL may see the string: no U+0000 and no U+FFFF.
    private static func isPlain(_ string: String) -> Bool {
        !string.unicodeScalars.contains { $0.value == 0 || $0.value == 0xFFFF }
    }
}
