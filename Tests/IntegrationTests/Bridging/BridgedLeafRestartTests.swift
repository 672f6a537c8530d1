import Agent
import CoreTypes
import Foundation
import TestSupport
import Testing

/// A leaf broker of a star dies (SIGKILL) and comes back on the same port: the agents on the hub
/// and the other leaf keep working meanwhile, and the agent on the restarted leaf rejoins it and is
/// reachable again through the leaf's bridge.
@Suite(.timeLimit(.minutes(2)))
struct BridgedLeafRestartTests {
    @Test func agentsOnARestartedLeafRejoinAndRequestsCrossTheBridgesAgain() async throws {
        try await BrokerStar.withStar { star in
            try await BridgedAgents.run(on: star) { agents in
                let responders = try await Responders(agents)
                try await responders.expectAnsweredOnce(from: .leafB, to: .leafA)

                star.leafA.stop()
                await Reliability.waitFor(.offline, agents.onLeafA)
                // Without leaf A, the hub and leaf B go on as before.
                try await responders.expectAnsweredOnce(from: .leafB, to: .hub)
                try await responders.expectAnsweredOnce(from: .hub, to: .leafB)

                let restarted = ContinuousClock.now
                try await star.startOnSamePort(star.leafA)
                let bridged = restarted.duration(to: .now)
                try await Reliability.waitUntilSubscribed(agents.onLeafA)
                let rejoined = restarted.duration(to: .now)

                for (requester, responder) in [
                    (Place.leafB, Place.leafA), (.hub, .leafA), (.leafA, .leafB), (.leafA, .hub),
                ] {
                    try await responders.expectAnsweredOnce(from: requester, to: responder)
                }
                // The identity's own Discover responder on leaf A was subscribed again too.
                let a = agents.onLeafA.identity.objectID
                let resolve = try await agents.onLeafB.discover(Discover(objectID: a), timeout: .seconds(30)).first()
                #expect(resolve.sourceID == a, "leaf B discovers the agent on the restarted leaf A")

                #expect(agents.onLeafA.statistics.connections == 2, "the agent on leaf A connected twice")
                #expect(agents.onLeafB.statistics.connections == 1, "the agent on leaf B never lost its broker")
                #expect(agents.onHub.statistics.connections == 1, "the agent on the hub never lost its broker")
                Reliability.report(
                    "leaf restart: bridge to the hub up again \(bridged) after the start, agent rejoined after \(rejoined)"
                )
            }
        }
    }
}

/// A Call responder on each broker of a star, each with an operation of its own, counting the Calls it answers.
private struct Responders {
    let agents: BridgedAgents
    let calls: [Place: Deliveries<IncomingRequest<Call>>]

    init(_ agents: BridgedAgents) async throws {
        self.agents = agents
        var calls: [Place: Deliveries<IncomingRequest<Call>>] = [:]
        for place in [Place.leafA, .leafB, .hub] {
            calls[place] = Deliveries.gather(
                "the Calls at \(place.rawValue)", try await agents[place].observeCall(Self.operation(place))
            ) { request in
                try request.respond(Return(result: .string(place.rawValue)))
            }
        }
        self.calls = calls
    }

    static func operation(_ place: Place) -> String {
        "com.example.restart.\(place.rawValue.replacingOccurrences(of: " ", with: ""))"
    }

    /// Calls the responder at `responder` from the agent at `requester`, expects its Return, makes a
    /// round trip over the same bridges and expects that the Call and the Return each arrived once.
    func expectAnsweredOnce(
        from requester: Place, to responder: Place, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let answering = try #require(calls[responder])
        let answered = answering.count
        let returns = Deliveries.gather(
            "the Return from \(responder.rawValue) at \(requester.rawValue)",
            try await agents[requester].call(Call(operation: Self.operation(responder)), timeout: .seconds(30)))
        let response = try await returns.wait()
        #expect(response.event.result == .string(responder.rawValue), sourceLocation: sourceLocation)
        try await agents.roundTrip(from: requester, to: responder)
        returns.expectCount(1, sourceLocation: sourceLocation)
        answering.expectCount(answered + 1, sourceLocation: sourceLocation)
    }
}
