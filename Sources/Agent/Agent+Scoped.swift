public import CoreTypes

/// The public shape of observing and answering: scoped calls.
///
/// An observation lives while its `body` runs and ends when `body` returns or throws (its MQTT
/// subscription is released when no other observer shares it), so it can neither end nor live on
/// by accident. A `serve…` call answers requests for as long as it runs.
extension Agent {
    /// Observes Advertise events of a core type (`coaty/3/<ns>/ADV:<CoreType>/+`) while `body` runs.
    ///
    /// Like coaty-js, every object advertised on that topic is delivered, whatever its object type.
    /// `body` starts once the broker has acknowledged the subscription (if the agent is online).
    ///
    /// ```swift
    /// try await agent.observeAdvertise(coreType: .task) { events in
    ///     for try await event in events { logger.info("\(event.event.object.name)") }
    /// }
    /// ```
    ///
    /// - Throws: `AgentError.Code.stopped` after the agent stopped; what `body` throws.
    public func observeAdvertise<Result>(
        coreType: CoreType, isolation: isolated (any Actor)? = #isolation,
        _ body: (EventStream<Received<Advertise>>) async throws -> Result
    ) async throws -> Result {
        try await observing(try await observeAdvertise(coreType: coreType), body)
    }

    /// Observes Advertise events of one object type while `body` runs.
    ///
    /// A canonical core object type (`coaty.Task`) is observed on the core-type topic and filtered
    /// locally, as coaty-js does; any other object type on `ADV::<objectType>`.
    ///
    /// - Throws: `AgentError.Code.invalidEvent` for an invalid object type, `AgentError.Code.stopped`.
    public func observeAdvertise<Result>(
        objectType: String, isolation: isolated (any Actor)? = #isolation,
        _ body: (EventStream<Received<Advertise>>) async throws -> Result
    ) async throws -> Result {
        try await observing(try await observeAdvertise(objectType: objectType), body)
    }

    /// Observes Deadvertise events (`coaty/3/<ns>/DAD/+`), the last wills of agents that died
    /// included, while `body` runs.
    public func observeDeadvertise<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: (EventStream<Received<Deadvertise>>) async throws -> Result
    ) async throws -> Result {
        try await observing(try await observeDeadvertise(), body)
    }

    /// Observes Channel events on one channel id while `body` runs.
    ///
    /// - Throws: `AgentError.Code.invalidEvent` for an invalid channel id.
    public func observeChannel<Result>(
        _ channelID: String, isolation: isolated (any Actor)? = #isolation,
        _ body: (EventStream<Received<Channel>>) async throws -> Result
    ) async throws -> Result {
        try await observing(try await observeChannel(channelID), body)
    }

    /// Observes Associate events of one IO context while `body` runs.
    public func observeAssociate<Result>(
        ioContextName: String, isolation: isolated (any Actor)? = #isolation,
        _ body: (EventStream<Received<Associate>>) async throws -> Result
    ) async throws -> Result {
        try await observing(try await observeAssociate(ioContextName: ioContextName), body)
    }

    /// Observes Discover requests while `body` runs; answer each with ``IncomingRequest/respond(_:)``.
    public func observeDiscover<Result>(
        responderGroup: String? = nil, isolation: isolated (any Actor)? = #isolation,
        _ body: (EventStream<IncomingRequest<Discover>>) async throws -> Result
    ) async throws -> Result {
        try await observing(try await observeDiscover(responderGroup: responderGroup), body)
    }

    /// Observes Query requests while `body` runs; answer each with ``IncomingRequest/respond(_:)``.
    public func observeQuery<Result>(
        responderGroup: String? = nil, isolation: isolated (any Actor)? = #isolation,
        _ body: (EventStream<IncomingRequest<Query>>) async throws -> Result
    ) async throws -> Result {
        try await observing(try await observeQuery(responderGroup: responderGroup), body)
    }

    /// Observes Update requests for a core type while `body` runs.
    public func observeUpdate<Result>(
        coreType: CoreType, responderGroup: String? = nil, isolation: isolated (any Actor)? = #isolation,
        _ body: (EventStream<IncomingRequest<Update>>) async throws -> Result
    ) async throws -> Result {
        try await observing(try await observeUpdate(coreType: coreType, responderGroup: responderGroup), body)
    }

    /// Observes Update requests for an object type (canonical core object types as for Advertise)
    /// while `body` runs.
    public func observeUpdate<Result>(
        objectType: String, responderGroup: String? = nil, isolation: isolated (any Actor)? = #isolation,
        _ body: (EventStream<IncomingRequest<Update>>) async throws -> Result
    ) async throws -> Result {
        try await observing(try await observeUpdate(objectType: objectType, responderGroup: responderGroup), body)
    }

    /// Observes Call requests for one operation while `body` runs.
    ///
    /// With a `context` object, a Call is delivered only if it has a filter that the context
    /// matches; without one, every Call is delivered (coaty-js's rule). A filter that cannot be
    /// evaluated is not delivered, and the observation stays open.
    public func observeCall<Result>(
        _ operation: String, context: (any CoatyObject)? = nil, responderGroup: String? = nil,
        isolation: isolated (any Actor)? = #isolation, _ body: (EventStream<IncomingRequest<Call>>) async throws -> Result
    ) async throws -> Result {
        try await observing(try await observeCall(operation, context: context, responderGroup: responderGroup), body)
    }

    /// Observes raw MQTT messages on a topic filter (MQTT wildcards allowed; never `coaty/…`)
    /// while `body` runs. Coaty topics never reach raw observers, even through `#`.
    ///
    /// - Throws: `AgentError.Code.invalidEvent` when coaty-js would refuse the filter or it
    ///   breaks MQTT's wildcard rules (`a/#/b`, `a+`).
    public func observeRaw<Result>(
        _ topicFilter: String, isolation: isolated (any Actor)? = #isolation,
        _ body: (EventStream<Raw>) async throws -> Result
    ) async throws -> Result {
        try await observing(try await observeRaw(topicFilter), body)
    }

    /// Observes the IO values published on an IO route (a Coaty route `coaty/3/<ns>/IOV/<sourceId>`
    /// or an external topic), decoded as JSON unless `usesRawValues`, while `body` runs.
    public func observeIoValue<Result>(
        route: String, usesRawValues: Bool = false, isolation: isolated (any Actor)? = #isolation,
        _ body: (EventStream<IoValue>) async throws -> Result
    ) async throws -> Result {
        try await observing(try await observeIoValue(route: route, usesRawValues: usesRawValues), body)
    }

    /// Observes every Coaty message in the agent's namespace (every namespace when the agent is
    /// cross-namespacing), undecoded and in arrival order, its own included, while `body` runs:
    /// the view of a monitoring tool (`coaty/3/<namespace>/#`).
    public func observeAllEvents<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: (EventStream<CoatyMessage>) async throws -> Result
    ) async throws -> Result {
        try await observing(try await observeAllEvents(), body)
    }

    /// Watches the agent's connection state, now and at every change until the agent stops,
    /// while `body` runs.
    ///
    /// ```swift
    /// try await agent.observeConnectionState { states in
    ///     for await state in states where state == .online { break }
    /// }
    /// ```
    public func observeConnectionState<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: (ConnectionStates) async throws -> Result
    ) async throws -> Result {
        let states = connectionStates()
        defer { states.states.end() }
        return try await body(states)
    }

    /// Runs `body` with `stream`, then ends the observation, also when `body` throws.
    func observing<Element: Sendable, Result>(
        _ stream: EventStream<Element>, isolation: isolated (any Actor)? = #isolation,
        _ body: (EventStream<Element>) async throws -> Result
    ) async throws -> Result {
        defer { stream.end() }
        return try await body(stream)
    }
}
