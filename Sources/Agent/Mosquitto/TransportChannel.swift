import Synchronization

/// The ordered, bounded queue from a connection's callbacks to the one task that reads its
/// ``TransportEvent``s. Callbacks ``enqueue(_:)`` under the connection's lock; the connection
/// ``wake()``s the reader once it has released that lock.
///
/// The reader takes every queued event at once (``nextBatch()``): one lock and at most one
/// suspension for all the messages one read brought, where an `AsyncStream` costs both per event
/// (and, being generic across a module boundary, a metadata lookup or two). When ``capacity``
/// events wait and the reader has not taken them, further events are dropped and counted.
final class TransportChannel: Sendable {
    private struct State {
        var events: [TransportEvent] = []
        var waiter: UnsafeContinuation<[TransportEvent]?, Never>?
        var isFinished = false
    }

    /// How many events may wait for the reader.
    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Queues `event` without waking the reader (libmosquitto's callbacks call this under the
    /// connection's lock, where resuming a task could deadlock); returns `false` when the event
    /// was dropped: the channel is full, or finished (no callback runs after that).
    func enqueue(_ event: TransportEvent) -> Bool {
        state.withLock { state in
            guard !state.isFinished, state.events.count < capacity else { return false }
            state.events.append(event)
            return true
        }
    }

    /// Hands what is queued to a waiting reader. Call it without holding a lock the reader's task
    /// might need (after the connection's lock is released).
    func wake() {
        let (waiter, events) = state.withLock { state -> (UnsafeContinuation<[TransportEvent]?, Never>?, [TransportEvent]) in
            guard let waiter = state.waiter, !state.events.isEmpty else { return (nil, []) }
            state.waiter = nil
            defer { state.events = [] }
            return (waiter, state.events)
        }
        waiter?.resume(returning: events)
    }

    /// Queues `batch` in order and wakes the reader; returns how many events did not fit.
    func send(_ batch: [TransportEvent]) -> Int {
        let dropped = batch.filter { !enqueue($0) }.count
        wake()
        return dropped
    }

    /// Ends the channel: the reader gets what is queued, then `nil`.
    func finish() {
        let (waiter, events) = state.withLock { state -> (UnsafeContinuation<[TransportEvent]?, Never>?, [TransportEvent]?) in
            state.isFinished = true
            guard let waiter = state.waiter else { return (nil, nil) }
            state.waiter = nil
            defer { state.events = [] }
            return (waiter, state.events.isEmpty ? nil : state.events)
        }
        waiter?.resume(returning: events)
    }

    /// Every event queued so far, in order, waiting for one if none is; `nil` once the channel
    /// has finished and everything queued was taken, or when the waiting task is cancelled
    /// (which ends the channel, as cancelling the reader of an `AsyncStream` does).
    func nextBatch() async -> [TransportEvent]? {
        if let ready = takeQueued() { return ready.isEmpty ? nil : ready }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<[TransportEvent]?, Never>) in
                let immediate: [TransportEvent]?? = state.withLock { state in
                    if !state.events.isEmpty {
                        defer { state.events = [] }
                        return .some(state.events)
                    }
                    if state.isFinished || Task.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            finish()
        }
    }

    /// The largest batch storage ``recycle(_:)`` keeps, in events.
    static let largestRecycled = 256

    /// Takes back a batch the reader has handled: emptied, its storage holds the next events
    /// unless events are already queued (one allocation less per wake-up of the reader). Storage
    /// for more than ``largestRecycled`` events is let go, so that a burst does not keep its memory.
    func recycle(_ batch: inout [TransportEvent]) {
        guard batch.capacity <= Self.largestRecycled else {
            batch = []
            return
        }
        batch.removeAll(keepingCapacity: true)
        state.withLock { state in
            if state.events.isEmpty && state.events.capacity < batch.capacity { swap(&state.events, &batch) }
        }
        // `batch` now holds the channel's old, empty storage (if swapped), released by the caller.
    }

    /// The queued events (empty when finished), or `nil` when the reader must wait.
    private func takeQueued() -> [TransportEvent]? {
        state.withLock { state in
            if !state.events.isEmpty {
                defer { state.events = [] }
                return state.events
            }
            return state.isFinished ? [] : nil
        }
    }
}
