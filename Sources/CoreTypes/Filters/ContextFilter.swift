/// The `filter` of a Call: conditions that each callee evaluates against its own context object.
///
/// ```json
/// {"conditions":["floor",[7,1]]}
/// ```
///
/// Whether a callee executes a Call depends on both sides (see
/// ``ObjectMatcher/callMatches(context:filter:)``): a callee with a context ignores Calls without a
/// filter, and a callee without a context executes every Call.
///
/// ```swift
/// let filter = ContextFilter.where("floor", .equals(1)).and("building", .in(["B1", "B2"]))
/// ```
public struct ContextFilter: Hashable, Sendable {
    /// The conditions the context must satisfy; `nil` (absent) matches every context.
    public var conditions: ObjectFilterConditions?

    /// A context filter.
    public init(conditions: ObjectFilterConditions? = nil) {
        self.conditions = conditions
    }

    /// Decodes a context filter and validates it as coaty-js's `isContextFilterValid` does: a JSON
    /// object whose `conditions` (if present) are valid. Other members are ignored.
    ///
    /// - Throws: ``FilterError`` naming the wrong part; coaty-js drops a Call whose filter fails.
    public init(json: JSONValue) throws {
        guard case .object(let object) = json else {
            throw FilterError(
                code: .invalidFilter, detail: "filter: expected an object, found \(json.serializedString())")
        }
        conditions = try object.ownValue(forJavaScriptKey: "conditions").map {
            try ObjectFilterConditions(json: $0, at: "filter.conditions")
        }
    }

    /// The wire form; absent conditions are omitted.
    public var json: JSONValue {
        var object = JSONObject()
        if let conditions { object["conditions"] = conditions.json }
        return .object(object)
    }
}

extension ContextFilter: CustomStringConvertible {
    /// The wire form as JSON text.
    public var description: String { json.serializedString() }
}
