public import CoreTypes

/// Answering requests inline: the handler runs on the agent's network thread, right after the
/// request is decoded, and its response goes out in the same pass (the fastest way to answer; see
/// `docs/performance.md`, B2). Keep a handler short and never let it wait; for answers that must
/// wait, observe the requests (``Agent/observeDiscover(isolation:_:)``) and answer from a task.
/// An error a handler throws is logged (level `warning`) and the agent goes on answering.
extension Agent {
    /// Answers Discover requests with `handler` until the task is cancelled.
    ///
    /// - Throws: `AgentError.Code.stopped` when the agent stops (or has stopped),
    ///   `AgentError.Code.subscribeFailed` when the broker refused the subscription.
    public func serveDiscover(
        isolation: isolated (any Actor)? = #isolation,
        _ handler: @escaping @Sendable (IncomingRequest<Discover>) throws -> Void
    ) async throws {
        try await serving(try await startServingDiscover(handler))
    }

    /// Answers Discover requests with `handler` while `body` runs, and returns what `body` returns.
    ///
    /// ```swift
    /// try await agent.serveDiscover { request in /* try request.respond(…) */ } while: {
    ///     try await work()  // requests are answered meanwhile
    /// }
    /// ```
    public func serveDiscover<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ handler: @escaping @Sendable (IncomingRequest<Discover>) throws -> Void,
        while body: () async throws -> Result
    ) async throws -> Result {
        let responder = try await startServingDiscover(handler)
        defer { responder.cancel() }
        return try await body()
    }

    /// Answers Query requests with `handler` until the task is cancelled.
    ///
    /// - Throws: `AgentError.Code.stopped` when the agent stops (or has stopped),
    ///   `AgentError.Code.subscribeFailed` when the broker refused the subscription.
    public func serveQuery(
        isolation: isolated (any Actor)? = #isolation,
        _ handler: @escaping @Sendable (IncomingRequest<Query>) throws -> Void
    ) async throws {
        try await serving(try await startServingQuery(handler))
    }

    /// Answers Query requests with `handler` while `body` runs, and returns what `body` returns.
    ///
    /// ```swift
    /// try await agent.serveQuery { request in /* try request.respond(…) */ } while: {
    ///     try await work()  // requests are answered meanwhile
    /// }
    /// ```
    public func serveQuery<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ handler: @escaping @Sendable (IncomingRequest<Query>) throws -> Void,
        while body: () async throws -> Result
    ) async throws -> Result {
        let responder = try await startServingQuery(handler)
        defer { responder.cancel() }
        return try await body()
    }

    /// Answers Update requests for a core type with `handler` until the task is cancelled.
    ///
    /// - Throws: `AgentError.Code.stopped` when the agent stops (or has stopped),
    ///   `AgentError.Code.subscribeFailed` when the broker refused the subscription.
    public func serveUpdate(
        coreType: CoreType, isolation: isolated (any Actor)? = #isolation,
        _ handler: @escaping @Sendable (IncomingRequest<Update>) throws -> Void
    ) async throws {
        try await serving(try await startServingUpdate(coreType: coreType, handler))
    }

    /// Answers Update requests for a core type with `handler` while `body` runs, and returns what `body` returns.
    ///
    /// ```swift
    /// try await agent.serveUpdate(coreType: .task) { request in /* try request.respond(…) */ } while: {
    ///     try await work()  // requests are answered meanwhile
    /// }
    /// ```
    public func serveUpdate<Result>(
        coreType: CoreType, isolation: isolated (any Actor)? = #isolation,
        _ handler: @escaping @Sendable (IncomingRequest<Update>) throws -> Void,
        while body: () async throws -> Result
    ) async throws -> Result {
        let responder = try await startServingUpdate(coreType: coreType, handler)
        defer { responder.cancel() }
        return try await body()
    }

    /// Answers Update requests for an object type (as ``observeUpdate(objectType:isolation:_:)`` delivers them) with `handler` until the task is cancelled.
    ///
    /// - Throws: `AgentError.Code.stopped` when the agent stops (or has stopped),
    ///   `AgentError.Code.subscribeFailed` when the broker refused the subscription.
    public func serveUpdate(
        objectType: String, isolation: isolated (any Actor)? = #isolation,
        _ handler: @escaping @Sendable (IncomingRequest<Update>) throws -> Void
    ) async throws {
        try await serving(try await startServingUpdate(objectType: objectType, handler))
    }

    /// Answers Update requests for an object type (as ``observeUpdate(objectType:isolation:_:)`` delivers them) with `handler` while `body` runs, and returns what `body` returns.
    ///
    /// ```swift
    /// try await agent.serveUpdate(objectType: "com.example.Light") { request in /* try request.respond(…) */ } while: {
    ///     try await work()  // requests are answered meanwhile
    /// }
    /// ```
    public func serveUpdate<Result>(
        objectType: String, isolation: isolated (any Actor)? = #isolation,
        _ handler: @escaping @Sendable (IncomingRequest<Update>) throws -> Void,
        while body: () async throws -> Result
    ) async throws -> Result {
        let responder = try await startServingUpdate(objectType: objectType, handler)
        defer { responder.cancel() }
        return try await body()
    }

    /// Answers Call requests for one operation (as ``observeCall(_:context:isolation:_:)`` delivers them) with `handler` until the task is cancelled.
    ///
    /// - Throws: `AgentError.Code.stopped` when the agent stops (or has stopped),
    ///   `AgentError.Code.subscribeFailed` when the broker refused the subscription.
    public func serveCall(
        _ operation: String, context: (any CoatyObject)? = nil, isolation: isolated (any Actor)? = #isolation,
        _ handler: @escaping @Sendable (IncomingRequest<Call>) throws -> Void
    ) async throws {
        try await serving(try await startServingCall(operation, context: context, handler))
    }

    /// Answers Call requests for one operation (as ``observeCall(_:context:isolation:_:)`` delivers them) with `handler` while `body` runs, and returns what `body` returns.
    ///
    /// ```swift
    /// try await agent.serveCall("com.example.switch") { request in /* try request.respond(…) */ } while: {
    ///     try await work()  // requests are answered meanwhile
    /// }
    /// ```
    public func serveCall<Result>(
        _ operation: String, context: (any CoatyObject)? = nil, isolation: isolated (any Actor)? = #isolation,
        _ handler: @escaping @Sendable (IncomingRequest<Call>) throws -> Void,
        while body: () async throws -> Result
    ) async throws -> Result {
        let responder = try await startServingCall(operation, context: context, handler)
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
