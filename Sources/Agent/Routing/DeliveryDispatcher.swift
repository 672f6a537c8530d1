import Synchronization

/// Hands routed events to the observers that wait for them in a task, once per pass of the
/// network thread instead of once per message: what one wake-up of the loop read reaches a
/// waiting consumer with one resumption. Each sink gets its events in the order they were routed.
///
/// The agent owns one; its routing task calls ``dispatch(_:to:)`` on the loop's thread, and the
/// loop runs ``flush()`` when the pass's jobs have run. Called anywhere else, it delivers at once.
final class DeliveryDispatcher: Sendable {
    private struct Pending {
        var deliveries: [(event: InboundEvent, sinks: [Sink])] = []
        var isScheduled = false
    }

    private let loop: MosquittoEventLoop
    private let pending = Mutex(Pending())

    init(loop: MosquittoEventLoop) {
        self.loop = loop
    }

    /// Delivers `event` to those of `sinks` that are not inline, at the end of the loop's pass.
    func dispatch(_ event: InboundEvent, to sinks: [Sink]) {
        guard loop.isCurrentThread else { return Self.deliver(event, to: sinks) }
        let schedules = pending.withLock { pending in
            pending.deliveries.append((event, sinks))
            defer { pending.isScheduled = true }
            return !pending.isScheduled
        }
        if schedules { loop.afterCurrentJobs { [self] in flush() } }
    }

    /// Delivers everything dispatched so far, in order.
    private func flush() {
        let deliveries = pending.withLock { pending in
            defer {
                pending.deliveries.removeAll(keepingCapacity: true)
                pending.isScheduled = false
            }
            return pending.deliveries
        }
        for (event, sinks) in deliveries { Self.deliver(event, to: sinks) }
    }

    private static func deliver(_ event: InboundEvent, to sinks: [Sink]) {
        for sink in sinks where !sink.isInline { sink.deliver(event) }
    }
}
