import Synchronization

/// Limits how many connections of one event loop group (or lone loop) are in their handshake (from
/// the TCP connect to the CONNACK) at the same time.
///
/// A broker accepts connections from a bounded listen backlog (mosquitto: 100). When a process
/// starts a thousand agents at once, their non-blocking connects overflow it; the kernel then
/// drops the SYNs it has no room for, and those clients try again only a second later (measured:
/// about one agent in seven waited that second). Letting a bounded number of handshakes run at a
/// time keeps the backlog from overflowing and every agent joins sooner.
///
/// A slot a connection never gives back (a bug, or a broker that never answers) expires after
/// ``lease``, so the gate can slow connects down but never stop them.
package final class ConnectGate: Sendable {
    private struct State {
        /// The connections in their handshake, and when each began.
        var inFlight: [UInt64: ContinuousClock.Instant] = [:]
        /// Connections waiting for a slot, in order.
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
    }

    /// How many handshakes may run at once.
    package let limit: Int
    /// How long a slot is held at most.
    package let lease: Duration
    private let state = Mutex(State())
    /// Connection ids start at 1: 0 is the selector's wake-up.
    private let nextConnectionID = Atomic<UInt64>(1)

    package init(limit: Int, lease: Duration) {
        self.limit = max(1, limit)
        self.lease = lease
    }

    /// A new id for a connection of the loops that share this gate, which keys its slots on it.
    package func makeConnectionID() -> UInt64 {
        nextConnectionID.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// How many connections hold a slot now.
    package var inFlightCount: Int { state.withLock { $0.inFlight.count } }

    /// How many connections wait for a slot now.
    package var waitingCount: Int { state.withLock { $0.waiters.count } }

    /// Waits until connection `id` may start its handshake, and takes a slot for it. Returns
    /// without one when the waiting task is cancelled or ``withdraw(_:)`` is called for `id`.
    package func enter(_ id: UInt64) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let (isAdmitted, others) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                    let now = ContinuousClock.now
                    expire(&state, now: now)
                    let others = admitWaiters(&state, now: now)
                    if state.inFlight[id] != nil || Task.isCancelled { return (true, others) }
                    if state.inFlight.count < limit && state.waiters.isEmpty {
                        state.inFlight[id] = now
                        return (true, others)
                    }
                    state.waiters.append((id, continuation))
                    return (false, others)
                }
                others.forEach { $0.resume() }
                if isAdmitted { continuation.resume() }
            }
        } onCancel: {
            withdraw(id)
        }
    }

    /// Gives back the slot of connection `id` (its handshake ended: CONNACK, failure or close)
    /// and lets the next waiter in.
    package func leave(_ id: UInt64) {
        let admitted = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard state.inFlight.removeValue(forKey: id) != nil else { return [] }
            return admitWaiters(&state, now: .now)
        }
        admitted.forEach { $0.resume() }
    }

    /// Stops connection `id` from waiting (it is closing): its ``enter(_:)`` returns at once.
    package func withdraw(_ id: UInt64) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index).continuation
        }
        waiter?.resume()
    }

    /// Frees the slots held longer than ``lease`` and lets waiters in. The loop calls it every second.
    package func expireLeases(now: ContinuousClock.Instant = .now) {
        let admitted = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            expire(&state, now: now)
            return admitWaiters(&state, now: now)
        }
        admitted.forEach { $0.resume() }
    }

    private func expire(_ state: inout State, now: ContinuousClock.Instant) {
        guard !state.inFlight.isEmpty else { return }
        state.inFlight = state.inFlight.filter { now - $0.value < lease }
    }

    private func admitWaiters(_ state: inout State, now: ContinuousClock.Instant) -> [CheckedContinuation<Void, Never>] {
        var admitted: [CheckedContinuation<Void, Never>] = []
        while state.inFlight.count < limit, !state.waiters.isEmpty {
            let next = state.waiters.removeFirst()
            state.inFlight[next.id] = now
            admitted.append(next.continuation)
        }
        return admitted
    }
}
