import Synchronization
import CoreTypes
import Logging

extension Agent {
    /// The agent's single task: reads the transport's events in order and acts on them.
    func eventLoop() async throws {
        await withDiscardingTaskGroup { group in
            if await !attemptConnect() { scheduleReconnect(in: &group) }
            // The task runs its jobs on the network thread (MosquittoEventLoop is a TaskExecutor):
            // a message is decoded and routed right after it was read, without a thread switch.
            // libmosquitto's callbacks still only copy and queue; this runs between epoll waits.
            await withTaskExecutorPreference(client.eventLoop) {
                var levels = TopicLevelCache()
                while var batch = await client.events.nextBatch() {
                    for event in batch { handle(event, levels: &levels, in: &group) }
                    client.events.recycle(&batch)
                }
            }
            group.cancelAll()
        }
    }

    /// Acts on one transport event, in the order the transport reported it.
    private func handle(_ event: TransportEvent, levels: inout TopicLevelCache, in group: inout DiscardingTaskGroup) {
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
            route(message, levels: &levels)
        case .subscribed(let id, let granted):
            if !holdsAcknowledgement(id, grantedQoS: granted) { handleSubscribed(id, grantedQoS: granted) }
        case .unsubscribed:
            break
        case .published(let id):
            handlePublished(id)
        }
    }

    /// Starts a connection attempt once the network thread has room for another handshake
    /// (see `MosquittoClient.waitForConnectSlot()`); `false` when it failed at once.
    func attemptConnect() async -> Bool {
        await client.waitForConnectSlot()
        do {
            try client.connect()
            return true
        } catch {
            logger.debug("Connect failed", metadata: ["mqtt.broker": "\(configuration.broker.url)", "error": "\(error)"])
            state.withLock { state in
                // After a stop was asked for, a failed attempt (the client is closed) is no error.
                guard state.phase != .stopping, state.phase != .stopped else { return }
                state.finalError = AgentError(code: .connectionFailed, detail: "\(error)")
            }
            return false
        }
    }

    /// Waits out the backoff, then tries again, until a connection attempt starts or the policy gives up.
    func scheduleReconnect(in group: inout DiscardingTaskGroup) {
        // Not on the network thread: connecting may block for a DNS lookup.
        group.addTask(executorPreference: globalConcurrentExecutor) {
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
                if await self.attemptConnect() { return }
            }
        }
    }

    /// Ends the agent after the reconnect policy gave up (or the agent is stopping anyway).
    func giveUp() {
        let isStopping = state.withLock { state in
            let wasStopping = state.phase == .stopping || state.phase == .stopped
            if !wasStopping {
                let retries = state.backoff.failedAttempts
                let limit = state.backoff.policy.maximumAttempts.map { "\($0)" } ?? "unlimited"
                let last = state.finalError.map { "; the last attempt failed: \($0.detail)" } ?? ""
                state.finalError = AgentError(
                    code: .connectionFailed,
                    detail: "cannot connect to \(configuration.broker.url): gave up after \(retries) "
                        + "retries (ReconnectPolicy.maximumAttempts is \(limit))\(last)")
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
            state.refusedFilters = [:]
            state.pendingAcknowledgements = [:]
            let filters = state.subscriptions.filters
            if !filters.isEmpty {
                do {
                    let id = try client.subscribe(to: filters, qos: mqttQoS)
                    state.pendingAcknowledgements[id] = filters
                    state.resubscriptionID = id
                } catch {
                    logger.debug("Resubscribe failed", metadata: ["error": "\(error)"])
                }
            }
            for publication in joinPlan.publications { try? publishNow(publication) }
            let queued = state.offlineQueue.drain()
            for (index, publication) in queued.enumerated() {
                do {
                    try publishNow(publication)
                } catch {
                    // The connection went away again: keep the rest, in order, for the next CONNACK.
                    for rest in queued[index...] { _ = state.offlineQueue.enqueue(rest, bytes: rest.payload.count) }
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
        // MQTT 3.1.1: 4 bad user name or password, 5 not authorised; MQTT 5: 0x86, 0x87, 0x8C.
        let isCredentials = (code.protocolVersion == 5 ? [0x86, 0x87, 0x8C] : [4, 5]).contains(code.rawValue)
        let hint = isCredentials ? "; check the username and password (or the client certificate) and the broker's ACL" : ""
        logger.debug("Connection refused", metadata: ["mqtt.broker": "\(configuration.broker.url)", "mqtt.reason": "\(code)"])
        state.withLock { state in
            guard state.phase != .stopping, state.phase != .stopped else { return }
            state.finalError = AgentError(
                code: .connectionFailed,
                detail: "broker \(configuration.broker.url) refused the connection: \(code) (CONNACK \(code.rawValue))\(hint)")
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
            state.refusedFilters = [:]
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

    /// SUBACK: the filters are in place, or refused (return code 0x80 in MQTT 3.1.1, a reason code
    /// of 0x80 or more in MQTT 5); release their waiters, who find out which.
    ///
    /// A refusal is counted. The observe or request call that waits for it throws it; a refused
    /// resubscription (after a reconnect, nobody waits) is logged at info instead, and the next
    /// reconnect tries again.
    func handleSubscribed(_ id: MQTTMessageID, grantedQoS: [Int32]) {
        let (waiters, refused, isResubscription, requests) = state.withLock { state in
            guard let filters = state.pendingAcknowledgements.removeValue(forKey: id) else {
                return ([CheckedContinuation<Void, Never>](), [(String, Int32)](), false, [(String, Int32, @Sendable (AgentState.FinishReason) -> Void)]())
            }
            var waiters: [CheckedContinuation<Void, Never>] = []
            var refused: [(String, Int32)] = []
            for (index, filter) in filters.enumerated() {
                // Waiters are resumed also when the last user left meanwhile (a request that timed out
                // before its SUBACK), so that nobody waits for ever.
                if let removed = state.acknowledgementWaiters.removeValue(forKey: filter) { waiters += removed.values }
                guard state.subscriptions.users(of: filter) > 0 else { continue }
                let code = index < grantedQoS.count ? grantedQoS[index] : 0
                if code >= 0x80 {
                    state.refusedFilters[filter] = code
                    refused.append((filter, code))
                } else {
                    state.acknowledged.insert(filter)
                }
            }
            // Requests published behind their SUBSCRIBE (pipelined) learn of a refusal only now.
            let requests = refused.flatMap { filter, code in
                (state.requestsByResponseFilter[filter] ?? []).compactMap { id in state.finishers[id].map { (filter, code, $0) } }
            }
            return (waiters, refused, id == state.resubscriptionID, requests)
        }
        // Counted before anyone hears of it, so that a request that ends now sees it in the statistics.
        counters.increment(.refusedSubscriptions, by: refused.count)
        for (filter, code, finish) in requests {
            finish(.subscriptionRefused(subscriptionRefused(filter, code: code, purpose: "no response can arrive")))
        }
        for (filter, code) in refused {
            let metadata: Logger.Metadata = [
                "mqtt.broker": "\(configuration.broker.url)", "mqtt.filter": "\(filter)", "mqtt.reason": "\(reasonCode(code))",
            ]
            if isResubscription {
                logger.info("Broker refused a resubscription", metadata: metadata)
            } else {
                logger.debug("Broker refused a subscription", metadata: metadata)
            }
        }
        waiters.forEach { $0.resume() }
    }

    /// The SUBACK or PUBACK code `code` in words, for the agent's protocol version.
    func reasonCode(_ code: Int32) -> ReasonCode {
        ReasonCode(rawValue: code, protocolVersion: configuration.broker.protocolVersion == .v5 ? 5 : 4)
    }

    /// PUBLISH written (QoS 0) or acknowledged (QoS 1): after the stop Deadvertise's PUBACK, disconnect.
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
                state.isStopRequested = true
                notifyStateObservers(&state)
                client.report(publications: true, unsubscriptions: false)
                do {
                    // QoS 1: DISCONNECT waits for the PUBACK, so the broker has read everything sent
                    // before. Closing while it is still answering (an UNSUBACK in flight) resets the
                    // socket, and the broker would drop the last publications unread and send the will.
                    state.stopMessageID = try client.publish(
                        topic: joinPlan.lastWill.topic, payload: joinPlan.lastWill.payload, qos: .atLeastOnce)
                    return .awaitDeadvertise
                } catch {
                    return .close
                }
            case .idle, .connecting, .offline:
                // A stop while offline is still graceful: run() returns without an error.
                state.phase = .stopped
                state.isStopRequested = true
                state.finalError = nil
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
        finishers.forEach { $0(.agentStopped) }
        observers.forEach {
            $0.yield(.stopped)
            $0.finish()
        }
        logger.debug("Agent stopped")
    }

    func notifyStateObservers(_ state: inout AgentState) {
        let current = state.connectionState
        for (id, observer) in state.stateObservers {
            if observer.yield(current) == .finished { state.stateObservers[id] = nil }
        }
    }
}
