/// The test of a filter condition: an operator and its operands, `[code, operand…]` on the wire.
///
/// Build expressions with the factories, which put the right number of operands in place:
///
/// ```swift
/// ObjectFilterExpression.equals(true)
/// ObjectFilterExpression.between(1, 5)
/// ObjectFilterExpression.like("Desk%")
/// ObjectFilterExpression.in(["red", "green"])
/// ObjectFilterExpression.exists
/// ```
///
/// Operands are not checked, as in coaty-js: `[7]` (Equals without operand) is a valid expression
/// that never matches, and extra operands are kept but ignored. A `Like` pattern is compiled once,
/// when the expression is created.
public struct ObjectFilterExpression: Hashable, Sendable {
    /// The operator.
    public let `operator`: FilterOperator
    /// The operands in wire order (`[lower, upper]` for `Between`, `[]` for `Exists`).
    public let operands: [JSONValue]
    /// The compiled pattern of a `Like` expression with a string operand.
    let likePattern: LikePattern?

    /// An expression with explicit operands; prefer the factories such as ``equals(_:)``.
    public init(_ operator: FilterOperator, operands: [JSONValue]) {
        self.operator = `operator`
        self.operands = operands
        if `operator` == .like, case .string(let pattern)? = operands.first {
            likePattern = LikePattern(pattern)
        } else {
            likePattern = nil
        }
    }

    /// Decodes `[code, operand…]`.
    ///
    /// - Throws: ``FilterError`` with `FilterError.Code.invalidCondition` when `json` is not a
    ///   non-empty array, or `FilterError.Code.invalidOperator` when its first element is not one of
    ///   the integer codes 0…14.
    public init(json: JSONValue) throws {
        try self.init(json: json, at: "expression")
    }

    init(json: JSONValue, at location: String) throws {
        guard case .array(let elements) = json, let code = elements.first else {
            throw FilterError(
                code: .invalidCondition,
                detail: "\(location): expected an array [operator, operands…], found \(json.serializedString())")
        }
        guard let op = FilterOperator(codeValue: code) else {
            throw FilterError(
                code: .invalidOperator,
                detail: "\(location)[0]: operator code \(code.serializedString()) is not one of the integers 0…14")
        }
        self.init(op, operands: Array(elements.dropFirst()))
    }

    /// The wire form `[code, operand…]`.
    public var json: JSONValue {
        .array([.int(`operator`.code)] + operands)
    }

    /// The first operand, `nil` when there is none (JavaScript's `undefined`).
    var firstOperand: JSONValue? { operands.first }
    /// The second operand, `nil` when there is none.
    var secondOperand: JSONValue? {
        guard operands.count > 1 else { return nil }  // not `?:`, whose `nil` would be JSON `null`
        return operands[1]
    }
}

// MARK: - Factories

extension ObjectFilterExpression {
    /// `value < operand`: strings by locale collation (`"Alpha" < "beta"`, `"10" < "9"`), numbers
    /// numerically, other combinations by JavaScript's `<`.
    public static func lessThan(_ operand: JSONValue) -> Self { Self(.lessThan, operands: [operand]) }
    /// `value <= operand`.
    public static func lessThanOrEqual(_ operand: JSONValue) -> Self { Self(.lessThanOrEqual, operands: [operand]) }
    /// `value > operand`.
    public static func greaterThan(_ operand: JSONValue) -> Self { Self(.greaterThan, operands: [operand]) }
    /// `value >= operand`.
    public static func greaterThanOrEqual(_ operand: JSONValue) -> Self {
        Self(.greaterThanOrEqual, operands: [operand])
    }
    /// `lower <= value <= upper` (the bounds are swapped if `lower > upper`).
    public static func between(_ lower: JSONValue, _ upper: JSONValue) -> Self {
        Self(.between, operands: [lower, upper])
    }
    /// `value < lower || value > upper` (the bounds are swapped if `lower > upper`).
    public static func notBetween(_ lower: JSONValue, _ upper: JSONValue) -> Self {
        Self(.notBetween, operands: [lower, upper])
    }
    /// SQL `LIKE` on the whole string value: `_` matches one character, `%` any run; a backslash
    /// escapes `_`, `%` and itself. Case-sensitive; non-string values never match.
    public static func like(_ pattern: String) -> Self { Self(.like, operands: [.string(pattern)]) }
    /// Deep equality (numbers by value, object key order irrelevant).
    public static func equals(_ operand: JSONValue) -> Self { Self(.equals, operands: [operand]) }
    /// Not deep-equal. An absent property does not match this either.
    public static func notEquals(_ operand: JSONValue) -> Self { Self(.notEquals, operands: [operand]) }
    /// The property is present (a `null` value counts as present).
    public static let exists = Self(.exists, operands: [])
    /// The property is absent.
    public static let notExists = Self(.notExists, operands: [])
    /// Deep containment: `["a", "b", "c"]` contains `["c", "a"]` and `"a"`, `{"x": 1, "y": 2}`
    /// contains `{"y": 2}`; a string contains only itself.
    public static func contains(_ operand: JSONValue) -> Self { Self(.contains, operands: [operand]) }
    /// Not ``contains(_:)``. An absent property does not match this either.
    public static func notContains(_ operand: JSONValue) -> Self { Self(.notContains, operands: [operand]) }
    /// The value deep-equals one of `values`.
    public static func `in`(_ values: [JSONValue]) -> Self { Self(.in, operands: [.array(values)]) }
    /// The value deep-equals none of `values`. An absent property does not match this either.
    public static func notIn(_ values: [JSONValue]) -> Self { Self(.notIn, operands: [.array(values)]) }
}

extension ObjectFilterExpression: CustomStringConvertible {
    /// The wire form as JSON text.
    public var description: String { json.serializedString() }
}
