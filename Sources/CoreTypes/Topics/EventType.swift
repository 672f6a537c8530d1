/// The kind of a Coaty communication event, as named by the event level of its topic.
///
/// The raw value is the three-letter event name on the wire (`"ADV"`, `"DSC"`, …), and
/// ``description`` is the coaty-js `CommunicationEventType` name (`"Advertise"`). Raw MQTT
/// messages have no event type: they are not Coaty topics at all.
///
/// ```swift
/// EventType(rawValue: "QRY")          // .query
/// EventType.query.responseType        // .retrieve
/// EventType.channel.isOneWay          // true
/// ```
public enum EventType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Advertise (`ADV`): one-way, announces an object; filtered by core type or object type.
    case advertise = "ADV"
    /// Deadvertise (`DAD`): one-way, withdraws objects by id.
    case deadvertise = "DAD"
    /// Channel (`CHN`): one-way, broadcasts objects on a channel id.
    case channel = "CHN"
    /// Associate (`ASC`): one-way, tells IO nodes of an IO context about an IO route.
    case associate = "ASC"
    /// IoValue (`IOV`): one-way, carries an IO value on a Coaty IO route.
    case ioValue = "IOV"
    /// Discover (`DSC`): two-way request, answered by ``resolve``.
    case discover = "DSC"
    /// Resolve (`RSV`): two-way response to ``discover``.
    case resolve = "RSV"
    /// Query (`QRY`): two-way request, answered by ``retrieve``.
    case query = "QRY"
    /// Retrieve (`RTV`): two-way response to ``query``.
    case retrieve = "RTV"
    /// Update (`UPD`): two-way request, answered by ``complete``; filtered by core type or object type.
    case update = "UPD"
    /// Complete (`CPL`): two-way response to ``update``.
    case complete = "CPL"
    /// Call (`CLL`): two-way request for a remote operation, answered by ``return``.
    case call = "CLL"
    /// Return (`RTN`): two-way response to ``call``.
    case `return` = "RTN"

    /// The event name written in the event level of a topic, the same as `rawValue`.
    public var topicLevelName: String { rawValue }

    /// Whether the event is one-way: its topics have no correlation level.
    public var isOneWay: Bool {
        switch self {
        case .advertise, .deadvertise, .channel, .associate, .ioValue: true
        default: false
        }
    }

    /// Whether the event is a two-way request or response: its topics end in a correlation level.
    public var isTwoWay: Bool { !isOneWay }

    /// Whether the event is a two-way request (Discover, Query, Update, Call).
    public var isRequest: Bool { responseType != nil }

    /// Whether the event is a two-way response (Resolve, Retrieve, Complete, Return).
    public var isResponse: Bool { requestType != nil }

    /// The response event that answers this request, or `nil` if this is not a request.
    ///
    /// ```swift
    /// EventType.call.responseType     // .return
    /// EventType.advertise.responseType // nil
    /// ```
    public var responseType: EventType? {
        switch self {
        case .discover: .resolve
        case .query: .retrieve
        case .update: .complete
        case .call: .return
        default: nil
        }
    }

    /// The request event this response answers, or `nil` if this is not a response.
    public var requestType: EventType? {
        switch self {
        case .resolve: .discover
        case .retrieve: .query
        case .complete: .update
        case .return: .call
        default: nil
        }
    }

    /// Whether Coaty puts an event filter on the event level of this event's topics.
    ///
    /// Advertise and Update carry a core type or `:`-prefixed object type, Channel a channel id,
    /// Associate an IO context name and Call an operation name. All other events carry none.
    public var requiresEventTypeFilter: Bool {
        switch self {
        case .advertise, .channel, .associate, .update, .call: true
        default: false
        }
    }

    /// The coaty-js name of the event type, for example `"Advertise"` or `"IoValue"`.
    public var description: String {
        switch self {
        case .advertise: "Advertise"
        case .deadvertise: "Deadvertise"
        case .channel: "Channel"
        case .associate: "Associate"
        case .ioValue: "IoValue"
        case .discover: "Discover"
        case .resolve: "Resolve"
        case .query: "Query"
        case .retrieve: "Retrieve"
        case .update: "Update"
        case .complete: "Complete"
        case .call: "Call"
        case .return: "Return"
        }
    }
}
