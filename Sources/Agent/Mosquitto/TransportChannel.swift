import Synchronization

/// The ordered, bounded queue from a connection's callbacks to the one task that reads its
/// ``TransportEvent``s. Callbacks ``enqueue(_:)`` under the connection's lock; the connection
/// ``wake()``s the reader once it has released that lock.
///
/// The reader takes every queued event at once (``nextBatch()``): one lock and at most one
/// suspension for all the messages one read brought, where an `AsyncStream` costs both per event
/// (and, being generic across a module boundary, a metadata lookup or two). Nothing is dropped:
/// once ``capacity`` events wait, the channel holds the connection's ``ReadPressure`` until the
/// reader takes them, so the connection stops reading (the packet being read still arrives).
final class TransportChannel: Sendable {
    private struct State {
        var events: [TransportEvent] = []
        var waiter: UnsafeContinuation<[TransportEvent]?, Never>?
        var isFinished = false
        var holdsPressure = false
    }

    /// How many events may wait for the reader before the connection stops reading.
    let capacity: Int
    private let pressure: ReadPressure
    private let state = Mutex(State())

    init(capacity: Int, pressure: ReadPressure) {
        self.capacity = max(1, capacity)
        self.pressure = pressure
    }

    /// Queues `event` without waking the reader (libmosquitto's callbacks call this under the
    /// connection's lock, where resuming a task could deadlock); returns `false` only when the
    /// channel has finished (no callback runs after that).
    func enqueue(_ event: TransportEvent) -> Bool {
        let (queued, holds) = state.withLock { state -> (Bool, Bool) in
            guard !state.isFinished else { return (false, false) }
            state.events.append(event)
            guard state.events.count >= capacity, !state.holdsPressure else { return (true, false) }
            state.holdsPressure = true
            return (true, true)
        }
        if holds { pressure.hold() }
        return queued
    }

    /// Empties the queue into the reader's hands; releases the pressure it held. Call under the lock.
    private static func take(_ state: inout State) -> (events: [TransportEvent], releases: Bool) {
        defer {
            state.events = []
            state.holdsPressure = false
        }
        return (state.events, state.holdsPressure)
    }

    /// Hands what is queued to a waiting reader. Call it without holding a lock the reader's task
    /// might need (after the connection's lock is released).
    func wake() {
        let (waiter, events, releases) = state.withLock { state -> (UnsafeContinuation<[TransportEvent]?, Never>?, [TransportEvent], Bool) in
            guard let waiter = state.waiter, !state.events.isEmpty else { return (nil, [], false) }
            state.waiter = nil
            let (events, releases) = Self.take(&state)
            return (waiter, events, releases)
        }
        if releases { pressure.release() }
        waiter?.resume(returning: events)
    }

    /// Queues `batch` in order and wakes the reader.
    func send(_ batch: [TransportEvent]) {
        for event in batch { _ = enqueue(event) }
        wake()
    }

    /// Ends the channel: the reader gets what is queued, then `nil`.
    func finish() {
        let (waiter, events, releases) = state.withLock { state -> (UnsafeContinuation<[TransportEvent]?, Never>?, [TransportEvent]?, Bool) in
            state.isFinished = true
            guard let waiter = state.waiter else { return (nil, nil, false) }
            state.waiter = nil
            let (events, releases) = Self.take(&state)
            return (waiter, events.isEmpty ? nil : events, releases)
        }
        if releases { pressure.release() }
        waiter?.resume(returning: events)
    }

    /// Every event queued so far, in order, waiting for one if none is; `nil` once the channel
    /// has finished and everything queued was taken, or when the waiting task is cancelled
    /// (which ends the channel, as cancelling the reader of an `AsyncStream` does).
    func nextBatch() async -> [TransportEvent]? {
        if let ready = takeQueued() { return ready.isEmpty ? nil : ready }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<[TransportEvent]?, Never>) in
                let (immediate, releases) = state.withLock { state -> ([TransportEvent]??, Bool) in
                    if !state.events.isEmpty {
                        let (events, releases) = Self.take(&state)
                        return (.some(events), releases)
                    }
                    if state.isFinished || Task.isCancelled { return (.some(nil), false) }
                    state.waiter = continuation
                    return (.none, false)
                }
                if releases { pressure.release() }
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
        let (events, releases) = state.withLock { state -> ([TransportEvent]?, Bool) in
            if !state.events.isEmpty { return Self.take(&state) }
            return (state.isFinished ? [] : nil, false)
        }
        if releases { pressure.release() }
        return events
    }
}
