import Synchronization

/// Tells a connection to stop reading its socket while a buffer downstream is full.
///
/// Whoever cannot take more (the transport's event channel, an observer's buffer over its
/// capacity) calls ``hold()``, and ``release()`` once it has room again. While any hold is open the
/// connection reads no more packets, so TCP and the broker keep the messages instead of a buffer
/// dropping them; when the last hold is released, the loop resumes reading.
package final class ReadPressure: Sendable {
    private let holds = Atomic<Int>(0)
    private let relief = Mutex<(@Sendable () -> Void)?>(nil)

    package init() {}

    /// Whether reading should pause now.
    package var isHeld: Bool { holds.load(ordering: .acquiring) > 0 }

    /// Opens one hold; pair it with exactly one ``release()``.
    package func hold() {
        holds.wrappingAdd(1, ordering: .acquiringAndReleasing)
    }

    /// Closes one hold; when it was the last, asks the connection to resume reading.
    package func release() {
        guard holds.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 else { return }
        relief.withLock { $0 }?()
    }

    /// Sets what runs when the last hold is released (the connection asks its loop to read again).
    func onRelief(_ handler: @escaping @Sendable () -> Void) {
        relief.withLock { $0 = handler }
    }
}
