/// A handler that answers requests right where the agent routes them (``Agent/serveDiscover(responderGroup:isolation:_:)``
/// and the other `serve…` calls hold one for as long as they run).
///
/// The agent answers for as long as this value lives: it stops, and releases its MQTT
/// subscription when no other observer shares it, once the value is dropped, on ``cancel()``, when
/// a task waiting in ``wait()`` is cancelled, or when the agent stops.
package final class InlineResponder: Sendable {
    /// Holds the observation open (a ``DeliveryQueue/Consumer``: its release ends the observation).
    private let hold: any Sendable & AnyObject
    private let end: @Sendable () -> Void
    private let waitForEnd: @Sendable () async -> Void
    private let endReason: @Sendable () -> AgentError?

    init<Element: Sendable>(_ events: EventStream<Element>) {
        let queue = events.consumer.queue
        hold = events.consumer
        end = { queue.cancel() }
        // Nothing is ever queued: the handler takes every event, so `next()` returns only at the end.
        waitForEnd = { while await queue.next() != nil {} }
        endReason = { queue.failure }
    }

    /// Why the responder stopped, when it was not cancelled: the agent stopped, or the broker refused.
    package var failure: AgentError? { endReason() }

    /// Stops answering: the handler is not called for requests routed after this.
    package func cancel() {
        end()
    }

    /// Waits until the responder has stopped: the agent stopped, or ``cancel()`` was called.
    /// Cancelling the waiting task stops the responder too.
    package func wait() async {
        await waitForEnd()
    }
}

/// A handler that takes an observer's events on the thread that routes them.
typealias InlineHandler<Element> = @Sendable (Element) -> Void
