import CoreMetrics
import CoreTypes

/// The agent's metrics, reported through swift-metrics to whatever backend the program
/// bootstrapped (none: they cost a call into the no-op handler). The library never bootstraps.
///
/// Names follow Prometheus conventions with a `coaty_` prefix; labels are the event type
/// (`event`: `Advertise`…`Return`, `Raw`) and the reason of a drop (`reason`), never ids, names or
/// topics. Every metric is made once, when the agent is made, and held as the backend's handler:
/// the hot paths call it with an `Int64` directly (swift-metrics' `Counter.increment(by:)` is
/// generic). The handlers are never destroyed: agents with the same labels share their series in
/// a backend, and destroying one agent's would take them from the others.
///
/// | metric | kind | labels |
/// | --- | --- | --- |
/// | `coaty_events_published_total` | counter | event |
/// | `coaty_events_received_total` | counter | event |
/// | `coaty_events_delivered_total` | counter | event |
/// | `coaty_events_dropped_total` | counter | event, reason (`invalid`, `unrouted`, `unfitting_response`) |
/// | `coaty_observer_events_dropped_total` | counter (observers whose full buffer drops) | |
/// | `coaty_observers_held_back_total` | counter (a full buffer held the connection back) | |
/// | `coaty_publications_dropped_total` | counter (the offline queue was full) | |
/// | `coaty_inbound_bytes_total` | counter | |
/// | `coaty_connections_total` | counter | |
/// | `coaty_connected` | gauge (1 online, 0 not) | |
/// | `coaty_offline_queue_depth` | gauge (publications held while offline) | |
/// | `coaty_observer_buffer_max_fill` | gauge (the most events waiting in one observer buffer, sampled once a second) | |
/// | `coaty_request_first_response_seconds` | timer (request to its first fitting response) | event (the request's) |
/// | `coaty_request_duration_seconds` | timer (request to its end: enough responses, timeout, cancellation) | event |
/// | `coaty_requests_timed_out_total` | counter | event |
final class AgentMetrics: Sendable {
    /// Why an event was dropped.
    enum DropReason: Int, CaseIterable {
        case invalid, unrouted, unfittingResponse

        var label: String {
            switch self {
            case .invalid: "invalid"
            case .unrouted: "unrouted"
            case .unfittingResponse: "unfitting_response"
            }
        }
    }

    /// The event types in metric order: the Coaty events, then `Raw`.
    static let kinds: [String] = EventType.allCases.map(\.description) + ["Raw"]
    static let rawKind = EventType.allCases.count

    private let published: [any CounterHandler]
    private let received: [any CounterHandler]
    private let delivered: [any CounterHandler]
    /// Indexed by `reason.rawValue * kinds.count + kind`.
    private let dropped: [any CounterHandler]
    private let inboundBytes: any CounterHandler
    private let connections: any CounterHandler
    private let connected: any RecorderHandler
    private let offlineQueueDepth: any RecorderHandler
    private let observerBufferMaxFill: any RecorderHandler
    /// Whether the factory is a real backend: only then are the observer buffers sampled.
    let isReporting: Bool
    let observerDrops: any CounterHandler
    let heldBackObservers: any CounterHandler
    let publicationDrops: any CounterHandler
    /// Indexed by ``requestKind(_:)``.
    private let firstResponse: [any TimerHandler]
    private let requestDuration: [any TimerHandler]
    private let timeouts: [any CounterHandler]

    /// The request event types in metric order.
    static let requestTypes: [EventType] = [.discover, .query, .update, .call]

    /// The metrics of agents whose program bootstrapped no backend: no-op handlers hold no state,
    /// so all such agents share one set instead of making about 70 handlers each.
    private static let unreported = AgentMetrics(factory: NOOPMetricsHandler.instance)

    /// The metrics for `factory`: the shared no-op set when it is swift-metrics' no-op factory. A
    /// responder group's connection (`describesConnection: false`) adds to the agent's event
    /// counters but leaves the connection's own figures to the agent's.
    static func make(factory: any MetricsFactory, describesConnection: Bool = true) -> AgentMetrics {
        factory is NOOPMetricsHandler ? unreported : AgentMetrics(factory: factory, describesConnection: describesConnection)
    }

    private init(factory: any MetricsFactory, describesConnection: Bool = true) {
        let connectionFactory: any MetricsFactory = describesConnection ? factory : NOOPMetricsHandler.instance
        func counters(_ label: String) -> [any CounterHandler] {
            Self.kinds.map { factory.makeCounter(label: label, dimensions: [("event", $0)]) }
        }
        published = counters("coaty_events_published_total")
        received = counters("coaty_events_received_total")
        delivered = counters("coaty_events_delivered_total")
        dropped = DropReason.allCases.flatMap { reason in
            Self.kinds.map { kind in
                factory.makeCounter(
                    label: "coaty_events_dropped_total", dimensions: [("event", kind), ("reason", reason.label)])
            }
        }
        inboundBytes = factory.makeCounter(label: "coaty_inbound_bytes_total", dimensions: [])
        connections = connectionFactory.makeCounter(label: "coaty_connections_total", dimensions: [])
        connected = connectionFactory.makeRecorder(label: "coaty_connected", dimensions: [], aggregate: false)
        offlineQueueDepth = connectionFactory.makeRecorder(
            label: "coaty_offline_queue_depth", dimensions: [], aggregate: false)
        observerBufferMaxFill = connectionFactory.makeRecorder(
            label: "coaty_observer_buffer_max_fill", dimensions: [], aggregate: false)
        isReporting = !(factory is NOOPMetricsHandler)
        observerDrops = factory.makeCounter(label: "coaty_observer_events_dropped_total", dimensions: [])
        heldBackObservers = factory.makeCounter(label: "coaty_observers_held_back_total", dimensions: [])
        publicationDrops = factory.makeCounter(label: "coaty_publications_dropped_total", dimensions: [])
        let requests = Self.requestTypes.map { [("event", $0.description)] }
        firstResponse = requests.map { factory.makeTimer(label: "coaty_request_first_response_seconds", dimensions: $0) }
        requestDuration = requests.map { factory.makeTimer(label: "coaty_request_duration_seconds", dimensions: $0) }
        timeouts = requests.map { factory.makeCounter(label: "coaty_requests_timed_out_total", dimensions: $0) }
    }

    /// The metric index of a request event type (`nil` for the others).
    static func requestKind(_ type: EventType) -> Int? {
        requestTypes.firstIndex(of: type)
    }

    /// A request's first fitting response arrived `elapsed` after it was made.
    func firstResponse(kind: Int, after elapsed: Duration) { firstResponse[kind].recordNanoseconds(elapsed.nanoseconds) }

    /// A request ended `elapsed` after it was made.
    func requestEnded(kind: Int, after elapsed: Duration) { requestDuration[kind].recordNanoseconds(elapsed.nanoseconds) }

    /// A request timed out.
    func requestTimedOut(kind: Int) { timeouts[kind].increment(by: 1) }

    /// The metric index of an event type.
    static func kind(_ type: EventType) -> Int {
        switch type {
        case .advertise: 0
        case .deadvertise: 1
        case .channel: 2
        case .associate: 3
        case .ioValue: 4
        case .discover: 5
        case .resolve: 6
        case .query: 7
        case .retrieve: 8
        case .update: 9
        case .complete: 10
        case .call: 11
        case .return: 12
        }
    }

    /// The metric index of a publication by its topic: the event level of a Coaty topic, else `Raw`.
    static func kind(ofTopic topic: String) -> Int {
        CoatyTopic.eventType(ofName: topic).map(kind) ?? rawKind
    }

    /// Counts a publication on `topic`; finds its event type only when a backend reports.
    func published(topic: String) {
        if isReporting { published(kind: Self.kind(ofTopic: topic)) }
    }

    func published(kind: Int) { published[kind].increment(by: 1) }

    func received(kind: Int, bytes: Int) {
        received[kind].increment(by: 1)
        inboundBytes.increment(by: Int64(bytes))
    }

    func delivered(kind: Int) { delivered[kind].increment(by: 1) }

    func dropped(kind: Int, _ reason: DropReason) {
        dropped[reason.rawValue * Self.kinds.count + kind].increment(by: 1)
    }

    func didConnect() {
        connections.increment(by: 1)
        connected.record(Int64(1))
    }

    func didDisconnect() { connected.record(Int64(0)) }

    /// The offline queue now holds `depth` publications.
    func offlineQueueDepth(_ depth: Int) { offlineQueueDepth.record(Int64(depth)) }

    /// The fullest observer buffer held `fill` events at its fullest since the last sample.
    func observerBufferMaxFill(_ fill: Int) { observerBufferMaxFill.record(Int64(fill)) }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? (seconds < 0 ? .min : .max) : scaled &+ attoseconds / 1_000_000_000
    }
}
