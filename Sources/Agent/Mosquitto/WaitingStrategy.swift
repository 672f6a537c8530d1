import Glibc
import Synchronization

/// How an event loop waits between passes: it sleeps in `epoll_wait` until its next tick, unless
/// a request claimed polling (``BusyPoll``) and the claim's window has not ended; then it looks at
/// its sockets without sleeping, yielding the CPU on each pass.
///
/// A response is then read the moment it arrives instead of after the kernel has woken the thread,
/// which on a virtual machine takes as long as the rest of a round trip to a local broker.
final class WaitingStrategy: Sendable {
    /// Until when (``monotonicNanoseconds()``) the loop polls; the latest window of the open claims.
    private let pollEnd = Atomic<Int64>(0)
    /// How many claims are open (started, not ended).
    private let claims = Atomic<Int>(0)

    /// Opens a claim for `duration` (a second at most); returns whether a sleeping loop must be
    /// woken to start polling.
    func begin(for duration: Duration) -> Bool {
        let (seconds, attoseconds) = min(max(duration, .zero), .seconds(1)).components
        let length = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        let now = Self.monotonicNanoseconds()
        let previousEnd = pollEnd.max(now + length, ordering: .relaxed).oldValue
        let previousClaims = claims.wrappingAdd(1, ordering: .relaxed).oldValue
        return previousEnd <= now || previousClaims == 0
    }

    /// Closes one claim; the loop sleeps again once none is open.
    func end() {
        claims.wrappingSubtract(1, ordering: .relaxed)
    }

    /// Whether the next pass should poll instead of sleeping.
    var polls: Bool {
        claims.load(ordering: .relaxed) > 0 && Self.monotonicNanoseconds() < pollEnd.load(ordering: .relaxed)
    }

    /// Until when the loop polls, in ``monotonicNanoseconds()`` (0 if it never did).
    var pollsUntil: Int64 { pollEnd.load(ordering: .relaxed) }

    /// How many claims are open.
    var claimCount: Int { claims.load(ordering: .relaxed) }

    /// `CLOCK_MONOTONIC` in nanoseconds.
    static func monotonicNanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
