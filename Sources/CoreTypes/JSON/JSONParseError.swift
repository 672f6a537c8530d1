/// Why a byte sequence is not a JSON text that this project accepts.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of problem.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: Hashable, Sendable {
            case unexpectedEnd, unexpectedByte, invalidNumber, numberOutOfRange, invalidString
            case invalidUTF8, invalidEscape, tooDeep, trailingContent
        }
        private let base: Base
        /// The text ended in the middle of a value.
        public static let unexpectedEnd = Code(base: .unexpectedEnd)
        /// A byte that cannot start or continue a value here.
        public static let unexpectedByte = Code(base: .unexpectedByte)
        /// A number that does not follow the JSON grammar.
        public static let invalidNumber = Code(base: .invalidNumber)
        /// A number too large for a 64-bit double.
        public static let numberOutOfRange = Code(base: .numberOutOfRange)
        /// A string with a raw control character.
        public static let invalidString = Code(base: .invalidString)
        /// Bytes that are not UTF-8.
        public static let invalidUTF8 = Code(base: .invalidUTF8)
        /// A backslash escape that JSON does not define.
        public static let invalidEscape = Code(base: .invalidEscape)
        /// Arrays and objects nested deeper than the parser's limit.
        public static let tooDeep = Code(base: .tooDeep)
        /// More than whitespace after the value.
        public static let trailingContent = Code(base: .trailingContent)
        /// The code's name.
        public var description: String { "\(base)" }
    }

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
