import Synchronization
public import CoreTypes

extension Agent {
    /// Publishes a Discover and streams the Resolves that fit it until `timeout`.
    ///
    /// ```swift
    /// let lamp = try await agent.discover(Discover(objectID: lampID), timeout: .seconds(2)).first()
    /// ```
    public func discover(_ discover: Discover, timeout: Duration = .seconds(5)) async throws -> Responses<Resolve> {
        try await request(discover, timeout: timeout)
    }

    /// Publishes a Query and streams the Retrieves that fit it until `timeout`.
    public func query(_ query: Query, timeout: Duration = .seconds(5)) async throws -> Responses<Retrieve> {
        try await request(query, timeout: timeout)
    }

    /// Publishes an Update (twice for non-canonical object types, as coaty-js) and streams the
    /// Completes that fit it until `timeout`.
    public func update(_ update: Update, timeout: Duration = .seconds(5)) async throws -> Responses<Complete> {
        try await request(update, timeout: timeout)
    }

    /// Publishes a Call and streams the Returns until `timeout`.
    public func call(_ call: Call, timeout: Duration = .seconds(5)) async throws -> Responses<Return> {
        try await request(call, timeout: timeout)
    }

    /// Publishes any two-way request and streams its fitting responses until `timeout`.
    ///
    /// The agent subscribes to the response topic of each correlation id first (or, with
    /// ``ResponseSubscription/namespaceWide``, once to all responses of the type). With
    /// ``RequestPublication/afterSubscriptionAcknowledged`` it waits for the SUBACK before
    /// publishing; with ``RequestPublication/pipelined`` it publishes right behind the SUBSCRIBE.
    /// Responses that arrive at any point after the subscription are delivered; responses that do
    /// not fit the request are dropped and counted. The subscription ends with the stream: the
    /// agent releases it when its network thread is next awake (within a second).
    ///
    /// - Throws: `AgentError.Code.invalidEvent` for an invalid request, `AgentError.Code.stopped`.
    package func request<Request: PlannedRequest>(
        _ request: Request, timeout: Duration = .seconds(5)
    ) async throws -> Responses<Request.Response> {
        let correlationIDs = self.correlationIDs
        let plan = try plan { () throws(EventError) in try request.requestPlan(in: scope) { correlationIDs.make() } }
        let queue = makeObserverQueue(of: Received<Request.Response>.self)
        let registry = self.registry
        let counters = self.counters
        // Polling for the response ends with the first one that fits, or with the request.
        let busyPoll = configuration.responseBusyPoll > .zero ? BusyPoll(loop: client.eventLoop) : nil
        let timing = RequestTiming(kind: AgentMetrics.requestKind(Request.eventType), metrics: counters.metrics)
        let sink = ResponseSink(responseType: Request.Response.eventType) { topic, payload in
            let response: Request.Response
            do throws(EventError) {
                response = try request.decodeResponse(payload: payload, registry: registry)
            } catch {
                return error.code == .notJSON ? .notJSON(error.detail) : .rejected
            }
            guard request.accepts(response) else { return .rejected }
            busyPoll?.end()
            timing?.responded()
            let result = queue.yield(Received(event: response, topic: topic))
            // Ended, its clean-up not run yet (it waits until the network thread is next awake): a late response.
            if result == .finished { counters.increment(.unroutedMessages) } else { counters.count(result) }
            return .accepted
        }
        let sharedFilter =
            configuration.responseSubscription == .namespaceWide
            ? namespaceWideResponseFilters[Request.Response.eventType] : nil
        let filters = plan.exchanges.map(\.responseFilter.rawValue)
        // What ending the request needs of the plan, without keeping its payloads alive meanwhile.
        let exchangeIDs = plan.exchanges.map(\.correlationID)
        let pipelined = configuration.requestPublication == .pipelined
        let mustWait = try update { state throws(AgentError) -> ([String], [Action]) in
            guard state.machine.isRunning else {
                throw AgentError(code: .stopped, detail: "agent \(scope.identityID) has stopped; no \(Request.eventType) was published")
            }
            let id = state.makeObserverID()
            for correlationID in exchangeIDs { state.router.add(sink, correlationID: correlationID) }
            let deadline = ContinuousClock.now.advanced(by: min(timeout, Self.longestTimeout))
            let start = state.machine.startRequest(
                id, correlationIDs: exchangeIDs, ownFilters: filters, sharedFilter: sharedFilter, isPipelined: pipelined,
                publications: plan.publications, deadline: deadline)
            state.finishers[id] = { reason in
                switch reason {
                case .agentStopped:
                    queue.finish(failure: AgentError(code: .stopped, detail: "the agent stopped before any \(Request.Response.eventType) arrived"))
                case .subscriptionRefused(let error): queue.finish(failure: error)
                case .timedOut:
                    timing?.timedOut()
                    queue.finish()
                }
            }
            if let generation = start.timerGeneration { startRequestTimer(generation: generation, wakingAt: deadline, in: &state) }
            queue.setOnTermination { [weak self] _ in
                busyPoll?.end()
                timing?.ended()
                // The clean-up runs on the network thread when it is next awake, usually after the
                // caller's next request has gone out, instead of delaying it (an UNSUBSCRIBE of a
                // per-request subscription would also reach the broker before that request).
                self?.client.eventLoop.afterCurrentJobsWithoutWaking { [weak self] in
                    self?.endRequest(id)
                }
            }
            return (start.mustWait, start.actions)
        }
        if !mustWait.isEmpty {
            do {
                for filter in mustWait {
                    try await requireAcknowledgement(of: filter, purpose: "no \(Request.eventType) was published") {}
                }
                try publish(plan.publications)
            } catch {
                queue.finish()  // releases the response subscriptions now, not at the timeout
                throw error
            }
        }
        busyPoll?.start(for: configuration.responseBusyPoll)
        return Responses(queue: queue, timeout: timeout, pressure: client.readPressure)
    }

    /// Timeouts beyond this (about a century) are treated as this, so that deadlines stay representable.
    static let longestTimeout = Duration.seconds(3_000_000_000)

    /// Releases what request `id` held: its response routes and its own subscriptions.
    private func endRequest(_ id: ObserverID) {
        update { state in
            state.finishers[id] = nil
            guard let (request, actions) = state.machine.endRequest(id) else { return ((), []) }
            for correlationID in request.correlationIDs { state.router.removeResponses(correlationID: correlationID) }
            return ((), actions)
        }
    }

    /// Starts the agent's one request timer, generation `generation`, to wake up at `wakeUp`
    /// (replacing the one before). Call with the lock held.
    func startRequestTimer(generation: Int, wakingAt wakeUp: ContinuousClock.Instant, in state: inout AgentState) {
        state.requestTimer?.cancel()
        state.requestTimer = Task { [weak self] in
            var wakeUp = wakeUp
            while true {
                do {
                    try await Task.sleep(until: wakeUp, clock: .continuous)
                } catch {
                    return  // replaced by a timer that wakes up earlier, or the agent stopped
                }
                guard let self, let next = self.expireRequests(generation: generation) else { return }
                wakeUp = next
            }
        }
    }

    /// Ends the requests whose timeout has passed; returns when the timer should wake up next.
    private func expireRequests(generation: Int) -> ContinuousClock.Instant? {
        update { state in
            let (actions, next) = state.machine.expireRequests(now: .now, generation: generation)
            return (next, actions)
        }
    }
}
