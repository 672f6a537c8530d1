/// A handler that answers requests right where the agent routes them, registered with
/// ``Agent/serveDiscover(_:)``, ``Agent/serveQuery(_:)``, ``Agent/serveUpdate(objectType:_:)``,
/// ``Agent/serveUpdate(coreType:_:)`` or ``Agent/serveCall(_:context:_:)``.
///
/// The agent answers for as long as this value lives: it stops, and releases its MQTT
/// subscription when no other observer shares it, once the value is dropped, on ``cancel()``, when
/// a task waiting in ``wait()`` is cancelled, or when the agent stops.
///
/// ```swift
/// let adder = try await agent.serveCall("com.example.add") { request in
///     let a = request.event.parameter(named: "a")?.doubleValue ?? 0
///     let b = request.event.parameter(named: "b")?.doubleValue ?? 0
///     try request.respond(Return(result: .double(a + b)))
/// }
/// await adder.wait()  // until the agent stops
/// ```
public final class InlineResponder: Sendable {
    /// Holds the observation open (a ``DeliveryQueue/Consumer``: its release ends the observation).
    private let hold: any Sendable & AnyObject
    private let end: @Sendable () -> Void
    private let waitForEnd: @Sendable () async -> Void

    init<Element: Sendable>(_ events: EventStream<Element>) {
        let queue = events.consumer.queue
        hold = events.consumer
        end = { queue.cancel() }
        // Nothing is ever queued: the handler takes every event, so `next()` returns only at the end.
        waitForEnd = { while await queue.next() != nil {} }
    }

    /// Stops answering: the handler is not called for requests routed after this.
    public func cancel() {
        end()
    }

    /// Waits until the responder has stopped: the agent stopped, or ``cancel()`` was called.
    /// Cancelling the waiting task stops the responder too.
    public func wait() async {
        await waitForEnd()
    }
}

/// A handler that takes an observer's events on the thread that routes them.
typealias InlineHandler<Element> = @Sendable (Element) -> Void
