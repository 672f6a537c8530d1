public import CoreTypes

/// Why an agent operation failed.
public struct AgentError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public typealias Code = ErrorCode<AgentError>

    /// The kind of failure.
    public let code: Code
    /// What went wrong and what to do, in words.
    public let detail: String

    /// Creates an error.
    public init(code: Code, detail: String) {
        self.code = code
        self.detail = detail
    }

    /// "code: detail".
    public var description: String { "\(code): \(detail)" }
}
