public import CoreTypes

/// Answering requests inline: the handler runs on the agent's network thread, right after the
/// request is decoded, and its response goes out in the same pass (the fastest way to answer; see
/// `docs/performance.md`, B2). Keep a handler short and never let it wait; for answers that must
/// wait, observe the requests (``Agent/observeDiscover(responderGroup:isolation:_:)``) and answer from a task.
/// An error a handler throws is logged (level `warning`) and the agent goes on answering.
///
/// With a `responderGroup` (or ``Agent/Configuration/responderGroup``), the agents answering in
/// the same group share the requests: each reaches one of them (see <doc:ReplicatedResponders>).
extension Agent {
    /// Answers Discover requests with `handler` until the task is cancelled.
    ///
    /// - Throws: `AgentError.Code.stopped` when the agent stops (or has stopped),
    ///   `AgentError.Code.subscribeFailed` when the broker refused the subscription.
    public func serveDiscover(
        responderGroup: String? = nil, isolation: isolated (any Actor)? = #isolation,
        _ handler: @escaping @Sendable (IncomingRequest<Discover>) throws -> Void
    ) async throws {
        try await serving(try await startServingDiscover(responderGroup: responderGroup, handler))
    }

    /// Answers Discover requests with `handler` while `body` runs, and returns what `body` returns.
    ///
    /// ```swift
    /// try await agent.serveDiscover { request in /* try request.respond(…) */ } while: {
    ///     try await work()  // requests are answered meanwhile
    /// }
    /// ```
    public func serveDiscover<Result>(
        responderGroup: String? = nil, isolation: isolated (any Actor)? = #isolation,
        _ handler: @escaping @Sendable (IncomingRequest<Discover>) throws -> Void,
        while body: () async throws -> Result
    ) async throws -> Result {
        let responder = try await startServingDiscover(responderGroup: responderGroup, handler)
        defer { responder.cancel() }
        return try await body()
    }

    /// Answers Query requests with `handler` until the task is cancelled.
    ///
    /// - Throws: `AgentError.Code.stopped` when the agent stops (or has stopped),
    ///   `AgentError.Code.subscribeFailed` when the broker refused the subscription.
    public func serveQuery(
        responderGroup: String? = nil, isolation: isolated (any Actor)? = #isolation,
        _ handler: @escaping @Sendable (IncomingRequest<Query>) throws -> Void
    ) async throws {
        try await serving(try await startServingQuery(responderGroup: responderGroup, handler))
    }

    /// Answers Query requests with `handler` while `body` runs, and returns what `body` returns.
    ///
    /// ```swift
    /// try await agent.serveQuery { request in /* try request.respond(…) */ } while: {
    ///     try await work()  // requests are answered meanwhile
    /// }
    /// ```
    public func serveQuery<Result>(
        responderGroup: String? = nil, isolation: isolated (any Actor)? = #isolation,
        _ handler: @escaping @Sendable (IncomingRequest<Query>) throws -> Void,
        while body: () async throws -> Result
    ) async throws -> Result {
        let responder = try await startServingQuery(responderGroup: responderGroup, handler)
        defer { responder.cancel() }
        return try await body()
    }

    /// Answers Update requests for a core type with `handler` until the task is cancelled.
    ///
    /// - Throws: `AgentError.Code.stopped` when the agent stops (or has stopped),
    ///   `AgentError.Code.subscribeFailed` when the broker refused the subscription.
    public func serveUpdate(
        coreType: CoreType, responderGroup: String? = nil, isolation: isolated (any Actor)? = #isolation,
        _ handler: @escaping @Sendable (IncomingRequest<Update>) throws -> Void
    ) async throws {
        try await serving(try await startServingUpdate(coreType: coreType, responderGroup: responderGroup, handler))
    }

    /// Answers Update requests for a core type with `handler` while `body` runs, and returns what `body` returns.
    ///
    /// ```swift
    /// try await agent.serveUpdate(coreType: .task) { request in /* try request.respond(…) */ } while: {
    ///     try await work()  // requests are answered meanwhile
    /// }
    /// ```
    public func serveUpdate<Result>(
        coreType: CoreType, responderGroup: String? = nil, isolation: isolated (any Actor)? = #isolation,
        _ handler: @escaping @Sendable (IncomingRequest<Update>) throws -> Void,
        while body: () async throws -> Result
    ) async throws -> Result {
        let responder = try await startServingUpdate(coreType: coreType, responderGroup: responderGroup, handler)
        defer { responder.cancel() }
        return try await body()
    }

    /// Answers Update requests for an object type (as ``observeUpdate(objectType:responderGroup:isolation:_:)`` delivers them) with `handler` until the task is cancelled.
    ///
    /// - Throws: `AgentError.Code.stopped` when the agent stops (or has stopped),
    ///   `AgentError.Code.subscribeFailed` when the broker refused the subscription.
    public func serveUpdate(
        objectType: String, responderGroup: String? = nil, isolation: isolated (any Actor)? = #isolation,
        _ handler: @escaping @Sendable (IncomingRequest<Update>) throws -> Void
    ) async throws {
        try await serving(try await startServingUpdate(objectType: objectType, responderGroup: responderGroup, handler))
    }

    /// Answers Update requests for an object type (as ``observeUpdate(objectType:responderGroup:isolation:_:)`` delivers them) with `handler` while `body` runs, and returns what `body` returns.
    ///
    /// ```swift
    /// try await agent.serveUpdate(objectType: "com.example.Light") { request in /* try request.respond(…) */ } while: {
    ///     try await work()  // requests are answered meanwhile
    /// }
    /// ```
    public func serveUpdate<Result>(
        objectType: String, responderGroup: String? = nil, isolation: isolated (any Actor)? = #isolation,
        _ handler: @escaping @Sendable (IncomingRequest<Update>) throws -> Void,
        while body: () async throws -> Result
    ) async throws -> Result {
        let responder = try await startServingUpdate(objectType: objectType, responderGroup: responderGroup, handler)
        defer { responder.cancel() }
        return try await body()
    }

    /// Answers Call requests for one operation (as ``observeCall(_:context:responderGroup:isolation:_:)`` delivers them) with `handler` until the task is cancelled.
    ///
    /// - Throws: `AgentError.Code.stopped` when the agent stops (or has stopped),
    ///   `AgentError.Code.subscribeFailed` when the broker refused the subscription.
    public func serveCall(
        _ operation: String, context: (any CoatyObject)? = nil, responderGroup: String? = nil, isolation: isolated (any Actor)? = #isolation,
        _ handler: @escaping @Sendable (IncomingRequest<Call>) throws -> Void
    ) async throws {
        try await serving(try await startServingCall(operation, context: context, responderGroup: responderGroup, handler))
    }

    /// Answers Call requests for one operation (as ``observeCall(_:context:responderGroup:isolation:_:)`` delivers them) with `handler` while `body` runs, and returns what `body` returns.
    ///
    /// ```swift
    /// try await agent.serveCall("com.example.switch") { request in /* try request.respond(…) */ } while: {
    ///     try await work()  // requests are answered meanwhile
    /// }
    /// ```
    public func serveCall<Result>(
        _ operation: String, context: (any CoatyObject)? = nil, responderGroup: String? = nil, isolation: isolated (any Actor)? = #isolation,
        _ handler: @escaping @Sendable (IncomingRequest<Call>) throws -> Void,
        while body: () async throws -> Result
    ) async throws -> Result {
        let responder = try await startServingCall(operation, context: context, responderGroup: responderGroup, handler)
        defer { responder.cancel() }
        return try await body()
    }

    /// Waits until `responder` ends, then ends it; throws why it ended unless the task was cancelled.
    func serving(_ responder: InlineResponder, isolation: isolated (any Actor)? = #isolation) async throws {
        defer { responder.cancel() }
        await responder.wait()
        if let failure = responder.failure { throw failure }
    }
}
