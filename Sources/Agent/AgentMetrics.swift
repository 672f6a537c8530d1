import CoreMetrics
import CoreTypes

/// The agent's metrics, reported through swift-metrics to whatever backend the program
/// bootstrapped (none: they cost a call into the no-op handler). The library never bootstraps.
///
/// Names follow Prometheus conventions with a `coaty_` prefix; labels are the event type
/// (`event`: `Advertise`…`Return`, `Raw`) and the reason of a drop (`reason`), never ids, names or
/// topics. Every metric object is made once, when the agent is made.
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

    private let published: [Counter]
    private let received: [Counter]
    private let delivered: [Counter]
    /// Indexed by `reason.rawValue * kinds.count + kind`.
    private let dropped: [Counter]
    private let inboundBytes: Counter
    private let connections: Counter
    private let connected: Gauge
    let observerDrops: Counter
    let heldBackObservers: Counter
    let publicationDrops: Counter

    init(factory: any MetricsFactory) {
        func counters(_ label: String) -> [Counter] {
            Self.kinds.map { Counter(label: label, dimensions: [("event", $0)], factory: factory) }
        }
        published = counters("coaty_events_published_total")
        received = counters("coaty_events_received_total")
        delivered = counters("coaty_events_delivered_total")
        dropped = DropReason.allCases.flatMap { reason in
            Self.kinds.map { kind in
                Counter(
                    label: "coaty_events_dropped_total", dimensions: [("event", kind), ("reason", reason.label)],
                    factory: factory)
            }
        }
        inboundBytes = Counter(label: "coaty_inbound_bytes_total", factory: factory)
        connections = Counter(label: "coaty_connections_total", factory: factory)
        connected = Gauge(label: "coaty_connected", factory: factory)
        observerDrops = Counter(label: "coaty_observer_events_dropped_total", factory: factory)
        heldBackObservers = Counter(label: "coaty_observers_held_back_total", factory: factory)
        publicationDrops = Counter(label: "coaty_publications_dropped_total", factory: factory)
    }

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
        var utf8 = topic.utf8[...]
        guard utf8.starts(with: "coaty/".utf8) else { return rawKind }
        // coaty/<version>/<namespace>/<event>[:filter]/…
        for _ in 0..<3 {
            guard let slash = utf8.firstIndex(of: UInt8(ascii: "/")) else { return rawKind }
            utf8 = utf8[utf8.index(after: slash)...]
        }
        let name = utf8.prefix { $0 != UInt8(ascii: ":") && $0 != UInt8(ascii: "/") }
        guard name.count == 3, let type = EventType(rawValue: String(decoding: name, as: UTF8.self)) else {
            return rawKind
        }
        return kind(type)
    }

    func published(kind: Int) { published[kind].increment() }

    func received(kind: Int, bytes: Int) {
        received[kind].increment()
        inboundBytes.increment(by: bytes)
    }

    func delivered(kind: Int) { delivered[kind].increment() }

    func dropped(kind: Int, _ reason: DropReason, count: Int = 1) {
        dropped[reason.rawValue * Self.kinds.count + kind].increment(by: count)
    }

    func didConnect() {
        connections.increment()
        connected.record(1)
    }

    func didDisconnect() { connected.record(0) }
}
