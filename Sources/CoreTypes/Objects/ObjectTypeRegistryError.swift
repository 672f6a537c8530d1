/// Why a type could not be registered with an ``ObjectTypeRegistry``.
///
/// Registration happens while a container bootstraps, so these errors are bootstrap errors: they
/// name the object type (or fragment field) and say what to change.
public struct ObjectTypeRegistryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of problem.
    public typealias Code = ErrorCode<ObjectTypeRegistryError>

    /// The kind of problem.
    public let code: Code
    /// What went wrong and what to do.
    public let detail: String

    /// Creates an error.
    public init(code: Code, detail: String) {
        self.code = code
        self.detail = detail
    }

    /// "code: detail".
    public var description: String { "\(code): \(detail)" }
}
