/// A Coaty event whose payload is JSON: every event except Raw and IoValue.
///
/// An event value holds what an application means (an object to advertise, an id to discover);
/// ``json()`` turns it into the payload coaty-js would publish, member for member, and checks it
/// the way coaty-js's event constructors do. Each event type also has a decoding initializer that
/// accepts and rejects exactly the payloads coaty-js accepts and rejects.
///
/// ```swift
/// let event = Discover(coreTypes: [.identity])
/// String(decoding: try event.payload(), as: UTF8.self)   // {"coreTypes":["Identity"]}
/// ```
public protocol CoatyEvent: Sendable {
    /// The event type on the wire (the topic's event level).
    static var eventType: EventType { get }

    /// The payload as a JSON value, in coaty-js member order with unset members left out.
    ///
    /// - Throws: ``EventError`` when the event is not valid (for example an object that breaks
    ///   the rules of its core type, or an empty object id).
    func json() throws(EventError) -> JSONValue

    /// The payload bytes: the compact UTF-8 JSON text of ``json()``, byte for byte as coaty-js
    /// writes it. The events that carry objects write them without building ``json()``'s tree.
    ///
    /// - Throws: ``EventError`` when the event is not valid.
    func payload() throws(EventError) -> [UInt8]
}

extension CoatyEvent {
    /// The payload bytes: the compact UTF-8 JSON text of ``json()``, byte for byte as coaty-js
    /// writes it.
    ///
    /// - Throws: ``EventError`` when the event is not valid.
    public func payload() throws(EventError) -> [UInt8] {
        try json().serialized()
    }

    /// Parses the bytes of an inbound message of this event type as JSON, the first step of
    /// decoding it.
    ///
    /// ```swift
    /// let event = try Advertise(json: Advertise.parsePayload(message.payload), registry: registry)
    /// ```
    ///
    /// - Throws: ``EventError`` with code `EventError.Code.notJSON` when the bytes are not a JSON
    ///   text (coaty-js: `JSON.parse` throws and the message is dropped); a leading byte order mark
    ///   is not JSON either.
    public static func parsePayload(_ bytes: some Collection<UInt8>) throws(EventError) -> JSONValue {
        do {
            return try JSONValue(parsing: bytes)
        } catch {
            throw EventError(code: .notJSON, eventType: eventType, field: nil, detail: error.description)
        }
    }
}

/// A request of a two-way exchange: Discover, Query, Update or Call.
///
/// A request knows its response type and how to check a response against itself. coaty-js runs
/// that check on both sides: the responder before it publishes (and throws), the requester when a
/// response arrives (and drops a response that fails). An agent uses ``check(_:)`` for both.
///
/// ```swift
/// let discover = Discover(objectID: lampID)
/// try discover.check(Resolve(object: lamp))          // passes
/// try discover.check(Resolve(object: otherLamp))     // throws .responseMismatch
/// ```
public protocol RequestEvent: CoatyEvent {
    /// The response event type (Resolve for Discover, Retrieve for Query, …).
    associatedtype Response: CoatyEvent

    /// Checks that `response` fits this request.
    ///
    /// - Throws: ``EventError`` with code `EventError.Code.responseMismatch` naming the member
    ///   that does not fit.
    func check(_ response: Response) throws(EventError)

    /// Decodes an inbound response payload to this request (checking only the payload, not the fit).
    ///
    /// - Throws: ``EventError`` when coaty-js would reject the payload.
    func decodeResponse(_ json: JSONValue, registry: ObjectTypeRegistry) throws(EventError) -> Response

    /// Decodes an inbound response from its payload bytes (checking only the payload, not the fit).
    ///
    /// The default parses the bytes and calls ``decodeResponse(_:registry:)``. Discover, Query
    /// and Update first read a response that carries objects of registered ``WireCodable`` types
    /// (with the `coatyObject` core type) without building its JSON tree; the result is the same.
    ///
    /// - Throws: ``EventError`` when coaty-js would reject the payload, with code
    ///   `EventError.Code.notJSON` when the bytes are not JSON.
    func decodeResponse(payload: [UInt8], registry: ObjectTypeRegistry) throws(EventError) -> Response
}

/// A request that an agent can plan: Discover, Query, Update and Call (the agent's side of
/// ``RequestEvent``, not part of the public API).
package protocol PlannedRequest: RequestEvent {
    /// The publications of this request and the response subscriptions they need.
    ///
    /// - Parameters:
    ///   - scope: the namespace and identity of the publishing agent.
    ///   - makeCorrelationID: returns a fresh correlation id each time it is called (normally
    ///     ``ObjectID/make()``); tests pass a counter.
    /// - Throws: ``EventError`` when the request is not valid.
    func requestPlan(in scope: AgentScope, makeCorrelationID: () -> String) throws(EventError) -> RequestPlan
}

extension RequestEvent {
    /// Parses the bytes and calls ``decodeResponse(_:registry:)``.
    public func decodeResponse(payload: [UInt8], registry: ObjectTypeRegistry) throws(EventError) -> Response {
        try decodeResponse(Response.parsePayload(payload), registry: registry)
    }

    /// The event type of this request's responses.
    public static var responseEventType: EventType { Response.eventType }

    /// Whether `response` fits this request; the requester drops responses that do not.
    public func accepts(_ response: Response) -> Bool {
        do {
            try check(response)
            return true
        } catch {
            return false
        }
    }

    /// The publication of `response` to this request, after checking that the response fits.
    ///
    /// Responses go out in the responder's own namespace, with its own identity id as source and
    /// the request's correlation id. A request topic without a correlation level has no id; coaty-js
    /// then publishes on the literal level `undefined`, and so does this.
    ///
    /// - Parameters:
    ///   - response: the response to publish.
    ///   - correlationID: the correlation id of the request's topic, `nil` if it had none.
    ///   - scope: the responding agent's namespace and identity.
    /// - Throws: ``EventError`` when the response does not fit or is not valid.
    package func responsePublication(
        _ response: Response, correlationID: String?, in scope: AgentScope
    ) throws(EventError) -> Publication {
        try check(response)
        let payload = try response.payload()
        return Publication(topic: scope.topic(Response.eventType, correlationID: correlationID), payload: payload)
    }
}
