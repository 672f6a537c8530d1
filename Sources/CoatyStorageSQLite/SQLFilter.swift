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
/// | `Equals`, `In` with strings, Booleans, `null` | `json_type = 'text' AND json_extract(…) = ?`, `json_type = 'true'` | strict equality of a string is equal UTF-8 bytes (SQLite's `BINARY`); no other type equals a string, Boolean or `null` |
/// | `NotEquals`, `NotIn` with the same | present `AND NOT (…)` | an absent property fails every negated operator |
/// | `<`, `<=`, `>`, `>=`, `Between`, `NotBetween` with string operands | `CASE WHEN json_type = 'text' THEN … COLLATE coaty_collation ELSE coaty_match(…) END` | two strings compare by the ICU root collation, the very function the matcher calls; any other value type is left to the matcher |
/// | everything else (`Like`, `Contains`, numbers, arrays, objects, JavaScript coercion) | `coaty_match(data, ?)` | it is the matcher |
///
/// A path is pushed into SQL only when it is plain (`PropertyPath/isPlainMemberPath`):
/// names that resolve to own object members both in JavaScript and in SQLite's JSON paths (no array
/// indices, no `length`, nothing inherited such as `constructor`). Strings holding NUL are left to
/// the matcher too, as SQLite functions cut text at NUL.
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
        switch conditions {
        case nil, .empty?:
            sql = "1"
        case .condition(let condition)?:
            append([condition], joiner: " AND ", group: ObjectFilterConditions.and)
        case .and(let conditions)?:
            append(conditions, joiner: " AND ", group: ObjectFilterConditions.and)
        case .or(let conditions)?:
            append(conditions, joiner: " OR ", group: ObjectFilterConditions.or)
        }
    }

    private mutating func append(
        _ conditions: [ObjectFilterCondition], joiner: String, group: ([ObjectFilterCondition]) -> ObjectFilterConditions
    ) {
        var parts: [String] = []
        var rest: [ObjectFilterCondition] = []
        for condition in conditions {
            if let (part, values) = Self.plain(condition) {
                parts.append(part)
                arguments += values
            } else {
                rest.append(condition)
            }
        }
        if !rest.isEmpty {
            parts.append("coaty_match(data, ?)")
            arguments += [group(rest).json.serializedString()]
        }
        if parts.isEmpty { parts.append(joiner == " AND " ? "1" : "0") }
        sql = "(" + parts.joined(separator: joiner) + ")"
    }

    /// The plain SQL of `condition` and its arguments, or `nil` when only the matcher can decide.
    private static func plain(_ condition: ObjectFilterCondition) -> (String, StatementArguments)? {
        guard condition.path.isPlainMemberPath else { return nil }
        let path = "$." + condition.path.components.joined(separator: ".")
        let expression = condition.expression
        let operands = expression.operands
        switch expression.operator {
        case .exists:
            return ("json_type(data, ?) IS NOT NULL", [path])
        case .notExists:
            return ("json_type(data, ?) IS NULL", [path])
        case .equals, .notEquals:
            guard let operand = operands.first, let (sql, values) = equality(path, [operand]) else { return nil }
            return expression.operator == .equals ? (sql, values) : negated(path, sql, values)
        case .in, .notIn:
            guard case .array(let elements)? = operands.first, let (sql, values) = equality(path, elements) else {
                return nil
            }
            return expression.operator == .in ? (sql, values) : negated(path, sql, values)
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            guard case .string(let operand)? = operands.first, !operand.utf8.contains(0) else { return nil }
            let comparison = ["<", "<=", ">", ">="][expression.operator.code]
            return collated(path, condition, "json_extract(data, ?) \(comparison) ? COLLATE coaty_collation", [operand])
        case .between, .notBetween:
            guard operands.count >= 2, case .string(var low) = operands[0], case .string(var high) = operands[1],
                !low.utf8.contains(0), !high.utf8.contains(0)
            else { return nil }
            if FilterCollation.compare(low, high) > 0 { swap(&low, &high) }
            let test =
                expression.operator == .between
                ? "(json_extract(data, ?) >= ? COLLATE coaty_collation AND json_extract(data, ?) <= ? COLLATE coaty_collation)"
                : "(json_extract(data, ?) < ? COLLATE coaty_collation OR json_extract(data, ?) > ? COLLATE coaty_collation)"
            return collated(path, condition, test, [low, path, high])
        case .like, .contains, .notContains:
            return nil
        }
    }

    /// Whether the value deep-equals one of `operands`, for operands that are strings, Booleans
    /// and `null` only; `nil` for any other operand.
    private static func equality(_ path: String, _ operands: [JSONValue]) -> (String, StatementArguments)? {
        var strings: [String] = []
        var types: [String] = []
        for operand in operands {
            switch operand {
            case .string(let s) where !s.utf8.contains(0): strings.append(s)
            case .bool(let b): types.append(b ? "true" : "false")
            case .null: types.append("null")
            default: return nil
            }
        }
        var parts: [String] = []
        var values: StatementArguments = []
        if !strings.isEmpty {
            let list = Array(repeating: "?", count: strings.count).joined(separator: ", ")
            parts.append("(json_type(data, ?) = 'text' AND json_extract(data, ?) IN (\(list)))")
            values += [path, path]
            values += StatementArguments(strings)
        }
        if !types.isEmpty {
            let list = Array(repeating: "?", count: types.count).joined(separator: ", ")
            parts.append("json_type(data, ?) IN (\(list))")
            values += [path]
            values += StatementArguments(types)
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
