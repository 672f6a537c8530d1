import CoreTypes
import Testing

/// The publishing side of one vector case: its scope, its correlation ids, and the request that
/// was injected before a response (`input.requestTopic`, `input.requestPayload`).
///
/// It does with the pure planning functions what coaty-js's CommunicationManager did in the
/// vector harness: plan one-way publications, request plans, responses to the injected request,
/// and IO values on the route of the injected Associate.
struct VectorAgent {
    let vector: VectorCase
    var counter = CorrelationCounter()

    init(_ vector: VectorCase) {
        self.vector = vector
    }

    var scope: AgentScope { vector.scope }

    /// What the words of the case's call refer to: its scope and injected request.
    var callContext: CallContext {
        CallContext(scope: scope, requestPayload: try? requestPayload)
    }

    var requestTopic: String { vector.input["requestTopic"]?.stringValue ?? "" }

    var requestPayload: JSONValue {
        get throws { try JSONValue(parsing: vector.input["requestPayload"]?.stringValue ?? "") }
    }

    /// The injected request, decoded as the responder received it.
    func injectedRequest() throws -> any PlannedRequest {
        let topic = try #require(try CoatyTopic(parsing: requestTopic))
        switch topic.eventType {
        case .discover: return try Discover(json: requestPayload)
        case .query: return try Query(json: requestPayload)
        case .update: return try Update(json: requestPayload, registry: EventFixtures.registry)
        case .call: return try Call(operation: topic.eventTypeFilter ?? "", json: requestPayload)
        default: throw Inexpressible(reason: "the injected \(topic.eventType) is not a request")
        }
    }

    /// The publications of `event`, as the agent would send them.
    mutating func publications(of event: SwiftEvent) throws -> [Publication] {
        switch event {
        case .advertise(let event): return try event.publications(in: scope)
        case .deadvertise(let event): return [try event.publication(in: scope)]
        case .channel(let event): return [try event.publication(in: scope)]
        case .associate(let event): return [try event.publication(in: scope)]
        case .raw(let event): return [try event.publication()]
        case .request(let event): return try plan(event).publications
        case .response(let response): return [try respond(to: injectedRequest(), with: response)]
        case .ioValue(let value, let sourceID): return try ioValuePublications(value, sourceID: sourceID)
        }
    }

    /// The request plan of `event`, with ids from the counter.
    mutating func plan(_ event: some PlannedRequest) throws -> RequestPlan {
        try event.requestPlan(in: scope, makeCorrelationID: { counter.next() })
    }

    /// The publication of `response` to `request`, with the correlation id of the request's topic.
    func respond<R: PlannedRequest>(to request: R, with response: any CoatyEvent) throws -> Publication {
        guard let response = response as? R.Response else {
            throw Inexpressible(reason: "a \(type(of: response).eventType) does not answer a \(R.eventType)")
        }
        let correlationID = try CoatyTopic(parsing: requestTopic)?.correlationID
        return try request.responsePublication(response, correlationID: correlationID, in: scope)
    }

    /// An IO value of the source `sourceID`, published only while the injected Associate
    /// associates it (an agent keeps that state; here it is read from the injected event).
    func ioValuePublications(_ value: IoValue, sourceID: String) throws -> [Publication] {
        guard vector.input["requestPayload"] != nil else { return [] }
        let associate = try Associate(ioContextName: "kitchen", json: requestPayload)
        guard associate.ioSourceID == sourceID, let route = associate.associatingRoute else { return [] }
        let source = IoSource(
            objectID: sourceID, name: "Source", valueType: "number",
            useRawIoValues: sourceID == EventFixtures.rawIoSource ? true : nil)
        return [try value.publication(on: route, from: source)]
    }
}
