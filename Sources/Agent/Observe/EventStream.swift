public import CoreTypes

/// A stream of events an agent delivers to one observer.
///
/// Each observer has its own buffer (``Agent/Configuration/observerBufferSize``). When it is full,
/// the agent stops reading its connection until the observer catches up, so nothing is lost; an
/// observer may drop events instead (``overflowPolicy(_:)``). The observation ends, and its MQTT subscription is
/// released when no other observer shares it, when the scope that observes returns, the iterating
/// task is cancelled, or the agent stops. An iterator's `next()` then returns `nil`, except when the
/// agent stopped or the broker refused the subscription: then it throws that reason as an
/// ``AgentError`` (`AgentError.Code.stopped`, `AgentError.Code.subscribeFailed`). Iterate it
/// from one task at a time.
public struct EventStream<Element: Sendable>: AsyncSequence, Sendable {
    let consumer: DeliveryQueue<Element>.Consumer
    /// The queue's `next()`, made where `Element` is known: the iterator runs unspecialized in the
    /// module that iterates, and sees only this function value (see ``Responses``).
    private let nextEvent: @Sendable () async -> Element?

    /// Sets the queue's overflow (made where `Element` is known, as `nextEvent`).
    private let changeOverflow: @Sendable (OverflowPolicy) -> Void
    /// Why the queue ended, if not normally.
    private let failure: @Sendable () -> AgentError?

    /// A stream of `queue`, whose backpressure holds `pressure` (the agent connection's).
    init(queue: DeliveryQueue<Element>, pressure: ReadPressure) {
        self.consumer = DeliveryQueue.Consumer(queue)
        nextEvent = { await queue.next() }
        changeOverflow = { policy in queue.setOverflow(policy.overflow(holding: pressure)) }
        failure = { queue.failure }
    }

    /// Ends the observation: what is buffered is dropped and iterators return `nil`.
    func end() {
        consumer.queue.cancel()
    }

    /// Sets what this observer's full buffer does from now on, instead of the agent's
    /// ``Agent/Configuration/observerOverflow``; returns the stream.
    ///
    /// ```swift
    /// let positions = try await agent.observeChannel("positions").overflowPolicy(.dropOldest)
    /// ```
    @discardableResult
    public func overflowPolicy(_ policy: OverflowPolicy) -> EventStream<Element> {
        changeOverflow(policy)
        return self
    }

    /// Calls `body` with each event until the stream ends; rethrows the reason of an abnormal end.
    package func forEachEvent(_ body: (Element) throws -> Void) async throws {
        for try await event in self { try body(event) }
    }

    /// Makes an iterator. Each event goes to one iterator; one made later goes on with the next.
    public func makeAsyncIterator() -> Iterator {
        Iterator(consumer: consumer, nextEvent: nextEvent, failure: failure)
    }

    /// The iterator of the stream.
    public struct Iterator: AsyncIteratorProtocol {
        /// Keeps the observation (or the request, behind ``Responses``) open while the iterator
        /// lives, even when the stream is gone.
        let consumer: DeliveryQueue<Element>.Consumer
        let nextEvent: @Sendable () async -> Element?
        let failure: @Sendable () -> AgentError?

        /// The next event; `nil` once the stream has ended normally (see ``EventStream``) and every
        /// event buffered before the end has been taken, or when the iterating task is cancelled.
        ///
        /// - Throws: ``AgentError`` with code `AgentError.Code.stopped` when the agent stopped,
        ///   `AgentError.Code.subscribeFailed` when the broker refused the subscription.
        public mutating func next() async throws -> Element? {
            if let event = await nextEvent() { return event }
            if let failure = failure() { throw failure }
            return nil
        }
    }
}

/// A one-way event as an observer receives it: the event and where it came from.
public struct Received<Event: Sendable>: Sendable {
    /// The event.
    public let event: Event
    /// The topic it arrived on.
    public let topic: CoatyTopic
    /// The identity id of the agent that published it (for IO values, the IO source id).
    public var sourceID: String { topic.sourceID }
}

/// A two-way request as a responder receives it. Answer it with ``respond(_:)``, any number of times.
///
/// ```swift
/// for try await request in try await agent.observeDiscover() {
///     if request.event.objectID == lamp.objectID {
///         try request.respond(Resolve(object: lamp))
///     }
/// }
/// ```
public struct IncomingRequest<Request: RequestEvent>: Sendable {
    /// The request.
    public let event: Request
    /// The topic it arrived on.
    public let topic: CoatyTopic
    let responder: Responder

    /// The identity id of the requesting agent.
    public var sourceID: String { topic.sourceID }
    /// The correlation id that every response carries (`nil` if the request topic had none).
    public var correlationID: String? { topic.correlationID }

    /// Publishes `response` to the requester.
    ///
    /// - Throws: ``AgentError`` with code `AgentError.Code.invalidEvent` when the response does
    ///   not fit the request (coaty-js would drop it: wrong object id or type, …) or is not valid,
    ///   or `AgentError.Code.stopped` when the agent has stopped.
    public func respond(_ response: Request.Response) throws {
        let publication: Publication
        do {
            publication = try event.responsePublication(response, correlationID: correlationID, in: responder.scope)
        } catch {
            throw AgentError(code: .invalidEvent, detail: "response to \(Request.eventType): \(error)")
        }
        try responder.publish(publication)
    }
}

/// What a received request needs to answer: the agent's scope and the agent, held weakly (a
/// request kept after its agent is gone does not keep the agent alive). A weak reference, not a
/// closure: no allocation per request.
struct Responder: Sendable {
    let scope: AgentScope
    weak var agent: Agent?

    func publish(_ publication: Publication) throws {
        guard let agent else { throw AgentError(code: .stopped, detail: "the agent is gone; no response was sent") }
        try agent.publish(publication)
    }
}

