public import CoreTypes
public import Logging
import Synchronization

/// Resolves objects by id through Discover and keeps them: later resolutions are answered from
/// the cache, which Advertise events refresh and Deadvertise events (and last wills) clear.
///
/// ```swift
/// let cache = try #require(container.controller(ObjectCacheController.self))
/// let lamp = try await cache.resolve(objectID: lampID)                           // Discover, then cached
/// let fresh = try await cache.resolve(objectID: lampID, policy: .networkFirst)   // Discover again
/// ```
///
/// Entries live for ``Options/timeToLive`` after they were resolved or refreshed (for ever when
/// `nil`). Once an object of a core type is cached, the controller follows the Advertise events
/// of that core type: a re-advertised cached object replaces its entry. The refresh loops run
/// inside the controller's ``Controller/run()`` (the container runs it).
public final class ObjectCacheController: Controller, TaskRunningController {
    /// Where a resolution looks first.
    public struct Policy: Sendable, Hashable, CustomStringConvertible, Decodable {
        private enum Base: String, Sendable, Hashable {
            case localFirst, networkFirst
        }
        private let base: Base

        /// A fresh cached object answers at once; otherwise a Discover asks the network.
        public static let localFirst = Policy(base: .localFirst)
        /// A Discover asks the network; a fresh cached object answers only when nobody resolves it in time.
        public static let networkFirst = Policy(base: .networkFirst)

        private init(base: Base) {
            self.base = base
        }

        /// Decodes `"localFirst"` or `"networkFirst"`.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let name = try container.decode(String.self)
            guard let base = Base(rawValue: name) else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription: "'\(name)' is not 'localFirst' or 'networkFirst'"))
            }
            self.base = base
        }

        /// `localFirst` or `networkFirst`.
        public var description: String { base.rawValue }
    }

    /// The options of an ``ObjectCacheController``.
    public struct Options: Sendable, Decodable {
        /// How long an entry answers after it was resolved or refreshed; `nil` (the default) until
        /// it is deadvertised (JSON: seconds, or `null`).
        public var timeToLive: Duration?
        /// The policy of resolutions that do not name one (JSON: `"localFirst"` or `"networkFirst"`).
        public var policy: Policy
        /// How long a Discover waits for a Resolve (JSON: seconds).
        public var discoverTimeout: Duration

        /// Creates options.
        public init(timeToLive: Duration? = nil, policy: Policy = .localFirst, discoverTimeout: Duration = .seconds(5))
        {
            self.timeToLive = timeToLive
            self.policy = policy
            self.discoverTimeout = discoverTimeout
        }

        private enum CodingKeys: String, CodingKey {
            case timeToLive, policy, discoverTimeout
        }

        /// Decodes `{"timeToLive": seconds, "policy": "localFirst", "discoverTimeout": seconds}`;
        /// missing members keep their defaults.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init()
            let path = container.codingPath
            if let seconds = try container.decodeIfPresent(Double.self, forKey: .timeToLive) {
                timeToLive = try ObjectLifecycleController.Options.duration(
                    seconds: seconds, at: path + [CodingKeys.timeToLive])
            }
            policy = try container.decodeIfPresent(Policy.self, forKey: .policy) ?? .localFirst
            if let seconds = try container.decodeIfPresent(Double.self, forKey: .discoverTimeout) {
                discoverTimeout = try ObjectLifecycleController.Options.duration(
                    seconds: seconds, at: path + [CodingKeys.discoverTimeout])
            }
        }
    }

    private struct State {
        var cache: ObjectCache
        var followsDeadvertise = false
        /// Told the ids of entries that Advertise events refreshed or Deadvertise events removed (tests use it).
        var updateObservers: [AsyncStream<String>.Continuation] = []
    }

    /// The agent that discovers and observes.
    public let agent: Agent
    /// The controller's options.
    public let options: Options
    let logger: Logger
    let tasks = ControllerTasks()
    private let state: Mutex<State>

    /// Creates a cache for `agent`.
    public init(agent: Agent, options: Options = Options(), logger: Logger = Logger.current) {
        self.agent = agent
        self.options = options
        self.logger = logger
        self.state = Mutex(State(cache: ObjectCache(timeToLive: options.timeToLive)))
    }

    /// How many objects the cache holds (fresh or not).
    public var count: Int { state.withLock { $0.cache.entries.count } }

    /// The cached object with this id, if its entry is still fresh; never asks the network.
    public func cachedObject(objectID: String) -> (any CoatyObject)? {
        state.withLock { $0.cache.freshObject(objectID, at: .now) }
    }

    /// Forgets the object with this id.
    public func removeObject(objectID: String) {
        state.withLock { _ = $0.cache.remove([objectID]) }
    }

    /// The object with this id, from the cache or the network as `policy` (default:
    /// ``Options/policy``) says; a Discover waits `timeout` (default: ``Options/discoverTimeout``).
    ///
    /// - Throws: ``AgentError`` with code `AgentError.Code.responseTimedOut` when nobody resolved
    ///   the id in time and no fresh entry has it, `AgentError.Code.stopped` when the agent stopped.
    public func resolve(objectID: String, policy: Policy? = nil, timeout: Duration? = nil) async throws
        -> any CoatyObject
    {
        let policy = policy ?? options.policy
        let timeout = timeout ?? options.discoverTimeout
        if policy == .localFirst, let cached = cachedObject(objectID: objectID) { return cached }
        do {
            let resolve = try await agent.discover(Discover(objectID: objectID), timeout: timeout).first()
            guard let object = resolve.event.object else {
                throw AgentError(code: .invalidEvent, detail: "the Resolve for \(objectID) carries no object")
            }
            try await store(object)
            return object
        } catch let error as AgentError where error.code == .responseTimedOut {
            if policy == .networkFirst, let cached = cachedObject(objectID: objectID) { return cached }
            throw AgentError(
                code: .responseTimedOut,
                detail:
                    "object \(objectID) was not resolved within \(timeout) and is not in the cache; "
                    + "check that the agent holding it is online in this namespace")
        }
    }

    /// The ids of entries refreshed by Advertise events or removed by Deadvertise events from now on.
    func updates() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        state.withLock { $0.updateObservers.append(continuation) }
        return stream
    }

    /// Stores a resolved object, and makes sure its core type's Advertises and all Deadvertises are followed.
    private func store(_ object: any CoatyObject) async throws {
        let (newCoreType, needsDeadvertise) = state.withLock { state in
            _ = state.cache.removeExpired(at: .now)
            let coreType = state.cache.store(object, at: .now)
            defer { state.followsDeadvertise = true }
            return (coreType, !state.followsDeadvertise)
        }
        if needsDeadvertise {
            let deadvertised = try await agent.observeDeadvertise()
            tasks.add { [self] in
                // The cache stops following when the agent stops (the stream throws `stopped`).
                try? await deadvertised.forEachEvent { event in
                    self.state.withLock { state in
                        for id in state.cache.remove(event.event.objectIDs) {
                            state.updateObservers.forEach { $0.yield(id) }
                        }
                    }
                }
            }
        }
        if let coreType = newCoreType {
            let advertised = try await agent.observeAdvertise(coreType: coreType)
            tasks.add { [self] in
                try? await advertised.forEachEvent { event in
                    self.state.withLock { state in
                        guard state.cache.refresh(event.event.object, at: .now) else { return }
                        state.updateObservers.forEach { $0.yield(event.event.object.objectID) }
                    }
                }
            }
        }
    }
}
