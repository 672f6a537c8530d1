public import CoreTypes
import Synchronization

/// The responses to one two-way request, as they arrive, until the request's timeout.
///
/// Every response that fits the request (coaty-js's checks) is delivered; the stream finishes
/// when the timeout passes, the iterating task is cancelled, the stream is dropped, the agent
/// stops, or the broker refuses the response subscription. Then the response subscription is released and late responses are dropped (counted in
/// ``Agent/statistics``).
///
/// ```swift
/// for await resolve in try await agent.discover(Discover(coreTypes: [.identity]), timeout: .seconds(2)) {
///     print(resolve.event.object?.name ?? "?", "from", resolve.sourceID)
/// }
/// ```
public struct Responses<Response: CoatyEvent>: AsyncSequence, Sendable {
    /// The iterator of the stream.
    public typealias AsyncIterator = AsyncStream<Received<Response>>.Iterator

    let base: AsyncStream<Received<Response>>
    let timeout: Duration
    let ending: ResponseEnding

    /// Makes an iterator.
    public func makeAsyncIterator() -> AsyncStream<Received<Response>>.Iterator {
        base.makeAsyncIterator()
    }

    /// The first response.
    ///
    /// - Throws: ``AgentError`` with code ``AgentError/Code/responseTimedOut`` when none arrived
    ///   before the timeout (or the task was cancelled), ``AgentError/Code/stopped`` when the
    ///   agent stopped first, ``AgentError/Code/subscribeFailed`` when the broker refused the
    ///   subscription to the response topic of a ``Agent/RequestPublication/pipelined`` request.
    public func first() async throws -> Received<Response> {
        for await response in self { return response }
        if let error = ending.error { throw error }
        throw AgentError(
            code: .responseTimedOut,
            detail: "no \(Response.eventType) arrived within \(timeout); check that a responder is online in this namespace")
    }

    /// Every response that arrives before the timeout.
    public func collect() async -> [Received<Response>] {
        var all: [Received<Response>] = []
        for await response in self { all.append(response) }
        return all
    }
}

/// Why a request's responses ended early: the agent stopped, or the broker refused the response
/// subscription (when the request was published without waiting for the SUBACK). Nothing is
/// recorded for the timeout, cancellation or a dropped stream.
final class ResponseEnding: Sendable {
    private let failure = Mutex<AgentError?>(nil)

    /// Records why the responses end; call before finishing the stream. The first reason stays.
    func record(_ error: AgentError) {
        failure.withLock { if $0 == nil { $0 = error } }
    }

    /// The recorded reason, if any.
    var error: AgentError? { failure.withLock { $0 } }
}
