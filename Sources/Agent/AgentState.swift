import CoreTypes

/// Everything an agent changes while it runs, behind one `Mutex` (`Agent.state`).
///
/// The agent's task, the callers of the public API and the observers' termination handlers all
/// touch it, always briefly and without awaiting while holding the lock.
struct AgentState {
    /// Why an observation or request ends from the agent's side.
    enum FinishReason {
        case agentStopped, timedOut
        /// The broker refused the subscription to the request's response topic.
        case subscriptionRefused(AgentError)
    }

    enum Phase: Equatable {
        case idle, connecting, online, offline, stopping, stopped
    }

    var phase = Phase.idle
    var subscriptions = SubscriptionTable()
    /// Filters the broker acknowledged on the current connection.
    var acknowledged: Set<String> = []
    /// SUBSCRIBE packets waiting for their SUBACK, by message id.
    var pendingAcknowledgements: [MQTTMessageID: [String]] = [:]
    /// The SUBSCRIBE that renewed every subscription after the last CONNACK.
    var resubscriptionID: MQTTMessageID?
    /// Filters the broker refused on the current connection, with their SUBACK code.
    var refusedFilters: [String: Int32] = [:]
    /// Callers waiting until a filter is acknowledged or refused (or the connection is lost, or the agent stops).
    var acknowledgementWaiters: [String: [ObserverID: CheckedContinuation<Void, Never>]] = [:]
    var offlineQueue: OfflineQueue<Publication>
    var router = Router()
    /// The namespace-wide response filters the agent holds for good (``Agent/ResponseSubscription/namespaceWide``).
    var sharedResponseFilters: Set<String> = []
    /// Test hook: SUBACKs held back instead of handled, while not `nil`
    /// (``Agent/holdSubscriptionAcknowledgements()``).
    var heldAcknowledgements: [(id: MQTTMessageID, grantedQoS: [Int32])]?
    /// Test hook: told the number of SUBACKs held back each time one more is.
    var heldAcknowledgementCounts: AsyncStream<Int>.Continuation?
    /// The pending requests that listen on each response filter, to end them if the broker refuses it.
    /// A shared filter's entry stays when its last request ends (it may be empty).
    var requestsByResponseFilter: [String: Set<ObserverID>] = [:]
    /// When each pending request times out, and the one timer task that ends them.
    var deadlines = RequestDeadlines()
    var nextObserverID = 0
    var backoff: Backoff
    /// The message id of the Deadvertise published on graceful stop.
    var stopMessageID: MQTTMessageID?
    /// Why the agent ended, when it did not end gracefully.
    var finalError: AgentError?
    /// Whether graceful shutdown or cancellation asked the agent to stop; then ``Agent/run()``
    /// returns normally whatever the last connection error was.
    var isStopRequested = false
    /// How to end each open observation and request when the agent stops.
    var finishers: [ObserverID: @Sendable (FinishReason) -> Void] = [:]
    var stateObservers: [ObserverID: DeliveryQueue<ConnectionState>] = [:]

    init(configuration: Agent.Configuration) {
        offlineQueue = OfflineQueue(
            limits: .init(
                maximumCount: configuration.offlineQueue.maximumCount,
                maximumBytes: configuration.offlineQueue.maximumBytes),
            policy: configuration.offlineQueue.dropPolicy)
        backoff = Backoff(policy: configuration.reconnect)
    }

    var connectionState: ConnectionState {
        switch phase {
        case .idle: return .idle
        case .connecting: return .connecting
        case .online: return .online
        case .offline: return .offline
        case .stopping, .stopped: return .stopped
        }
    }

    mutating func makeObserverID() -> ObserverID {
        nextObserverID += 1
        return nextObserverID
    }

    /// Removes and returns every waiter (to resume them outside the lock).
    mutating func takeAllWaiters() -> [CheckedContinuation<Void, Never>] {
        let all = acknowledgementWaiters.values.flatMap(\.values)
        acknowledgementWaiters = [:]
        return all
    }
}
