/// The kind of an error of type `Domain`: ``FilterError/Code`` is `ErrorCode<FilterError>`, and so
/// on for every error type of swift-coaty.
///
/// Codes compare by name and print as their name. Unlike enumeration cases, new codes can be
/// added without breaking a `switch` in your code (write a `default:` case). Each module lists
/// its codes in one place: `ErrorCodes.swift`.
///
/// ```swift
/// catch let error as FilterError where error.code == .invalidOperator { … }
/// ```
public struct ErrorCode<Domain>: Hashable, Sendable, CustomStringConvertible {
    /// The code's name, such as `invalidOperator`.
    public let name: String

    /// Creates the code named `name`; every code is declared in an `ErrorCodes.swift`.
    package init(_ name: String) {
        self.name = name
    }

    /// The code's name.
    public var description: String { name }
}
