/// What an agent subscribes to for one observe call, and how it filters what arrives.
///
/// Each factory checks its argument as coaty-js does and returns the MQTT subscription filter.
/// Observing a *canonical core object type* (`coaty.Task`, `coaty.User`, …) by object type is
/// special: coaty-js never publishes on `ADV::coaty.Task`, so the observer subscribes to the core
/// type (`ADV:Task`) and keeps only objects of that exact object type (``admits(_:)``).
///
/// ```swift
/// let plan = try ObservationPlan.advertise(objectType: "coaty.Task", in: scope)
/// plan.topicFilter.rawValue  // "coaty/3/-/ADV:Task/+"
/// plan.requiredObjectType     // "coaty.Task"
/// ```
package struct ObservationPlan: Sendable, Hashable {
    /// The MQTT subscription filter; observers with equal filters share one subscription.
    package var topicFilter: TopicFilter
    /// The object type inbound Advertise or Update objects must have, or `nil` to keep all.
    package var requiredObjectType: String?

    /// Creates a plan.
    package init(topicFilter: TopicFilter, requiredObjectType: String? = nil) {
        self.topicFilter = topicFilter
        self.requiredObjectType = requiredObjectType
    }

    /// Whether an inbound object passes the local object type filter.
    ///
    /// Only observers of core object types filter; an observer of a custom object type receives
    /// every object sent on its topic, and a core type observer every object on the core type's.
    package func admits(_ object: any CoatyObject) -> Bool {
        requiredObjectType.map { $0.hasSameUTF8(as: object.objectType) } ?? true
    }

    // MARK: - One-way events

    /// Advertise events by core type: `coaty/3/<ns>/ADV:<coreType>/+`.
    package static func advertise(coreType: CoreType, in scope: AgentScope) -> ObservationPlan {
        ObservationPlan(topicFilter: .advertise(coreType, in: scope.subscriptionScope))
    }

    /// Advertise events by object type: `ADV::<objectType>`, or `ADV:<coreType>` plus a local
    /// filter for a canonical core object type.
    ///
    /// - Throws: ``EventError`` when the object type cannot be a topic level.
    package static func advertise(objectType: String, in scope: AgentScope) throws(EventError) -> ObservationPlan {
        try byObjectType(.advertise, objectType, scope)
    }

    /// Deadvertise events: `coaty/3/<ns>/DAD/+`.
    package static func deadvertise(in scope: AgentScope) -> ObservationPlan {
        ObservationPlan(topicFilter: .deadvertise(in: scope.subscriptionScope))
    }

    /// Channel events on channel `id`: `coaty/3/<ns>/CHN:<id>/+`.
    ///
    /// - Throws: ``EventError`` when the channel id cannot be a topic level.
    package static func channel(_ id: String, in scope: AgentScope) throws(EventError) -> ObservationPlan {
        try Channel.checkID(id)
        return ObservationPlan(topicFilter: .channel(id, in: scope.subscriptionScope))
    }

    /// Associate events for IO context `name` (observed by agents with IO nodes in that context).
    ///
    /// - Throws: ``EventError`` when the IO context name cannot be a topic level.
    package static func associate(ioContextName name: String, in scope: AgentScope) throws(EventError) -> ObservationPlan
    {
        guard CoatyTopic.isValidEventFilter(name) else {
            throw EventError(
                code: .invalidEventFilter, eventType: .associate, field: "ioContextName",
                detail: "IO context name '\(name)' must be non-empty and contain no '/', '+', '#' or U+0000")
        }
        return ObservationPlan(topicFilter: .associate(ioContextName: name, in: scope.subscriptionScope))
    }

    // MARK: - Requests

    /// Discover requests: `coaty/3/<ns>/DSC/+/+` (every agent subscribes to it when it joins).
    package static func discover(in scope: AgentScope) -> ObservationPlan {
        ObservationPlan(topicFilter: .discover(in: scope.subscriptionScope))
    }

    /// Query requests: `coaty/3/<ns>/QRY/+/+`.
    package static func query(in scope: AgentScope) -> ObservationPlan {
        ObservationPlan(topicFilter: .query(in: scope.subscriptionScope))
    }

    /// Update requests by core type: `coaty/3/<ns>/UPD:<coreType>/+/+`.
    package static func update(coreType: CoreType, in scope: AgentScope) -> ObservationPlan {
        ObservationPlan(topicFilter: .update(coreType, in: scope.subscriptionScope))
    }

    /// Update requests by object type, with the same core object type rule as
    /// ``advertise(objectType:in:)``.
    ///
    /// - Throws: ``EventError`` when the object type cannot be a topic level.
    package static func update(objectType: String, in scope: AgentScope) throws(EventError) -> ObservationPlan {
        try byObjectType(.update, objectType, scope)
    }

    /// Call requests for `operation`: `coaty/3/<ns>/CLL:<operation>/+/+`. Whether a Call reaches
    /// an observer with a context is decided per Call by ``Call/isDelivered(toObserverWithContext:)``.
    ///
    /// - Throws: ``EventError`` when the operation name cannot be a topic level.
    package static func call(_ operation: String, in scope: AgentScope) throws(EventError) -> ObservationPlan {
        try Call.checkOperation(operation)
        return ObservationPlan(topicFilter: .call(operation: operation, in: scope.subscriptionScope))
    }

    // MARK: - Raw and IO values

    /// Raw messages matching `topicFilter`, subscribed verbatim (wildcards allowed).
    ///
    /// - Throws: ``EventError`` with code `EventError.Code.invalidTopic` when the filter starts
    ///   with `coaty/` or is not a valid subscription filter (coaty-js logs and ignores it).
    package static func raw(_ topicFilter: String) throws(EventError) -> ObservationPlan {
        guard MQTTTopic.isValidRawSubscriptionFilter(topicFilter) else {
            throw EventError(
                code: .invalidTopic, eventType: nil, field: "topicFilter",
                detail: "Raw subscription filter '\(topicFilter)' must be non-empty, at most 65535 bytes, "
                    + "without U+0000 and not start with 'coaty/'")
        }
        return ObservationPlan(topicFilter: TopicFilter(rawValue: topicFilter))
    }

    /// IO values on an associating route, subscribed exactly as given (no wildcards, no namespace).
    ///
    /// - Throws: ``EventError`` with code `EventError.Code.invalidTopic` when the route is not a
    ///   valid topic name, or is external yet starts with `coaty/`.
    package static func ioValue(route: String, isExternalRoute: Bool) throws(EventError) -> ObservationPlan {
        guard MQTTTopic.isValidIoRoute(route, isExternal: isExternalRoute) else {
            throw EventError(
                code: .invalidTopic, eventType: .ioValue, field: "associatingRoute",
                detail: "IO route '\(route)' must be a topic name without wildcards; external routes must not "
                    + "start with 'coaty/'")
        }
        return ObservationPlan(topicFilter: TopicFilter(rawValue: route))
    }

    // MARK: - Helpers

    private static func byObjectType(
        _ eventType: EventType, _ objectType: String, _ scope: AgentScope
    ) throws(EventError) -> ObservationPlan {
        guard CoatyTopic.isValidEventFilter(objectType) else {
            throw EventError(
                code: .invalidEventFilter, eventType: eventType, field: "objectType",
                detail: "object type '\(objectType)' must be non-empty and contain no '/', '+', '#' or U+0000")
        }
        let filter = ObjectTypeTopicFilter(eventType: eventType, objectType: objectType, in: scope.subscriptionScope)
        return ObservationPlan(topicFilter: filter.topicFilter, requiredObjectType: filter.requiredObjectType)
    }
}
