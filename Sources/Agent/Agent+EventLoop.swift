import Synchronization
import CoreTypes
import Logging

extension Agent {
    /// The agent's single task: reads the transport's events in order and acts on them.
    func eventLoop() async throws {
        await withDiscardingTaskGroup { group in
            if !attemptConnect() { scheduleReconnect(in: &group) }
            for await event in client.events {
                switch event {
                case .connected(let code):
                    if code.isAccepted {
                        handleConnected()
                    } else {
                        handleRefused(code)
                    }
                case .disconnected(let error):
                    if handleDisconnected(error) { scheduleReconnect(in: &group) }
                case .message(let message):
                    route(message)
                case .subscribed(let id, _):
                    handleSubscribed(id)
                case .unsubscribed:
                    break
                case .published(let id):
                    handlePublished(id)
                }
            }
            group.cancelAll()
        }
    }

    /// Starts a connection attempt; `false` when it failed at once.
    func attemptConnect() -> Bool {
        do {
            try client.connect()
            return true
        } catch {
            logger.debug("Connect failed", metadata: ["mqtt.broker": "\(configuration.broker.url)", "error": "\(error)"])
            state.withLock { $0.finalError = AgentError(code: .connectionFailed, detail: "\(error)") }
            return false
        }
    }

    /// Waits out the backoff, then tries again, until a connection attempt starts or the policy gives up.
    func scheduleReconnect(in group: inout DiscardingTaskGroup) {
        group.addTask {
            while !Task.isCancelled {
                let delay = self.state.withLock { state -> Duration? in
                    guard state.phase != .stopping, state.phase != .stopped else { return nil }
                    var generator = SystemRandomNumberGenerator()
                    return state.backoff.nextDelay(using: &generator)
                }
                guard let delay else {
                    self.giveUp()
                    return
                }
                self.logger.debug("Reconnecting", metadata: ["agent.delay": "\(delay)"])
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    return
                }
                if self.attemptConnect() { return }
            }
        }
    }

    /// Ends the agent after the reconnect policy gave up (or the agent is stopping anyway).
    func giveUp() {
        let isStopping = state.withLock { state in
            let wasStopping = state.phase == .stopping || state.phase == .stopped
            if !wasStopping, state.finalError == nil {
                state.finalError = AgentError(
                    code: .connectionFailed,
                    detail: "cannot connect to \(configuration.broker.url): the reconnect policy gave up")
            }
            state.phase = .stopped
            return wasStopping
        }
        if !isStopping { logger.debug("Reconnect policy gave up", metadata: ["mqtt.broker": "\(configuration.broker.url)"]) }
        client.close()
    }

    /// CONNACK accepted: resubscribe everything, advertise the identity, drain the offline queue, go online.
    func handleConnected() {
        counters.increment(.connections)
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard state.phase != .stopping, state.phase != .stopped else { return [] }
            state.finalError = nil
            state.backoff.reset()
            state.acknowledged = []
            state.pendingAcknowledgements = [:]
            let filters = state.subscriptions.filters
            if !filters.isEmpty {
                do {
                    let id = try client.subscribe(to: filters, qos: mqttQoS)
                    state.pendingAcknowledgements[id] = filters
                } catch {
                    logger.debug("Resubscribe failed", metadata: ["error": "\(error)"])
                }
            }
            for publication in joinPlan.publications { try? publishNow(publication) }
            var queued = state.offlineQueue.drain()
            while !queued.isEmpty {
                let publication = queued.removeFirst()
                do {
                    try publishNow(publication)
                } catch {
                    // The connection went away again: keep the rest, in order, for the next CONNACK.
                    for rest in [publication] + queued { _ = state.offlineQueue.enqueue(rest, bytes: rest.payload.count) }
                    break
                }
            }
            state.phase = .online
            notifyStateObservers(&state)
            return []
        }
        waiters.forEach { $0.resume() }
        logger.debug("Connected", metadata: ["mqtt.broker": "\(configuration.broker.url)"])
    }

    /// CONNACK refused. Bad credentials and missing authorisation are final; the rest is retried.
    func handleRefused(_ code: ConnackCode) {
        let isFinal = [1, 2, 4, 5].contains(code.rawValue) || code.rawValue >= 0x80
        logger.debug("Connection refused", metadata: ["mqtt.broker": "\(configuration.broker.url)", "mqtt.reason": "\(code)"])
        state.withLock { state in
            state.finalError = AgentError(
                code: .connectionFailed, detail: "broker \(configuration.broker.url) refused the connection: \(code)")
            if isFinal { state.phase = .stopped }
        }
        if isFinal { client.close() }
    }

    /// The connection is gone. Returns whether to reconnect.
    func handleDisconnected(_ error: MosquittoError?) -> Bool {
        let (reconnect, waiters) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
            if state.phase == .stopping || state.phase == .stopped { return (false, state.takeAllWaiters()) }
            state.phase = state.phase == .connecting ? .connecting : .offline
            state.acknowledged = []
            state.pendingAcknowledgements = [:]
            if let error { state.finalError = AgentError(code: .connectionFailed, detail: "\(error)") }
            notifyStateObservers(&state)
            return (true, state.takeAllWaiters())
        }
        waiters.forEach { $0.resume() }
        if reconnect {
            logger.debug("Disconnected", metadata: ["mqtt.broker": "\(configuration.broker.url)", "error": "\(error.map { "\($0)" } ?? "none")"])
        } else {
            client.close()
        }
        return reconnect
    }

    /// SUBACK: the filters are in place; release their waiters.
    func handleSubscribed(_ id: MQTTMessageID) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard let filters = state.pendingAcknowledgements.removeValue(forKey: id) else { return [] }
            var waiters: [CheckedContinuation<Void, Never>] = []
            for filter in filters where state.subscriptions.users(of: filter) > 0 {
                state.acknowledged.insert(filter)
                waiters += state.acknowledgementWaiters.removeValue(forKey: filter) ?? []
            }
            return waiters
        }
        waiters.forEach { $0.resume() }
    }

    /// PUBLISH written (QoS 0) or acknowledged (QoS 1): after the stop Deadvertise, disconnect.
    func handlePublished(_ id: MQTTMessageID) {
        let isStop = state.withLock { $0.phase == .stopping && $0.stopMessageID == id }
        guard isStop else { return }
        do {
            try client.disconnect()
        } catch {
            client.close()
        }
    }

    /// Begins the graceful stop: deadvertise (if online), then disconnect; never hangs.
    func stop() {
        enum Action { case none, close, awaitDeadvertise }
        let action = state.withLock { state -> Action in
            switch state.phase {
            case .stopping, .stopped:
                return .none
            case .online:
                state.phase = .stopping
                notifyStateObservers(&state)
                do {
                    state.stopMessageID = try client.publish(
                        topic: joinPlan.lastWill.topic, payload: joinPlan.lastWill.payload, qos: .atMostOnce)
                    return .awaitDeadvertise
                } catch {
                    return .close
                }
            case .idle, .connecting, .offline:
                state.phase = .stopped
                notifyStateObservers(&state)
                return .close
            }
        }
        switch action {
        case .none: return
        case .close: client.close()
        case .awaitDeadvertise:
            // The broker normally answers within microseconds; a dead link must not keep us here.
            let client = self.client
            Task {
                try? await Task.sleep(for: .seconds(1))
                client.close()
            }
        }
    }

    /// Ends every observation and request, and releases the transport.
    func finishEverything() {
        let (finishers, waiters, observers) = state.withLock { state in
            state.phase = .stopped
            let finishers = Array(state.finishers.values)
            state.finishers = [:]
            state.router.removeAll()
            state.deadlines.removeAll()
            let observers = Array(state.stateObservers.values)
            state.stateObservers = [:]
            return (finishers, state.takeAllWaiters(), observers)
        }
        client.close()
        waiters.forEach { $0.resume() }
        finishers.forEach { $0() }
        observers.forEach {
            $0.yield(.stopped)
            $0.finish()
        }
        logger.debug("Agent stopped")
    }

    func notifyStateObservers(_ state: inout AgentState) {
        let current = state.connectionState
        for observer in state.stateObservers.values { observer.yield(current) }
    }
}
