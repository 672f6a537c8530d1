public import CoreTypes
public import Logging
public import ServiceLifecycle
import Synchronization

/// An agent with its controllers and object types: the unit a program runs or embeds.
///
/// A container is resolved from ``Components`` and a ``Configuration`` when it is created (it
/// *bootstraps*): it registers the object types in its own `ObjectTypeRegistry` and freezes it,
/// checks the controller names and options, creates the ``Agent``, and creates each controller
/// with a ``ControllerContext``. Anything wrong there is a ``ContainerError``; nothing touches the
/// network before ``run()``.
///
/// `Container` is a swift-service-lifecycle `Service`. A program that embeds an agent adds the
/// container to its own `ServiceGroup`, before the services that use it:
///
/// ```swift
/// let container = try Container(
///     components: Components(controllers: [.objectLifecycle()], objectTypes: [Light.self]),
///     configuration: configuration, logger: logger)
/// let group = ServiceGroup(
///     configuration: .init(services: [container, webServer], gracefulShutdownSignals: [.sigterm], logger: logger))
/// try await group.run()
/// ```
///
/// ``run()`` is the container's lifetime: it calls each controller's ``Controller/initialize()``,
/// then runs the agent, the ``logPublisher`` and the controllers (their ``Controller/run()`` and
/// their online/offline hooks). On graceful shutdown the controllers stop first
/// (``Controller/willStop()``, in reverse order, while the agent is still connected), then the log
/// publisher sends what is queued, then the agent deadvertises its identity and disconnects.
public final class Container: Service, Sendable {
    /// The agent: the communication API that controllers and the host program use.
    public let agent: Agent
    /// The configuration the container was created with.
    public let configuration: Configuration
    /// Advertises the `Log` objects of ``logHandler(label:local:remoteLogLevel:)`` handlers.
    public let logPublisher: LogPublisher
    /// The controllers' names, in the order of the components.
    public let controllerNames: [String]

    let controllers: [NamedController]
    let logger: Logger
    private let hasRun = Atomic<Bool>(false)

    /// Bootstraps a container.
    ///
    /// - Parameters:
    ///   - components: the controllers and application object types.
    ///   - configuration: identity, broker, namespace and each controller's options.
    ///   - logPublishing: how ``logPublisher`` builds and sends `Log` objects.
    ///   - logger: where the container and its agent log (defaults to the task-local logger).
    /// - Throws: ``ContainerError``: `ContainerError.Code.duplicateObjectType` or
    ///   `ContainerError.Code.invalidObjectType` for an object type that cannot be registered,
    ///   `ContainerError.Code.duplicateController` or `ContainerError.Code.invalidControllerName`,
    ///   `ContainerError.Code.unknownController` for options nobody reads,
    ///   `ContainerError.Code.invalidConfiguration` for an unusable agent configuration,
    ///   `ContainerError.Code.invalidOptions` or `ContainerError.Code.controllerFailed` when a
    ///   controller cannot be created.
    public init(
        components: Components, configuration: Configuration,
        logPublishing: LogPublisher.Configuration = LogPublisher.Configuration(), logger: Logger = Logger.current
    ) throws {
        let registry = try Self.makeRegistry(components)
        try Self.checkControllerNames(components, configuration)
        let agent: Agent
        do {
            agent = try Agent(configuration: configuration.agent, registry: registry, logger: logger)
        } catch {
            throw ContainerError(code: .invalidConfiguration, detail: (error as? AgentError)?.detail ?? "\(error)")
        }
        var logger = logger
        logger[metadataKey: "agent.id"] = "\(configuration.agent.identity.objectID)"
        var controllers: [NamedController] = []
        for component in components.controllers {
            let context = ControllerContext(
                name: component.name, agent: agent, logger: logger,
                options: configuration.controllerOptions[component.name] ?? .none)
            do {
                controllers.append(NamedController(name: component.name, controller: try component.make(context)))
            } catch {
                throw ContainerError.controllerFailed(component.name, "while it was created", error)
            }
        }
        self.agent = agent
        self.configuration = configuration
        self.logPublisher = LogPublisher(agent: agent, configuration: logPublishing)
        self.controllers = controllers
        self.controllerNames = controllers.map(\.name)
        self.logger = logger
    }

    /// The object types the container decodes into (frozen).
    public var registry: ObjectTypeRegistry { agent.registry }

    /// The controller named `name`, if there is one.
    public func controller(named name: String) -> (any Controller)? {
        controllers.first { $0.name == name }?.controller
    }

    /// The first controller of type `type` (or, with a name, the one of that name if it has that type).
    public func controller<C: Controller>(_ type: C.Type, named name: String? = nil) -> C? {
        for entry in controllers where name == nil || entry.name == name {
            if let controller = entry.controller as? C { return controller }
        }
        return nil
    }

    /// A log handler whose `Log` objects this container's agent advertises (see ``CoatyLogHandler``).
    public func logHandler(
        label: String, local: (any LogHandler)? = nil, remoteLogLevel: Logger.Level = .info
    ) -> CoatyLogHandler {
        CoatyLogHandler(label: label, publisher: logPublisher, local: local, remoteLogLevel: remoteLogLevel)
    }

    /// Runs the container until graceful shutdown or cancellation (see the type's description).
    ///
    /// - Throws: ``ContainerError`` with code `ContainerError.Code.controllerFailed` when a
    ///   controller's hook or lifetime threw (the container then stopped gracefully),
    ///   `ContainerError.Code.alreadyRunning` on a second call, and the agent's ``AgentError``
    ///   when it could not connect.
    public func run() async throws {
        guard hasRun.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else {
            throw ContainerError(code: .alreadyRunning, detail: "run() was called more than once on this container")
        }
        logger.debug("Container starting", metadata: ["container.controllers": "\(controllerNames)"])
        for entry in controllers {
            do {
                try await entry.controller.initialize()
            } catch {
                throw ContainerError.controllerFailed(entry.name, "in initialize()", error)
            }
        }
        let host = ControllerHost(
            agent: agent, controllers: controllers, execution: configuration.controllerExecution, logger: logger)
        let services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(
                service: agent, successTerminationBehavior: .gracefullyShutdownGroup,
                failureTerminationBehavior: .gracefullyShutdownGroup, serviceName: "Agent"),
            .init(
                service: logPublisher, successTerminationBehavior: .ignore,
                failureTerminationBehavior: .gracefullyShutdownGroup, serviceName: "LogPublisher"),
            .init(
                service: host, successTerminationBehavior: .gracefullyShutdownGroup,
                failureTerminationBehavior: .gracefullyShutdownGroup, serviceName: "Controllers"),
        ]
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: services, logger: logger))
        try await group.run()
        logger.debug("Container stopped")
    }

    // MARK: - Bootstrap

    /// A frozen registry with the components' fragments and object types.
    static func makeRegistry(_ components: Components) throws -> ObjectTypeRegistry {
        var registry = ObjectTypeRegistry()
        do {
            for fragment in components.fragments { try fragment.register(&registry) }
            for type in components.objectTypes { try registry.register(type) }
        } catch let error as ObjectTypeRegistryError {
            let isDuplicate = error.code == .duplicateObjectType || error.code == .duplicateFragment
            throw ContainerError(code: isDuplicate ? .duplicateObjectType : .invalidObjectType, detail: error.detail)
        }
        registry.freeze()
        return registry
    }

    /// Controller names are non-empty and unique; every options key names a controller.
    static func checkControllerNames(_ components: Components, _ configuration: Configuration) throws {
        var names: Set<String> = []
        for component in components.controllers {
            guard !component.name.isEmpty else {
                throw ContainerError(code: .invalidControllerName, detail: "a controller component has an empty name")
            }
            guard names.insert(component.name).inserted else {
                throw ContainerError(
                    code: .duplicateController, controller: component.name,
                    detail: "two controllers are named '\(component.name)'; give each a unique name")
            }
        }
        for name in configuration.controllerOptions.keys.sorted() where !names.contains(name) {
            throw ContainerError(
                code: .unknownController, controller: name,
                detail: "the configuration has options for '\(name)', but no controller has that name "
                    + "(controllers: \(components.controllers.map(\.name).joined(separator: ", ")))")
        }
    }
}
