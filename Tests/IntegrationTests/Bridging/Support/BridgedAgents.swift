import Agent
import CoreTypes
import Foundation
import TestSupport
import Testing

/// Where an agent of a bridging test is connected.
enum Place: String, Sendable, CustomTestStringConvertible {
    case leafA = "leaf A"
    case leafB = "leaf B"
    case hub

    var testDescription: String { rawValue }
}

/// A requester and a responder on different brokers of a ``BrokerStar``.
struct RequestRoute: Sendable, CustomTestStringConvertible {
    let requester: Place
    let responder: Place

    /// Leaf to leaf (two bridges each way), leaf to hub and hub to leaf (one bridge each way).
    static let all = [
        RequestRoute(requester: .leafA, responder: .leafB),
        RequestRoute(requester: .leafA, responder: .hub),
        RequestRoute(requester: .hub, responder: .leafB),
    ]

    var testDescription: String { "\(requester.rawValue) asks \(responder.rawValue)" }
}

/// One agent on each broker of a ``BrokerStar``, each reconnecting quickly.
struct BridgedAgents: Sendable {
    let onLeafA: Agent
    let onLeafB: Agent
    let onHub: Agent

    /// Runs an agent on each broker of `star` until `body` returns, waiting until all three are online first.
    static func run(on star: BrokerStar, _ body: @Sendable (BridgedAgents) async throws -> Void) async throws {
        let agents = BridgedAgents(
            onLeafA: try Agent(configuration: Reliability.configuration("A", broker: star.leafA)),
            onLeafB: try Agent(configuration: Reliability.configuration("B", broker: star.leafB)),
            onHub: try Agent(configuration: Reliability.configuration("Hub", broker: star.hub)))
        try await RunningAgents.run([agents.onLeafA, agents.onLeafB, agents.onHub]) { try await body(agents) }
    }

    /// The agent at `place`.
    subscript(place: Place) -> Agent {
        switch place {
        case .leafA: onLeafA
        case .leafB: onLeafB
        case .hub: onHub
        }
    }

    /// Calls a fresh operation of the agent at `responder` from the agent at `requester` and waits for its
    /// Return: an exchange over the same bridges as a message before it, which a copy of that message
    /// going round a loop would not have taken much longer to cross.
    func roundTrip(from requester: Place, to responder: Place) async throws {
        let operation = "com.example.roundtrip\(UUID().uuidString.prefix(8).lowercased())"
        let calls = Deliveries.gather(
            "the round-trip Call at \(responder.rawValue)", try await self[responder].observeCall(operation)
        ) { request in
            try request.respond(Return(result: true))
        }
        defer { calls.stop() }
        let response = try await self[requester].call(Call(operation: operation), timeout: .seconds(30)).first()
        #expect(response.event.result == true, "the round trip from \(requester.rawValue) to \(responder.rawValue)")
    }
}
