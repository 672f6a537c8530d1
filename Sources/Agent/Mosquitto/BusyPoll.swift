import Synchronization

/// One request's claim on its event loop's polling: from ``start(for:)`` until ``end()``, the
/// ``MosquittoEventLoop`` polls its sockets instead of sleeping, for the duration at most.
///
/// A request ends its claim when its first response arrives or when the request ends, whichever
/// comes first, so the loop spends CPU time only while some request still waits for an answer, not
/// for the whole window after every request. A claim ended before it started (a response that
/// arrived before the caller started polling for it) stays ended: ``start(for:)`` then does
/// nothing. Each call is safe from any thread, and releasing a claim ends it.
package final class BusyPoll: Sendable {
    private static let idle: UInt8 = 0
    private static let polling: UInt8 = 1
    private static let ended: UInt8 = 2

    private let loop: MosquittoEventLoop
    private let phase = Atomic<UInt8>(BusyPoll.idle)

    /// A claim on `loop`, not started yet.
    package init(loop: MosquittoEventLoop) {
        self.loop = loop
    }

    /// Starts polling for at most `duration` (a second at most), unless the claim has ended or
    /// started already, or `duration` is not positive.
    package func start(for duration: Duration) {
        guard duration > .zero,
            phase.compareExchange(expected: Self.idle, desired: Self.polling, ordering: .relaxed).exchanged
        else { return }
        loop.beginBusyPoll(for: duration)
    }

    /// Ends the claim; the second and later calls do nothing.
    package func end() {
        if phase.exchange(Self.ended, ordering: .relaxed) == Self.polling { loop.endBusyPoll() }
    }

    deinit {
        end()
    }
}
