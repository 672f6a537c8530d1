/// Why a type could not be registered with an ``ObjectTypeRegistry``.
///
/// Registration happens while a container bootstraps, so these errors are bootstrap errors: they
/// name the object type (or fragment field) and say what to change.
public struct ObjectTypeRegistryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of problem.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: Hashable, Sendable {
            case frozen, duplicateObjectType, invalidObjectType, reservedObjectType
            case duplicateFragment, invalidFragmentField, fragmentNotRegistered
        }
        private let base: Base
        /// The registry is frozen; register every type before the container finishes bootstrapping.
        public static let frozen = Code(base: .frozen)
        /// Another type is already registered under this object type.
        public static let duplicateObjectType = Code(base: .duplicateObjectType)
        /// The object type is not a valid event filter (empty, or contains `+`, `#`, `/` or NUL).
        public static let invalidObjectType = Code(base: .invalidObjectType)
        /// The object type starts with the `coaty.` prefix that Coaty reserves for its own types.
        public static let reservedObjectType = Code(base: .reservedObjectType)
        /// A fragment type or field name is already registered.
        public static let duplicateFragment = Code(base: .duplicateFragment)
        /// The fragment field name is empty or names a base field of Coaty objects.
        public static let invalidFragmentField = Code(base: .invalidFragmentField)
        /// A fragment type was read or written without being registered.
        public static let fragmentNotRegistered = Code(base: .fragmentNotRegistered)
        /// The code's name.
        public var description: String { "\(base)" }
    }

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
