public import CoreTypes
public import Logging
import Synchronization

/// Publishes the values of the agent's IO sources while a router has associated them, paced by
/// each source's update strategy and the rate the router recommends, as coaty-js's
/// `IoSourceController` does (see `IoSourceBackpressureStrategy`).
///
/// ```swift
/// let sources = IoSourceController(agent: agent)
/// try sources.publish(.json(21.5), from: thermometerID)   // dropped while not associated
/// ```
public final class IoSourceController: Controller, TaskRunningController {
    /// The agent whose IO sources this controller publishes for.
    public let agent: Agent
    let logger: Logger
    let tasks = ControllerTasks()
    private let time: ElapsedTime
    private let pacers: Mutex<[String: Pacing]>
    private let associations: IoPointWatch<Bool>
    private let rates: IoPointWatch<Double?>

    private struct Pacing {
        var pacer = IoSourcePacer()
        var timer: Task<Void, Never>?
    }

    /// Creates a controller for the IO sources of `agent`.
    public convenience init(agent: Agent, logger: Logger = Logger.current) {
        self.init(agent: agent, clock: ContinuousClock(), logger: logger)
    }

    /// Creates a controller for the IO sources of `agent` whose sampling and throttling run on
    /// `clock` (tests pass a clock they advance themselves).
    public init<C: Clock<Duration>>(agent: Agent, clock: C, logger: Logger = Logger.current) {
        self.agent = agent
        self.logger = logger
        self.time = ElapsedTime(clock)
        var pacers: [String: Pacing] = [:]
        for sourceID in agent.io.sources.keys { pacers[sourceID] = Pacing() }
        self.pacers = Mutex(pacers)
        associations = IoPointWatch(agent.io.sources.mapValues { _ in false })
        rates = IoPointWatch(agent.io.sources.mapValues { _ in nil })
    }

    /// Follows the state of every IO source of the agent from before it connects.
    public func initialize() async throws {
        for sourceID in agent.io.sources.keys.sorted() {
            tasks.add { [self] in
                do {
                    try await agent.observeIoState(of: sourceID) { states in
                        for try await state in states { apply(state, to: sourceID) }
                    }
                } catch {}
            }
        }
    }

    /// Ends the pacing of every source.
    public func willStop() async throws {
        tasks.finish()
        associations.finish()
        rates.finish()
        let timers = pacers.withLock { pacers in pacers.values.compactMap(\.timer) }
        for timer in timers { timer.cancel() }
    }

    /// Publishes `value` from the agent's IO source `sourceID`, paced by its update strategy;
    /// dropped while the source is not associated (as in coaty-js).
    ///
    /// - Throws: ``AgentError`` with code `AgentError.Code.invalidEvent` when `sourceID` is not an IO
    ///   source of the agent or `value` does not fit its `useRawIoValues`.
    public func publish(_ value: IoValue, from sourceID: String) throws {
        guard agent.io.sources[sourceID] != nil else {
            throw AgentError(code: .invalidEvent, detail: "'\(sourceID)' is not an IO source of this agent")
        }
        try carryOut(pacers.withLock { $0[sourceID]?.pacer.value(value, now: now) ?? [] }, for: sourceID)
    }

    /// Whether a router has associated the source now.
    public func isAssociated(_ sourceID: String) -> Bool {
        associations.latest(of: sourceID) ?? false
    }

    /// The update rate (milliseconds) the router recommends for the source now.
    public func updateRate(of sourceID: String) -> Double? {
        rates.latest(of: sourceID) ?? nil
    }

    /// Observes whether the source is associated while `body` runs: now, then at each change.
    public func observeAssociation<Result>(
        of sourceID: String, isolation: isolated (any Actor)? = #isolation,
        _ body: (AsyncStream<Bool>) async throws -> Result
    ) async rethrows -> Result {
        try await associations.watch(sourceID, body)
    }

    /// Observes the update rate the router recommends for the source while `body` runs: now, then at
    /// each change (`nil`: none).
    public func observeUpdateRate<Result>(
        of sourceID: String, isolation: isolated (any Actor)? = #isolation,
        _ body: (AsyncStream<Double?>) async throws -> Result
    ) async rethrows -> Result {
        try await rates.watch(sourceID, body)
    }

    private var now: Duration { time.now() }

    private func apply(_ state: IoState, to sourceID: String) {
        let strategy = agent.io.sources[sourceID]?.updateStrategy
        let (actions, oldTimer) = pacers.withLock { pacers -> ([IoSourcePacer.Action], Task<Void, Never>?) in
            guard var pacing = pacers[sourceID], pacing.pacer.isNew(state) else { return ([], nil) }
            let oldTimer = pacing.timer
            pacing.timer = nil
            let actions = pacing.pacer.update(state, strategy: strategy, now: now)
            pacers[sourceID] = pacing
            return (actions, oldTimer)
        }
        oldTimer?.cancel()
        associations.set(state.hasAssociations, for: sourceID, onlyChanges: true)
        rates.set(state.updateRate, for: sourceID, onlyChanges: true)
        do {
            try carryOut(actions, for: sourceID)
        } catch {
            logger.debug("IO value not published", metadata: ["coaty.ioSource": "\(sourceID)", "error": "\(error)"])
        }
    }

    private func carryOut(_ actions: [IoSourcePacer.Action], for sourceID: String) throws {
        for action in actions {
            switch action {
            case .publish(let value):
                try agent.publishIoValue(value, from: sourceID)
            case .wake(let at):
                let timer = Task { [weak self] in
                    guard let self else { return }
                    do {
                        try await time.sleep(until: at)
                    } catch {
                        return
                    }
                    tick(sourceID)
                }
                let old = pacers.withLock { pacers -> Task<Void, Never>? in
                    defer { pacers[sourceID]?.timer = timer }
                    return pacers[sourceID]?.timer
                }
                old?.cancel()
            }
        }
    }

    private func tick(_ sourceID: String) {
        let actions = pacers.withLock { $0[sourceID]?.pacer.tick(now: now) ?? [] }
        do {
            try carryOut(actions, for: sourceID)
        } catch {
            logger.debug("IO value not published", metadata: ["coaty.ioSource": "\(sourceID)", "error": "\(error)"])
        }
    }
}
