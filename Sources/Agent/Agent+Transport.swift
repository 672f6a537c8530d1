import Synchronization
import CoreTypes
import Logging

extension Agent {
    var mqttQoS: MQTTQoS { configuration.qos }

    /// Hands a publication to libmosquitto now. Never call it with the state lock held.
    func publishNow(_ publication: Publication) throws {
        let qos = publication.qos == .atMostOnce ? mqttQoS : publication.qos
        _ = try client.publish(topic: publication.topic, payload: publication.payload, qos: qos, retain: publication.retain)
        counters.metrics.published(topic: publication.topic)
    }

    /// Publishes (or queues) publications in order.
    ///
    /// - Throws: `AgentError.Code.stopped` after the agent stopped.
    func publish(_ publications: [Publication]) throws {
        for publication in publications { try publish(publication) }
    }

    /// Publishes one publication now when online and nothing waits in the outbox (the common
    /// case: one lock before and one after the send), else through the outbox or the offline queue.
    ///
    /// - Throws: `AgentError.Code.stopped` after the agent stopped.
    func publish(_ publication: Publication) throws {
        let (sendsDirectly, depth) = try state.withLock { state throws(AgentError) -> (Bool, Int?) in
            guard state.machine.isRunning else {
                throw AgentError(code: .stopped, detail: "agent \(scope.identityID) has stopped; nothing was published")
            }
            switch state.machine.send(publication) {
            case .publish:
                guard state.isSending else {
                    state.isSending = true
                    return (true, nil)
                }
                state.outbox.append(.publish(publication))
                return (false, nil)
            case .queued(let dropped):
                if dropped > 0 { counters.increment(.droppedOfflinePublications, by: dropped) }
                return (false, state.offlineDepthChange())
            }
        }
        if let depth { counters.metrics.offlineQueueDepth(depth) }
        if sendsDirectly { sendDirectly(publication) }
    }

    // MARK: - Subscriptions

    /// Waits until `filter` is acknowledged or refused, the connection is lost, the agent stops, or
    /// the waiting task is cancelled.
    ///
    /// - Returns: The broker's SUBACK code when it refused the filter on the current connection, else `nil`.
    func waitForAcknowledgement(of filter: String) async -> Int32? {
        let id = state.withLock { $0.makeObserverID() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    // Checked under the lock that the cancellation handler takes too: a cancellation
                    // either comes first and is seen here, or finds the waiter below and resumes it.
                    guard !Task.isCancelled, state.machine.wait(id, forAcknowledgementOf: filter) else { return true }
                    state.acknowledgementWaiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.machine.removeWaiter(id, of: filter) ? state.acknowledgementWaiters.removeValue(forKey: id) : nil
            }
            waiter?.resume()
        }
        return state.withLock { $0.machine.refusal(of: filter) }
    }

    /// Waits until `filter` is acknowledged (or the connection is lost, or the agent stops); when the
    /// broker refused it, or the task was cancelled meanwhile, calls `release` and throws.
    ///
    /// A function of its own, not inlined: the Swift 6.3 optimizer crashed splitting the generic
    /// async `observe` when this throw sat in it.
    @inline(never)
    func requireAcknowledgement(of filter: String, purpose: String, release: () -> Void) async throws {
        let code = await waitForAcknowledgement(of: filter)
        if Task.isCancelled {
            release()
            throw CancellationError()
        }
        guard let code else { return }
        release()
        throw subscriptionRefused(filter, code: code, purpose: purpose)
    }

    /// The error for a subscription the broker refused.
    func subscriptionRefused(_ filter: String, code: Int32, purpose: String) -> AgentError {
        let reason = reasonCode(code)
        let hint =
            configuration.broker.protocolVersion == .v5
            ? "" : " (MQTT 3.1.1 gives no reason; usually the broker's ACL denies this client the filter)"
        return AgentError(
            code: .subscribeFailed,
            detail: "broker \(configuration.broker.url) refused the subscription to '\(filter)' with \(reason)\(hint); \(purpose)")
    }

    // MARK: - Inbound

    /// Routes one inbound message: a hash lookup, one decode, one yield per interested observer.
    ///
    /// The agent's task calls it for every message; it is `package` so that the benchmarks can
    /// measure the inbound path without a broker. The topic is parsed once while it repeats (the
    /// client's ``TopicCache``).
    package func route(_ message: InboundMessage) {
        counters.increment(.receivedMessages)
        let name = message.topic
        let topic: CoatyTopic
        switch client.topics.coatyTopic(named: name) {
        case .coaty(let parsed):
            topic = parsed
        case .notCoaty:
            counters.metrics.received(kind: AgentMetrics.rawKind, bytes: message.payload.count)
            return routeNonCoaty(message)
        case .malformed:
            counters.metrics.received(kind: AgentMetrics.rawKind, bytes: message.payload.count)
            counters.metrics.dropped(kind: AgentMetrics.rawKind, .unrouted)
            counters.increment(.unroutedMessages)
            logger.trace("Dropped message with malformed Coaty topic", metadata: ["mqtt.topic": "\(name)"])
            return
        }
        let kind = AgentMetrics.kind(topic.eventType)
        counters.metrics.received(kind: kind, bytes: message.payload.count)
        // One look at the routing table per message: the taps and the message's own targets.
        let (taps, targets) = state.withLock { state in (state.router.taps, state.router.targets(of: topic, named: name)) }
        let isTapped = !taps.isEmpty && message.payload.count <= configuration.maximumPayloadSize
        if isTapped {
            let event = InboundEvent.message(CoatyMessage(topic: topic, payload: message.payload, isRetained: message.retain))
            deliver(event, to: taps)
        }
        let outcome: RouteOutcome
        switch targets {
        case .ioValue(let sinks):
            outcome = deliverIoValue(message, to: sinks)
        case _ where message.payload.count > configuration.maximumPayloadSize:
            reject(message, kind: kind, reason: "payload of \(message.payload.count) bytes exceeds the limit")
            return
        case .response(let sink):
            outcome = routeResponse(message, topic: topic, kind: kind, to: sink)
        case .events(let sinks):
            outcome = routeEvent(message, topic: topic, kind: kind, to: sinks)
        }
        if outcome == .delivered || isTapped {
            counters.metrics.delivered(kind: kind)
        } else if outcome == .unrouted {
            counters.metrics.dropped(kind: kind, .unrouted)
        }
    }

    /// What became of a message: delivered, wanted by nobody, or dropped as invalid.
    private enum RouteOutcome { case delivered, unrouted, rejected }

    private func routeEvent(_ message: InboundMessage, topic: CoatyTopic, kind: Int, to sinks: [Sink]) -> RouteOutcome {
        guard !sinks.isEmpty else {
            counters.increment(.unroutedMessages)
            return .unrouted
        }
        let event: InboundEvent
        do {
            event = try decodeInbound(topic, payload: message.payload)
        } catch let error as EventError where error.code == .notJSON {
            reject(message, kind: kind, reason: error.detail)
            return .rejected
        } catch {
            reject(message, kind: kind, reason: "\(error)")
            return .rejected
        }
        deliver(event, to: sinks)
        return .delivered
    }

    /// Hands `event` to `sinks`: to inline handlers (``InlineResponder``, the identity responder)
    /// at once, and to the others once the network thread's current pass of jobs has run (at once
    /// when routing runs elsewhere). A consumer waiting in the global pool is then resumed once for
    /// all the messages one wake-up of the loop read, not once per message. The order of the events
    /// each sink gets stays the order of the messages.
    ///
    /// An inline handler wakes no consumer, and its answer goes out before the agent's routing task
    /// suspends for the next batch.
    private func deliver(_ event: InboundEvent, to sinks: [Sink]) {
        var othersWait = false
        for sink in sinks {
            if sink.isInline { sink.deliver(event) } else { othersWait = true }
        }
        guard othersWait else { return }
        dispatcher.dispatch(event, to: sinks)
    }

    private func routeResponse(
        _ message: InboundMessage, topic: CoatyTopic, kind: Int, to sink: ResponseSink?
    ) -> RouteOutcome {
        guard let sink, sink.responseType == topic.eventType else {
            counters.increment(.unroutedMessages)
            return .unrouted
        }
        switch sink.deliver(topic, message.payload) {
        case .accepted:
            return .delivered
        case .rejected:
            counters.increment(.rejectedResponses)
            counters.metrics.dropped(kind: kind, .unfittingResponse)
        case .notJSON(let reason):
            reject(message, kind: kind, reason: reason)
        }
        return .rejected
    }

    private func routeNonCoaty(_ message: InboundMessage) {
        let (raw, io) = state.withLock { ($0.router.rawSinks(matching: message.topic), $0.router.ioSinks(route: message.topic)) }
        guard !raw.isEmpty || !io.isEmpty else {
            counters.increment(.unroutedMessages)
            counters.metrics.dropped(kind: AgentMetrics.rawKind, .unrouted)
            return
        }
        counters.metrics.delivered(kind: AgentMetrics.rawKind)
        if !raw.isEmpty {
            deliver(InboundEvent.raw(Raw(topic: message.topic, payload: message.payload, retain: message.retain)), to: raw)
        }
        if !io.isEmpty {
            deliver(InboundEvent.ioValue(route: message.topic, payload: message.payload), to: io)
        }
    }

    private func deliverIoValue(_ message: InboundMessage, to sinks: [Sink]) -> RouteOutcome {
        guard !sinks.isEmpty else {
            counters.increment(.unroutedMessages)
            return .unrouted
        }
        deliver(InboundEvent.ioValue(route: message.topic, payload: message.payload), to: sinks)
        return .delivered
    }

    private func reject(_ message: InboundMessage, kind: Int, reason: String) {
        counters.increment(.rejectedPayloads)
        counters.metrics.dropped(kind: kind, .invalid)
        logger.debug("Dropped invalid payload", metadata: ["mqtt.topic": "\(message.topic)", "reason": "\(reason)"])
    }

    /// Decodes a request or one-way event payload from its bytes for its topic's event type: an
    /// Advertise or an Update without a JSON tree where its object allows it
    /// (``CoreTypes/Advertise/init(payload:registry:)``), the others from the parsed payload.
    func decodeInbound(_ topic: CoatyTopic, payload: [UInt8]) throws -> InboundEvent {
        switch topic.eventType {
        case .advertise:
            return .advertise(Received(event: try Advertise(payload: payload, registry: registry), topic: topic))
        case .update:
            let update = try Update(payload: payload, registry: registry)
            return .update(IncomingRequest(event: update, topic: topic, responder: responder))
        default:
            return try decodeInbound(topic, JSONValue(parsing: payload))
        }
    }

    /// Decodes a request or one-way event payload for its topic's event type.
    func decodeInbound(_ topic: CoatyTopic, _ json: JSONValue) throws -> InboundEvent {
        let filter = topic.eventTypeFilter ?? ""
        switch topic.eventType {
        case .advertise: return .advertise(Received(event: try Advertise(json: json, registry: registry), topic: topic))
        case .deadvertise: return .deadvertise(Received(event: try Deadvertise(json: json), topic: topic))
        case .channel:
            return .channel(Received(event: try Channel(id: filter, json: json, registry: registry), topic: topic))
        case .associate:
            return .associate(Received(event: try Associate(ioContextName: filter, json: json), topic: topic))
        case .discover: return .discover(IncomingRequest(event: try Discover(json: json), topic: topic, responder: responder))
        case .query: return .query(IncomingRequest(event: try Query(json: json), topic: topic, responder: responder))
        case .update:
            return .update(IncomingRequest(event: try Update(json: json, registry: registry), topic: topic, responder: responder))
        case .call:
            return .call(IncomingRequest(event: try Call(operation: filter, json: json), topic: topic, responder: responder))
        case .resolve, .retrieve, .complete, .return, .ioValue:
            throw AgentError(code: .invalidEvent, detail: "\(topic.eventType) is not routed as a request")
        }
    }

    /// What received requests use to answer.
    var responder: Responder {
        Responder(scope: scope, agent: self)
    }
}
