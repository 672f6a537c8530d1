extension ObjectMatcher {
    /// Evaluates a filter straight from its wire JSON, without validating it, exactly as coaty-js's
    /// `ObjectMatcher.matchesFilter(object, filter)` does.
    ///
    /// Use it where a filter must be evaluated even though ``ObjectFilter/init(json:)`` rejects it
    /// (coaty-js agents never evaluate such filters from the wire, because they validate Queries and
    /// Calls first, but they evaluate them when application code calls the matcher):
    /// - `nil` (no filter) matches everything; a `null` filter throws;
    /// - with both `and` and `or`, `and` wins; unknown operator codes (`15`, `"7"`) are false;
    ///   condition elements after the second are ignored;
    /// - a nested `and`/`or` group, a missing expression or a path that is neither a string nor an
    ///   array throws.
    ///
    /// - Parameters:
    ///   - object: The object to test.
    ///   - filterJSON: An object filter or context filter as JSON (only `conditions` is read), or
    ///     `nil` for none.
    /// - Throws: ``FilterError`` with code `FilterError.Code.evaluationFailed` where coaty-js throws.
    public static func matches(_ object: JSONValue, filterJSON: JSONValue?) throws -> Bool {
        guard let filter = filterJSON else { return true }
        guard let conditions = try member(of: filter, "conditions", what: "the filter") else { return true }
        if case .array = conditions { return try matches(object, wireCondition: conditions) }
        if let and = try member(of: conditions, "and", what: "the conditions"), and.isJavaScriptTruthy {
            for condition in try conditionList(and, "and") where !(try matches(object, wireCondition: condition)) {
                return false
            }
            return true
        }
        if let or = try member(of: conditions, "or", what: "the conditions"), or.isJavaScriptTruthy {
            for condition in try conditionList(or, "or") where try matches(object, wireCondition: condition) {
                return true
            }
            return false
        }
        return true
    }

    /// One condition as coaty-js reads it: element 0 is the path, element 1 the expression, whose
    /// elements 0, 1 and 2 are the operator and the operands (JavaScript indexing: arrays, strings
    /// and objects with keys `"0"`, `"1"` can all be read; `undefined` and `null` throw).
    private static func matches(_ object: JSONValue, wireCondition condition: JSONValue) throws -> Bool {
        let path = try index(condition, 0, what: "the condition")
        let expression = try index(condition, 1, what: "the condition")
        let code = try index(expression, 0, what: "the expression")
        let first = try index(expression, 1, what: "the expression")
        let second = try index(expression, 2, what: "the expression")
        let value = JavaScriptProperty.resolve(try pathComponents(path), in: object)
        guard let code, let op = FilterOperator(codeValue: code) else {
            return false  // an unknown operator matches nothing (absent values included)
        }
        return try evaluate(op, value: value, first: first, second: second, like: nil)
    }

    /// `value[i]` in JavaScript; `nil` is `undefined`.
    private static func index(_ value: JSONValue?, _ i: Int, what: String) throws -> JSONValue? {
        switch value {
        case nil, .null?:
            throw FilterError.evaluation(
                "cannot read element \(i) of \(what), which is \(value == nil ? "missing" : "null")")
        case .array(let elements)?:
            guard i < elements.count else { return nil }  // not `?:`, whose `nil` would be JSON `null`
            return elements[i]
        case .string(let text)?:
            let units = text.utf16
            guard i < units.count else { return nil }
            return .string(String(decoding: [units[units.index(units.startIndex, offsetBy: i)]], as: UTF16.self))
        case .object(let object)?:
            return object.ownValue(forJavaScriptKey: String(i))
        default:
            return nil
        }
    }

    /// `filter.conditions` or `conditions.and` in JavaScript: objects have members, other values
    /// have none, `null` throws.
    private static func member(of value: JSONValue, _ key: String, what: String) throws -> JSONValue? {
        switch value {
        case .null: throw FilterError.evaluation("cannot read \"\(key)\" of \(what), which is null")
        case .object(let object): return object.ownValue(forJavaScriptKey: key)
        default: return nil
        }
    }

    private static func conditionList(_ value: JSONValue, _ key: String) throws -> [JSONValue] {
        guard case .array(let conditions) = value else {
            throw FilterError.evaluation("\"\(key)\" must be an array of conditions, found \(value.serializedString())")
        }
        return conditions
    }

    /// The names of a wire path: a string split at every dot, or the elements of an array converted
    /// to property keys (`1` is `"1"`); anything else throws in coaty-js.
    private static func pathComponents(_ path: JSONValue?) throws -> [String] {
        switch path {
        case .string(let text)?:
            return PropertyPath(text).components
        case .array(let elements)?:
            return try elements.map(JavaScriptCoercion.toString)
        default:
            let found = path.map { $0.serializedString() } ?? "nothing"
            throw FilterError.evaluation("a property path must be a string or an array, found \(found)")
        }
    }
}
