/// The namespace and identity an agent publishes under, and how widely it subscribes.
///
/// Every topic an agent publishes names its namespace and its identity's object id (IO values
/// name the IO source instead). With cross-namespacing the agent's subscriptions use `+` for the
/// namespace level, so it also receives events (and responses) from other namespaces; it still
/// publishes only in its own.
///
/// ```swift
/// let scope = AgentScope(identityID: identity.objectID, namespace: "plant-7")
/// ```
package struct AgentScope: Sendable, Hashable {
    /// The namespace level of published topics; coaty-js's default is `"-"`.
    package var namespace: String
    /// The object id of the agent's Identity: the source id level of its topics.
    package var identityID: String
    /// Whether subscriptions use `+` for the namespace level.
    package var isCrossNamespacing: Bool

    /// Creates a scope.
    ///
    /// - Parameters:
    ///   - identityID: the agent identity's object id.
    ///   - namespace: the namespace; defaults to coaty-js's `"-"`.
    ///   - isCrossNamespacing: whether to subscribe across namespaces; defaults to `false`.
    package init(identityID: String, namespace: String = "-", isCrossNamespacing: Bool = false) {
        self.identityID = identityID
        self.namespace = namespace
        self.isCrossNamespacing = isCrossNamespacing
    }

    /// The namespaces this agent's subscriptions cover: its own, or all with cross-namespacing.
    package var subscriptionScope: TopicFilter.NamespaceScope {
        isCrossNamespacing ? .allNamespaces : .namespace(namespace)
    }

    /// The associating route coaty-js's IO router gives a Coaty IO source in this namespace:
    /// `coaty/3/<namespace>/IOV/<ioSourceID>`.
    package func ioRoute(forIoSource ioSourceID: String) -> String {
        CoatyTopic(namespace: namespace, eventType: .ioValue, sourceID: ioSourceID).name
    }

    /// The topic this agent publishes an event on.
    func topic(_ eventType: EventType, filter: String? = nil, correlationID: String? = nil) -> String {
        CoatyTopic(
            namespace: namespace, eventType: eventType, eventTypeFilter: filter, sourceID: identityID,
            correlationID: correlationID
        ).name
    }
}
