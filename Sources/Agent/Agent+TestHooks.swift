import Synchronization

extension Agent {
    /// Test hook: loses the connection the way a killed process does, so the broker publishes the last will.
    ///
    /// The socket is closed at once, without the Deadvertise and without DISCONNECT, exactly what
    /// the broker sees when the process dies with SIGKILL. The agent does not reconnect: ``run()``
    /// returns and every observation and pending request ends. For integration tests only.
    package func closeConnectionAbruptly() {
        client.close()
    }

    /// Test hook: from now on, SUBACKs are held back instead of handled, until
    /// ``releaseSubscriptionAcknowledgements()``. Shows that what the agent does (routing a
    /// pipelined request's responses, say) does not wait for them.
    ///
    /// - Returns: The number of SUBACKs held back, each time one more is (until released).
    @discardableResult
    package func holdSubscriptionAcknowledgements() -> AsyncStream<Int> {
        let (counts, continuation) = AsyncStream.makeStream(of: Int.self)
        let previous = state.withLock { state in
            state.heldAcknowledgements = state.heldAcknowledgements ?? []
            defer { state.heldAcknowledgementCounts = continuation }
            return state.heldAcknowledgementCounts
        }
        previous?.finish()
        return counts
    }

    /// Test hook: how many SUBACKs are held back now.
    package var heldSubscriptionAcknowledgementCount: Int {
        state.withLock { $0.heldAcknowledgements?.count ?? 0 }
    }

    /// Test hook: handles the SUBACKs held back, in order, and stops holding them.
    package func releaseSubscriptionAcknowledgements() {
        let (held, counts) = state.withLock { state in
            defer {
                state.heldAcknowledgements = nil
                state.heldAcknowledgementCounts = nil
            }
            return (state.heldAcknowledgements ?? [], state.heldAcknowledgementCounts)
        }
        counts?.finish()
        for acknowledgement in held { handleSubscribed(acknowledgement.id, grantedQoS: acknowledgement.grantedQoS) }
    }

    /// Test hook: the requests whose clean-up has not run yet (their response routes, subscriptions
    /// and deadlines are still held), and the MQTT filters the agent holds.
    package var openRequests: (correlationIDs: Int, deadlines: Int, filters: [String]) {
        state.withLock { ($0.router.openCorrelationIDs.count, $0.deadlines.count, $0.subscriptions.filters) }
    }

    /// Holds the SUBACK back when the test hook asks for it; returns whether it did.
    func holdsAcknowledgement(_ id: MQTTMessageID, grantedQoS: [Int32]) -> Bool {
        state.withLock { state in
            guard state.heldAcknowledgements != nil else { return false }
            state.heldAcknowledgements?.append((id, grantedQoS))
            state.heldAcknowledgementCounts?.yield(state.heldAcknowledgements?.count ?? 0)
            return true
        }
    }
}
