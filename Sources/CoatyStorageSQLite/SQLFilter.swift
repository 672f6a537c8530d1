import CoatyStorage
import CoreTypes
import GRDB

/// An `ObjectFilter` as parameterised SQL over the `data` column (an object's JSON text).
///
/// Every member path and every value is a bound parameter; the SQL text holds only fixed
/// keywords, column names, function names and `?`. What the SQL decides must be exactly what
/// `ObjectMatcher` decides, so a condition is written in plain SQL only where that
/// is provably the same, and everything else goes to the `coaty_match` function, which runs the
/// matcher itself on the row:
///
/// | condition | SQL | why it is the matcher's answer |
/// | --- | --- | --- |
/// | `Exists`, `NotExists` | `json_type(data, $path) IS [NOT] NULL` | `json_type` is SQL `NULL` exactly when the member is absent (a JSON `null` is `'null'`) |
/// | `Equals`, `In` with strings, Booleans, `null` | `coalesce(json_extract(…) IN (?…), 0)` (with `json_type = 'text'` when an operand starts with `[` or `{`, the start of an array's or object's text), `json_type = 'true'` | strict equality of a string is equal UTF-8 bytes (SQLite's `BINARY`); `json_extract` gives other values as numbers or as JSON text starting with `[` or `{`; no other type equals a string, Boolean or `null` |
/// | `NotEquals`, `NotIn` with the same | present `AND NOT (…)` | an absent property fails every negated operator |
/// | `<`, `<=`, `>`, `>=`, `Between`, `NotBetween` with string operands | `CASE WHEN json_type = 'text' THEN … COLLATE coaty_collation ELSE coaty_match(…) END` | two strings compare by the ICU root collation, the very function the matcher calls; any other value type is left to the matcher |
/// | comparisons, `Between`, `Equals`, `In` and their negations with number operands | `CASE`: a number (or Boolean, read as 0 or 1) far from every operand (relative 1e-9) by `json_extract(…) BETWEEN`, then on `json_type`: one near an operand, and a value JavaScript coerces, by `coaty_match(data, ?)` | a number SQL reads differently from JavaScript can only be near an operand; the matcher decides there; JavaScript compares a Boolean as 0 or 1 and never finds it equal to a number |
/// | `Like` | a value whose `json_extract` text starts with the pattern's literal prefix by `coaty_match`, anything else false | only strings match `Like`; the prefix is necessary |
/// | everything else (`Contains`, arrays, objects) | `coaty_match(data, ?)` | it is the matcher |
///
/// Which conditions are plain is `SQLFilterPlan`'s decision, shared with the PostgreSQL backend:
/// a path is pushed into SQL only when it names own object members both in JavaScript and in
/// SQLite's JSON paths (no array indices, no `length`, nothing inherited such as `constructor`),
/// and strings holding NUL are left to the matcher, as SQLite functions cut text at NUL.
///
/// Conditions that go to the matcher are evaluated by one `coaty_match` call per row with the
/// whole group (`and` or `or` of them), so each row is parsed once. Since SQLite may skip rows that
/// the plain SQL part already excludes, a filter that throws on some object (coaty-js's
/// `TypeError` cases, see `ObjectMatcher`) throws here only when such an object is
/// examined; when it does not throw, the result is the reference's.
struct SQLFilter {
    /// The boolean SQL expression.
    private(set) var sql = ""
    /// Its parameters, in order.
    private(set) var arguments = StatementArguments()

    init(_ conditions: ObjectFilterConditions?) {
        let plan = SQLFilterPlan(conditions)
        var parts: [String] = []
        for condition in plan.plain {
            let (part, values) = Self.sql(condition)
            parts.append(part)
            arguments += values
        }
        for condition in plan.guarded {
            let (part, values) = Self.sql(condition)
            parts.append(part)
            arguments += values
        }
        if let rest = plan.rest {
            parts.append("coaty_match(data, ?)")
            arguments += [rest.json.serializedString()]
        }
        if parts.isEmpty { parts.append(plan.junction == .and ? "1" : "0") }
        sql = "(" + parts.joined(separator: plan.junction == .and ? " AND " : " OR ") + ")"
    }

    /// The SQL of a plain condition and its arguments.
    private static func sql(_ condition: PlainCondition) -> (String, StatementArguments) {
        let path = "$." + condition.path.joined(separator: ".")
        switch condition.test {
        case .exists(let present):
            return (present ? "json_type(data, ?) IS NOT NULL" : "json_type(data, ?) IS NULL", [path])
        case .equalsOneOf(let strings, let literals, let negated):
            let (sql, values) = equality(path, strings, literals)
            return negated ? self.negated(path, sql, values) : (sql, values)
        case .comparesString(let comparison, let operand):
            let test = "json_extract(data, ?) \(comparison.rawValue) ? COLLATE coaty_collation"
            return collated(path, condition.condition, test, [operand])
        case .betweenStrings(let low, let high, let negated):
            let test =
                negated
                ? "(json_extract(data, ?) < ? COLLATE coaty_collation OR json_extract(data, ?) > ? COLLATE coaty_collation)"
                : "(json_extract(data, ?) >= ? COLLATE coaty_collation AND json_extract(data, ?) <= ? COLLATE coaty_collation)"
            return collated(path, condition.condition, test, [low, path, high])
        }
    }

    /// The SQL of a guarded condition: SQL decides where it can, `coaty_match` elsewhere.
    private static func sql(_ condition: GuardedCondition) -> (String, StatementArguments) {
        let path = "$." + condition.path.joined(separator: ".")
        let match = ObjectFilterConditions.condition(condition.condition).json.serializedString()
        switch condition.test {
        case .number(let trueIn, let falseIn, let others):
            // One json_extract per interval, false ones first (a selective filter rejects most
            // rows there): a number in one is decided, and so is a Boolean, which json_extract
            // reads as 0 or 1, as JavaScript's comparisons do and never equal to a number. Text
            // sorts above every number and NULL compares to nothing, so they go on to the type
            // test; a number in no interval lies near an operand, where the matcher decides.
            var decided: [String] = []
            var arguments: StatementArguments = []
            for (intervals, result) in [(falseIn, 0), (trueIn, 1)] {
                for interval in intervals {
                    decided.append("WHEN json_extract(data, ?) BETWEEN ? AND ? THEN \(result)")
                    arguments += [path, interval.low ?? -Double.infinity, interval.high ?? Double.infinity]
                }
            }
            arguments += [path, match, path]
            let otherSQL: String
            switch others {
            case .isTrue: otherSQL = "1"
            case .isFalse: otherSQL = "0"
            case .matcher:
                otherSQL = "coaty_match(data, ?)"
                arguments += [match]
            }
            return (
                "(CASE \(decided.joined(separator: " ")) "
                    + "WHEN json_type(data, ?) IN ('integer', 'real') THEN coaty_match(data, ?) "
                    + "WHEN json_type(data, ?) IS NULL THEN 0 ELSE \(otherSQL) END)",
                arguments
            )
        case .stringPrefix(let prefix):
            guard !prefix.isEmpty else {
                return ("(json_type(data, ?) = 'text' AND coaty_match(data, ?))", [path, match])
            }
            // No type test first: a number's or a container's text that starts with the prefix is
            // rare, and the matcher turns it down; null and absent give NULL, which no row passes.
            return (
                "(substr(json_extract(data, ?), 1, ?) = ? AND coaty_match(data, ?))",
                [path, prefix.unicodeScalars.count, prefix, match]
            )
        }
    }

    /// Whether the value strictly equals one of `strings` or `literals`.
    private static func equality(_ path: String, _ strings: [String], _ literals: [PlainCondition.Literal]) -> (
        String, StatementArguments
    ) {
        var parts: [String] = []
        var values: StatementArguments = []
        if !strings.isEmpty {
            let list = Array(repeating: "?", count: strings.count).joined(separator: ", ")
            if strings.contains(where: { $0.hasPrefix("[") || $0.hasPrefix("{") }) {
                parts.append("(json_type(data, ?) = 'text' AND json_extract(data, ?) IN (\(list)))")
                values += [path, path]
            } else {
                // json_extract gives a string's text, a number or Boolean as a number (never equal
                // to text), an array or object as JSON text (starting with [ or {), `null` and an
                // absent member as NULL (so false, not NULL, for the negation): one parse.
                parts.append("coalesce(json_extract(data, ?) IN (\(list)), 0)")
                values += [path]
            }
            values += StatementArguments(strings)
        }
        if !literals.isEmpty {
            // SQLite's json_type names them as the literals are spelled.
            let list = Array(repeating: "?", count: literals.count).joined(separator: ", ")
            parts.append("json_type(data, ?) IN (\(list))")
            values += [path]
            values += StatementArguments(literals.map(\.rawValue))
        }
        if parts.isEmpty { return ("0", []) }
        return ("(" + parts.joined(separator: " OR ") + ")", values)
    }

    /// Present and not `sql`: an absent property fails `NotEquals` and `NotIn`.
    private static func negated(_ path: String, _ sql: String, _ values: StatementArguments) -> (
        String, StatementArguments
    ) {
        var arguments: StatementArguments = [path]
        arguments += values
        return ("(json_type(data, ?) IS NOT NULL AND NOT \(sql))", arguments)
    }

    /// `test` (whose first parameter is the path, then `values`) for string values, the matcher
    /// for every other value type.
    private static func collated(
        _ path: String, _ condition: ObjectFilterCondition, _ test: String, _ values: [String]
    ) -> (String, StatementArguments) {
        var arguments: StatementArguments = [path, path]
        arguments += StatementArguments(values)
        arguments += [ObjectFilterConditions.condition(condition).json.serializedString()]
        return ("(CASE WHEN json_type(data, ?) = 'text' THEN \(test) ELSE coaty_match(data, ?) END)", arguments)
    }
}
