import Synchronization
package import CoreTypes
import Logging

extension Agent {
    /// Observes Advertise events of a core type (`coaty/3/<ns>/ADV:<CoreType>/+`).
    ///
    /// Like coaty-js, every object advertised on that topic is delivered, whatever its object type.
    /// When this returns, the broker has acknowledged the subscription (if the agent is online).
    ///
    /// - Throws: `AgentError.Code.stopped` after the agent stopped.
    package func observeAdvertise(coreType: CoreType) async throws -> EventStream<Received<Advertise>> {
        try await observeAdvertise(plan: .advertise(coreType: coreType, in: scope))
    }

    /// Observes Advertise events of one object type.
    ///
    /// A canonical core object type (`coaty.Task`) is observed on the core-type topic and filtered
    /// locally, as coaty-js does; any other object type on `ADV::<objectType>`.
    ///
    /// - Throws: `AgentError.Code.invalidEvent` for an invalid object type, `AgentError.Code.stopped`.
    package func observeAdvertise(objectType: String) async throws -> EventStream<Received<Advertise>> {
        try await observeAdvertise(plan: plan { () throws(EventError) in try .advertise(objectType: objectType, in: scope) })
    }

    private func observeAdvertise(plan: ObservationPlan) async throws -> EventStream<Received<Advertise>> {
        try await observe(plan.topicFilter) { event in
            guard case .advertise(let received) = event, plan.admits(received.event.object) else { return nil }
            return received
        }
    }

    /// Observes Deadvertise events (`coaty/3/<ns>/DAD/+`), including the last wills of agents that died.
    package func observeDeadvertise() async throws -> EventStream<Received<Deadvertise>> {
        try await observe(ObservationPlan.deadvertise(in: scope).topicFilter) { event in
            guard case .deadvertise(let received) = event else { return nil }
            return received
        }
    }

    /// Observes Channel events on one channel id.
    ///
    /// - Throws: `AgentError.Code.invalidEvent` for an invalid channel id.
    package func observeChannel(_ channelID: String) async throws -> EventStream<Received<Channel>> {
        let plan = try plan { () throws(EventError) in try ObservationPlan.channel(channelID, in: scope) }
        return try await observe(plan.topicFilter) { event in
            guard case .channel(let received) = event else { return nil }
            return received
        }
    }

    /// Observes Associate events of one IO context.
    package func observeAssociate(ioContextName: String) async throws -> EventStream<Received<Associate>> {
        let plan = try plan { () throws(EventError) in try ObservationPlan.associate(ioContextName: ioContextName, in: scope) }
        return try await observe(plan.topicFilter) { event in
            guard case .associate(let received) = event else { return nil }
            return received
        }
    }

    /// Observes Discover requests (in `responderGroup`, else the configured group, if any); answer
    /// each with ``IncomingRequest/respond(_:)``.
    package func observeDiscover(responderGroup: String? = nil) async throws -> EventStream<IncomingRequest<Discover>> {
        try await responder(in: responderGroup).observeDiscover(handler: nil)
    }

    func observeDiscover(handler: InlineHandler<IncomingRequest<Discover>>?) async throws -> EventStream<IncomingRequest<Discover>> {
        try await observe(ObservationPlan.discover(in: scope).topicFilter, handler: handler) { event in
            guard case .discover(let request) = event else { return nil }
            return request
        }
    }

    /// Observes Query requests (in `responderGroup`, else the configured group, if any); answer
    /// each with ``IncomingRequest/respond(_:)``.
    package func observeQuery(responderGroup: String? = nil) async throws -> EventStream<IncomingRequest<Query>> {
        try await responder(in: responderGroup).observeQuery(handler: nil)
    }

    func observeQuery(handler: InlineHandler<IncomingRequest<Query>>?) async throws -> EventStream<IncomingRequest<Query>> {
        try await observe(ObservationPlan.query(in: scope).topicFilter, handler: handler) { event in
            guard case .query(let request) = event else { return nil }
            return request
        }
    }

    /// Observes Update requests for a core type (in `responderGroup`, else the configured group, if any).
    package func observeUpdate(
        coreType: CoreType, responderGroup: String? = nil
    ) async throws -> EventStream<IncomingRequest<Update>> {
        try await responder(in: responderGroup).observeUpdate(plan: .update(coreType: coreType, in: scope), handler: nil)
    }

    /// Observes Update requests for an object type (canonical core object types as for Advertise;
    /// in `responderGroup`, else the configured group, if any).
    package func observeUpdate(
        objectType: String, responderGroup: String? = nil
    ) async throws -> EventStream<IncomingRequest<Update>> {
        try await responder(in: responderGroup).observeUpdate(objectType: objectType, handler: nil)
    }

    func observeUpdate(
        objectType: String, handler: InlineHandler<IncomingRequest<Update>>?
    ) async throws -> EventStream<IncomingRequest<Update>> {
        try await observeUpdate(plan: plan { () throws(EventError) in try .update(objectType: objectType, in: scope) }, handler: handler)
    }

    func observeUpdate(
        plan: ObservationPlan, handler: InlineHandler<IncomingRequest<Update>>?
    ) async throws -> EventStream<IncomingRequest<Update>> {
        try await observe(plan.topicFilter, handler: handler) { event in
            guard case .update(let request) = event, plan.admits(request.event.object) else { return nil }
            return request
        }
    }

    /// Observes Call requests for one operation.
    ///
    /// With a `context` object, a Call is delivered only if it has a filter that the context
    /// matches; without one, every Call is delivered (coaty-js's rule). A filter that cannot be
    /// evaluated (for example `In` with an operand that is not an array) is not delivered; unlike
    /// coaty-js, the observation stays open, so a malformed Call cannot silence a callee. The Calls
    /// are those of `responderGroup`, else the configured group, if any.
    package func observeCall(
        _ operation: String, context: (any CoatyObject)? = nil, responderGroup: String? = nil
    ) async throws -> EventStream<IncomingRequest<Call>> {
        try await responder(in: responderGroup).observeCall(operation, context: context, handler: nil)
    }

    func observeCall(
        _ operation: String, context: (any CoatyObject)?, handler: InlineHandler<IncomingRequest<Call>>?
    ) async throws -> EventStream<IncomingRequest<Call>> {
        let plan = try plan { () throws(EventError) in try ObservationPlan.call(operation, in: scope) }
        let counters = self.counters
        return try await observe(plan.topicFilter, handler: handler) { event in
            guard case .call(let request) = event else { return nil }
            do {
                return try request.event.isDelivered(toObserverWithContext: context) ? request : nil
            } catch {
                counters.increment(.rejectedPayloads)
                return nil
            }
        }
    }

    /// Observes raw MQTT messages on a topic filter (MQTT wildcards allowed; never `coaty/…`).
    ///
    /// Coaty topics never reach raw observers, even through `#`.
    ///
    /// - Throws: ``AgentError`` with code `AgentError.Code.invalidEvent` when coaty-js would refuse
    ///   the filter, or when it breaks MQTT's wildcard rules (`a/#/b`, `a+`): coaty-js passes such a
    ///   filter on and the broker drops the connection; here nothing is subscribed.
    package func observeRaw(_ topicFilter: String) async throws -> EventStream<Raw> {
        let plan = try plan { () throws(EventError) in try ObservationPlan.raw(topicFilter) }
        guard MQTTTopic.isValidTopicFilter(topicFilter) else {
            throw AgentError(
                code: .invalidEvent,
                detail: "raw subscription filter '\(topicFilter)' breaks MQTT's wildcard rules: '+' and '#' must fill a "
                    + "whole level and '#' must be the last one; a broker drops the connection of a client that sends it")
        }
        let filter = plan.topicFilter.rawValue
        return try await observe(filter, register: { router, sink in router.addRaw(sink, filter: filter) },
            unregister: { router, id in router.removeRaw(id) }
        ) { event in
            guard case .raw(let raw) = event else { return nil }
            return raw
        }
    }

    /// Observes IO values published on an IO route (a Coaty route `coaty/3/<ns>/IOV/<sourceId>`
    /// or an external topic), decoded as JSON unless `usesRawValues`.
    package func observeIoValue(route: String, usesRawValues: Bool = false) async throws -> EventStream<IoValue> {
        let isExternal = !route.utf8.starts(with: "coaty/".utf8)
        _ = try plan { () throws(EventError) in try ObservationPlan.ioValue(route: route, isExternalRoute: isExternal) }
        let counters = self.counters
        return try await observe(route, register: { router, sink in router.addIO(sink, route: route) },
            unregister: { router, id in router.removeIO(id, route: route) }
        ) { event in
            guard case .ioValue(_, let payload) = event else { return nil }
            do {
                return try IoValue(payload: payload, actorUsesRawValues: usesRawValues)
            } catch {
                counters.increment(.rejectedPayloads)
                return nil
            }
        }
    }

    /// The agent's connection state, now and at every change, until the agent stops.
    package func connectionStates() -> ConnectionStates {
        // States, not data: a watcher that falls behind sees the latest ones.
        let queue = DeliveryQueue<ConnectionState>(capacity: 16, overflow: .dropOldest)
        let isStopped = state.withLock { state -> Bool in
            queue.yield(state.machine.connectionState)
            guard !state.machine.isStopped else { return true }
            // No termination handler that takes the lock: the states are yielded with the lock held,
            // and a cancelled watcher runs its handler under the runtime's lock of its own task.
            // A watcher that went away is dropped at the next state change.
            state.stateObservers[state.makeObserverID()] = queue
            return false
        }
        if isStopped { queue.finish() }
        return ConnectionStates(states: EventStream(queue: queue, pressure: client.readPressure))
    }

    // MARK: - Plumbing

    /// Turns an ``EventError`` from planning into an ``AgentError``.
    func plan<T>(_ body: () throws(EventError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw AgentError(code: .invalidEvent, detail: "\(error)")
        }
    }

    /// Observes a Coaty topic filter; the route key is the filter's event level.
    func observe<Element: Sendable>(
        _ filter: TopicFilter, handler: InlineHandler<Element>? = nil, pick: @escaping @Sendable (InboundEvent) -> Element?
    ) async throws -> EventStream<Element> {
        let key = Self.routeKey(of: filter.rawValue)
        return try await observe(filter.rawValue, register: { router, sink in router.add(sink, for: key) },
            unregister: { router, id in router.remove(id, for: key) }, handler: handler, pick: pick)
    }

    /// Registers an observer, subscribes (waiting for the SUBACK when online) and returns its stream.
    ///
    /// With a `handler`, the observer's events go to it, on the thread that routes them, and the
    /// stream only tells when the observation ends (see ``InlineResponder``).
    func observe<Element: Sendable>(
        _ filter: String,
        register: (inout Router, Sink) -> Void,
        unregister: @escaping @Sendable (inout Router, ObserverID) -> Void,
        handler: InlineHandler<Element>? = nil,
        pick: @escaping @Sendable (InboundEvent) -> Element?
    ) async throws -> EventStream<Element> {
        let filter = role.subscription(for: filter)
        let queue = makeObserverQueue(of: Element.self)
        let counters = self.counters
        let mustWait = try update { state throws(AgentError) -> (Bool, [Action]) in
            guard state.machine.isRunning else {
                throw AgentError(code: .stopped, detail: "agent \(scope.identityID) has stopped; cannot observe \(filter)")
            }
            let id = state.makeObserverID()
            // An inline handler takes the events itself; otherwise they go to the stream's queue.
            let logger = self.logger
            let take: InlineHandler<Element> = handler ?? { element in
                let result = queue.yield(element)
                counters.count(result)
                if result == .heldBack {
                    logger.debug("Observer buffer full; the agent stops reading until it drains", metadata: ["mqtt.filter": "\(filter)"])
                }
            }
            register(&state.router, Sink(id: id, isInline: handler != nil) { event in
                if let element = pick(event) { take(element) }
            })
            if handler == nil { state.observerBuffers[id] = { queue.takePeakFill() } }
            // After the events routed before it, which the network thread may still hold back
            // until the end of its pass (deliver(_:to:)).
            let loop = client.eventLoop
            let identityID = scope.identityID
            state.finishers[id] = { reason in
                let failure: AgentError? =
                    switch reason {
                    case .agentStopped:
                        AgentError(code: .stopped, detail: "agent \(identityID) stopped; the observation of \(filter) ended")
                    case .subscriptionRefused(let error): error
                    case .timedOut: nil
                    }
                loop.afterCurrentJobs { queue.finish(failure: failure) }
            }
            queue.setOnTermination { [weak self] termination in
                // The observing task ended (returned, threw or was cancelled), dropped the stream, or the agent stopped.
                guard let self else { return }
                let wasRunning = self.update { state in
                    unregister(&state.router, id)
                    state.finishers[id] = nil
                    state.observerBuffers[id] = nil
                    return (state.machine.isRunning, state.machine.removeSubscription(filter))
                }
                if wasRunning {
                    self.logger.debug(
                        "Observer removed", metadata: ["mqtt.filter": "\(filter)", "agent.observer": "\(id)", "agent.end": "\(termination)"])
                }
            }
            let (actions, mustWait) = state.machine.addSubscription(filter)
            return (mustWait, actions)
        }
        if mustWait {
            // A refusal finishes the stream, which removes the observer again (onTermination).
            try await requireAcknowledgement(of: filter, purpose: "nothing is observed") { queue.finish() }
        }
        return EventStream(queue: queue, pressure: client.readPressure)
    }

    /// A queue for one observer, with the agent's buffer size and overflow policy.
    func makeObserverQueue<Element: Sendable>(of: Element.Type) -> DeliveryQueue<Element> {
        DeliveryQueue(
            capacity: max(configuration.observerBufferSize, 1),
            overflow: configuration.observerOverflow.overflow(holding: client.readPressure))
    }

    /// The route key of a Coaty topic filter: its event level, split at the first `:`.
    static func routeKey(of filter: String) -> RouteKey {
        let levels = filter.split(separator: "/", maxSplits: 4, omittingEmptySubsequences: false)
        guard levels.count > 3 else { return RouteKey(eventType: .advertise, eventTypeFilter: nil) }
        let level = levels[3]
        guard let colon = level.firstIndex(of: ":") else {
            return RouteKey(eventType: EventType(rawValue: String(level)) ?? .advertise, eventTypeFilter: nil)
        }
        return RouteKey(
            eventType: EventType(rawValue: String(level[..<colon])) ?? .advertise,
            eventTypeFilter: String(level[level.index(after: colon)...]))
    }

    /// Answers Discovers for the identity (by core type `Identity` or by its id) and IO nodes
    /// (by core type `IoNode`), as every coaty-js agent does.
    func installIdentityResponder() {
        let identity = configuration.identity
        let ioNodes = configuration.ioNodes
        let filter = ObservationPlan.discover(in: scope).topicFilter.rawValue
        let key = Self.routeKey(of: filter)
        state.withLock { state in
            let id = state.makeObserverID()
            state.router.add(Sink(id: id, isInline: true) { event in
                guard case .discover(let request) = event else { return }
                let discover = request.event
                var answers: [any CoatyObject] = []
                if discover.isDiscoveringTypes {
                    if discover.coreTypes?.contains(.identity) == true { answers.append(identity) }
                    if discover.coreTypes?.contains(.ioNode) == true { answers += ioNodes }
                } else if discover.isDiscoveringObjectID, discover.objectID == identity.objectID {
                    answers.append(identity)
                }
                for object in answers { try? request.respond(Resolve(object: object)) }
            }, for: key)
            // Before run(): nothing to send, the first CONNACK subscribes.
            _ = state.machine.addSubscription(filter)
        }
    }
}
