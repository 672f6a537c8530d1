/// Why a filter, filter part or join condition could not be decoded, or why evaluating a filter
/// failed.
///
/// Decoding errors follow coaty-js's `isObjectFilterValid`, `isContextFilterValid` and
/// `areObjectJoinConditionsValid`: a coaty-js agent drops a Query or Call whose filter fails them, so
/// a Swift agent rejects the same inputs. ``detail`` names the offending part with a JSON location
/// such as `objectFilter.conditions.and[1][1][0]`.
///
/// ```swift
/// do {
///     _ = try ObjectFilter(json: payload["objectFilter"] ?? .null)
/// } catch let error as FilterError where error.code == .invalidOperator {
///     print(error.detail)  // "objectFilter.conditions[1][0]: operator code 15 is not one of 0…14"
/// }
/// ```
public struct FilterError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of problem.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: Hashable, Sendable {
            case invalidFilter, invalidCondition, invalidOperator, invalidPropertyPath, invalidOrderBy
            case invalidJoinCondition, evaluationFailed
        }
        private let base: Base
        /// The filter is not a JSON object, its `conditions` are neither a condition nor an
        /// `and`/`or` group, or `skip`/`take` are not numbers.
        public static let invalidFilter = Code(base: .invalidFilter)
        /// A condition is not a `[path, [operator, operands…]]` pair.
        public static let invalidCondition = Code(base: .invalidCondition)
        /// An expression's operator is not one of the integer codes 0…14.
        public static let invalidOperator = Code(base: .invalidOperator)
        /// A property path is neither a string nor an array of strings (or is the empty string
        /// where a condition needs a property).
        public static let invalidPropertyPath = Code(base: .invalidPropertyPath)
        /// An `orderByProperties` entry is not a `[path, "Asc" | "Desc"]` pair.
        public static let invalidOrderBy = Code(base: .invalidOrderBy)
        /// An object join condition lacks `localProperty`/`asProperty` strings or has non-Boolean
        /// flags.
        public static let invalidJoinCondition = Code(base: .invalidJoinCondition)
        /// Evaluating the filter failed where coaty-js throws a `TypeError` (for example `In` with an
        /// operand that is not an array, or a nested `and`/`or` group).
        public static let evaluationFailed = Code(base: .evaluationFailed)
        /// The code's name.
        public var description: String { "\(base)" }
    }

    /// The kind of problem.
    public let code: Code
    /// What is wrong and where, in words.
    public let detail: String

    /// Creates an error.
    public init(code: Code, detail: String) {
        self.code = code
        self.detail = detail
    }

    /// "code: detail".
    public var description: String { "\(code): \(detail)" }
}

extension FilterError {
    static func evaluation(_ detail: String) -> FilterError {
        FilterError(code: .evaluationFailed, detail: detail + " (coaty-js throws a TypeError here)")
    }
}
