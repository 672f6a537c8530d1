import CoatyStorage
import CoreTypes

/// An `ObjectFilter`'s conditions as a parameterised SQL pre-filter over the `doc` column (the
/// object as JSONB): a superset of the matching objects, and exactly them when ``isExact``.
///
/// PostgreSQL cannot call Swift, so it cannot run `ObjectMatcher` or compare strings with the
/// matcher's ICU collation. A condition is therefore written in SQL only where SQL is provably
/// the matcher (the `SQLFilterPlan` shared with SQLite decides which conditions are plain); the
/// backend runs the matcher in Swift on the rows this pre-filter lets through, unless it is exact:
///
/// | condition | SQL | why it is the matcher's answer |
/// | --- | --- | --- |
/// | `Exists`, `NotExists` on a top-level member | `doc ? $name` | the stored value is always an object, so `?` is "has own member" (a JSON `null` is a member) |
/// | `Exists`, `NotExists` on a nested path | `doc -> $a -> $b IS [NOT] NULL` | `->` with a name is SQL `NULL` exactly when the member is absent or the value is no object (plain names are never array indices) |
/// | `Equals`, `In` with strings, Booleans, `null` | `doc -> $a IN ($v::jsonb, …)`, one value as `doc @> $containment` | JSONB equality of strings is byte equality (the matcher's `===`); no other type equals a string, Boolean or `null`; containment of a scalar along plain member names is that equality (an array or other type in the way does not contain it) and lets the GIN index serve the query |
/// | `NotEquals`, `NotIn` with the same | present `AND NOT (…)` | an absent property fails every negated operator |
/// | `Equals`, `In` with integer operands below 2^53 | `doc @> $containment OR …` | see `integerOperands(of:)` |
/// | other comparisons, `Between`, `Equals`, `In` and negations with number operands (`SQLFilterPlan`'s guarded conditions) | a superset: a number unless it is surely outside (relative 1e-9 from each bound), any value JavaScript may coerce | PostgreSQL's reading of a number can only differ from JavaScript's near a bound |
/// | `Like` | a superset: a string starting with the pattern's literal prefix (`starts_with`) | only strings match; the prefix is necessary |
/// | string comparisons, `Contains`, arrays, objects | not written | ICU collation and JavaScript coercion stay with the matcher |
///
/// In an `and`, a condition that is not written is left out (the rest still narrows the rows);
/// in an `or`, one such condition makes the pre-filter `TRUE`. The matcher then decides every
/// candidate unless the pre-filter is exact. Member paths and values are bound
/// parameters; the SQL text holds only fixed keywords, column names and placeholders.
///
/// Since the pre-filter may exclude rows, a filter that throws on some object (coaty-js's
/// `TypeError` cases, see `ObjectMatcher`) throws here only when such an object is examined, as
/// with SQLite; when it does not throw, the result is the reference's.
struct PostgresFilter {
    /// The boolean SQL expression.
    let sql: String
    /// Whether ``sql`` selects exactly the matching objects (else a superset).
    let isExact: Bool

    init(_ conditions: ObjectFilterConditions?, arguments: inout PostgresArguments) {
        let plan = SQLFilterPlan(conditions)
        let isWritten = plan.rest == nil && plan.plain.allSatisfy { Self.canWrite($0.test) }
        if plan.junction == .or, !isWritten {
            (sql, isExact) = ("TRUE", false)
            return
        }
        var parts = plan.plain.filter { Self.canWrite($0.test) }.map { Self.sql($0, &arguments) }
        var guardedAreExact = true
        for condition in plan.guarded {
            let (sql, isExact) = Self.superset(condition, &arguments)
            parts.append(sql)
            guardedAreExact = guardedAreExact && isExact
        }
        let (junction, empty) = plan.junction == .and ? (" AND ", "TRUE") : (" OR ", "FALSE")
        sql = parts.isEmpty ? empty : "(" + parts.joined(separator: junction) + ")"
        isExact = isWritten && guardedAreExact
    }

    /// The rows that may match a guarded condition: all but those it surely does not match;
    /// exactly the matching ones when `isExact` (`Equals` and `In` with integer operands).
    private static func superset(_ condition: GuardedCondition, _ arguments: inout PostgresArguments) -> (
        sql: String, isExact: Bool
    ) {
        if let integers = Self.integerOperands(of: condition.condition) {
            let contained = integers.map { "doc @> " + arguments.jsonb(Self.containment(condition.path, String($0))) }
            return ("(" + contained.joined(separator: " OR ") + ")", true)
        }
        switch condition.test {
        case .number(_, let falseIn, let others):
            let member = PostgresDocument.member(condition.path, &arguments)
            var excluded: [String] = []
            for interval in falseIn {
                var bounds: [String] = []
                if let low = interval.low { bounds.append("(\(member))::float8 >= \(arguments.double(low))") }
                if let high = interval.high { bounds.append("(\(member))::float8 <= \(arguments.double(high))") }
                excluded.append(bounds.isEmpty ? "TRUE" : "(" + bounds.joined(separator: " AND ") + ")")
            }
            let number = excluded.isEmpty ? "TRUE" : "NOT (" + excluded.joined(separator: " OR ") + ")"
            let other: String
            switch others {
            case .isFalse: other = "FALSE"
            case .isTrue, .matcher: other = "(\(member)) IS NOT NULL"
            }
            return ("(CASE WHEN jsonb_typeof(\(member)) = 'number' THEN \(number) ELSE \(other) END)", false)
        case .stringPrefix(let prefix):
            let isString = "jsonb_typeof(\(PostgresDocument.member(condition.path, &arguments))) = 'string'"
            guard !prefix.isEmpty else { return ("(\(isString))", false) }
            let text = PostgresDocument.member(condition.path, &arguments, asText: true)
            return ("(\(isString) AND starts_with(\(text), \(arguments.text(prefix))))", false)
        }
    }

    /// `{"a":{"b":value}}` for the path `a.b` and a value's JSON text.
    private static func containment(_ path: [String], _ value: String) -> String {
        path.reversed().reduce(value) { inner, name in "{" + JSONValue.string(name).serializedString() + ":" + inner + "}" }
    }

    /// The operands of `Equals` or `In` when each is an integer below 2^53 in magnitude. JSONB
    /// containment of one of them decides the condition exactly, and the GIN index answers it: a
    /// stored number JavaScript reads as one of them is written as that integer (`JSONWriter`
    /// writes a double by its shortest form, and a larger integer cannot be read as one below
    /// 2^53), a number whose decimal value is that integer is read as it, and containment of a
    /// number holds for numbers only (numerically equal: `-0` is `0`), as JavaScript's `===`.
    private static func integerOperands(of condition: ObjectFilterCondition) -> [Int64]? {
        let operands: [JSONValue]
        switch condition.expression.operator {
        case .equals: operands = Array(condition.expression.operands.prefix(1))
        case .in:
            guard case .array(let elements)? = condition.expression.operands.first else { return nil }
            operands = elements
        default: return nil
        }
        let limit = 9_007_199_254_740_992.0  // 2^53
        let integers = operands.compactMap { operand -> Int64? in
            guard let number = operand.numberValue, number.rounded() == number, abs(number) < limit else { return nil }
            return Int64(number)
        }
        return integers.isEmpty || integers.count != operands.count ? nil : integers
    }

    /// Whether PostgreSQL can decide `test` exactly (string order needs the ICU collation).
    private static func canWrite(_ test: PlainCondition.Test) -> Bool {
        switch test {
        case .exists, .equalsOneOf: return true
        case .comparesString, .betweenStrings: return false
        }
    }

    /// The SQL of `condition`; `TRUE` (a superset) where ``canWrite(_:)`` says no.
    private static func sql(_ condition: PlainCondition, _ arguments: inout PostgresArguments) -> String {
        let path = condition.path
        switch condition.test {
        case .exists(let present):
            if path.count == 1 { return (present ? "" : "NOT ") + "doc ? " + arguments.text(path[0]) }
            return PostgresDocument.member(path, &arguments) + " IS " + (present ? "NOT NULL" : "NULL")
        case .equalsOneOf(let strings, let literals, let negated):
            let values = strings.map { JSONValue.string($0).serializedString() } + literals.map(\.rawValue)
            if !negated, values.count == 1 {
                // The equality itself (see the table), answered by the GIN index.
                return "doc @> " + arguments.jsonb(Self.containment(path, values[0]))
            }
            let member = PostgresDocument.member(path, &arguments)
            if negated {
                guard !values.isEmpty else { return "\(member) IS NOT NULL" }
                let list = values.map { arguments.jsonb($0) }.joined(separator: ", ")
                return "(\(member) IS NOT NULL AND NOT \(member) IN (\(list)))"
            }
            guard !values.isEmpty else { return "FALSE" }
            return "\(member) IN (" + values.map { arguments.jsonb($0) }.joined(separator: ", ") + ")"
        case .comparesString, .betweenStrings:
            return "TRUE"
        }
    }
}
