internal import CMosquitto
import Glibc
import Synchronization

/// One thread that drives the sockets of any number of ``MosquittoClient``s: its ``Selector``
/// (the `epoll` set), the registry of connections, the jobs of tasks that prefer it, and its
/// ``WaitingStrategy``.
///
/// libmosquitto's own loop (`mosquitto_loop_start`) runs a thread per client and uses `select()`,
/// which fails for file descriptors above 1023; a process with a thousand clients needs neither.
/// This loop waits on every connected client's socket with one `epoll` set and calls
/// `mosquitto_loop_read`, `mosquitto_loop_write` (while `mosquitto_want_write`) and, about once a
/// second, `mosquitto_loop_misc` for keep-alive. An `eventfd` wakes it when a client connects or
/// the loop shuts down; a client that queues a packet arms `EPOLLOUT` on its own socket instead.
///
/// Reading, keep-alive and deferred writes happen on this thread, and so almost every
/// ``TransportEvent`` comes from it; a client writes a packet it queues at once from the caller's
/// thread (see ``MosquittoConnection``). Clients register themselves when they connect and leave
/// when their socket closes; nothing else is needed.
///
/// A process has one ``MosquittoEventLoopGroup/shared`` group of loops, one per core but one; each client
/// stays on the loop it was given, so everything said here about "the loop" holds per loop.
package final class MosquittoEventLoop: Sendable {
    private struct Pending {
        var attachments: [MosquittoConnection] = []
        /// Connections whose read pressure was released: the loop resumes their reading.
        var resumptions: [MosquittoConnection] = []
        /// Jobs of tasks that run on this loop (``enqueue(_:)``), in order.
        var jobs: [UnownedJob] = []
        /// Work to run once the jobs of the current pass have run (``afterCurrentJobs(_:)``), in order.
        var afterJobs: [@Sendable () -> Void] = []
        var isShutDown = false
    }

    /// How many ready sockets one `epoll_wait` returns at most.
    private static let batchSize: Int32 = 256

    private let isShared: Bool
    private let selector: Selector
    /// Whether a pass sleeps or polls (read by tests through `@testable import`).
    let waiting = WaitingStrategy()
    private let pending = Mutex(Pending())
    /// The loop's thread, once it runs (`pthread_t` is an integer on Linux).
    private let loopThread = Atomic<UInt>(0)

    /// How many connections of a loop, or of a group's loops together, may be in their handshake
    /// at once (see ``ConnectGate``).
    package static let handshakesInFlight = 64

    /// Spaces out the handshakes of this loop's connections (and of the other loops of its group)
    /// so that a broker's listen backlog does not overflow when many clients connect at once.
    package let connectGate: ConnectGate

    /// Starts a loop on a new thread. Most programs use ``MosquittoEventLoopGroup/shared``; a loop
    /// of its own suits tests and benchmarks that watch one loop.
    ///
    /// - Parameter handshakeLease: how long a handshake holds its slot of ``connectGate`` at most.
    /// - Throws: ``MosquittoError`` with code `MosquittoError.Code.system` if a system call fails.
    package convenience init(handshakeLease: Duration = .seconds(5)) throws {
        try self.init(isShared: false, connectGate: ConnectGate(limit: Self.handshakesInFlight, lease: handshakeLease))
    }

    /// Starts a loop of a group, which gives every loop of it the same `connectGate`.
    init(isShared: Bool, connectGate: ConnectGate) throws {
        self.isShared = isShared
        self.connectGate = connectGate
        self.selector = try Selector()
        try startThread()
    }

    /// Stops the loop: closes every client still connected through it (without DISCONNECT, so
    /// brokers publish their wills), ends their event streams and lets the thread exit.
    ///
    /// Returns at once and never waits for the thread; later ``MosquittoClient/connect()`` calls on
    /// clients of this loop throw `MosquittoError.Code.closed`. It does nothing on the loops of
    /// ``MosquittoEventLoopGroup/shared``, which live as long as the process.
    package func shutdown() {
        guard !isShared else { return }
        stop()
    }

    /// Shuts the loop down even when it is shared: for a group whose other loops failed to start.
    func stop() {
        pending.withLock { $0.isShutDown = true }
        wake()
    }

    // MARK: - Used by connections (any thread)

    /// A new connection id, unique in the loop's group (the loops share the gate, which keys on it).
    func makeConnectionID() -> UInt64 {
        connectGate.makeConnectionID()
    }

    /// Adds a freshly connected socket to the `epoll` set and hands the connection to the loop thread.
    /// Called with the connection's lock held.
    func register(_ connection: MosquittoConnection, socket: Int32, writable: Bool) throws {
        if let failure = selector.register(socket: socket, id: connection.id, writable: writable) {
            throw MosquittoError.system(
                "epoll_ctl(ADD)", errno: failure, operation: .connect, broker: connection.broker.description)
        }
        let accepted = pending.withLock { pending in
            guard !pending.isShutDown else { return false }
            pending.attachments.append(connection)
            return true
        }
        guard accepted else {
            selector.deregister(socket: socket)
            throw MosquittoError(
                code: .closed, operation: .connect, broker: connection.broker.description,
                detail: "the event loop has been shut down")
        }
        wake()
    }

    /// Sets whether a registered socket is watched for writing (`EPOLLOUT`) and reading
    /// (`EPOLLIN`, off while its reading is paused). Called with the connection's lock held.
    func update(socket: Int32, id: UInt64, writable: Bool, readable: Bool) {
        selector.modify(socket: socket, id: id, writable: writable, readable: readable)
    }

    /// Asks the loop's thread to resume reading `connection` (its read pressure was released).
    /// Called from any thread.
    func resumeReading(_ connection: MosquittoConnection) {
        let queued = pending.withLock { pending in
            guard !pending.isShutDown else { return false }
            pending.resumptions.append(connection)
            return true
        }
        if queued { wake() }
    }

    /// Removes a socket that is still open from the `epoll` set. Called with the connection's lock
    /// held, before the socket is closed; a socket libmosquitto closed has left the set by itself.
    func deregister(socket: Int32) {
        selector.deregister(socket: socket)
    }

    /// Makes the loop poll its sockets instead of sleeping, for `duration` at most (a second at
    /// most), until ``endBusyPoll()``; ``BusyPoll`` pairs the two calls (see ``WaitingStrategy``).
    func beginBusyPoll(for duration: Duration) {
        if waiting.begin(for: duration) && !isCurrentThread { wake() }
    }

    /// Closes one claim of ``beginBusyPoll(for:)``.
    func endBusyPoll() {
        waiting.end()
    }

    private func wake() {
        selector.wake()
    }

    // MARK: - The loop thread

    /// Starts the thread, which keeps the loop alive until it returns from ``run()``.
    private func startThread() throws {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                Unmanaged<MosquittoEventLoop>.fromOpaque(context).takeRetainedValue().run()
                return nil
            }, context)
        guard result == 0 else {
            Unmanaged<MosquittoEventLoop>.fromOpaque(context).release()
            throw MosquittoError.system("pthread_create", errno: result, operation: .eventLoop, broker: nil)
        }
        pthread_detach(thread)
    }

    /// The loop: runs on its own thread until ``shutdown()``. The registry of connected clients is a
    /// local variable, so only this thread ever sees it.
    /// How often one round of the loop runs the jobs queued meanwhile before it polls again.
    private static let jobPassesPerRound = 4

    /// How many rounds of a loop that always has jobs may pass before reads are acknowledged.
    private static let roundsBeforeAcknowledging = 4

    private func run() {
        var registry: [UInt64: MosquittoConnection] = [:]
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: Int(Self.batchSize))
        defer { events.deallocate() }
        let clock = ContinuousClock()
        var nextTick = clock.now.advanced(by: .seconds(1))
        loopThread.store(pthread_self(), ordering: .relaxed)
        var hasJobs = false
        var batch: [UnownedJob] = []
        var serviced: [MosquittoConnection] = []
        var roundsSinceAcknowledgement = 0

        while true {
            // Polling busily (beginBusyPoll(for:)): give runnable threads the CPU, then look again at once.
            let pollsBusily = !hasJobs && waiting.polls
            if pollsBusily {
                sched_yield()
            }
            let timeout = hasJobs || pollsBusily ? 0 : Self.milliseconds(until: nextTick, clock: clock)
            let count = selector.wait(into: events, capacity: Self.batchSize, timeoutMilliseconds: timeout)
            var isWoken = false
            for index in 0..<count {
                let event = events[index]
                if event.data.u64 == Selector.wakeID {
                    isWoken = true
                } else if let connection = registry[event.data.u64] {
                    if connection.service(events: event.events) {
                        serviced.append(connection)  // twice at most costs one more flag check
                    } else {
                        registry[event.data.u64] = nil
                    }
                }
            }
            if isWoken {
                selector.consumeWake()
                let (attachments, resumptions, isShutDown) = pending.withLock { pending in
                    defer {
                        pending.attachments.removeAll()
                        pending.resumptions.removeAll()
                    }
                    return (pending.attachments, pending.resumptions, pending.isShutDown)
                }
                for connection in attachments { registry[connection.id] = connection }
                for connection in resumptions where registry[connection.id] === connection {
                    if connection.resumeReading() {
                        serviced.append(connection)
                    } else {
                        registry[connection.id] = nil
                    }
                }
                if isShutDown {
                    for connection in registry.values { connection.close() }
                    runDeferredWork()
                    // From here on no code runs on this thread for the loop; a thread started later
                    // may get the same pthread_t, and must not be taken for this one.
                    loopThread.store(0, ordering: .relaxed)
                    // Tasks that still prefer this loop go on in the global pool (see enqueue).
                    let jobs = pending.withLock { pending in
                        defer { pending.jobs = [] }
                        return pending.jobs
                    }
                    for job in jobs { globalConcurrentExecutor.enqueue(job) }
                    return
                }
            }
            if clock.now >= nextTick {
                connectGate.expireLeases()
                let finished = registry.filter { !$0.value.tick() }.keys
                for id in finished { registry[id] = nil }
                nextTick = clock.now.advanced(by: .seconds(1))
            }
            // Jobs usually queue a few more (the agent's task routes a message to a handler that
            // prefers this loop): run those too before polling again, within a bound that keeps
            // the sockets served.
            hasJobs = runJobs(into: &batch)
            var passes = 1
            while hasJobs && passes < Self.jobPassesPerRound {
                hasJobs = runJobs(into: &batch)
                passes += 1
            }
            // Once the jobs the reads started have run (a handler on this loop has answered, and
            // its packet carried the acknowledgement), or after a few rounds of a loop kept busy.
            roundsSinceAcknowledgement += 1
            if !serviced.isEmpty && (!hasJobs || roundsSinceAcknowledgement >= Self.roundsBeforeAcknowledging) {
                for connection in serviced { connection.acknowledgeReads() }
                serviced.removeAll(keepingCapacity: true)
                roundsSinceAcknowledgement = 0
            }
        }
    }

    /// Runs the jobs queued so far, in order, then the work they deferred with
    /// ``afterCurrentJobs(_:)``; returns whether more jobs were queued meanwhile.
    private func runJobs(into batch: inout [UnownedJob]) -> Bool {
        pending.withLock { swap(&batch, &$0.jobs) }
        for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        batch.removeAll(keepingCapacity: true)
        runDeferredWork()
        return pending.withLock { !$0.jobs.isEmpty }
    }

    private func runDeferredWork() {
        let work = pending.withLock { pending in
            defer { pending.afterJobs.removeAll() }
            return pending.afterJobs
        }
        for item in work { item() }
    }

    /// Runs `work` once the jobs of the loop's current pass have run, when called from a job on
    /// the loop's thread; anywhere else, runs it at once.
    ///
    /// The agent hands inbound events to its observers' streams this way: all the messages one
    /// wake-up of the loop read reach a waiting consumer with one resumption, instead of one per
    /// message (each resumption of a task in the global pool wakes one of its threads).
    package func afterCurrentJobs(_ work: @escaping @Sendable () -> Void) {
        // On the loop's thread, inside a job: runJobs runs the work when the pass ends.
        guard isCurrentThread, queueAfterJobs(work) else { return work() }
    }

    /// Runs `work` on the loop's thread at the end of its current or next pass, without waking it:
    /// from a job on the loop, as ``afterCurrentJobs(_:)``; from elsewhere, when the loop next wakes
    /// up for a socket, a job or its tick (at least once a second). After ``shutdown()``, at once.
    ///
    /// For clean-up that should not delay the caller's next step, and need not be immediate: a
    /// request that ends releases its routes and response subscription this way, so that the
    /// caller's next request goes out first.
    package func afterCurrentJobsWithoutWaking(_ work: @escaping @Sendable () -> Void) {
        guard queueAfterJobs(work) else { return work() }
    }

    /// Queues `work` for the end of the loop's pass; returns `false` after ``shutdown()``, when no
    /// pass may come.
    private func queueAfterJobs(_ work: @escaping @Sendable () -> Void) -> Bool {
        pending.withLock { pending in
            guard !pending.isShutDown else { return false }
            pending.afterJobs.append(work)
            return true
        }
    }

    /// Whether the caller runs on the loop's thread.
    package var isCurrentThread: Bool { pthread_self() == loopThread.load(ordering: .relaxed) }

    private static func milliseconds(until deadline: ContinuousClock.Instant, clock: ContinuousClock) -> Int32 {
        let remaining = clock.now.duration(to: deadline)
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        return Int32(min(1000, seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1))
    }
}

extension MosquittoEventLoop: TaskExecutor {
    /// Queues a job of a task that prefers this loop (`withTaskExecutorPreference`); the loop runs
    /// it after the socket events at hand, never inside a libmosquitto callback. An agent runs its
    /// event-loop task here: a message is decoded and routed on the thread that read it, without
    /// waking a thread of the global pool first. After ``shutdown()`` jobs go to the global pool.
    package func enqueue(_ job: UnownedJob) {
        let isQueued = pending.withLock { pending in
            guard !pending.isShutDown else { return false }
            pending.jobs.append(job)
            return true
        }
        guard isQueued else {
            globalConcurrentExecutor.enqueue(job)
            return
        }
        // From the loop thread itself (a callback resuming the agent) the loop runs it before it
        // waits again; from elsewhere, wake it.
        if !isCurrentThread { wake() }
    }
}
