public import CoreTypes
public import ServiceLifecycle
import Synchronization

/// Advertises the `Log` objects that ``CoatyLogHandler``s hand it, in order, through one agent.
///
/// Log calls never publish directly: they put the `Log` into a bounded buffer and return, and
/// ``run()`` advertises each one. That keeps logging cheap and means a log call can never wait for,
/// or re-enter, the agent. Logs that arrive while the buffer is full are dropped and counted in
/// ``droppedLogCount``; logs made after the publisher stopped (the stop's own last lines) are
/// counted in ``lateLogCount``. A log made while a `Log` is being
/// published (by the agent, or by the failure handler) is never published, so nothing loops.
///
/// A ``Container`` has one (``Container/logPublisher``) and runs it. Without a container, add it
/// to the service group after its agent:
///
/// ```swift
/// let publisher = LogPublisher(agent: agent)
/// LoggingSystem.bootstrap { label in
///     CoatyLogHandler(label: label, publisher: publisher, local: StreamLogHandler.standardError(label: label))
/// }
/// let group = ServiceGroup(services: [agent, publisher], logger: logger)
/// ```
public final class LogPublisher: Service, Sendable {
    /// How a publisher builds and sends `Log` objects.
    public struct Configuration: Sendable {
        /// Keep the framework's own logs (source module `Agent`) off the bus; on by default, so the
        /// agent's debug logs about publishing never travel as `Log` objects themselves.
        public var silencesFrameworkLogs: Bool
        /// How many logs may wait to be published before new ones are dropped.
        public var bufferSize: Int
        /// The `logHost` of every `Log` (by default this process's id and host name).
        public var host: LogHost?
        /// Tags added to every `Log`, before the tags of the log call.
        public var tags: [String]
        /// Called, on the publisher's task, with each `Log` the agent refused and the reason (for
        /// example `AgentError.Code.stopped`). Logs made inside it are not published.
        public var onFailure: (@Sendable (_ error: any Error, _ log: Log) -> Void)?

        /// Creates a configuration.
        public init(
            silencesFrameworkLogs: Bool = true, bufferSize: Int = 1_000, host: LogHost? = LogHost.currentProcess(),
            tags: [String] = [], onFailure: (@Sendable (_ error: any Error, _ log: Log) -> Void)? = nil
        ) {
            self.silencesFrameworkLogs = silencesFrameworkLogs
            self.bufferSize = bufferSize
            self.host = host
            self.tags = tags
            self.onFailure = onFailure
        }
    }

    /// The source modules whose logs count as the framework's own (see ``Configuration/silencesFrameworkLogs``).
    public static let frameworkSources: Set<String> = ["Agent", "CoreTypes"]

    /// Whether the current task is publishing a `Log` right now (then new logs stay local).
    @TaskLocal static var isPublishing = false

    /// The agent that advertises the logs.
    public let agent: Agent
    /// How `Log` objects are built and sent.
    public let configuration: Configuration

    private let send: @Sendable (Log) throws -> Void
    private let logs: AsyncStream<Log>
    private let queue: AsyncStream<Log>.Continuation
    private let dropped = Atomic<Int>(0)
    private let late = Atomic<Int>(0)
    private let hasRun = Atomic<Bool>(false)

    /// Creates a publisher for `agent`. Nothing is published until ``run()``.
    public convenience init(agent: Agent, configuration: Configuration = Configuration()) {
        self.init(agent: agent, configuration: configuration) { [agent] log in try agent.advertise(log) }
    }

    /// Creates a publisher that hands each `Log` to `send` instead of advertising it (for tests).
    init(agent: Agent, configuration: Configuration, send: @escaping @Sendable (Log) throws -> Void) {
        self.agent = agent
        self.configuration = configuration
        self.send = send
        (logs, queue) = AsyncStream.makeStream(
            of: Log.self, bufferingPolicy: .bufferingOldest(max(configuration.bufferSize, 1)))
    }

    /// How many logs were dropped because the buffer was full.
    public var droppedLogCount: Int { dropped.load(ordering: .relaxed) }

    /// How many logs were made after the publisher had stopped, so were not sent.
    public var lateLogCount: Int { late.load(ordering: .relaxed) }

    /// Advertises logs as they come until graceful shutdown, then the ones still waiting, and
    /// returns; on cancellation it returns at once. Run it once (a ``Container`` runs its own);
    /// later calls return at once.
    public func run() async {
        guard !hasRun.exchange(true, ordering: .relaxed) else { return }
        await withGracefulShutdownHandler {
            for await log in logs { publish(log) }
        } onGracefulShutdown: { [queue] in
            queue.finish()
        }
        queue.finish()
    }

    /// Queues `log` for publishing; never blocks.
    func enqueue(_ log: Log) {
        switch queue.yield(log) {
        case .enqueued: return
        case .dropped: dropped.add(1, ordering: .relaxed)
        case .terminated: late.add(1, ordering: .relaxed)
        @unknown default: dropped.add(1, ordering: .relaxed)
        }
    }

    private func publish(_ log: Log) {
        Self.$isPublishing.withValue(true) {
            do {
                try send(log)
            } catch {
                configuration.onFailure?(error, log)
            }
        }
    }
}
