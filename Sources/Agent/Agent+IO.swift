public import CoreTypes
import Logging
import Synchronization

extension Agent {
    /// Publishes `value` from this agent's IO source `sourceID` on the route its IO router gave it,
    /// as coaty-js's `publishIoValue` does. While the source is not associated nothing is
    /// published, and this returns `false`.
    ///
    /// - Throws: ``AgentError`` with code `AgentError.Code.invalidEvent` when `sourceID` is not one
    ///   of the agent's IO sources, or when `value` is raw for a JSON source or JSON for a raw one.
    @discardableResult
    public func publishIoValue(_ value: IoValue, from sourceID: String) throws -> Bool {
        guard let source = io.sources[sourceID] else {
            throw AgentError(
                code: .invalidEvent,
                detail: "'\(sourceID)' is not an IO source of agent \(scope.identityID); configure it in an IO node")
        }
        let usesRawValues = source.useRawIoValues ?? false
        if case .raw = value, !usesRawValues {
            throw AgentError(code: .invalidEvent, detail: "IO source '\(source.name)' sends JSON values, not raw bytes")
        }
        if case .json = value, usesRawValues {
            throw AgentError(code: .invalidEvent, detail: "IO source '\(source.name)' sends raw bytes (useRawIoValues)")
        }
        guard let route = io.route(ofSource: sourceID) else { return false }
        try publish(value, on: route, usesRawValues: usesRawValues)
        return true
    }

    /// The current IO state of this agent's IO source or actor `pointID` (unassociated for any other id).
    public func ioState(of pointID: String) -> IoState {
        io.ioState(of: pointID)
    }

    /// Observes the IO state of this agent's IO source or actor `pointID` while `body` runs: the
    /// current state first, then one at every Associate event that concerns the point (as
    /// coaty-js's `observeIoState`, even when nothing changed), and an unassociated one when the
    /// agent stops, after which the states end.
    ///
    /// - Throws: ``AgentError`` with code `AgentError.Code.invalidEvent` when `pointID` is not one of
    ///   the agent's IO sources or actors, `AgentError.Code.stopped` after the agent stopped; and
    ///   what `body` throws.
    public func observeIoState<Result>(
        of pointID: String, isolation: isolated (any Actor)? = #isolation,
        _ body: (EventStream<IoState>) async throws -> Result
    ) async throws -> Result {
        try requireIoPoint(pointID)
        return try await observeIoPoint(pointID, add: io.addStateObserver, body)
    }

    /// Observes the IO values that reach this agent's IO actor `actorID` while `body` runs: from
    /// every source it is associated with, decoded as JSON unless the actor uses raw values.
    /// Values that arrive while the actor is not associated, or before this call, are not seen.
    ///
    /// - Throws: ``AgentError`` with code `AgentError.Code.invalidEvent` when `actorID` is not one of
    ///   the agent's IO actors, `AgentError.Code.stopped` after the agent stopped; and what `body`
    ///   throws. The values end normally when the agent stops.
    public func observeIoValue<Result>(
        ofActor actorID: String, isolation: isolated (any Actor)? = #isolation,
        _ body: (EventStream<IoValue>) async throws -> Result
    ) async throws -> Result {
        guard io.actors[actorID] != nil else {
            throw AgentError(
                code: .invalidEvent,
                detail: "'\(actorID)' is not an IO actor of agent \(scope.identityID); configure it in an IO node")
        }
        return try await observeIoPoint(actorID, add: io.addValueObserver, body)
    }

    /// Adds an observer of an IO point with `add`, runs `body` with its stream, then removes it.
    private func observeIoPoint<Element: Sendable, Result>(
        _ pointID: String, add: (ObserverID, String, DeliveryQueue<Element>) -> Bool,
        isolation: isolated (any Actor)? = #isolation, _ body: (EventStream<Element>) async throws -> Result
    ) async throws -> Result {
        let queue = makeObserverQueue(of: Element.self)
        let id = state.withLock { state in
            let id = state.makeObserverID()
            state.observerBuffers[id] = { queue.takePeakFill() }
            return id
        }
        defer { state.withLock { _ = $0.observerBuffers.removeValue(forKey: id) } }
        guard add(id, pointID, queue) else {
            throw AgentError(code: .stopped, detail: "agent \(scope.identityID) has stopped; nothing to observe of '\(pointID)'")
        }
        defer { io.removeObserver(id, of: pointID) }
        return try await observing(EventStream(queue: queue, pressure: client.readPressure), body)
    }

    private func requireIoPoint(_ pointID: String) throws {
        guard io.sources[pointID] != nil || io.actors[pointID] != nil else {
            throw AgentError(
                code: .invalidEvent,
                detail: "'\(pointID)' is neither an IO source nor an IO actor of agent \(scope.identityID)")
        }
    }

    /// Takes the Associate events of the agent's IO contexts (their subscriptions are in the join
    /// plan) on the network thread, as coaty-js's communication manager does.
    func installIoResponder() {
        var names: [String] = []
        for node in configuration.ioNodes where !names.contains(node.name) { names.append(node.name) }
        for name in names {
            guard let filter = try? ObservationPlan.associate(ioContextName: name, in: scope).topicFilter.rawValue else {
                continue  // Agent.init has refused such a name already.
            }
            let key = Self.routeKey(of: filter)
            state.withLock { state in
                let id = state.makeObserverID()
                state.router.add(Sink(id: id, isInline: true) { [weak self] event in
                    guard case .associate(let received) = event else { return }
                    self?.apply(received.event)
                }, for: key)
                // Before run(): nothing to send, the first CONNACK subscribes.
                _ = state.machine.addSubscription(filter)
            }
        }
    }

    /// Applies an Associate: subscribes or unsubscribes the routes of the agent's actors, then
    /// tells the observers of the points it concerns. Once the agent is stopping it applies none:
    /// its points end unassociated with it, as coaty-js's do when its communication manager stops
    /// (a router answering the stop's Deadvertise would otherwise tell them twice).
    private func apply(_ event: Associate) {
        guard state.withLock({ $0.machine.isRunning }) else { return }
        let (routes, states) = io.apply(event)
        for action in routes {
            switch action {
            case .subscribe(let route, let usesRawValues, let isExternalRoute):
                subscribeIoRoute(route, usesRawValues: usesRawValues, isExternalRoute: isExternalRoute)
            case .unsubscribe(let route):
                unsubscribeIoRoute(route)
            case .state:
                break
            }
        }
        for (queue, ioState) in states { counters.count(queue.yield(ioState)) }
    }

    private func subscribeIoRoute(_ route: String, usesRawValues: Bool, isExternalRoute: Bool) {
        let isExternal = isExternalRoute || !route.utf8.starts(with: "coaty/".utf8)
        do {
            _ = try plan { () throws(EventError) in try ObservationPlan.ioValue(route: route, isExternalRoute: isExternal) }
        } catch {
            // coaty-js logs and skips such a route, and keeps the association.
            logger.info("IO route not subscribed", metadata: ["coaty.route": "\(route)", "error": "\(error)"])
            return
        }
        let hub = io
        let counters = self.counters
        let id = update { state -> (ObserverID, [Action]) in
            let id = state.makeObserverID()
            state.router.addIO(Sink(id: id, isInline: true) { event in
                guard case .ioValue(_, let payload) = event else { return }
                guard let value = try? IoValue(payload: payload, actorUsesRawValues: usesRawValues) else {
                    counters.increment(.rejectedPayloads)
                    return
                }
                for result in hub.deliver(value, onRoute: route) { counters.count(result) }
            }, route: route)
            return (id, state.machine.addSubscription(route).actions)
        }
        if let previous = io.setRouteObserver(id, for: route) { removeIoRouteObserver(previous, route) }
    }

    private func unsubscribeIoRoute(_ route: String) {
        guard let id = io.setRouteObserver(nil, for: route) else { return }
        removeIoRouteObserver(id, route)
    }

    private func removeIoRouteObserver(_ id: ObserverID, _ route: String) {
        update { state in
            state.router.removeIO(id, route: route)
            return ((), state.machine.removeSubscription(route))
        }
    }
}
