import CoreTypes

/// An observer's identity inside one agent.
typealias ObserverID = Int

/// A decoded inbound event, before it is handed to the observers of its route.
enum InboundEvent: Sendable {
    case advertise(Received<Advertise>)
    case deadvertise(Received<Deadvertise>)
    case channel(Received<Channel>)
    case associate(Received<Associate>)
    case discover(IncomingRequest<Discover>)
    case query(IncomingRequest<Query>)
    case update(IncomingRequest<Update>)
    case call(IncomingRequest<Call>)
    case raw(Raw)
    case ioValue(route: String, payload: [UInt8])
    /// Any Coaty message, undecoded, for observers of everything (`observeAllEvents()`).
    case message(CoatyMessage)
}

/// The key of a Coaty route: an event type and its event filter, as the topic's event level
/// says (`ADV:Task` → `.advertise`, `"Task"`; `ADV::com.x.Light` → `.advertise`, `":com.x.Light"`).
/// Namespaces are not part of the key: like coaty-js, isolation comes from the broker subscription.
struct RouteKey: Hashable, Sendable {
    var eventType: EventType
    var eventTypeFilter: String?
}

/// One observer: a closure that picks the events it wants and yields them to its own buffer, or
/// hands them to an inline handler.
struct Sink: Sendable {
    let id: ObserverID
    /// Whether `deliver` answers the event itself (an inline handler) instead of waking a consumer:
    /// such a sink gets its events at once, the others once the network thread's pass has run.
    var isInline = false
    let deliver: @Sendable (InboundEvent) -> Void
}

/// Where one pending two-way request wants its responses.
struct ResponseSink: Sendable {
    /// What became of one response.
    enum Outcome: Equatable {
        /// Decoded, fitting the request, and yielded (or counted as dropped or late).
        case accepted
        /// Decoded but not valid, or not fitting the request.
        case rejected
        /// Not JSON at all, for the reason given.
        case notJSON(String)
    }

    let responseType: EventType
    /// Decodes a response from its payload bytes, checks it and yields it.
    let deliver: @Sendable (CoatyTopic, [UInt8]) -> Outcome
}

/// The routing table: which observers get which inbound message.
///
/// Coaty events are found by one hash lookup of their ``RouteKey``; responses by their
/// correlation id; IO values by their exact route. Only raw observers are matched by MQTT
/// wildcard, one comparison per raw observer. The table does no I/O and no decoding.
struct Router {
    private(set) var coatyRoutes: [RouteKey: [Sink]] = [:]
    private(set) var responses: [String: ResponseSink] = [:]
    private(set) var rawRoutes: [(filter: String, sink: Sink)] = []
    private(set) var ioRoutes: [String: [Sink]] = [:]
    private(set) var taps: [Sink] = []

    mutating func add(_ sink: Sink, for key: RouteKey) { coatyRoutes[key, default: []].append(sink) }

    mutating func remove(_ id: ObserverID, for key: RouteKey) {
        coatyRoutes[key]?.removeAll { $0.id == id }
        if coatyRoutes[key]?.isEmpty == true { coatyRoutes[key] = nil }
    }

    func sinks(for key: RouteKey) -> [Sink] { coatyRoutes[key] ?? [] }

    /// Where a message on a Coaty topic goes, by its event type.
    enum Targets {
        /// One-way events and requests: the observers of the topic's event type (and filter).
        case events([Sink])
        /// A response: the request waiting for its correlation id, if any.
        case response(ResponseSink?)
        /// An IO value: the observers of its route.
        case ioValue([Sink])
    }

    /// The targets of a message on `topic`, whose topic name is `name`: one hash lookup.
    func targets(of topic: CoatyTopic, named name: String) -> Targets {
        if topic.eventType == .ioValue { return .ioValue(ioSinks(route: name)) }
        if topic.eventType.isResponse {
            return .response(topic.correlationID.flatMap { responses[$0] })
        }
        return .events(sinks(for: RouteKey(eventType: topic.eventType, eventTypeFilter: topic.eventTypeFilter)))
    }

    mutating func add(_ sink: ResponseSink, correlationID: String) { responses[correlationID] = sink }

    mutating func removeResponses(correlationID: String) { responses[correlationID] = nil }

    func responseSink(correlationID: String) -> ResponseSink? { responses[correlationID] }

    mutating func addRaw(_ sink: Sink, filter: String) { rawRoutes.append((filter, sink)) }

    mutating func removeRaw(_ id: ObserverID) { rawRoutes.removeAll { $0.sink.id == id } }

    func rawSinks(matching topic: String) -> [Sink] {
        rawRoutes.filter { MQTTTopic.matches(topic: topic, filter: $0.filter) }.map(\.sink)
    }

    mutating func addIO(_ sink: Sink, route: String) { ioRoutes[route, default: []].append(sink) }

    mutating func removeIO(_ id: ObserverID, route: String) {
        ioRoutes[route]?.removeAll { $0.id == id }
        if ioRoutes[route]?.isEmpty == true { ioRoutes[route] = nil }
    }

    func ioSinks(route: String) -> [Sink] { ioRoutes[route] ?? [] }

    mutating func addTap(_ sink: Sink) { taps.append(sink) }

    mutating func removeTap(_ id: ObserverID) { taps.removeAll { $0.id == id } }

    /// Every response correlation id still open.
    var openCorrelationIDs: [String] { Array(responses.keys) }

    /// Removes everything (when the agent stops).
    mutating func removeAll() {
        coatyRoutes = [:]
        responses = [:]
        rawRoutes = []
        ioRoutes = [:]
        taps = []
    }
}
