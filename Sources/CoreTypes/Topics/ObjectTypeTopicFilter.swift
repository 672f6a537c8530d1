/// A subscription for objects of one object type: the topic filter, plus the check to apply locally.
///
/// Coaty publishes an object on its core-type topic always, and on its object-type topic only if
/// its object type is not the canonical one of its core type. So an object type such as
/// `coaty.Task` is observed on the core-type filter `ADV:Task`, and only objects whose `objectType`
/// equals ``requiredObjectType`` are delivered. Other object types are observed on the
/// object-type filter (`ADV::com.x.Light`) and every object received there is delivered, as in
/// coaty-js.
package struct ObjectTypeTopicFilter: Sendable, Hashable {
    /// The filter to subscribe to.
    package let topicFilter: TopicFilter

    /// The `objectType` a received object must have to be delivered, or `nil` to deliver every object.
    package let requiredObjectType: String?

    /// Chooses the filter for `objectType` on Advertise or Update events.
    ///
    /// - Parameters:
    ///   - eventType: ``EventType/advertise`` or ``EventType/update``; other events format the same way.
    ///   - objectType: The object type to observe.
    ///   - scope: The namespaces to receive from.
    package init(eventType: EventType, objectType: String, in scope: TopicFilter.NamespaceScope) {
        if let coreType = CoreType(canonicalObjectType: objectType) {
            topicFilter = TopicFilter(eventType: eventType, eventTypeFilter: coreType.rawValue, in: scope)
            requiredObjectType = objectType
        } else {
            topicFilter = TopicFilter(
                eventType: eventType, eventTypeFilter: CoatyTopic.objectTypeFilter(objectType), in: scope)
            requiredObjectType = nil
        }
    }
}
