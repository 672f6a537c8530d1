import Synchronization
import CoreTypes
import Logging

extension Agent {
    /// The agent's single task: reads the transport's events in order and acts on them.
    func eventLoop() async throws {
        await withDiscardingTaskGroup { group in
            if await !attemptConnect() { scheduleReconnect(in: &group) }
            if counters.metrics.isReporting { sampleObserverBuffers(in: &group) }
            // The task runs its jobs on the network thread (MosquittoEventLoop is a TaskExecutor):
            // a message is decoded and routed right after it was read, without a thread switch.
            // libmosquitto's callbacks still only copy and queue; this runs between epoll waits.
            await withTaskExecutorPreference(client.eventLoop) {
                while var batch = await client.events.nextBatch() {
                    for event in batch { handle(event, in: &group) }
                    client.events.recycle(&batch)
                }
            }
            group.cancelAll()
        }
    }

    /// Acts on one transport event, in the order the transport reported it.
    private func handle(_ event: TransportEvent, in group: inout DiscardingTaskGroup) {
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
        case .subscribed(let id, let granted):
            feed { $0.subscribed(id, granted: granted) }
        case .unsubscribed(let id), .published(let id):
            feed { $0.acknowledged(id) }
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
            // After a stop was asked for, a failed attempt (the client is closed) is no error.
            state.withLock { $0.machine.connectFailed(AgentError(code: .connectionFailed, detail: "\(error)")) }
            return false
        }
    }

    /// Waits out the backoff, then tries again, until a connection attempt starts or the policy gives up.
    func scheduleReconnect(in group: inout DiscardingTaskGroup) {
        // Not on the network thread: connecting may block for a DNS lookup.
        group.addTask(executorPreference: globalConcurrentExecutor) {
            while !Task.isCancelled {
                let delay = self.state.withLock { state -> Duration? in
                    var generator = SystemRandomNumberGenerator()
                    return state.machine.nextReconnectDelay(using: &generator)
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
        let wasRunning = update { state in
            let backoff = state.machine.backoff
            let retries = backoff.failedAttempts
            let limit = backoff.policy.maximumAttempts.map { "\($0)" } ?? "unlimited"
            let last = state.machine.finalError.map { "; the last attempt failed: \($0.detail)" } ?? ""
            let wasRunning = state.machine.isRunning
            let error = AgentError(
                code: .connectionFailed,
                detail: "cannot connect to \(configuration.broker.url): gave up after \(retries) "
                    + "retries (ReconnectPolicy.maximumAttempts is \(limit))\(last)")
            return (wasRunning, state.machine.gaveUp(error))
        }
        if wasRunning { logger.debug("Reconnect policy gave up", metadata: ["mqtt.broker": "\(configuration.broker.url)"]) }
    }

    /// CONNACK accepted: resubscribe everything, advertise the identity, drain the offline queue, go online.
    func handleConnected() {
        counters.increment(.connections)
        feed { $0.connected() }
        logger.debug("Connected", metadata: ["mqtt.broker": "\(configuration.broker.url)"])
    }

    /// CONNACK refused. Bad credentials and missing authorisation are final; the rest is retried.
    func handleRefused(_ code: ConnackCode) {
        let isFinal = [1, 2, 4, 5].contains(code.rawValue) || code.rawValue >= 0x80
        // MQTT 3.1.1: 4 bad user name or password, 5 not authorised; MQTT 5: 0x86, 0x87, 0x8C.
        let isCredentials = (code.protocolVersion == 5 ? [0x86, 0x87, 0x8C] : [4, 5]).contains(code.rawValue)
        let hint = isCredentials ? "; check the username and password (or the client certificate) and the broker's ACL" : ""
        logger.debug("Connection refused", metadata: ["mqtt.broker": "\(configuration.broker.url)", "mqtt.reason": "\(code)"])
        let error = AgentError(
            code: .connectionFailed,
            detail: "broker \(configuration.broker.url) refused the connection: \(code) (CONNACK \(code.rawValue))\(hint)")
        feed { $0.refused(error, isFinal: isFinal) }
    }

    /// The connection is gone. Returns whether to reconnect.
    func handleDisconnected(_ error: MosquittoError?) -> Bool {
        counters.metrics.didDisconnect()
        let agentError = error.map { AgentError(code: .connectionFailed, detail: "\($0)") }
        let reconnects = update { state in
            let actions = state.machine.disconnected(agentError)
            return (actions.contains(.scheduleReconnect), actions)
        }
        if reconnects {
            logger.debug("Disconnected", metadata: ["mqtt.broker": "\(configuration.broker.url)", "error": "\(error.map { "\($0)" } ?? "none")"])
        }
        return reconnects
    }

    /// The SUBACK or PUBACK code `code` in words, for the agent's protocol version.
    func reasonCode(_ code: Int32) -> ReasonCode {
        ReasonCode(rawValue: code, protocolVersion: configuration.broker.protocolVersion.level)
    }

    /// Begins the graceful stop: deadvertise (if online), then disconnect; never hangs.
    func stop() {
        responderGroups.stop()
        feed { $0.stop() }
    }

    /// Ends every observation and request, and releases the transport.
    func finishEverything() {
        let (finishers, waiters, observers) = state.withLock { state in
            // Every request and observer is in the finishers; the machine's own finish actions would repeat them.
            _ = state.machine.finishAll()
            let finishers = Array(state.finishers.values)
            state.finishers = [:]
            state.observerBuffers = [:]
            state.router.removeAll()
            state.requestTimer?.cancel()
            state.requestTimer = nil
            let observers = Array(state.stateObservers.values)
            state.stateObservers = [:]
            return (finishers, state.takeAllWaiters(), observers)
        }
        client.close()
        io.stop()
        counters.metrics.observerBufferMaxFill(0)
        waiters.forEach { $0.resume() }
        finishers.forEach { $0(.agentStopped) }
        observers.forEach {
            $0.yield(.stopped)
            $0.finish()
        }
        logger.debug("Agent stopped")
    }
}
