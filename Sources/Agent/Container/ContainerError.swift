public import CoreTypes

/// Why a container could not bootstrap, or why a controller ended it.
///
/// Bootstrap errors come from ``Container/init(components:configuration:logPublishing:logger:)``: they name the
/// object type, the controller or the option at fault and say what to change.
public struct ContainerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public typealias Code = ErrorCode<ContainerError>

    /// The kind of failure.
    public let code: Code
    /// The controller concerned, if any.
    public let controller: String?
    /// What went wrong and what to do, in words.
    public let detail: String

    /// Creates an error.
    public init(code: Code, controller: String? = nil, detail: String) {
        self.code = code
        self.controller = controller
        self.detail = detail
    }

    /// "code: detail".
    public var description: String { "\(code): \(detail)" }
}

extension ContainerError {
    /// The error for `error`, thrown by the controller `name` while it was `doing` something.
    static func controllerFailed(_ name: String, _ doing: String, _ error: any Error) -> ContainerError {
        if let error = error as? ContainerError { return error }
        return ContainerError(
            code: .controllerFailed, controller: name, detail: "controller '\(name)' failed \(doing): \(error)")
    }
}
