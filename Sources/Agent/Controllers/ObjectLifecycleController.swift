public import CoreTypes
public import Logging

/// Tracks which agents and which objects of a type are there: which joined, changed and left.
///
/// Each observation keeps its own set of objects. It discovers the objects that are already
/// there (a Discover by type once the agent is online), then follows Advertise events (a new
/// object is ``ObjectLifecycleEvent/added(_:)``, a re-advertised object with different content
/// ``ObjectLifecycleEvent/changed(_:)``) and Deadvertise events, including the last wills of
/// agents that died: the deadvertised objects, and every tracked object that belongs to one of
/// them through `parentObjectId`, are ``ObjectLifecycleEvent/removed(_:)``.
///
/// ```swift
/// for try await event in try await lifecycle.observeAgents() {
///     switch event {
///     case .added(let agent): logger.info("Joined", metadata: ["agent": "\(agent.name)"])
///     case .changed(let agent): logger.info("Changed", metadata: ["agent": "\(agent.name)"])
///     case .removed(let agent): logger.info("Left", metadata: ["agent": "\(agent.name)"])
///     }
/// }
/// ```
///
/// The observations run inside the controller's ``Controller/run()`` (the container runs it); they end
/// when the consumer stops iterating, when the controller stops, or when the agent stops.
public final class ObjectLifecycleController: Controller, TaskRunningController {
    /// The options of an ``ObjectLifecycleController``.
    public struct Options: Sendable, Decodable {
        /// How long the initial Discover of an observation collects Resolves (JSON: seconds).
        public var discoverTimeout: Duration

        /// Creates options.
        public init(discoverTimeout: Duration = .seconds(5)) {
            self.discoverTimeout = discoverTimeout
        }

        private enum CodingKeys: String, CodingKey {
            case discoverTimeout
        }

        /// Decodes `{"discoverTimeout": seconds}`; a missing member keeps its default.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init()
            if let seconds = try container.decodeIfPresent(Double.self, forKey: .discoverTimeout) {
                discoverTimeout = try Self.duration(
                    seconds: seconds, at: container.codingPath + [CodingKeys.discoverTimeout])
            }
        }

        static func duration(seconds: Double, at path: [any CodingKey]) throws -> Duration {
            guard seconds.isFinite, seconds > 0 else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: path, debugDescription: "must be a positive number of seconds"))
            }
            return .milliseconds(Int64((seconds * 1000).rounded()))
        }
    }

    /// The agent the observations use.
    public let agent: Agent
    /// The controller's options.
    public let options: Options
    let logger: Logger
    let tasks = ControllerTasks()

    /// Creates a controller for `agent`.
    public init(agent: Agent, options: Options = Options(), logger: Logger = Logger.current) {
        self.agent = agent
        self.options = options
        self.logger = logger
    }

    /// Observes the agents of the network (their identities), this one included.
    ///
    /// - Throws: ``AgentError`` with code `AgentError.Code.stopped` when the agent or the controller stopped.
    package func observeAgents() async throws -> EventStream<ObjectLifecycleEvent> {
        try await events(coreType: .identity)
    }

    /// Observes the agents of the network (their identities), this one included, while `body` runs.
    ///
    /// ```swift
    /// try await lifecycle.observeAgents { events in
    ///     for try await event in events { logger.info("\(event.kind)", metadata: ["name": "\(event.object.name)"]) }
    /// }
    /// ```
    ///
    /// - Throws: ``AgentError`` with code `AgentError.Code.stopped` when the agent or the controller stopped.
    public func observeAgents<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: (EventStream<ObjectLifecycleEvent>) async throws -> Result
    ) async throws -> Result {
        try await agent.observing(try await observeAgents(), body)
    }

    /// Observes the objects of a core type that satisfy `isIncluded` while `body` runs.
    ///
    /// - Throws: ``AgentError`` with code `AgentError.Code.stopped` when the agent or the controller stopped.
    public func observe<Result>(
        coreType: CoreType, where isIncluded: @escaping @Sendable (any CoatyObject) -> Bool = { _ in true },
        isolation: isolated (any Actor)? = #isolation, _ body: (EventStream<ObjectLifecycleEvent>) async throws -> Result
    ) async throws -> Result {
        try await agent.observing(try await events(coreType: coreType, where: isIncluded), body)
    }

    /// Observes the objects of an object type that satisfy `isIncluded` while `body` runs.
    ///
    /// - Throws: ``AgentError`` with code `AgentError.Code.invalidEvent` for an invalid object
    ///   type, `AgentError.Code.stopped` when the agent or the controller stopped.
    public func observe<Result>(
        objectType: String, where isIncluded: @escaping @Sendable (any CoatyObject) -> Bool = { _ in true },
        isolation: isolated (any Actor)? = #isolation, _ body: (EventStream<ObjectLifecycleEvent>) async throws -> Result
    ) async throws -> Result {
        try await agent.observing(try await events(objectType: objectType, where: isIncluded), body)
    }

    /// Observes the objects of a core type that satisfy `isIncluded`.
    ///
    /// - Throws: ``AgentError`` with code `AgentError.Code.stopped` when the agent or the controller stopped.
    package func events(
        coreType: CoreType, where isIncluded: @escaping @Sendable (any CoatyObject) -> Bool = { _ in true }
    ) async throws -> EventStream<ObjectLifecycleEvent> {
        try await observe(
            advertise: try await agent.observeAdvertise(coreType: coreType), discover: Discover(coreTypes: [coreType]),
            isIncluded: isIncluded)
    }

    /// Observes the objects of an object type that satisfy `isIncluded`.
    ///
    /// - Throws: ``AgentError`` with code `AgentError.Code.invalidEvent` for an invalid object
    ///   type, `AgentError.Code.stopped` when the agent or the controller stopped.
    package func events(
        objectType: String, where isIncluded: @escaping @Sendable (any CoatyObject) -> Bool = { _ in true }
    ) async throws -> EventStream<ObjectLifecycleEvent> {
        try await observe(
            advertise: try await agent.observeAdvertise(objectType: objectType),
            discover: Discover(objectTypes: [objectType]), isIncluded: isIncluded)
    }

    private enum Input: Sendable {
        case seen(any CoatyObject)
        case deadvertised([String])
        /// An observation ended abnormally (the agent stopped, a subscription was refused).
        case failed(AgentError)
    }

    private func observe(
        advertise: EventStream<Received<Advertise>>, discover: Discover,
        isIncluded: @escaping @Sendable (any CoatyObject) -> Bool
    ) async throws -> EventStream<ObjectLifecycleEvent> {
        let deadvertise = try await agent.observeDeadvertise()
        let output = agent.makeObserverQueue(of: ObjectLifecycleEvent.self)
        let (terminated, terminate) = AsyncStream.makeStream(of: Void.self)
        output.setOnTermination { _ in terminate.finish() }
        let agent = self.agent
        let counters = agent.counters
        let timeout = options.discoverTimeout
        let added = tasks.add {
            await race(
                {
                    let (inputs, input) = AsyncStream.makeStream(of: Input.self)
                    await withDiscardingTaskGroup { group in
                        group.addTask {
                            let failure = await forward(advertise, to: input) { received in
                                isIncluded(received.event.object) ? .seen(received.event.object) : nil
                            }
                            if let failure { input.yield(.failed(failure)) }
                            input.finish()
                        }
                        group.addTask {
                            let failure = await forward(deadvertise, to: input) { .deadvertised($0.event.objectIDs) }
                            if let failure { input.yield(.failed(failure)) }
                            input.finish()
                        }
                        group.addTask {
                            // The initial Discover is best effort: a stop also ends the two observations
                            // above, which report it.
                            do {
                                for await state in agent.connectionStates() where state == .online { break }
                                for try await resolve in try await agent.discover(discover, timeout: timeout) {
                                    if let object = resolve.event.object, isIncluded(object) { input.yield(.seen(object)) }
                                }
                            } catch {}
                        }
                        var tracker = ObjectLifecycleTracker()
                        reading: for await next in inputs {
                            switch next {
                            case .failed(let error):
                                output.finish(failure: error)
                                break reading
                            case .seen(let object):
                                if let event = tracker.saw(object) { counters.count(output.yield(event)) }
                            case .deadvertised(let ids):
                                for event in tracker.deadvertised(ids) { counters.count(output.yield(event)) }
                            }
                        }
                        group.cancelAll()
                    }
                }, until: terminated)
            output.finish()
        }
        guard added else {
            output.finish()
            throw AgentError(
                code: .stopped, detail: "the ObjectLifecycleController has stopped; no observation was made")
        }
        return EventStream(queue: output, pressure: agent.client.readPressure)
    }

}
