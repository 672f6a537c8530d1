/// The `conditions` of an ``ObjectFilter`` or ``ContextFilter``: one condition, or one level of
/// `and`/`or` over several.
///
/// Coaty has no nested groups: an `and` list holds conditions, not further groups.
///
/// | wire form | case | matches |
/// | --- | --- | --- |
/// | `["name", [7, "x"]]` | ``condition(_:)`` | when the condition holds |
/// | `{"and": [c1, c2]}` | ``and(_:)`` | when all hold (`{"and": []}` always) |
/// | `{"or": [c1, c2]}` | ``or(_:)`` | when any holds (`{"or": []}` never) |
/// | `{}` | ``empty`` | always |
public enum ObjectFilterConditions: Hashable, Sendable {
    /// A single condition.
    case condition(ObjectFilterCondition)
    /// All of the conditions must hold.
    case and([ObjectFilterCondition])
    /// At least one of the conditions must hold.
    case or([ObjectFilterCondition])
    /// `{}`: no condition; every object matches.
    case empty

    /// Decodes a condition or an `and`/`or` object as coaty-js's `isObjectFilterValid` accepts them:
    /// not both `and` and `or`, and each present one an array of valid conditions. Other members
    /// of the object are ignored.
    ///
    /// - Throws: ``FilterError`` naming the wrong part.
    public init(json: JSONValue) throws {
        try self.init(json: json, at: "conditions")
    }

    init(json: JSONValue, at location: String) throws {
        switch json {
        case .array:
            self = .condition(try ObjectFilterCondition(json: json, at: location))
        case .object(let object):
            let and = object.ownValue(forJavaScriptKey: "and")
            let or = object.ownValue(forJavaScriptKey: "or")
            switch (and, or) {
            case (nil, nil):
                self = .empty
            case (let and?, nil):
                self = .and(try Self.conditionList(and, at: "\(location).and"))
            case (nil, let or?):
                self = .or(try Self.conditionList(or, at: "\(location).or"))
            case (let and?, let or?):
                guard and.isJavaScriptTruthy, or.isJavaScriptTruthy else {
                    // coaty-js checks each present list; the falsy one is not an array of conditions.
                    let (key, value) = and.isJavaScriptTruthy ? ("or", or) : ("and", and)
                    throw FilterError(
                        code: .invalidFilter,
                        detail: "\(location).\(key): expected an array of conditions, found \(value.serializedString())"
                    )
                }
                throw FilterError(code: .invalidFilter, detail: "\(location): give either \"and\" or \"or\", not both")
            }
        default:
            throw FilterError(
                code: .invalidFilter,
                detail: "\(location): expected a condition [path, [operator, operands…]] or an object with "
                    + "\"and\" or \"or\", found \(json.serializedString())")
        }
    }

    private static func conditionList(_ json: JSONValue, at location: String) throws -> [ObjectFilterCondition] {
        guard case .array(let elements) = json else {
            throw FilterError(
                code: .invalidFilter,
                detail: "\(location): expected an array of conditions, found \(json.serializedString())")
        }
        return try elements.enumerated().map { index, element in
            try ObjectFilterCondition(json: element, at: "\(location)[\(index)]")
        }
    }

    /// The wire form.
    public var json: JSONValue {
        switch self {
        case .condition(let condition): return condition.json
        case .and(let conditions): return ["and": .array(conditions.map(\.json))]
        case .or(let conditions): return ["or": .array(conditions.map(\.json))]
        case .empty: return .object(JSONObject())
        }
    }

    /// The conditions, whatever the grouping.
    public var conditions: [ObjectFilterCondition] {
        switch self {
        case .condition(let condition): return [condition]
        case .and(let conditions), .or(let conditions): return conditions
        case .empty: return []
        }
    }
}

extension ObjectFilterConditions: CustomStringConvertible {
    /// The wire form as JSON text.
    public var description: String { json.serializedString() }
}

extension JSONValue {
    /// JavaScript truthiness: `false`, `0`, `""` and `null` are falsy; everything else, `[]` and
    /// `{}` included, is truthy.
    var isJavaScriptTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let b): return b
        case .int(let i): return i != 0
        case .double(let d): return d != 0 && !d.isNaN
        case .string(let s): return !s.isEmpty
        case .array, .object: return true
        }
    }
}
