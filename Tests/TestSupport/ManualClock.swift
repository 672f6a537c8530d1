import Synchronization

/// A clock that moves only when a test advances it, so time-based behaviour is tested exactly and
/// without sleeping: sleepers wake when ``advance(by:)`` passes their deadline.
public final class ManualClock: Clock, Sendable {
    public struct Instant: InstantProtocol, Hashable, Sendable {
        public var offset: Duration
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
        var sleepWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// Suspends until the clock reaches `deadline` (at once when it has), or throws `CancellationError`.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let (resume, waiters) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                    if deadline <= state.now || Task.isCancelled { return (true, []) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return (false, Self.releaseWaiters(&state))
                }
                for waiter in waiters { waiter.resume() }
                if resume {
                    if Task.isCancelled { continuation.resume(throwing: CancellationError()) } else { continuation.resume() }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward and wakes every sleeper whose deadline it reached.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers.removeValue(forKey: id) }
            return due.values.sorted { $0.deadline < $1.deadline }.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    /// Returns once at least `count` tasks sleep on this clock.
    public func waitForSleepers(_ count: Int = 1) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if state.sleepers.count >= count { return true }
                state.sleepWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private static func releaseWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let count = state.sleepers.count
        let ready = state.sleepWaiters.filter { $0.count <= count }.map(\.continuation)
        state.sleepWaiters.removeAll { $0.count <= count }
        return ready
    }
}
