import CoreTypes
public import Logging

/// What a controller gets when its container creates it: the communication API, its options, a
/// logger and its name.
public struct ControllerContext: Sendable {
    /// The controller's name in the container (the key of its options in the configuration).
    public let name: String
    /// The container's agent: the communication API.
    public let agent: Agent
    /// The container's logger with `controller.name` metadata.
    public let logger: Logger
    /// The options the configuration gives this controller (empty when it gives none).
    public let options: ControllerOptions

    /// Creates a context; containers do this while they bootstrap, tests may do it directly.
    public init(name: String, agent: Agent, logger: Logger, options: ControllerOptions = .none) {
        var logger = logger
        logger[metadataKey: "controller.name"] = "\(name)"
        self.name = name
        self.agent = agent
        self.logger = logger
        self.options = options
    }

    /// The controller's options as `Options`.
    ///
    /// JSON options are decoded with `Decodable`; no options decode as an empty object, so an
    /// options type whose members all have defaults needs none. Typed options must be of type
    /// `Options`.
    ///
    /// - Throws: ``ContainerError`` with code `ContainerError.Code.invalidOptions` naming the
    ///   controller and the member at fault.
    public func options<Options: Decodable & Sendable>(as type: Options.Type = Options.self) throws -> Options {
        switch options.storage {
        case .typed(let value):
            guard let typed = value as? Options else {
                let given = String(reflecting: Swift.type(of: value))
                let wanted = String(reflecting: Options.self)
                throw ContainerError(
                    code: .invalidOptions, controller: name,
                    detail: "controller '\(name)' was given options of type \(given); it reads \(wanted)")
            }
            return typed
        case .json(let object):
            do {
                return try JSONValueDecoder().decode(Options.self, from: object)
            } catch {
                throw ContainerError(
                    code: .invalidOptions, controller: name,
                    detail: "controller '\(name)' has invalid options \(object): \(Self.describe(error))")
            }
        }
    }

    /// A decoding error in words: the member path and what was wrong.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return path.isEmpty ? "" : "'\(path)': "
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context))missing member '\(key.stringValue)'"
        case .typeMismatch(let type, let context):
            return "\(path(context))expected \(type): \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "\(path(context))expected \(type), found null"
        case .dataCorrupted(let context):
            return "\(path(context))\(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
