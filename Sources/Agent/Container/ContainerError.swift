/// Why a container could not bootstrap, or why a controller ended it.
///
/// Bootstrap errors come from ``Container/init(components:configuration:logPublishing:logger:)``: they name the
/// object type, the controller or the option at fault and say what to change.
public struct ContainerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: Hashable, Sendable {
            case duplicateObjectType, invalidObjectType, duplicateController, invalidControllerName
            case unknownController, invalidOptions, invalidConfiguration, controllerFailed, alreadyRunning
        }
        private let base: Base
        /// Two components register the same object type (or the same fragment field).
        public static let duplicateObjectType = Code(base: .duplicateObjectType)
        /// An object type or fragment field cannot be registered (invalid or reserved name).
        public static let invalidObjectType = Code(base: .invalidObjectType)
        /// Two controllers have the same name.
        public static let duplicateController = Code(base: .duplicateController)
        /// A controller name is empty.
        public static let invalidControllerName = Code(base: .invalidControllerName)
        /// The configuration has options for a controller that the components do not have.
        public static let unknownController = Code(base: .unknownController)
        /// A controller's options do not decode as the options it reads.
        public static let invalidOptions = Code(base: .invalidOptions)
        /// The agent part of the configuration is not usable (broker URL, namespace, identity).
        public static let invalidConfiguration = Code(base: .invalidConfiguration)
        /// A controller could not be created, or one of its hooks or its ``Controller/run()`` threw.
        public static let controllerFailed = Code(base: .controllerFailed)
        /// ``Container/run()`` was called a second time.
        public static let alreadyRunning = Code(base: .alreadyRunning)
        /// The code's name.
        public var description: String { "\(base)" }
    }

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
