import Synchronization

/// A clock that moves only when a test advances it, for time-based behaviour (sampling,
/// throttling, periodic publications) without sleeps: code under test sleeps on it, the test
/// waits until that sleep has begun (``waitForSleepers(_:)``) and then advances the time.
package final class ManualClock: Clock, Sendable {
    /// A point in the clock's time: the duration since it was made.
    package struct Instant: InstantProtocol {
        package var offset: Duration

        package init(offset: Duration) { self.offset = offset }
        package func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        package func duration(to other: Instant) -> Duration { other.offset - offset }
        package static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
        var sleepersChanged: [CheckedContinuation<Bool, Never>] = []
    }

    private let state = Mutex(State())

    package init() {}

    package var now: Instant { state.withLock { $0.now } }
    package var minimumResolution: Duration { .zero }

    /// How many sleeps are waiting now.
    package var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeNow, waiters) = state.withLock { state -> (Bool, [CheckedContinuation<Bool, Never>]) in
                    guard deadline > state.now, !Task.isCancelled else { return (true, []) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    defer { state.sleepersChanged = [] }
                    return (false, state.sleepersChanged)
                }
                for waiter in waiters { waiter.resume(returning: false) }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }

    /// Moves the time on by `duration` and wakes every sleep whose deadline has come, earliest first.
    package func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Returns once at least `count` sleeps are waiting.
    package func waitForSleepers(_ count: Int = 1) async {
        while true {
            let ready = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let ready = state.withLock { state -> Bool in
                    if state.sleepers.count >= count { return true }
                    state.sleepersChanged.append(continuation)
                    return false
                }
                if ready { continuation.resume(returning: true) }
            }
            if ready { return }
        }
    }
}
