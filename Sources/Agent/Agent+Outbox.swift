import Synchronization
import CoreTypes
import Logging

extension Agent {
    typealias Action = ConnectionStateMachine.Action

    /// Changes the state under the lock (`body` returns its result and the machine's actions),
    /// then carries the actions out, after the lock: the one way the agent changes its state.
    func update<Result, Failure: Error>(
        _ body: (inout sending AgentState) throws(Failure) -> (Result, [Action])
    ) throws(Failure) -> Result {
        let (result, mustSend, depth) = try state.withLock { state throws(Failure) -> (Result, Bool, Int?) in
            let (result, actions) = try body(&state)
            return (result, state.enqueue(actions), state.offlineDepthChange())
        }
        if let depth { counters.metrics.offlineQueueDepth(depth) }
        if mustSend { sendOutbox() }
        return result
    }

    /// Feeds one event to the state machine, then carries out its actions.
    func feed(_ event: (inout ConnectionStateMachine) -> [Action]) {
        update { state in ((), event(&state.machine)) }
    }

    /// Carries out the outbox in order until it is empty; call only when ``AgentState/enqueue(_:)``
    /// returned `true`. Other threads add to the outbox meanwhile and return: actions leave in the
    /// order the state machine produced them (the offline queue before later publications, a
    /// SUBSCRIBE before its pipelined request), and no libmosquitto call is made under the lock.
    func sendOutbox() {
        var batch: [Action] = []
        while true {
            state.withLock { state in
                swap(&batch, &state.outbox)
                if batch.isEmpty { state.isSending = false }
            }
            if batch.isEmpty { return }
            for action in batch { carryOut(action) }
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// Publishes one publication that the caller was told to send itself (the outbox was empty and
    /// nobody was sending), then carries out what was added meanwhile.
    func sendDirectly(_ publication: Publication) {
        carryOut(.publish(publication))
        sendOutbox()
    }

    /// Carries out one action, without the lock; feeds back what the transport said.
    private func carryOut(_ action: Action) {
        switch action {
        case .subscribe(let filters, let isResubscription):
            do {
                let id = try client.subscribe(to: filters, qos: mqttQoS)
                queueFeedback { $0.subscribeSent(id, filters: filters, isResubscription: isResubscription) }
            } catch {
                logger.debug("Subscribe failed", metadata: ["mqtt.filters": "\(filters)", "error": "\(error)"])
                queueFeedback { $0.subscribeFailed(filters: filters) }
            }
        case .unsubscribe(let filter):
            do {
                _ = try client.unsubscribe(from: [filter])
            } catch {
                logger.debug("Unsubscribe failed", metadata: ["mqtt.filter": "\(filter)", "error": "\(error)"])
            }
        case .publish(let publication):
            do {
                try publishNow(publication)
            } catch {
                logger.debug("Publish failed, queued", metadata: ["mqtt.topic": "\(publication.topic)", "error": "\(error)"])
                queueFeedback { $0.publishFailed(publication) }
            }
        case .deadvertise:
            deadvertise()
        case .disconnect:
            do {
                try client.disconnect()
            } catch {
                client.close()
            }
        case .close:
            client.close()
        case .scheduleReconnect:
            break  // the agent's task, which reported the disconnect, schedules it
        case .resume(let ids):
            let waiters = state.withLock { state in ids.compactMap { state.acknowledgementWaiters.removeValue(forKey: $0) } }
            waiters.forEach { $0.resume() }
        case .finish(let id, let reason):
            guard let finish = state.withLock({ $0.finishers[id] }) else { return }
            switch reason {
            case .agentStopped: finish(.agentStopped)
            case .timedOut: finish(.timedOut)
            case .subscriptionRefused(let filter, let code):
                finish(.subscriptionRefused(subscriptionRefused(filter, code: code, purpose: "no response can arrive")))
            }
        case .announce(let connectionState):
            // Yielded under the lock, so that observers see the states in order.
            state.withLock { state in
                for (id, observer) in state.stateObservers where observer.yield(connectionState) == .finished {
                    state.stateObservers[id] = nil
                }
            }
        case .refused(let filter, let code, let isResubscription):
            counters.increment(.refusedSubscriptions)
            let metadata: Logger.Metadata = [
                "mqtt.broker": "\(configuration.broker.url)", "mqtt.filter": "\(filter)", "mqtt.reason": "\(reasonCode(code))",
            ]
            if isResubscription {
                logger.info("Broker refused a resubscription", metadata: metadata)
            } else {
                logger.debug("Broker refused a subscription", metadata: metadata)
            }
        case .droppedOffline(let count):
            counters.increment(.droppedOfflinePublications, by: count)
        }
    }

    /// Feeds the transport's answer back to the machine; its actions join the outbox that the
    /// caller (the sender) is carrying out.
    private func queueFeedback(_ event: (inout ConnectionStateMachine) -> [Action]) {
        let depth = state.withLock { state in
            state.outbox.append(contentsOf: event(&state.machine))
            return state.offlineDepthChange()
        }
        if let depth { counters.metrics.offlineQueueDepth(depth) }
    }

    /// Publishes the identity's Deadvertise for the graceful stop, as coaty-js does (the will's
    /// QoS 0), then an UNSUBSCRIBE of its topic; DISCONNECT follows the UNSUBACK.
    private func deadvertise() {
        // Only the stop's UNSUBACK is needed; the agent turned the reports off (see init).
        client.report(publications: false, unsubscriptions: true)
        do {
            // The broker handles a client's packets in order, so the UNSUBACK (of a filter the agent
            // never subscribed to: nothing changes) says it has read everything sent before.
            // Closing while it is still answering resets the socket, and the broker would drop the
            // last publications unread and send the will.
            let will = joinPlan.lastWill
            // A responder group's connection has nothing to deadvertise; it only waits for what it sent to be read.
            if role == .identity {
                _ = try client.publish(topic: will.topic, payload: will.payload, qos: will.qos, retain: will.retain)
                counters.metrics.published(kind: AgentMetrics.kind(.deadvertise))
            }
            let id = try client.unsubscribe(from: [will.topic])
            queueFeedback { $0.deadvertiseSent(id) }
            // The broker normally answers within microseconds; a dead link must not keep us here.
            let client = self.client
            Task {
                try? await Task.sleep(for: .seconds(1))
                client.close()
            }
        } catch {
            queueFeedback { $0.deadvertiseSent(nil) }
        }
    }
}
