import Agent
import CoreTypes
import Foundation
import TestSupport
import Testing

/// Each two-way pattern with requester and responder on different brokers of a star: the request
/// reaches the responder once and its response reaches the requester once, over the per-request
/// response topic that the requester subscribed to on its own broker.
@Suite(.timeLimit(.minutes(1)))
struct BridgedRequestTests {
    @Test(arguments: RequestRoute.all)
    func discoverIsResolvedOnce(_ route: RequestRoute) async throws {
        try await BrokerStar.withStar { star in
            try await BridgedAgents.run(on: star) { agents in
                let lamp = BaseObject(name: "lamp")
                let requests = Deliveries.gather(
                    "the Discover at \(route.responder.rawValue)", try await agents[route.responder].observeDiscover(),
                    where: { $0.event.objectID == lamp.objectID }
                ) { request in
                    try request.respond(Resolve(object: lamp))
                }
                let responses = Deliveries.gather(
                    "the Resolve at \(route.requester.rawValue)",
                    try await agents[route.requester].discover(Discover(objectID: lamp.objectID), timeout: .seconds(30))
                )
                let resolve = try await Self.expectOneExchange(route, agents, requests, responses)
                #expect(resolve.event.object?.objectID == lamp.objectID)
                #expect(resolve.sourceID == agents[route.responder].identity.objectID)
            }
        }
    }

    @Test(arguments: RequestRoute.all)
    func queryIsRetrievedOnce(_ route: RequestRoute) async throws {
        try await BrokerStar.withStar { star in
            try await BridgedAgents.run(on: star) { agents in
                let lamps = [
                    BaseObject(objectType: "com.example.BridgedLamp", name: "one"),
                    .init(objectType: "com.example.BridgedLamp", name: "two"),
                ]
                let requests = Deliveries.gather(
                    "the Query at \(route.responder.rawValue)", try await agents[route.responder].observeQuery()
                ) { request in
                    try request.respond(Retrieve(objects: lamps))
                }
                let responses = Deliveries.gather(
                    "the Retrieve at \(route.requester.rawValue)",
                    try await agents[route.requester].query(
                        Query(objectTypes: ["com.example.BridgedLamp"]), timeout: .seconds(30)))
                let retrieve = try await Self.expectOneExchange(route, agents, requests, responses)
                #expect(retrieve.event.objects.map(\.objectID) == lamps.map(\.objectID))
            }
        }
    }

    @Test(arguments: RequestRoute.all)
    func updateIsCompletedOnce(_ route: RequestRoute) async throws {
        try await BrokerStar.withStar { star in
            try await BridgedAgents.run(on: star) { agents in
                let requests = Deliveries.gather(
                    "the Update at \(route.responder.rawValue)",
                    try await agents[route.responder].observeUpdate(coreType: .coatyObject)
                ) { request in
                    try request.respond(Complete(object: request.event.object))
                }
                // A canonical object type: one Update publication (a custom type publishes on two topics).
                let lamp = BaseObject(name: "lamp", custom: ["brightness": 0.5])
                let responses = Deliveries.gather(
                    "the Complete at \(route.requester.rawValue)",
                    try await agents[route.requester].update(Update(object: lamp), timeout: .seconds(30)))
                let complete = try await Self.expectOneExchange(route, agents, requests, responses)
                #expect(complete.event.object.objectID == lamp.objectID)
            }
        }
    }

    @Test(arguments: RequestRoute.all)
    func callIsReturnedOnce(_ route: RequestRoute) async throws {
        try await BrokerStar.withStar { star in
            try await BridgedAgents.run(on: star) { agents in
                let operation = "com.example.bridged\(UUID().uuidString.prefix(8).lowercased())"
                let requests = Deliveries.gather(
                    "the Call at \(route.responder.rawValue)", try await agents[route.responder].observeCall(operation)
                ) { request in
                    try request.respond(Return(result: 42))
                }
                let responses = Deliveries.gather(
                    "the Return at \(route.requester.rawValue)",
                    try await agents[route.requester].call(Call(operation: operation), timeout: .seconds(30)))
                let result = try await Self.expectOneExchange(route, agents, requests, responses)
                #expect(result.event.result == 42)
                #expect(result.sourceID == agents[route.responder].identity.objectID)
            }
        }
    }

    /// Waits for the first response, makes a round trip over the same bridges, and expects that one
    /// request reached the responder and one response the requester; returns the response.
    static func expectOneExchange<Request, Response>(
        _ route: RequestRoute, _ agents: BridgedAgents,
        _ requests: Deliveries<Request>, _ responses: Deliveries<Response>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Response {
        let response = try await responses.wait()
        try await agents.roundTrip(from: route.requester, to: route.responder)
        requests.expectCount(1, sourceLocation: sourceLocation)
        responses.expectCount(1, sourceLocation: sourceLocation)
        return response
    }
}
