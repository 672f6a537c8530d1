import Synchronization

/// Lets async callers through one at a time, in the order they came: the session's connection
/// runs one transaction or direct write at a time.
final class SerialGate: Sendable {
    private struct State {
        var isHeld = false
        /// The callers waiting, oldest first (a few at a time: the tasks writing to one store).
        var waiting: [CheckedContinuation<Void, Never>] = []

        /// Takes the gate when it is open.
        mutating func take() -> Bool {
            guard !isHeld else { return false }
            isHeld = true
            return true
        }
    }

    private let state = Mutex(State())

    /// Waits until the caller holds the gate; give it back with ``leave()``.
    func enter() async {
        if state.withLock({ $0.take() }) { return }
        await withCheckedContinuation { continuation in
            let entered = state.withLock { state in
                if state.take() { return true }
                state.waiting.append(continuation)
                return false
            }
            if entered { continuation.resume() }
        }
    }

    /// Hands the gate to the next waiting caller, or opens it.
    func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.isHeld = false
                return nil
            }
            return state.waiting.removeFirst()  // the gate stays held, by the next caller
        }
        next?.resume()
    }
}
