/// One condition of a filter: a property path and the expression its value must satisfy,
/// `["path", [code, operand…]]` on the wire (the nested form that coaty-js's code uses).
///
/// ```swift
/// let condition = ObjectFilterCondition("location.floor", .in([1, 2]))
/// condition.json   // ["location.floor", [13, [1, 2]]]
/// ```
public struct ObjectFilterCondition: Hashable, Sendable {
    /// The property tested.
    public let path: PropertyPath
    /// The test.
    public let expression: ObjectFilterExpression

    /// A condition on `path`.
    public init(_ path: PropertyPath, _ expression: ObjectFilterExpression) {
        self.path = path
        self.expression = expression
    }

    /// Decodes `[path, [code, operand…]]` as coaty-js validates it: exactly two elements, the path a
    /// non-empty string or an array of strings, the expression a non-empty array starting with an
    /// operator code 0…14.
    ///
    /// - Throws: ``FilterError`` naming the wrong part.
    public init(json: JSONValue) throws {
        try self.init(json: json, at: "condition")
    }

    init(json: JSONValue, at location: String) throws {
        guard case .array(let elements) = json, elements.count == 2 else {
            throw FilterError(
                code: .invalidCondition,
                detail: "\(location): expected a pair [path, [operator, operands…]], found \(json.serializedString())")
        }
        if case .string(let name) = elements[0], name.isEmpty {
            throw FilterError(
                code: .invalidPropertyPath,
                detail: "\(location)[0]: the property path must not be empty (use [] for the object itself)")
        }
        path = try PropertyPath(json: elements[0], at: "\(location)[0]")
        expression = try ObjectFilterExpression(json: elements[1], at: "\(location)[1]")
    }

    /// The wire form `[path, [code, operand…]]`.
    public var json: JSONValue {
        .array([path.json, expression.json])
    }
}

extension ObjectFilterCondition: CustomStringConvertible {
    /// The wire form as JSON text.
    public var description: String { json.serializedString() }
}
