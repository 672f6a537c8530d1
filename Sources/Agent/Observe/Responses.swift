public import CoreTypes
import Synchronization

/// The responses to one two-way request, as they arrive, until the request's timeout.
///
/// Every response that fits the request (coaty-js's checks) is delivered; the stream finishes
/// when the timeout passes, the iterating task is cancelled, the stream is dropped, or the agent
/// stops. Then the response subscription is released and late responses are dropped (counted in
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
    ///   agent stopped first.
    public func first() async throws -> Received<Response> {
        for await response in self { return response }
        if ending.isStopped {
            throw AgentError(code: .stopped, detail: "the agent stopped before any \(Response.eventType) arrived")
        }
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

/// Whether a request's responses ended because the agent stopped (rather than at the timeout).
final class ResponseEnding: Sendable {
    private let stopped = Atomic<Bool>(false)

    /// Records that the agent stopped; call before finishing the stream.
    func markStopped() { stopped.store(true, ordering: .relaxed) }

    /// Whether ``markStopped()`` was called.
    var isStopped: Bool { stopped.load(ordering: .relaxed) }
}
