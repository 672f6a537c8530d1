/// Why a byte sequence is not a JSON text that this project accepts.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of problem.
    public typealias Code = ErrorCode<JSONParseError>

    /// The kind of problem.
    public let code: Code
    /// The byte offset where the problem was found.
    public let offset: Int
    /// What is wrong, in words.
    public let detail: String

    /// Creates an error.
    public init(code: Code, offset: Int, detail: String) {
        self.code = code
        self.offset = offset
        self.detail = detail
    }

    /// "invalid JSON at byte N: detail".
    public var description: String { "invalid JSON at byte \(offset): \(detail)" }
}
