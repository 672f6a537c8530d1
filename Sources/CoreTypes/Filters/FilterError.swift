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
///     reject(error.detail)  // "objectFilter.conditions[1][0]: operator code 15 is not one of 0…14"
/// }
/// ```
public struct FilterError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of problem.
    public typealias Code = ErrorCode<FilterError>

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
