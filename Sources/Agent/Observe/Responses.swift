public import CoreTypes

/// The responses to one two-way request, as they arrive, until the request's timeout.
///
/// Every response that fits the request (coaty-js's checks) is delivered; the responses end when
/// the timeout passes, the iterating task is cancelled, the responses and their iterators are
/// dropped, the agent stops, or the broker refuses the response subscription. Then the response
/// subscription is released and late responses are dropped (counted in ``Agent/statistics``).
/// Responses that arrive faster than they are taken wait in a buffer of
/// ``Agent/Configuration/observerBufferSize``; beyond it, ``Agent/Configuration/observerOverflow`` applies.
///
/// ```swift
/// for try await resolve in try await agent.discover(Discover(coreTypes: [.identity]), timeout: .seconds(2)) {
///     logger.info("Resolved", metadata: ["from": "\(resolve.sourceID)"])
/// }
/// ```
public struct Responses<Response: CoatyEvent>: AsyncSequence, Sendable {
    /// The iterator of the responses: an ``EventStream``'s, over the same queue.
    public typealias Iterator = EventStream<Received<Response>>.Iterator

    /// The responses as a stream (the stream's consumer side keeps the request open).
    private let events: EventStream<Received<Response>>
    /// The first response, as a closure made where `Response` is known: ``first()`` runs
    /// unspecialized in the module that awaits the responses, where calling the generic queue
    /// looked up the metadata of its state and of `Optional`s of the element at run time (see
    /// ``EventStream``).
    private let firstResponse: @Sendable () async throws -> Received<Response>

    init(queue: DeliveryQueue<Received<Response>>, timeout: Duration, pressure: ReadPressure) {
        events = EventStream(queue: queue, pressure: pressure)
        firstResponse = {
            if let response = await queue.next() { return response }
            if let error = queue.failure { throw error }
            throw AgentError(
                code: .responseTimedOut,
                detail: "no \(Response.eventType) arrived within \(timeout); check that a responder is online in this namespace")
        }
    }

    /// Makes an iterator. Iterate the responses from one task at a time; the next response, or
    /// `nil` when the responses have ended (see ``Responses``); it throws when the agent stopped
    /// or the broker refused the response subscription.
    public func makeAsyncIterator() -> Iterator {
        events.makeAsyncIterator()
    }

    /// The first response.
    ///
    /// - Throws: ``AgentError`` with code `AgentError.Code.responseTimedOut` when none arrived
    ///   before the timeout (or the task was cancelled), `AgentError.Code.stopped` when the
    ///   agent stopped first, `AgentError.Code.subscribeFailed` when the broker refused the
    ///   subscription to the response topic of a ``Agent/RequestPublication/pipelined`` request.
    public func first() async throws -> Received<Response> {
        // `self`, and with it the stream that keeps the request open, lives for the call.
        try await firstResponse()
    }

    /// Every response that arrives before the timeout.
    ///
    /// - Throws: ``AgentError`` with code `AgentError.Code.stopped` when the agent stopped first,
    ///   `AgentError.Code.subscribeFailed` when the broker refused the response subscription.
    public func collect() async throws -> [Received<Response>] {
        var all: [Received<Response>] = []
        for try await response in events { all.append(response) }
        return all
    }
}
