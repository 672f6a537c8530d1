/// Decides whether an object matches a filter's conditions, giving coaty-js 2.4.1's
/// `ObjectMatcher.matchesFilter` answer on every input, so Swift and JavaScript agents answer the
/// same Queries and execute the same Calls.
///
/// ```swift
/// let filter = ObjectFilter.where("isOn", .equals(true)).and("brightness", .greaterThan(0.5))
/// if try ObjectMatcher.matches(light, filter: filter) { … }
/// ```
///
/// The JavaScript behaviour it reproduces, on purpose:
/// - no conditions, `{}` and `{"and": []}` match everything; `{"or": []}` matches nothing;
/// - an absent property fails every operator except `NotExists` (so `NotEquals`, `NotIn`,
///   `NotBetween` and `NotContains` are false for it); a `null` value counts as present;
/// - paths reach what JavaScript objects inherit: `constructor`, `hasOwnProperty`, `__proto__` exist
///   on every object, `arr.length` and `objs.0.id` work, but strings have no properties;
/// - strings compare by en-US collation when both sides are strings (`"Alpha" > "alpha"`,
///   `"10" < "9"`); mixed types use JavaScript's coercion (`null` as 0, `true` as 1, `42 < "43"`,
///   arrays as comma-joined strings);
/// - `Like` works on UTF-16 code units and never matches across a line break;
/// - `Contains` on a string is equality; numbers are equal by value (`1` equals `1.0`).
///
/// Evaluation throws ``FilterError`` with code `FilterError.Code.evaluationFailed` where coaty-js
/// throws, for example `In` with an operand that is not an array. A coaty-js callee whose filter
/// throws stops observing; a Swift caller decides for itself what to do.
///
/// `orderByProperties`, `skip` and `take` do not affect matching; see ``ObjectFilter/apply(to:)``.
public enum ObjectMatcher {
    /// Whether `object` satisfies the conditions of `filter`.
    ///
    /// - Throws: ``FilterError`` where coaty-js's matcher throws.
    public static func matches(_ object: JSONObject, filter: ObjectFilter) throws -> Bool {
        try matches(.object(object), conditions: filter.conditions)
    }

    /// Whether `object` (any JSON value; `null` has no properties) satisfies the conditions of
    /// `filter`.
    ///
    /// - Throws: ``FilterError`` where coaty-js's matcher throws.
    public static func matches(_ object: JSONValue, filter: ObjectFilter) throws -> Bool {
        try matches(object, conditions: filter.conditions)
    }

    /// Whether `object` satisfies the conditions of a context filter.
    ///
    /// - Throws: ``FilterError`` where coaty-js's matcher throws.
    public static func matches(_ object: JSONObject, filter: ContextFilter) throws -> Bool {
        try matches(.object(object), conditions: filter.conditions)
    }

    /// Whether `object` satisfies the conditions of a context filter.
    ///
    /// - Throws: ``FilterError`` where coaty-js's matcher throws.
    public static func matches(_ object: JSONValue, filter: ContextFilter) throws -> Bool {
        try matches(object, conditions: filter.conditions)
    }

    /// Whether `object` satisfies `conditions`; `nil` (no conditions) matches everything.
    ///
    /// - Throws: ``FilterError`` where coaty-js's matcher throws.
    public static func matches(_ object: JSONValue, conditions: ObjectFilterConditions?) throws -> Bool {
        switch conditions {
        case nil, .empty?:
            return true
        case .condition(let condition)?:
            return try matches(object, condition: condition)
        case .and(let conditions)?:
            for condition in conditions where !(try matches(object, condition: condition)) { return false }
            return true
        case .or(let conditions)?:
            for condition in conditions where try matches(object, condition: condition) { return true }
            return false
        }
    }

    /// Whether `object` satisfies one condition.
    ///
    /// - Throws: ``FilterError`` where coaty-js's matcher throws.
    public static func matches(_ object: JSONValue, condition: ObjectFilterCondition) throws -> Bool {
        let expression = condition.expression
        return try evaluate(
            expression.operator, value: JavaScriptProperty.resolve(condition.path.components, in: object),
            first: expression.firstOperand, second: expression.secondOperand, like: expression.likePattern)
    }

    /// Whether a callee executes a Call, from the Call's `filter` and the context object the callee
    /// observes with, as coaty-js's `CallEventData.matchesFilter` decides:
    ///
    /// | Call has a filter | callee has a context | executes |
    /// | --- | --- | --- |
    /// | no | no | yes |
    /// | no | yes | **no** |
    /// | yes | no | yes |
    /// | yes | yes | if the context matches the filter |
    ///
    /// - Parameters:
    ///   - context: The callee's context object, or `nil` when it observes without one.
    ///   - filter: The Call's context filter, or `nil` when the Call has none.
    /// - Throws: ``FilterError`` where coaty-js's matcher throws (a coaty-js callee then stops
    ///   observing the operation).
    public static func callMatches(context: JSONValue?, filter: ContextFilter?) throws -> Bool {
        switch (filter, context) {
        case (let filter?, let context?): return try matches(context, filter: filter)
        case (nil, _?): return false
        default: return true
        }
    }
}
