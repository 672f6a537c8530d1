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
package struct RequestPlan: Sendable, Hashable {
    /// One request publication and how to receive its responses.
    ///
    /// ```swift
    /// let exchange = plan.exchanges[0]
    /// pending[exchange.correlationID] = request   // route responses by their topic's correlation id
    /// ```
    package struct Exchange: Sendable, Hashable {
        /// The correlation id of this publication; responses carry it in their topic.
        package var correlationID: String
        /// The subscription filter for the responses, `coaty/3/<ns or +>/<RSV|RTV|CPL|RTN>/+/<id>`.
        package var responseFilter: TopicFilter
        /// The request publication.
        package var publication: Publication

        /// Creates an exchange.
        package init(correlationID: String, responseFilter: TopicFilter, publication: Publication) {
            self.correlationID = correlationID
            self.responseFilter = responseFilter
            self.publication = publication
        }
    }

    /// The exchanges in the order their correlation ids were made; subscribe in this order.
    package var exchanges: [Exchange]
    /// The request publications in the order coaty-js sends them (for an Update of a custom
    /// object type the `UPD::<objectType>` publication comes first, although its id was made
    /// second).
    package var publications: [Publication]

    /// Creates a plan.
    package init(exchanges: [Exchange], publications: [Publication]) {
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
        Exchange(
            correlationID: correlationID,
            responseFilter: .responses(responseType, correlationID: correlationID, in: scope.subscriptionScope),
            publication: Publication(
                topic: scope.topic(eventType, filter: filter, correlationID: correlationID), payload: payload))
    }
}
