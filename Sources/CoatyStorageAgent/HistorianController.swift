public import Agent
public import CoatyStorage
public import CoreTypes
public import Logging
import ServiceLifecycle
import Synchronization

/// Takes snapshots of objects (a copy, the parent object id, the creator id, a timestamp, tags),
/// keeps them in an `ObjectStore` collection and answers Queries for them: coaty-js's
/// `HistorianController`.
///
/// ```swift
/// let options = HistorianController.Options(persistsLocalSnapshots: true, answersQueries: true)
/// let backend = try SQLiteBackend(path: "/var/lib/coaty/historian.db")
/// let container = try Container(
///     components: Components(controllers: [.historian(backend: backend, options: options)]),
///     configuration: configuration)
/// let historian = container.controller(HistorianController.self)
/// let snapshot = try await historian?.takeSnapshot(of: lamp, tags: ["hourly"])
/// ```
///
/// - ``takeSnapshot(of:tags:at:)`` snapshots a local object. With
///   ``Options/persistsLocalSnapshots`` the snapshot is stored, and with
///   ``Options/advertisesSnapshots`` advertised; when both, the Advertise goes out only once the
///   store has committed it, so whoever sees it can query it.
/// - The objects of ``Options/observedObjectTypes`` or ``Options/observedCoreTypes`` that
///   Advertise, Update and Channel events carry are snapshotted the same way, in arrival order,
///   tagged ``Options/observedTags``.
/// - With ``Options/persistsObservedSnapshots``, the snapshots other agents advertise are stored
///   (this agent's own are local ones).
/// - With ``Options/answersQueries``, a Query whose core types include `Snapshot` is answered
///   with one Retrieve of the stored snapshots its filter keeps (ordering and paging included),
///   empty when none match.
///
/// Timestamps are milliseconds since the Unix epoch, as `Snapshot/creationTimestamp` is. When the
/// database fails (`StorageError.Code.databaseFailed`) while an observed object's snapshot or an
/// observed snapshot is stored, the historian logs a warning and stores it again after a delay
/// that doubles from 100 ms up to ``Options/maxRetryDelay``, as the recorder does (later events
/// wait meanwhile); other storage errors end the controller (and so the container).
/// ``takeSnapshot(of:tags:at:)`` throws the error to its caller instead.
public final class HistorianController: Controller {
    /// The agent that observes, advertises and answers; its identity is every snapshot's creator.
    public let agent: Agent
    /// Where the snapshots are stored.
    public let store: ObjectStore
    /// What is persisted, advertised, snapshotted and answered.
    public let options: Options
    let logger: Logger
    private let now: @Sendable () -> Double
    let retry: WriteRetry
    private let streams = Mutex<Streams?>(nil)

    /// The observations made in ``initialize()``, consumed by ``run()``.
    private struct Streams: Sendable {
        var events: EventStream<CoatyMessage>?
        var advertisedSnapshots: EventStream<Received<Advertise>>?
        var queries: EventStream<IncomingRequest<Query>>?
    }

    /// Creates a historian for `agent` storing in `store`; `now` gives the time of each snapshot
    /// (the wall clock by default; tests pass a fixed one), `clock` times the waits before a
    /// failed write is tried again.
    public init(
        agent: Agent, store: ObjectStore, options: Options, logger: Logger = Logger.current,
        now: @escaping @Sendable () -> Double = HistorianController.currentTimestamp,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.agent = agent
        self.store = store
        self.options = options
        self.logger = logger
        self.now = now
        retry = WriteRetry(clock: clock, maxDelay: options.maxRetryDelay, logger: logger)
    }

    /// The current time in milliseconds since the Unix epoch, as JavaScript's `Date.now()`.
    public static func currentTimestamp() -> Double {
        WallClock.millisecondsSinceEpoch()
    }

    /// Creates the collection and starts observing before the agent connects, so no event of the
    /// first connection is missed.
    ///
    /// - Throws: `ContainerError` with code `ContainerError.Code.invalidOptions` for an empty
    ///   observed tag; `StorageError` when the collection cannot be created.
    public func initialize() async throws {
        guard !options.observedTags.contains("") else {
            throw ContainerError(
                code: .invalidOptions,
                detail:
                    "HistorianController's observed tags \(options.observedTags) hold an empty one; give non-empty tags"
            )
        }
        try await store.addCollection(options.collection)
        var observed = Streams()
        if options.snapshotsObservedObjects {
            observed.events = try await agent.observeAllEvents()
        } else if options.persistsObservedSnapshots {
            observed.advertisedSnapshots = try await agent.observeAdvertise(coreType: .snapshot)
        }
        if options.answersQueries { observed.queries = try await agent.observeQuery() }
        streams.withLock { $0 = observed }
    }

    /// Snapshots, stores and answers until the container stops.
    ///
    /// - Throws: `StorageError` when a snapshot cannot be stored.
    public func run() async throws {
        guard let observed = streams.withLock({ $0 }) else { return }
        try await withThrowingDiscardingTaskGroup { group in
            if let events = observed.events {
                group.addTask { try await self.snapshotObserved(events) }
            }
            if let advertised = observed.advertisedSnapshots {
                group.addTask { try await self.persistAdvertised(advertised) }
            }
            if let queries = observed.queries {
                group.addTask { try await queries.answerEach(logger: self.logger) { try await self.retrieve($0) } }
            }
        }
    }

    /// Takes a snapshot of `object` now (or at `timestamp`), persists and advertises it as the
    /// options say, and returns it once that is done.
    ///
    /// - Parameters:
    ///   - object: The object to capture; the snapshot holds a copy.
    ///   - tags: Tags to find the snapshot by later; non-empty strings.
    ///   - timestamp: When it was taken, in milliseconds since the Unix epoch; now by default.
    /// - Throws: `ObjectDecodingError` when the snapshot would be invalid (an empty tag, a
    ///   timestamp of 0); `StorageError` when it cannot be stored (then it is not advertised).
    @discardableResult
    public func takeSnapshot(of object: any CoatyObject, tags: [String] = [], at timestamp: Double? = nil)
        async throws -> Snapshot
    {
        try await takeSnapshots(of: [object], tags: tags, at: timestamp)[0]
    }

    /// Takes snapshots of `objects`, all at one time, stored in one transaction and then
    /// advertised one by one in order, as the options say.
    ///
    /// - Returns: The snapshots, in the order of `objects`.
    /// - Throws: As ``takeSnapshot(of:tags:at:)``; nothing is stored or advertised when one is invalid.
    @discardableResult
    public func takeSnapshots(of objects: [any CoatyObject], tags: [String] = [], at timestamp: Double? = nil)
        async throws -> [Snapshot]
    {
        let snapshots = try makeSnapshots(of: objects, tags: tags, at: timestamp)
        _ = try await publish(snapshots, retrying: false)
        return snapshots
    }

    /// Snapshots of `objects` at `timestamp` (now by default), checked to decode as stored.
    func makeSnapshots(of objects: [any CoatyObject], tags: [String], at timestamp: Double? = nil) throws -> [Snapshot] {
        let time = timestamp ?? now()
        let snapshots = objects.map {
            Snapshot(capturing: $0, creatorID: agent.identity.objectID, creationTimestamp: time, tags: tags)
        }
        for snapshot in snapshots { _ = try agent.registry.decodeObject(snapshot.jsonObject()) }
        return snapshots
    }

    /// Persists (again while the database fails, when `retrying`), then advertises `snapshots`, as
    /// the options say; false when the container stopped before they could be stored.
    func publish(_ snapshots: [Snapshot], retrying: Bool) async throws -> Bool {
        guard !snapshots.isEmpty else { return true }
        if options.persistsLocalSnapshots {
            let insert = { try await self.store.insert(snapshots, into: self.options.collection) }
            if retrying {
                guard try await retry.run("\(snapshots.count) snapshot(s)", insert) else { return false }
            } else {
                try await insert()
            }
        }
        if options.advertisesSnapshots {
            for snapshot in snapshots { try agent.advertise(snapshot) }
        }
        return true
    }
}

extension ControllerComponent {
    /// A ``HistorianController`` storing in `backend` (decoding with the container's object
    /// types), with `options`, or else the options the configuration gives it (coaty-js's names).
    public static func historian(
        name: String = "HistorianController", backend: some StorageBackend, options: HistorianController.Options? = nil,
        now: @escaping @Sendable () -> Double = HistorianController.currentTimestamp
    ) -> ControllerComponent {
        ControllerComponent(name: name) { context in
            HistorianController(
                agent: context.agent, store: ObjectStore(backend: backend, registry: context.agent.registry),
                options: try options ?? context.options(as: HistorianController.Options.self), logger: context.logger,
                now: now)
        }
    }
}
