import CoreTypes

/// What an agent changes while it runs, behind one `Mutex` (`Agent.state`): the connection's
/// state machine, the routing table, and what the machine's actions refer to by id.
///
/// Taken briefly, never across an `await`, and never around a libmosquitto call: the machine's
/// actions go to ``outbox`` and are carried out after the lock is released (`Agent.update(_:)`).
struct AgentState {
    /// How an observation or request is told that the agent ended it.
    enum FinishReason {
        case agentStopped, timedOut
        /// The broker refused the subscription to the request's response topic.
        case subscriptionRefused(AgentError)
    }

    var machine: ConnectionStateMachine
    var router = Router()
    var nextObserverID = 0
    /// How to end each open observation and request.
    var finishers: [ObserverID: @Sendable (FinishReason) -> Void] = [:]
    /// The tasks waiting for a SUBACK (``ConnectionStateMachine/Action/resume(_:)`` names them).
    var acknowledgementWaiters: [ObserverID: CheckedContinuation<Void, Never>] = [:]
    var stateObservers: [ObserverID: DeliveryQueue<ConnectionState>] = [:]
    /// The one timer that ends requests at their deadline.
    var requestTimer: Task<Void, Never>?
    /// Actions to carry out in order, by whoever ``isSending``.
    var outbox: [ConnectionStateMachine.Action] = []
    /// Whether a thread is carrying out the outbox; the others only add to it.
    var isSending = false
    /// Each buffered observer's peak fill since the last sample (``DeliveryQueue/takePeakFill()``).
    var observerBuffers: [ObserverID: @Sendable () -> Int] = [:]
    /// The offline queue's depth as last reported to the metrics.
    private var reportedOfflineDepth = 0

    init(configuration: Agent.Configuration, joinPlan: JoinPlan) {
        machine = ConnectionStateMachine(
            joinPublications: joinPlan.publications,
            offlineQueue: OfflineQueue(
                limits: .init(
                    maximumCount: configuration.offlineQueue.maximumCount,
                    maximumBytes: configuration.offlineQueue.maximumBytes),
                policy: configuration.offlineQueue.dropPolicy),
            backoff: Backoff(policy: configuration.reconnect))
    }

    mutating func makeObserverID() -> ObserverID {
        nextObserverID += 1
        return nextObserverID
    }

    /// Adds `actions` to the outbox; returns whether the caller must now carry it out (nobody does).
    mutating func enqueue(_ actions: [ConnectionStateMachine.Action]) -> Bool {
        outbox.append(contentsOf: actions)
        guard !isSending, !outbox.isEmpty else { return false }
        isSending = true
        return true
    }

    /// The offline queue's depth if it changed since it was last reported; report it after the lock.
    mutating func offlineDepthChange() -> Int? {
        let depth = machine.offlineQueue.count
        guard depth != reportedOfflineDepth else { return nil }
        reportedOfflineDepth = depth
        return depth
    }

    /// Removes and returns every waiting continuation (to resume them outside the lock).
    mutating func takeAllWaiters() -> [CheckedContinuation<Void, Never>] {
        defer { acknowledgementWaiters = [:] }
        return Array(acknowledgementWaiters.values)
    }
}
