import Agent
import CoatyStorageAgent
import ArgumentParser
import CoreTypes
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

/// `run --config FILE`: a long-lived agent (a container) configured by a JSON or YAML file.
struct RunCommand: RunnerCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Runs a long-lived agent from a configuration file (JSON or YAML).",
        discussion: """
            The agent joins, advertises the objects of the file, resolves Discovers, answers \
            Queries and applies Updates about them, answers the Calls of its operations, runs the \
            configured controllers and logs. With storage, it records the Advertise, Update and \
            Channel events of the given types into a database (a Deadvertise removes the objects) \
            and answers Discovers and Queries from it. With historian, it snapshots the objects of \
            the given types that it observes, stores and advertises the snapshots, and answers \
            Queries for Snapshot from its database. With responderGroup, the agents running with \
            the same group share the requests they answer: each reaches one of them. SIGTERM or SIGINT \
            deadvertises everything and exits 0. Options and COATY_ variables override the file. \
            The agent waits for its broker and reconnects for ever; a broker that refuses the \
            credentials ends it with exit code 3.
            """)

    @Option(help: "The configuration file: .json, .yaml or .yml.")
    var config: String

    @Option(help: "Serve /metrics (Prometheus) and /healthz over HTTP on HOST:PORT, like 127.0.0.1:9090.")
    var metrics: String?

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func execute(in context: CommandContext) async throws {
        let file = try RunConfiguration.load(config)
        let settings = try context.settings.overriding(file).checked(source: "'\(config)'")
        var components = Components(controllers: file.controllers.compactMap { ControllerComponent.builtIn($0.name) })
        var options = Dictionary(
            uniqueKeysWithValues: file.controllers.map { ($0.name, ControllerOptions($0.options)) })
        if !file.operations.isEmpty {
            let operations = file.operations
            components.controllers.append(
                ControllerComponent(name: "agent-runner operations") { context in
                    OperationController(agent: context.agent, operations: operations, logger: context.logger)
                })
        }
        let metricsAddress = metrics ?? file.metrics
        // Before the agent is made: it takes the bootstrapped factory when it is made.
        let registry = metricsAddress.map { _ in MetricsServer.bootstrap() }
        var agentConfiguration = settings.agentConfiguration(defaultName: "agent-runner", reconnect: ReconnectPolicy())
        if !file.objects.isEmpty {
            components.controllers.append(.objectProvider())
            let objects = NameBasedObjectID.filling(file.objects, identityName: agentConfiguration.identity.name)
            options["ObjectProviderController"] = ["objects": .array(objects), "acceptUpdates": true]
        }
        let storageBackend = try file.storage?.database.backend()
        if let storage = file.storage, let storageBackend {
            components.controllers.append(.storageRecorder(backend: storageBackend, options: storage.options))
        }
        if let historian = file.historian {
            // The same database as the recorder's: one backend, so they take turns in one process.
            let shared = historian.database.description == file.storage?.database.description ? storageBackend : nil
            let backend = try shared ?? historian.database.backend()
            components.controllers.append(.historian(backend: backend, options: historian.options))
        }
        agentConfiguration.ioNodes = file.ioNodes
        agentConfiguration.responderGroup = file.responderGroup
        let container: Container
        do {
            container = try Container(
                components: components,
                configuration: Container.Configuration(agent: agentConfiguration, controllerOptions: options),
                logPublishing: LogPublisher.Configuration(tags: file.logTags), logger: context.logger)
        } catch let error as ContainerError {
            throw RunnerError.usage("--config", "'\(config)': \(error.detail)")
        }
        if let level = file.remoteLogLevel { context.logSink.attach(container.logPublisher, level: level) }
        let reporter = RunReporter(container: container, objectCount: file.objects.count, logger: context.logger)
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: container),
            .init(service: reporter, successTerminationBehavior: .ignore, failureTerminationBehavior: .ignore),
        ]
        if let metricsAddress, let registry {
            services.append(
                .init(
                    service: try MetricsServer.service(
                        address: metricsAddress, registry: registry, agent: container.agent, logger: context.logger)))
        }
        var group = ServiceGroupConfiguration(
            services: services,
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: context.logger)
        group.maximumGracefulShutdownDuration = .milliseconds(1500)
        defer { LossReport.report(container.agent, droppedLogs: container.logPublisher.droppedLogCount) }
        do {
            try await ServiceGroup(configuration: group).run()
        } catch let error as ContainerError {
            throw RunnerError(code: .failure, message: error.detail)
        }
        context.logger.info("Agent stopped")
    }
}

extension Settings {
    /// The settings, checked where a configuration file may have set them.
    ///
    /// - Throws: ``RunnerError`` (exit 2) naming `source` and the member at fault.
    func checked(source: String) throws -> Settings {
        if let broker {
            do {
                _ = try BrokerURL(broker)
            } catch let error as MosquittoError {
                throw RunnerError.usage("broker", "\(error.detail) (in \(source) or the options)")
            }
        }
        if let namespace, !CoatyTopic.isValidEventFilter(namespace) {
            throw RunnerError.usage("namespace", "'\(namespace)' must be non-empty without '/', '+', '#' or NUL")
        }
        var checked = self
        if let identityID {
            guard let uuid = UUID(uuidString: identityID) else {
                throw RunnerError.usage("identityId", "'\(identityID)' is not a UUID (in \(source) or the options)")
            }
            checked.identityID = uuid.uuidString.lowercased()
        }
        for (name, path) in [("caFile", caFile), ("certFile", certFile), ("keyFile", keyFile)] {
            if let path, !FileManager.default.isReadableFile(atPath: path) {
                throw RunnerError.usage(name, "cannot read '\(path)'")
            }
        }
        if (certFile == nil) != (keyFile == nil) {
            throw RunnerError.usage("certFile", "a client certificate needs both certFile and keyFile")
        }
        return checked
    }
}

/// Logs what a running agent does: starting, online, offline, and the agents that join and leave
/// when an ``ObjectLifecycleController`` runs.
private struct RunReporter: Service {
    let container: Container
    let objectCount: Int
    let logger: Logger

    func run() async throws {
        let agent = container.agent
        let configuration = agent.configuration
        var metadata: Logger.Metadata = [
            "agent.name": "\(configuration.identity.name)", "agent.id": "\(configuration.identity.objectID)",
            "mqtt.broker": "\(configuration.broker.url)", "coaty.namespace": "\(configuration.namespace)",
            "agent.objects": "\(objectCount)", "agent.controllers": "\(container.controllerNames)",
        ]
        if let group = configuration.responderGroup { metadata["coaty.responderGroup"] = "\(group)" }
        logger.info("Agent starting", metadata: metadata)
        await withDiscardingTaskGroup { group in
            group.addTask { await reportConnection(agent) }
            if let lifecycle = container.controller(ObjectLifecycleController.self) {
                group.addTask { await reportAgents(lifecycle) }
            }
        }
    }

    private func reportConnection(_ agent: Agent) async {
        let waiting = Task {
            try await Task.sleep(for: .seconds(5))
            logger.warning(
                "Broker not reachable yet; still trying", metadata: ["mqtt.broker": "\(agent.configuration.broker.url)"]
            )
        }
        defer { waiting.cancel() }
        var wasOnline = false
        for await state in agent.connectionStates().cancelOnGracefulShutdown() {
            switch state {
            case .online:
                waiting.cancel()
                logger.info(
                    wasOnline ? "Online again" : "Online",
                    metadata: ["mqtt.broker": "\(agent.configuration.broker.url)"])
                wasOnline = true
            case .offline where wasOnline:
                logger.info(
                    "Connection lost; reconnecting", metadata: ["mqtt.broker": "\(agent.configuration.broker.url)"])
            default:
                continue
            }
        }
    }

    private func reportAgents(_ lifecycle: ObjectLifecycleController) async {
        guard let events = try? await lifecycle.observeAgents() else { return }
        // The report ends with the agent: on shutdown, or when it stops (the stream throws `stopped`).
        do {
            for try await event in events.cancelOnGracefulShutdown() {
                let message: Logger.Message =
                    switch event.kind {
                    case .added: "Agent joined"
                    case .changed: "Agent changed"
                    case .removed: "Agent left"
                    }
                logger.info(
                    message, metadata: ["coaty.agent": "\(event.object.name)", "coaty.id": "\(event.object.objectID)"])
            }
        } catch {}
    }
}
