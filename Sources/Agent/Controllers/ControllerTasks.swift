import Synchronization

/// Work that a controller starts while it runs (an observation, a refresh loop), run as child
/// tasks of the controller's ``Controller/run()`` so it ends with the controller.
///
/// Jobs added before ``run()`` starts wait for it; jobs added after it ended are refused.
final class ControllerTasks: Sendable {
    typealias Job = @Sendable () async -> Void

    private enum Phase {
        case idle, running, finished
    }

    private let jobs: AsyncStream<Job>
    private let queue: AsyncStream<Job>.Continuation
    private let phase = Mutex(Phase.idle)

    init() {
        (jobs, queue) = AsyncStream.makeStream(of: Job.self)
    }

    /// Whether ``run()`` has ended (jobs are refused).
    var isFinished: Bool { phase.withLock { $0 == .finished } }

    /// Starts `job` as a child task of ``run()``; `false` when the tasks have finished.
    @discardableResult
    func add(_ job: @escaping Job) -> Bool {
        guard phase.withLock({ $0 != .finished }) else { return false }
        if case .terminated = queue.yield(job) { return false }
        return true
    }

    /// Runs the jobs until cancelled or ``finish()``; then cancels the jobs still running.
    func run() async {
        let isFirst = phase.withLock { phase -> Bool in
            guard phase == .idle else { return false }
            phase = .running
            return true
        }
        guard isFirst else { return }
        await withDiscardingTaskGroup { group in
            for await job in jobs {
                group.addTask { await job() }
            }
            group.cancelAll()
        }
        finish()
    }

    /// Refuses new jobs and ends ``run()``.
    func finish() {
        phase.withLock { $0 = .finished }
        queue.finish()
    }
}

/// Runs `body` until it returns or `signal` finishes, whichever comes first (then the other is cancelled).
func race(_ body: @escaping @Sendable () async -> Void, until signal: AsyncStream<Void>) async {
    await withTaskGroup(of: Void.self) { group in
        group.addTask { await body() }
        group.addTask { for await _ in signal {} }
        await group.next()
        group.cancelAll()
    }
}

/// A controller whose work is the tasks it adds to its ``ControllerTasks``: ``run()`` runs them and
/// ``willStop()`` ends them.
protocol TaskRunningController: Controller {
    /// The controller's tasks.
    var tasks: ControllerTasks { get }
}

extension TaskRunningController {
    /// Runs the controller's tasks (its observations and refresh loops) until it stops.
    public func run() async throws {
        await tasks.run()
    }

    /// Ends the controller's tasks.
    public func willStop() async throws {
        tasks.finish()
    }
}

/// Yields what `makeInput` makes of each event of `events` into `input` until they end; returns
/// the agent's error that ended them (the agent stopped, a subscription was refused), if any.
func forward<Events: AsyncSequence, Input: Sendable>(
    _ events: Events, to input: AsyncStream<Input>.Continuation, _ makeInput: (Events.Element) -> Input?
) async -> AgentError? {
    do {
        for try await event in events {
            if let next = makeInput(event) { input.yield(next) }
        }
    } catch let error as AgentError {
        return error
    } catch {}
    return nil
}
