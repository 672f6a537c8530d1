package import CoreTypes
import Logging

extension Agent {
    /// Answers Discover requests with `handler`, which the agent calls for each request on its
    /// network thread, right after decoding it.
    ///
    /// This is the fastest way to answer: no stream, no task to resume, and the response is
    /// published in the same pass of the network thread that read the request (see
    /// `docs/performance.md`, B2). The price is that `handler` holds up the agent while it runs:
    /// keep it short and never let it wait (no locks held by other tasks, no blocking I/O). For
    /// answers that need to wait, use ``observeDiscover()`` and a task of your own.
    ///
    /// An error that `handler` throws is logged (level `warning`) with the request's topic; the
    /// agent goes on answering. When this returns, the broker has acknowledged the subscription
    /// (if the agent is online). The agent answers for as long as the returned
    /// ``InlineResponder`` lives. With a `responderGroup` (or the configured one), each request
    /// reaches one agent of the group.
    ///
    /// - Throws: `AgentError.Code.stopped` after the agent stopped, `AgentError.Code.subscribeFailed`
    ///   when the broker refused the subscription.
    package func startServingDiscover(
        responderGroup: String? = nil, _ handler: @escaping @Sendable (IncomingRequest<Discover>) throws -> Void
    ) async throws -> InlineResponder {
        InlineResponder(try await responder(in: responderGroup).observeDiscover(handler: inline(handler)))
    }

    /// Answers Query requests with `handler`, called on the agent's network thread (see
    /// ``serveDiscover(_:)`` for what that means for the handler).
    package func startServingQuery(
        responderGroup: String? = nil, _ handler: @escaping @Sendable (IncomingRequest<Query>) throws -> Void
    ) async throws -> InlineResponder {
        InlineResponder(try await responder(in: responderGroup).observeQuery(handler: inline(handler)))
    }

    /// Answers Update requests for a core type with `handler`, called on the agent's network
    /// thread (see ``serveDiscover(_:)``).
    package func startServingUpdate(
        coreType: CoreType, responderGroup: String? = nil,
        _ handler: @escaping @Sendable (IncomingRequest<Update>) throws -> Void
    ) async throws -> InlineResponder {
        InlineResponder(
            try await responder(in: responderGroup).observeUpdate(
                plan: .update(coreType: coreType, in: scope), handler: inline(handler)))
    }

    /// Answers Update requests for an object type with `handler`, called on the agent's network
    /// thread (see ``serveDiscover(_:)``; the requests delivered are those of
    /// ``observeUpdate(objectType:)``).
    ///
    /// - Throws: `AgentError.Code.invalidEvent` for an invalid object type, and the errors of
    ///   ``serveDiscover(_:)``.
    package func startServingUpdate(
        objectType: String, responderGroup: String? = nil,
        _ handler: @escaping @Sendable (IncomingRequest<Update>) throws -> Void
    ) async throws -> InlineResponder {
        InlineResponder(
            try await responder(in: responderGroup).observeUpdate(objectType: objectType, handler: inline(handler)))
    }

    /// Answers Call requests for one operation with `handler`, called on the agent's network
    /// thread (see ``serveDiscover(_:)``; the requests delivered are those of
    /// ``observeCall(_:context:)``).
    ///
    /// ```swift
    /// let switcher = try await agent.serveCall("com.example.switchLight", context: room) { request in
    ///     try request.respond(Return(result: true))
    /// }
    /// ```
    ///
    /// - Throws: `AgentError.Code.invalidEvent` for an invalid operation name, and the errors of
    ///   ``serveDiscover(_:)``.
    package func startServingCall(
        _ operation: String, context: (any CoatyObject)? = nil, responderGroup: String? = nil,
        _ handler: @escaping @Sendable (IncomingRequest<Call>) throws -> Void
    ) async throws -> InlineResponder {
        InlineResponder(
            try await responder(in: responderGroup).observeCall(operation, context: context, handler: inline(handler)))
    }

    /// Wraps a throwing request handler: its errors are logged, and the agent goes on.
    private func inline<Request: RequestEvent>(
        _ handler: @escaping @Sendable (IncomingRequest<Request>) throws -> Void
    ) -> InlineHandler<IncomingRequest<Request>> {
        let logger = self.logger
        return { request in
            do {
                try handler(request)
            } catch {
                logger.warning(
                    "Request handler failed; the agent goes on answering",
                    metadata: ["coaty.event": "\(Request.eventType)", "mqtt.topic": "\(request.topic)", "error": "\(error)"])
            }
        }
    }
}
