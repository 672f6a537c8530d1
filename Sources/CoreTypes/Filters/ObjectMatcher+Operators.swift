extension ObjectMatcher {
    /// One condition: the operator applied to the resolved property `value` (`nil` when absent) and
    /// the operands (`nil` where the expression has none), exactly as coaty-js's
    /// `ObjectMatcher._matchesCondition` does.
    ///
    /// An absent property fails every operator except ``FilterOperator/notExists`` (even
    /// `NotEquals`, `NotIn`, …). Strings compare with the collator only when both sides are strings;
    /// any other combination uses JavaScript's `<` with its type coercions.
    static func evaluate(
        _ op: FilterOperator, value: JavaScriptProperty?, first: JSONValue?, second: JSONValue?,
        like: LikePattern?
    ) throws -> Bool {
        if op == .notExists { return value == nil }
        guard let value else { return false }
        switch op {
        case .lessThan:
            if let (v, x) = bothStrings(value, first) { return JavaScriptCollator.compare(v, x) < 0 }
            return try less(value, first)
        case .lessThanOrEqual:
            if let (v, x) = bothStrings(value, first) { return JavaScriptCollator.compare(v, x) <= 0 }
            return try lessOrEqual(value, first)
        case .greaterThan:
            if let (v, x) = bothStrings(value, first) { return JavaScriptCollator.compare(v, x) > 0 }
            return try greater(value, first)
        case .greaterThanOrEqual:
            if let (v, x) = bothStrings(value, first) { return JavaScriptCollator.compare(v, x) >= 0 }
            return try greaterOrEqual(value, first)
        case .between, .notBetween:
            return try between(value, first, second, negated: op == .notBetween)
        case .like:
            guard case .json(.string(let text)) = value, case .string(let pattern)? = first else { return false }
            return (like ?? LikePattern(pattern)).matches(text)
        case .equals:
            return try JavaScriptEquality.equals(value, first)
        case .notEquals:
            return !(try JavaScriptEquality.equals(value, first))
        case .exists:
            return true
        case .notExists:
            return false  // handled above
        case .contains:
            return try JavaScriptEquality.contains(value, first)
        case .notContains:
            return !(try JavaScriptEquality.contains(value, first))
        case .in:
            return try JavaScriptEquality.includes(first, value)
        case .notIn:
            return !(try JavaScriptEquality.includes(first, value))
        }
    }

    private static func bothStrings(_ value: JavaScriptProperty, _ operand: JSONValue?) -> (String, String)? {
        guard case .json(.string(let v)) = value, case .string(let x)? = operand else { return nil }
        return (v, x)
    }

    /// `Between`/`NotBetween`: by collation when all three are strings, else with JavaScript's
    /// operators; the bounds are swapped when the first is greater than the second.
    private static func between(
        _ value: JavaScriptProperty, _ first: JSONValue?, _ second: JSONValue?, negated: Bool
    ) throws -> Bool {
        if case .json(.string(let v)) = value, case .string(let low)? = first, case .string(let high)? = second {
            let (lower, upper) = JavaScriptCollator.compare(low, high) > 0 ? (high, low) : (low, high)
            if negated {
                return JavaScriptCollator.compare(v, lower) < 0 || JavaScriptCollator.compare(v, upper) > 0
            }
            return JavaScriptCollator.compare(v, lower) >= 0 && JavaScriptCollator.compare(v, upper) <= 0
        }
        let swapped = try greater(first.map(JavaScriptProperty.json), second)
        let lower = swapped ? second : first
        let upper = swapped ? first : second
        if negated {
            return try less(value, lower) || greater(value, upper)
        }
        return try greaterOrEqual(value, lower) && lessOrEqual(value, upper)
    }

    // JavaScript's relational operators; `undefined` results (NaN involved) are false.

    private static func less(_ a: JavaScriptProperty?, _ b: JSONValue?) throws -> Bool {
        let (x, y) = try primitives(a, b)
        return JavaScriptCoercion.lessThan(x, y) ?? false
    }

    private static func greater(_ a: JavaScriptProperty?, _ b: JSONValue?) throws -> Bool {
        let (x, y) = try primitives(a, b)
        return JavaScriptCoercion.lessThan(y, x) ?? false
    }

    private static func lessOrEqual(_ a: JavaScriptProperty?, _ b: JSONValue?) throws -> Bool {
        let (x, y) = try primitives(a, b)
        return JavaScriptCoercion.lessThan(y, x) == false
    }

    private static func greaterOrEqual(_ a: JavaScriptProperty?, _ b: JSONValue?) throws -> Bool {
        let (x, y) = try primitives(a, b)
        return JavaScriptCoercion.lessThan(x, y) == false
    }

    private static func primitives(
        _ a: JavaScriptProperty?, _ b: JSONValue?
    ) throws -> (JavaScriptPrimitive, JavaScriptPrimitive) {
        let x = try JavaScriptCoercion.toPrimitive(a)
        let y = try JavaScriptCoercion.toPrimitive(b.map(JavaScriptProperty.json))
        return (x, y)
    }
}
