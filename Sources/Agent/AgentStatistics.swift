import CoreMetrics
import Synchronization

/// Counters of what an agent received, delivered and dropped, for monitoring and tests.
public struct AgentStatistics: Sendable, Hashable {
    /// MQTT messages the agent's task received.
    public var receivedMessages: Int
    /// Inbound payloads rejected as invalid (not JSON, wrong shape, too large, invalid UTF-8, …).
    public var rejectedPayloads: Int
    /// Inbound Coaty messages no observer wanted (unknown event, unobserved filter, late response).
    public var unroutedMessages: Int
    /// Responses that did not fit their request (coaty-js's checks) and were dropped.
    public var rejectedResponses: Int
    /// Events dropped because an observer's buffer was full and its overflow policy drops
    /// (``OverflowPolicy/dropNewest`` or ``OverflowPolicy/dropOldest``; never with the default).
    public var droppedObserverEvents: Int
    /// Times an observer's buffer went over its capacity and the agent stopped reading its
    /// connection until it drained (``OverflowPolicy/backpressure``): a sign of a slow consumer.
    public var heldBackObservers: Int
    /// Publications dropped or refused by the offline queue.
    public var droppedOfflinePublications: Int
    /// Successful connections (the first one and every reconnect).
    public var connections: Int
    /// Topic filters the broker refused in a SUBACK (return code 0x80 with MQTT 3.1.1, a reason
    /// code of 0x80 or more with MQTT 5), usually because its ACL denies them. Brokers whose ACL
    /// only filters delivery (mosquitto's `acl_file`) accept every subscription instead.
    public var refusedSubscriptions: Int
    /// Publications the broker refused in a PUBACK or PUBREC reason code (MQTT 5 with QoS 1 or 2
    /// only). MQTT 3.1.1 has no way to say so: the broker drops a denied publication silently.
    public var refusedPublications: Int
}

extension AgentStatistics {
    /// Adds what a responder group's connection counted; ``connections`` stays the agent's own.
    mutating func add(responderGroup other: AgentStatistics) {
        receivedMessages += other.receivedMessages
        rejectedPayloads += other.rejectedPayloads
        unroutedMessages += other.unroutedMessages
        rejectedResponses += other.rejectedResponses
        droppedObserverEvents += other.droppedObserverEvents
        heldBackObservers += other.heldBackObservers
        droppedOfflinePublications += other.droppedOfflinePublications
        refusedSubscriptions += other.refusedSubscriptions
        refusedPublications += other.refusedPublications
    }
}

/// The live counters behind ``AgentStatistics``; updated from the agent's task and observers.
final class AgentCounters: Sendable {
    /// The same counts (and more detail) for swift-metrics.
    let metrics: AgentMetrics
    let receivedMessages = Atomic<Int>(0)
    let rejectedPayloads = Atomic<Int>(0)
    let unroutedMessages = Atomic<Int>(0)
    let rejectedResponses = Atomic<Int>(0)
    let droppedObserverEvents = Atomic<Int>(0)
    let heldBackObservers = Atomic<Int>(0)
    let droppedOfflinePublications = Atomic<Int>(0)
    let connections = Atomic<Int>(0)
    let refusedSubscriptions = Atomic<Int>(0)

    init(metrics: AgentMetrics) {
        self.metrics = metrics
    }

    enum Counter {
        case receivedMessages, rejectedPayloads, unroutedMessages, rejectedResponses, droppedObserverEvents, heldBackObservers
        case droppedOfflinePublications, connections, refusedSubscriptions
    }

    func increment(_ counter: Counter, by amount: Int = 1) {
        switch counter {
        case .receivedMessages: receivedMessages.add(amount, ordering: .relaxed)
        case .rejectedPayloads: rejectedPayloads.add(amount, ordering: .relaxed)
        case .unroutedMessages: unroutedMessages.add(amount, ordering: .relaxed)
        case .rejectedResponses: rejectedResponses.add(amount, ordering: .relaxed)
        case .droppedObserverEvents:
            droppedObserverEvents.add(amount, ordering: .relaxed)
            metrics.observerDrops.increment(by: Int64(amount))
        case .heldBackObservers:
            heldBackObservers.add(amount, ordering: .relaxed)
            metrics.heldBackObservers.increment(by: Int64(amount))
        case .droppedOfflinePublications:
            droppedOfflinePublications.add(amount, ordering: .relaxed)
            metrics.publicationDrops.increment(by: Int64(amount))
        case .connections:
            connections.add(amount, ordering: .relaxed)
            metrics.didConnect()
        case .refusedSubscriptions: refusedSubscriptions.add(amount, ordering: .relaxed)
        }
    }
}

extension AgentCounters {
    /// Counts what a yield to an observer's queue did: a drop, or the start of holding the connection back.
    func count(_ result: QueueYieldResult) {
        switch result {
        case .enqueued, .finished: break
        case .dropped: increment(.droppedObserverEvents)
        case .heldBack: increment(.heldBackObservers)
        }
    }
}
