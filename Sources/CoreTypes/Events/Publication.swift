/// One MQTT message to publish: topic, payload bytes, QoS and retain flag.
///
/// Publication planning (``RequestEvent/requestPlan(in:makeCorrelationID:)``,
/// ``Advertise/publications(in:)``, ``JoinPlan``) returns these; the agent hands them to MQTT
/// unchanged and in order. Coaty always publishes with QoS 0; only Raw messages may be retained.
///
/// ```swift
/// let publication = Deadvertise(objectIDs: [lampID]).publication(in: scope)
/// publication.topic     // "coaty/3/-/DAD/<identity id>"
/// ```
public struct Publication: Sendable, Hashable {
    /// The MQTT topic name (never a filter with wildcards).
    public var topic: String
    /// The payload bytes (UTF-8 JSON for Coaty events; anything for Raw and raw IO values).
    public var payload: [UInt8]
    /// The MQTT QoS level; coaty-js uses 0 for every publication and for the last will.
    public var qos: Int
    /// Whether the broker retains the message; coaty-js sets it only for Raw messages that ask for it.
    public var retain: Bool

    /// Creates a publication.
    public init(topic: String, payload: [UInt8], qos: Int = 0, retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }
}

/// The namespace and identity an agent publishes under, and how widely it subscribes.
///
/// Every topic an agent publishes names its namespace and its identity's object id (IO values
/// name the IO source instead). With cross-namespacing the agent's subscriptions use `+` for the
/// namespace level, so it also receives events (and responses) from other namespaces; it still
/// publishes only in its own.
///
/// ```swift
/// let scope = AgentScope(identityID: identity.objectId, namespace: "plant-7")
/// ```
public struct AgentScope: Sendable, Hashable {
    /// The namespace level of published topics; coaty-js's default is `"-"`.
    public var namespace: String
    /// The object id of the agent's Identity: the source id level of its topics.
    public var identityID: String
    /// Whether subscriptions use `+` for the namespace level.
    public var isCrossNamespacing: Bool

    /// Creates a scope.
    ///
    /// - Parameters:
    ///   - identityID: the agent identity's object id.
    ///   - namespace: the namespace; defaults to coaty-js's `"-"`.
    ///   - isCrossNamespacing: whether to subscribe across namespaces; defaults to `false`.
    public init(identityID: String, namespace: String = "-", isCrossNamespacing: Bool = false) {
        self.identityID = identityID
        self.namespace = namespace
        self.isCrossNamespacing = isCrossNamespacing
    }

    /// The namespace to put in subscription filters: `nil` (meaning `+`) with cross-namespacing.
    var subscriptionNamespace: String? { isCrossNamespacing ? nil : namespace }

    /// The associating route coaty-js's IO router gives a Coaty IO source in this namespace:
    /// `coaty/3/<namespace>/IOV/<ioSourceID>`.
    public func ioRoute(forIoSource ioSourceID: String) -> String {
        TopicRules.topicName(
            namespace: namespace, eventType: .ioValue, filter: nil, sourceID: ioSourceID, correlationID: nil)
    }
}

/// What an agent does to send one two-way request: subscribe to each response filter, then
/// publish.
///
/// Most requests need one exchange. An Update of an object whose type is not the canonical object
/// type of its core type needs two, each with its own correlation id (coaty-js does the same);
/// their responses are merged into one stream.
///
/// ```swift
/// let plan = try Update(object: lamp).requestPlan(in: scope, makeCorrelationID: ObjectID.make)
/// for exchange in plan.exchanges { subscribe(exchange.responseFilter) }   // wait for SUBACKs
/// for publication in plan.publications { publish(publication) }
/// ```
public struct RequestPlan: Sendable, Hashable {
    /// One request publication and how to receive its responses.
    public struct Exchange: Sendable, Hashable {
        /// The correlation id of this publication; responses carry it in their topic.
        public var correlationID: String
        /// The subscription filter for the responses, `coaty/3/<ns or +>/<RSV|RTV|CPL|RTN>/+/<id>`.
        public var responseFilter: String
        /// The request publication.
        public var publication: Publication

        /// Creates an exchange.
        public init(correlationID: String, responseFilter: String, publication: Publication) {
            self.correlationID = correlationID
            self.responseFilter = responseFilter
            self.publication = publication
        }
    }

    /// The exchanges in the order their correlation ids were made; subscribe in this order.
    public var exchanges: [Exchange]
    /// The request publications in the order coaty-js sends them (for an Update of a custom
    /// object type the `UPD::<objectType>` publication comes first, although its id was made
    /// second).
    public var publications: [Publication]

    /// Creates a plan.
    public init(exchanges: [Exchange], publications: [Publication]) {
        self.exchanges = exchanges
        self.publications = publications
    }

    /// A plan with one exchange.
    init(_ exchange: Exchange) {
        self.init(exchanges: [exchange], publications: [exchange.publication])
    }

    /// One exchange for a request of `eventType` with topic filter `filter` and payload `payload`.
    static func single(
        _ eventType: EventType, filter: String?, payload: [UInt8], responseType: EventType, in scope: AgentScope,
        makeCorrelationID: () -> String
    ) -> RequestPlan {
        RequestPlan(
            exchange(
                eventType, filter: filter, payload: payload, responseType: responseType, in: scope,
                correlationID: makeCorrelationID()))
    }

    static func exchange(
        _ eventType: EventType, filter: String?, payload: [UInt8], responseType: EventType, in scope: AgentScope,
        correlationID: String
    ) -> Exchange {
        let topic = TopicRules.topicName(
            namespace: scope.namespace, eventType: eventType, filter: filter, sourceID: scope.identityID,
            correlationID: correlationID)
        let responseFilter = TopicRules.topicFilter(
            namespace: scope.subscriptionNamespace, eventType: responseType, filter: nil, correlationID: correlationID)
        return Exchange(
            correlationID: correlationID, responseFilter: responseFilter,
            publication: Publication(topic: topic, payload: payload))
    }
}
