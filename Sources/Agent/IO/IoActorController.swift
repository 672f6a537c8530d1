public import CoreTypes
public import Logging

/// The IO values and associations of the agent's IO actors, as coaty-js's `IoActorController`
/// keeps them: a new observer of an actor's values gets the last one first, then every value
/// that arrives, from every source associated with it.
///
/// ```swift
/// try await actors.observeIoValue(of: displayID) { values in
///     for await value in values { show(value) }
/// }
/// ```
public final class IoActorController: Controller, TaskRunningController {
    /// The agent whose IO actors this controller follows.
    public let agent: Agent
    let logger: Logger
    let tasks = ControllerTasks()
    private let associations: IoPointWatch<Bool>
    private let values = IoPointWatch<IoValue>()

    /// Creates a controller for the IO actors of `agent`.
    public init(agent: Agent, logger: Logger = Logger.current) {
        self.agent = agent
        self.logger = logger
        associations = IoPointWatch(agent.io.actors.mapValues { _ in false })
    }

    /// Follows the states and values of every IO actor of the agent from before it connects.
    public func initialize() async throws {
        for actorID in agent.io.actors.keys.sorted() {
            tasks.add { [self] in
                do {
                    try await agent.observeIoState(of: actorID) { states in
                        for try await state in states {
                            associations.set(state.hasAssociations, for: actorID, onlyChanges: true)
                        }
                    }
                } catch {}
            }
            tasks.add { [self] in
                do {
                    try await agent.observeIoValue(ofActor: actorID) { arriving in
                        for try await value in arriving { values.set(value, for: actorID, onlyChanges: false) }
                    }
                } catch {}
            }
        }
    }

    /// Ends the observations.
    public func willStop() async throws {
        tasks.finish()
        associations.finish()
        values.finish()
    }

    /// Whether a router has associated the actor now.
    public func isAssociated(_ actorID: String) -> Bool {
        associations.latest(of: actorID) ?? false
    }

    /// The last value the actor received, if any.
    public func lastValue(of actorID: String) -> IoValue? {
        values.latest(of: actorID)
    }

    /// Observes whether the actor is associated while `body` runs: now, then at each change.
    public func observeAssociation<Result>(
        of actorID: String, isolation: isolated (any Actor)? = #isolation,
        _ body: (AsyncStream<Bool>) async throws -> Result
    ) async rethrows -> Result {
        try await associations.watch(actorID, body)
    }

    /// Observes the actor's values while `body` runs: the last one (if any), then every one that
    /// arrives. The values end when the controller stops.
    public func observeIoValue<Result>(
        of actorID: String, isolation: isolated (any Actor)? = #isolation,
        _ body: (AsyncStream<IoValue>) async throws -> Result
    ) async rethrows -> Result {
        try await values.watch(actorID, body)
    }
}

extension ControllerComponent {
    /// An ``IoSourceController`` for the agent's IO sources, pacing them on `clock`.
    public static func ioSources(
        name: String = "IoSourceController", clock: some Clock<Duration> = ContinuousClock()
    ) -> ControllerComponent {
        ControllerComponent(name: name) { IoSourceController(agent: $0.agent, clock: clock, logger: $0.logger) }
    }

    /// An ``IoActorController`` for the agent's IO actors.
    public static func ioActors(name: String = "IoActorController") -> ControllerComponent {
        ControllerComponent(name: name) { IoActorController(agent: $0.agent, logger: $0.logger) }
    }
}
