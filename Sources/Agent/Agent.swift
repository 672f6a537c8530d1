public import CoreTypes
public import Logging
public import ServiceLifecycle
import CoreMetrics
import Synchronization

/// A Coaty agent: one identity on one broker, publishing and observing Coaty events.
///
/// `Agent` is a swift-service-lifecycle `Service`: ``run()`` is its lifetime. It connects (and
/// reconnects with backoff), resubscribes everything and advertises its identity on every
/// CONNACK, sends what was queued while offline, answers Discovers for its identity, routes
/// inbound messages to observers, and on graceful shutdown deadvertises its identity and
/// disconnects. If the process dies instead, the broker publishes the same Deadvertise as the
/// agent's last will.
///
/// ```swift
/// let agent = try Agent(configuration: .init(identity: Identity(name: "Lamp controller")))
/// let group = ServiceGroup(services: [agent], logger: logger)
/// async let running: Void = group.run()
/// for try await event in try await agent.observeAdvertise(coreType: .task) { … }
/// ```
///
/// Everything can be called from any task; observing and publishing work before ``run()``
/// connects (publications wait in the offline queue, subscriptions are made on CONNACK).
public final class Agent: Service, Sendable {
    /// The configuration the agent was created with.
    public let configuration: Configuration
    /// The object types this agent decodes into (frozen when the agent was created).
    public let registry: ObjectTypeRegistry
    /// The agent's namespace and identity, as events and topics need them.
    package let scope: AgentScope

    /// The associating route coaty-js's IO router gives a Coaty IO source in this agent's
    /// namespace: `coaty/3/<namespace>/IOV/<ioSourceID>`.
    public func ioRoute(forIoSource ioSourceID: String) -> String {
        scope.ioRoute(forIoSource: ioSourceID)
    }

    let logger: Logger
    let client: MosquittoClient
    let joinPlan: JoinPlan
    let counters: AgentCounters
    let correlationIDs: CorrelationIDs
    /// Hands routed events to observers that wait in a task, once per pass of the network thread.
    let dispatcher: DeliveryDispatcher
    /// The filter of each response event type for ``ResponseSubscription/namespaceWide``, made once
    /// (empty with ``ResponseSubscription/perRequest``).
    let namespaceWideResponseFilters: [EventType: String]
    let state: Mutex<AgentState>
    /// The associations of the agent's IO sources and actors, and their observers.
    let io: IoHub
    /// What this agent's connection carries: its identity, or one responder group's requests.
    let role: Role
    /// The connections of the responder groups this agent answers in.
    let responderGroups: ResponderGroups

    /// Creates an agent. Nothing happens on the network until ``run()``.
    ///
    /// - Parameters:
    ///   - configuration: identity, broker, namespace and limits.
    ///   - registry: the application's object types; the agent freezes its copy.
    ///   - logger: where the agent logs (defaults to the task-local logger).
    /// - Throws: ``AgentError`` with code `AgentError.Code.invalidConfiguration` when the
    ///   broker URL, the namespace, the identity or an IO node is not usable.
    public convenience init(
        configuration: Configuration,
        registry: ObjectTypeRegistry = ObjectTypeRegistry(),
        logger: Logger = Logger.current
    ) throws {
        try self.init(configuration: configuration, registry: registry, logger: logger, eventLoop: nil)
    }

    /// Creates an agent whose network thread is `eventLoop`'s (`nil`: the next of the shared group), for tests
    /// that watch a loop no other agent uses, and whose correlation ids come from
    /// `makeCorrelationID` (`nil`: random UUIDs), for tests that replay captured ids. With `role`
    /// ``Role/responderGroup(_:)`` it is the connection of one group of the agent `configuration` describes.
    package init(
        configuration: Configuration, registry: ObjectTypeRegistry, logger: Logger, eventLoop: MosquittoEventLoop?,
        makeCorrelationID: (@Sendable () -> String)? = nil, role: Role = .identity
    ) throws {
        var configuration = configuration
        if role != .identity {
            configuration.ioNodes = []
            configuration.responderGroup = nil
        }
        do {
            configuration.ioNodes = try configuration.ioNodes.map { try $0.advertised(by: configuration.identity.objectID) }
        } catch {
            throw AgentError(code: .invalidConfiguration, detail: "IO nodes: \(error)")
        }
        guard CoatyTopic.isValidEventFilter(configuration.namespace) else {
            throw AgentError(
                code: .invalidConfiguration,
                detail: "namespace '\(configuration.namespace)' must be non-empty without '/', '+', '#' or NUL")
        }
        if let group = configuration.responderGroup { try Self.checkResponderGroup(group) }
        let scope = AgentScope(
            identityID: configuration.identity.objectID, namespace: configuration.namespace,
            isCrossNamespacing: configuration.isCrossNamespacing)
        var joinPlan: JoinPlan
        do {
            joinPlan = try JoinPlan(identity: configuration.identity, ioNodes: configuration.ioNodes, in: scope)
        } catch {
            throw AgentError(code: .invalidConfiguration, detail: "identity or IO nodes: \(error)")
        }
        if case .responderGroup(let group) = role {
            // The identity joins and leaves on its own connection; this one only holds the group's requests.
            joinPlan.publications = []
            joinPlan.subscriptions = []
            joinPlan.clientID = Self.responderGroupClientID(identityID: configuration.identity.objectID, group: group)
        }
        var registry = registry
        registry.freeze()
        var logger = logger
        logger[metadataKey: "agent.id"] = "\(configuration.identity.objectID)"
        if role != .identity { logger[metadataKey: "coaty.responderGroup"] = "\(role)" }
        counters = AgentCounters(
            metrics: AgentMetrics.make(
                factory: configuration.metricsFactory ?? MetricsSystem.factory, describesConnection: role == .identity))
        self.configuration = configuration
        self.registry = registry
        self.scope = scope
        // Only agents that use them pay for them (B6 runs a thousand agents in one process).
        var namespaceWideResponseFilters: [EventType: String] = [:]
        if configuration.responseSubscription == .namespaceWide {
            for responseType in EventType.allCases where responseType.isResponse {
                namespaceWideResponseFilters[responseType] = TopicFilter(eventType: responseType, in: scope.subscriptionScope).rawValue
            }
        }
        self.namespaceWideResponseFilters = namespaceWideResponseFilters
        self.joinPlan = joinPlan
        self.logger = logger
        self.correlationIDs = CorrelationIDs(making: makeCorrelationID)
        var clientConfiguration = try Self.clientConfiguration(configuration, joinPlan: joinPlan)
        if role != .identity { clientConfiguration.will = nil }
        self.client = try MosquittoClient(configuration: clientConfiguration, eventLoop: eventLoop)
        self.dispatcher = DeliveryDispatcher(loop: client.eventLoop)
        // Only the graceful stop's Deadvertise needs its acknowledgement (stop() turns it on);
        // any other would wake the event loop for nothing.
        client.report(publications: false, unsubscriptions: false)
        self.state = Mutex(AgentState(configuration: configuration, joinPlan: joinPlan))
        self.io = IoHub(ioNodes: configuration.ioNodes)
        self.role = role
        self.responderGroups = ResponderGroups(logger: logger)
        // The built-in responders: Discovers for the identity (and IO nodes) are answered by the
        // agent itself, and so are Associate events for its IO sources and actors.
        if role == .identity {
            installIdentityResponder()
            installIoResponder()
        }
    }

    /// The agent's identity.
    public var identity: Identity { configuration.identity }

    /// The executor of the thread that reads and writes the agent's socket, for latency-critical
    /// handlers that never block.
    ///
    /// The agent decodes and routes every inbound message on this thread. A task that prefers it
    /// runs there too, so an event reaches it, and its response leaves, without waking a thread of
    /// the global pool: about one thread switch less per event on each side of a round trip, and
    /// less CPU per event for a consumer of many (B1 in docs/performance.md). The
    /// thread is one of a group, one per core but one, each shared by some of the process's agents; a
    /// handler that blocks or computes for long there delays all their traffic, so keep such work on
    /// the default executor.
    ///
    /// ```swift
    /// let calls = try await agent.observeCall("com.example.add")
    /// Task(executorPreference: agent.executor) {
    ///     for try await call in calls { try? call.respond(Return(result: 3)) }
    /// }
    /// ```
    public var executor: any TaskExecutor { client.eventLoop }

    /// The connection state now.
    public var connectionState: ConnectionState { state.withLock { $0.machine.connectionState } }

    /// A snapshot of the agent's counters, with those of its responder groups' connections (but
    /// ``AgentStatistics/connections``, which counts the agent's own).
    public var statistics: AgentStatistics {
        var statistics = ownStatistics
        for link in responderGroups.all { statistics.add(responderGroup: link.ownStatistics) }
        return statistics
    }

    /// A snapshot of this connection's counters.
    private var ownStatistics: AgentStatistics {
        AgentStatistics(
            receivedMessages: counters.receivedMessages.load(ordering: .relaxed),
            rejectedPayloads: counters.rejectedPayloads.load(ordering: .relaxed),
            unroutedMessages: counters.unroutedMessages.load(ordering: .relaxed),
            rejectedResponses: counters.rejectedResponses.load(ordering: .relaxed),
            droppedObserverEvents: counters.droppedObserverEvents.load(ordering: .relaxed),
            heldBackObservers: counters.heldBackObservers.load(ordering: .relaxed),
            droppedOfflinePublications: counters.droppedOfflinePublications.load(ordering: .relaxed),
            connections: counters.connections.load(ordering: .relaxed),
            refusedSubscriptions: counters.refusedSubscriptions.load(ordering: .relaxed),
            refusedPublications: client.refusedPublicationCount)
    }

    /// Runs the agent until graceful shutdown or cancellation: connects, reconnects, routes.
    ///
    /// On graceful shutdown (or cancellation) it publishes the Deadvertise of its identity and IO
    /// nodes, disconnects and returns; every observation and pending request ends.
    ///
    /// - Throws: ``AgentError`` with code `AgentError.Code.connectionFailed` when the broker
    ///   refused the agent (bad credentials, not authorised) or the reconnect policy gave up;
    ///   the message names the broker URL and the reason.
    public func run() async throws {
        guard state.withLock({ $0.machine.start() }) else {
            throw AgentError(code: .alreadyRunning, detail: "run() was called more than once on agent \(scope.identityID); an agent runs once, so make a new Agent to run again")
        }
        logger.debug("Agent starting", metadata: ["mqtt.broker": "\(configuration.broker.url)"])
        defer { finishEverything() }
        responderGroups.start()
        // Shared responders are in place before the identity is advertised, so its Advertise tells
        // others that this agent answers in its groups.
        await responderGroups.waitUntilSubscribed()
        // The event loop runs in a task of its own, which cancelling run() does not cancel. The
        // cancellation handler runs under the Swift runtime's lock of *this* task and takes the
        // connection's lock (to publish the Deadvertise); libmosquitto's thread holds the connection's
        // lock while it resumes the loop's task. Were that the same task, the two would deadlock.
        // So cancellation stops the agent the graceful way, and the loop ends with the connection.
        let loop = Task { try await self.eventLoop() }
        do {
            try await withTaskCancellationHandler {
                try await withGracefulShutdownHandler {
                    try await loop.value
                } onGracefulShutdown: {
                    self.stop()
                }
            } onCancel: {
                self.stop()
            }
        } catch {
            await responderGroups.stopAndWait()
            throw error
        }
        await responderGroups.stopAndWait()
        // A requested stop ends the agent normally, even while it was offline after a failed attempt.
        if let error = state.withLock({ $0.machine.isStopRequested ? nil : $0.machine.finalError }) { throw error }
    }

    /// Loses the connection the way a killed process does: the socket closes at once, without the
    /// Deadvertise and without DISCONNECT, so the broker publishes the last will. The agent does not
    /// reconnect: ``run()`` returns and every observation and request ends. The `demo` command shows
    /// the last will with it. The connections of its responder groups close the same way.
    package func closeConnectionAbruptly() {
        // The groups' sockets first, so the broker has left this agent out of its groups by the last will.
        responderGroups.closeAbruptly()
        client.close()
    }

    /// Creates the transport configuration: client id, will, credentials and TLS from the agent's.
    static func clientConfiguration(
        _ configuration: Configuration, joinPlan: JoinPlan
    ) throws -> MosquittoClient.Configuration {
        let broker: BrokerURL
        do {
            broker = try BrokerURL(configuration.broker.url)
        } catch {
            throw AgentError(code: .invalidConfiguration, detail: "\(error)")
        }
        let settings = configuration.broker
        let tls = MosquittoClient.TLS(
            caFile: settings.tls.caFile, certificateFile: settings.tls.certificateFile, keyFile: settings.tls.keyFile,
            skipsHostnameVerification: settings.tls.allowsInsecureConnection,
            skipsCertificateVerification: settings.tls.allowsInsecureConnection)
        let will = MosquittoClient.Will(
            topic: joinPlan.lastWill.topic, payload: joinPlan.lastWill.payload, qos: .atMostOnce, retain: false)
        return MosquittoClient.Configuration(
            clientID: joinPlan.clientID, broker: broker, cleanSession: true,
            protocolVersion: settings.protocolVersion, keepAlive: settings.keepAlive,
            credentials: settings.username.map { MosquittoClient.Credentials(username: $0, password: settings.password) },
            tls: tls, will: will, eventBufferSize: max(configuration.inboundBufferSize, 1),
            usesTCPQuickAck: settings.usesLowLatencySocket, usesTCPNoDelay: settings.usesLowLatencySocket)
    }
}

/// Where an agent's connection stands.
public enum ConnectionState: Sendable, Hashable {
    /// Not started yet.
    case idle
    /// Connecting for the first time.
    case connecting
    /// Connected, subscribed, identity advertised.
    case online
    /// Lost the connection (or could not get it) and retrying.
    case offline
    /// Stopping or stopped.
    case stopped
}
