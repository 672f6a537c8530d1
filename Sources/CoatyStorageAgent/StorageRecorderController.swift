public import Agent
public import CoatyStorage
public import CoreTypes
public import Logging
import ServiceLifecycle
import Synchronization

/// Records the objects of chosen types that the network advertises, updates and sends on
/// channels into an `ObjectStore` collection, removes them when they are
/// deadvertised, and (with ``Options/answers``) answers Discovers and Queries from the store.
///
/// ```swift
/// let backend = try SQLiteBackend(path: "/var/lib/coaty/recorder.db")
/// let options = StorageRecorderController.Options(objectTypes: ["com.example.Light"], coreTypes: [.task])
/// let components = Components(controllers: [.storageRecorder(backend: backend, options: options)])
/// ```
///
/// - An Advertise, an Update or a Channel event stores each object it carries whose object type
///   is in ``Options/objectTypes`` or whose core type is in ``Options/coreTypes``, replacing a
///   stored object with the same id. A Deadvertise removes the objects it names. Events are
///   written one transaction each, in the order they arrive; the recorder sends no Complete.
/// - With ``Options/answers``, a Discover is resolved (one Resolve per object) and a Query
///   answered (one Retrieve, with its filter, ordering, paging and join conditions resolved in
///   the same collection) from what the store holds; nothing is answered when nothing matches.
///
/// **What a crash can lose.** An event is answered for, and counted as recorded, only once its
/// transaction has been committed; a committed write survives the process being killed
/// (SQLite's WAL is on disk). A SIGKILL loses what was received but not yet committed: the events
/// waiting in the recorder's observer buffer (at most the agent's
/// `Agent/Configuration/observerBufferSize`) and the one being written, plus what the broker and
/// the TCP connection held for the agent (Coaty events are QoS 0 and not delivered again). A
/// graceful shutdown stops recording at once and loses the same.
///
/// **When the database fails** (`StorageError.Code.databaseFailed`: a PostgreSQL server
/// restarting, a full disk) the recorder logs a warning and writes the same event again after a
/// delay that doubles from 100 ms up to ``Options/maxRetryDelay``, until it succeeds: it never
/// skips an event it could not store. Meanwhile later events wait in the observer buffer and then
/// in the broker (the agent stops reading while the buffer is full). Any other storage error ends
/// the controller (and so the container).
public final class StorageRecorderController: Controller {
    /// What the recorder stores and whether it answers.
    public struct Options: Sendable, Hashable {
        /// The collection the objects are stored in; `"objects"` by default.
        public var collection: String
        /// The object types whose objects are recorded.
        public var objectTypes: Set<String>
        /// The core types whose objects are recorded.
        public var coreTypes: Set<CoreType>
        /// Whether Discovers and Queries are answered from the store.
        public var answers: Bool
        /// The longest wait before writing an event again after the database failed; 5 s by default.
        public var maxRetryDelay: Duration = .seconds(5)

        /// Creates options; with no types the recorder records nothing (and may still answer).
        public init(
            collection: String = "objects", objectTypes: Set<String> = [], coreTypes: Set<CoreType> = [],
            answers: Bool = false
        ) {
            self.collection = collection
            self.objectTypes = objectTypes
            self.coreTypes = coreTypes
            self.answers = answers
        }

        /// Whether objects of `object`'s types are recorded.
        public func records(_ object: any CoatyObject) -> Bool {
            coreTypes.contains(object.coreType) || objectTypes.contains(object.objectType)
        }

        /// Whether anything is recorded at all.
        var recordsAnything: Bool { !objectTypes.isEmpty || !coreTypes.isEmpty }
    }

    /// The agent that observes and answers.
    public let agent: Agent
    /// Where the objects are stored.
    public let store: ObjectStore
    /// What is recorded and answered.
    public let options: Options
    let logger: Logger
    private let retry: WriteRetry
    private let streams = Mutex<Streams?>(nil)

    /// The observations made in ``initialize()``, consumed by ``run()``.
    private struct Streams: Sendable {
        var events: EventStream<CoatyMessage>?
        var discovers: EventStream<IncomingRequest<Discover>>?
        var queries: EventStream<IncomingRequest<Query>>?
    }

    /// Creates a recorder for `agent` storing in `store`; `clock` times the waits before a write is
    /// tried again.
    public init(
        agent: Agent, store: ObjectStore, options: Options, logger: Logger = Logger.current,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.agent = agent
        self.store = store
        self.options = options
        self.logger = logger
        retry = WriteRetry(clock: clock, maxDelay: options.maxRetryDelay, logger: logger)
    }

    /// Creates the collection and starts observing before the agent connects, so no event of the
    /// first connection is missed.
    ///
    /// - Throws: `StorageError` when the collection cannot be created.
    public func initialize() async throws {
        try await store.addCollection(options.collection)
        var observed = Streams()
        if options.recordsAnything { observed.events = try await agent.observeAllEvents() }
        if options.answers {
            observed.discovers = try await agent.observeDiscover()
            observed.queries = try await agent.observeQuery()
        }
        streams.withLock { $0 = observed }
    }

    /// Records and answers until the container stops.
    ///
    /// - Throws: `StorageError` when an event cannot be stored.
    public func run() async throws {
        guard let observed = streams.withLock({ $0 }) else { return }
        try await withThrowingDiscardingTaskGroup { group in
            if let events = observed.events {
                group.addTask { try await self.record(events) }
            }
            if let discovers = observed.discovers {
                group.addTask { try await self.answer(discovers) { try await self.resolve($0) } }
            }
            if let queries = observed.queries {
                group.addTask { try await self.answer(queries) { try await self.retrieve($0) } }
            }
        }
    }

    /// Stores or removes what each event says, one committed transaction per event.
    private func record(_ events: EventStream<CoatyMessage>) async throws {
        var count = 0
        do {
            for try await message in events.cancelOnGracefulShutdown() {
                let change: StoreChange?
                do {
                    change = try StoreChange(
                        message, registry: agent.registry, includesChannels: true, accepts: options.records)
                } catch {
                    logger.debug(
                        "Not recorded: invalid payload",
                        metadata: ["mqtt.topic": "\(message.topic)", "error": "\(error)"])
                    continue
                }
                guard let change else { continue }
                let stored = try await retry.run("the \(message.topic.eventType) event") {
                    try await change.apply(to: store, in: options.collection)
                }
                guard stored else { return }
                count += 1
                logger.trace(
                    "Recorded", metadata: ["storage.count": "\(count)", "coaty.event": "\(message.topic.eventType)"])
            }
        } catch let error as AgentError where error.code == .stopped {
            return  // the agent stopped: nothing more arrives
        }
    }

    /// Answers each request with `respond` until the container stops.
    private func answer<Request: RequestEvent>(
        _ requests: EventStream<IncomingRequest<Request>>,
        _ respond: @Sendable (IncomingRequest<Request>) async throws -> Void
    ) async throws {
        try await requests.answerEach(logger: logger, respond)
    }
}

extension ControllerComponent {
    /// A ``StorageRecorderController`` storing in `backend` (decoding with the container's object
    /// types).
    public static func storageRecorder(
        name: String = "StorageRecorderController", backend: some StorageBackend,
        options: StorageRecorderController.Options
    ) -> ControllerComponent {
        ControllerComponent(name: name) { context in
            StorageRecorderController(
                agent: context.agent, store: ObjectStore(backend: backend, registry: context.agent.registry),
                options: options, logger: context.logger)
        }
    }
}
