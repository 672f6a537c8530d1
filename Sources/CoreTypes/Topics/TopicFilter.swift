/// An MQTT subscription topic filter, such as `coaty/3/-/ADV:Task/+`.
///
/// The factories format Coaty subscriptions exactly as coaty-js `MqttTopic.getTopicFilter`: the
/// source level is always `+`; requests of two-way events add a `+` correlation level, responses
/// the correlation id of the own request. ``init(rawValue:)`` wraps any filter, for Raw
/// subscriptions and IO routes; check those with ``MQTTTopic`` first.
///
/// ```swift
/// TopicFilter.advertise(.task, in: .namespace("-")).rawValue     // "coaty/3/-/ADV:Task/+"
/// TopicFilter.call(operation: "switch", in: .allNamespaces)       // coaty/3/+/CLL:switch/+/+
/// TopicFilter.responses(.retrieve, correlationID: corr, in: .namespace("-"))
///                                                                 // coaty/3/-/RTV/+/<corr>
/// ```
package struct TopicFilter: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// Which namespaces a Coaty subscription covers.
    package enum NamespaceScope: Sendable, Hashable {
        /// Events published in this namespace only. coaty-js turns the empty namespace into `+`.
        case namespace(String)
        /// Events of every namespace: the namespace level is `+` (cross-namespacing).
        case allNamespaces
    }

    /// The filter as sent in an MQTT SUBSCRIBE.
    package let rawValue: String

    /// Wraps a filter as it is, without checking it.
    ///
    /// Use it for Raw subscriptions and IO routes after checking them with
    /// ``MQTTTopic/isValidRawSubscriptionFilter(_:)`` or ``MQTTTopic/isValidIoRoute(_:isExternal:)``.
    package init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Formats the filter for events of `eventType`, as coaty-js `MqttTopic.getTopicFilter` does.
    ///
    /// One-way events end with the `+` source level and ignore `correlationID`. Two-way events add
    /// the correlation level: `correlationID`, or `+` when it is `nil` or empty. A non-empty
    /// `eventTypeFilter` follows the event name after a `:`. Prefer the named factories below.
    ///
    /// - Parameters:
    ///   - eventType: The events to receive.
    ///   - eventTypeFilter: The filter after the event name, without the separating `:`.
    ///   - correlationID: The correlation id of an own request, to receive its responses.
    ///   - scope: The namespaces to receive from.
    ///   - version: The version level; leave the default for Coaty 2.
    package init(
        eventType: EventType,
        eventTypeFilter: String? = nil,
        correlationID: String? = nil,
        in scope: NamespaceScope,
        version: Int = CoatyProtocol.topicVersion
    ) {
        let namespaceLevel =
            switch scope {
            case .namespace(let namespace) where !namespace.isEmpty: namespace
            default: "+"
            }
        let correlationLevel = eventType.isTwoWay ? correlationID.flatMap { $0.isEmpty ? nil : $0 } ?? "+" : nil
        rawValue = CoatyTopic.format(
            version: version, namespaceLevel: namespaceLevel, eventType: eventType, eventTypeFilter: eventTypeFilter,
            sourceLevel: "+", correlationLevel: correlationLevel)
    }

    /// The filter text, the same as ``rawValue``.
    package var description: String { rawValue }

    /// Whether a message on `topic` matches this filter, as coaty-js decides when it dispatches Raw messages.
    ///
    /// The same as ``MQTTTopic/matches(topic:filter:)``, including its differences from a broker.
    package func matches(_ topic: String) -> Bool {
        MQTTTopic.matches(topic: topic, filter: rawValue)
    }
}

extension TopicFilter {
    /// Advertise events of objects of a core type: `coaty/3/<ns>/ADV:<CoreType>/+`.
    package static func advertise(_ coreType: CoreType, in scope: NamespaceScope) -> TopicFilter {
        TopicFilter(eventType: .advertise, eventTypeFilter: coreType.rawValue, in: scope)
    }

    /// Advertise events of objects of an object type, with the local check that goes with it.
    ///
    /// A canonical core object type such as `coaty.Task` is observed on the core-type filter
    /// (`ADV:Task`), because coaty-js never publishes on `ADV::coaty.Task`; see ``ObjectTypeTopicFilter``.
    ///
    /// ```swift
    /// TopicFilter.advertise(objectType: "com.x.Light", in: .namespace("-"))
    /// // coaty/3/-/ADV::com.x.Light/+, requiredObjectType nil
    /// TopicFilter.advertise(objectType: "coaty.Task", in: .namespace("-"))
    /// // coaty/3/-/ADV:Task/+, requiredObjectType "coaty.Task"
    /// ```
    package static func advertise(objectType: String, in scope: NamespaceScope) -> ObjectTypeTopicFilter {
        ObjectTypeTopicFilter(eventType: .advertise, objectType: objectType, in: scope)
    }

    /// Deadvertise events: `coaty/3/<ns>/DAD/+`.
    package static func deadvertise(in scope: NamespaceScope) -> TopicFilter {
        TopicFilter(eventType: .deadvertise, in: scope)
    }

    /// Channel events on one channel: `coaty/3/<ns>/CHN:<channelID>/+`.
    package static func channel(_ channelID: String, in scope: NamespaceScope) -> TopicFilter {
        TopicFilter(eventType: .channel, eventTypeFilter: channelID, in: scope)
    }

    /// Associate events for one IO context: `coaty/3/<ns>/ASC:<ioContextName>/+`.
    package static func associate(ioContextName: String, in scope: NamespaceScope) -> TopicFilter {
        TopicFilter(eventType: .associate, eventTypeFilter: ioContextName, in: scope)
    }

    /// Discover requests: `coaty/3/<ns>/DSC/+/+`.
    package static func discover(in scope: NamespaceScope) -> TopicFilter {
        TopicFilter(eventType: .discover, in: scope)
    }

    /// Query requests: `coaty/3/<ns>/QRY/+/+`.
    package static func query(in scope: NamespaceScope) -> TopicFilter {
        TopicFilter(eventType: .query, in: scope)
    }

    /// Update requests for objects of a core type: `coaty/3/<ns>/UPD:<CoreType>/+/+`.
    package static func update(_ coreType: CoreType, in scope: NamespaceScope) -> TopicFilter {
        TopicFilter(eventType: .update, eventTypeFilter: coreType.rawValue, in: scope)
    }

    /// Update requests for objects of an object type, with the local check that goes with it.
    ///
    /// Works like ``advertise(objectType:in:)``: `coaty.Task` is observed on `UPD:Task/+/+`.
    package static func update(objectType: String, in scope: NamespaceScope) -> ObjectTypeTopicFilter {
        ObjectTypeTopicFilter(eventType: .update, objectType: objectType, in: scope)
    }

    /// Call requests for one operation: `coaty/3/<ns>/CLL:<operation>/+/+`.
    package static func call(operation: String, in scope: NamespaceScope) -> TopicFilter {
        TopicFilter(eventType: .call, eventTypeFilter: operation, in: scope)
    }

    /// The responses to one own request: `coaty/3/<ns>/<RSV|RTV|CPL|RTN>/+/<correlationID>`.
    ///
    /// Responders publish in their own namespace, so use ``NamespaceScope/allNamespaces`` to
    /// receive responses from other namespaces.
    ///
    /// ```swift
    /// TopicFilter.responses(.resolve, correlationID: "0f9e…", in: .namespace("-"))
    /// // coaty/3/-/RSV/+/0f9e…
    /// ```
    ///
    /// - Parameters:
    ///   - responseType: The response event, such as ``EventType/resolve`` (see ``EventType/responseType``).
    ///   - correlationID: The correlation id of the request.
    ///   - scope: The namespaces to receive from.
    package static func responses(
        _ responseType: EventType,
        correlationID: String,
        in scope: NamespaceScope
    ) -> TopicFilter {
        TopicFilter(eventType: responseType, correlationID: correlationID, in: scope)
    }
}
