import Agent
import CoreTypes
import Foundation
import TestSupport
import Testing

/// One-way events published on leaf A reach observers on leaf B (across both bridges), on the hub
/// and on leaf A itself (which a hub echoing the message back would reach twice), each exactly once;
/// so does the last will of an agent on leaf A that dies.
@Suite(.timeLimit(.minutes(1)))
struct BridgedOneWayTests {
    /// Where the observers are: the publisher's own leaf, the other leaf and the hub.
    static let observers: [Place] = [.leafA, .leafB, .hub]

    @Test func advertiseReachesEveryBrokerOnce() async throws {
        try await BrokerStar.withStar { star in
            try await BridgedAgents.run(on: star) { agents in
                let lamp = BaseObject(objectType: "com.example.BridgedLamp", name: "lamp")
                let observed = try await Self.observers.asyncMap { place in
                    Deliveries.gather(
                        "the Advertise at \(place.rawValue)",
                        try await agents[place].observeAdvertise(objectType: lamp.objectType))
                }
                try agents.onLeafA.advertise(lamp)
                try await Self.expectEachOnce(observed, from: .leafA, agents: agents) { received in
                    #expect(received.event.object.objectID == lamp.objectID)
                    #expect(received.sourceID == agents.onLeafA.identity.objectID)
                }
            }
        }
    }

    @Test func deadvertiseReachesEveryBrokerOnce() async throws {
        try await BrokerStar.withStar { star in
            try await BridgedAgents.run(on: star) { agents in
                let gone = ObjectID.make()
                let observed = try await Self.observers.asyncMap { place in
                    Deliveries.gather(
                        "the Deadvertise at \(place.rawValue)", try await agents[place].observeDeadvertise(),
                        where: { $0.event.objectIDs.contains(gone) })
                }
                try agents.onLeafA.deadvertise([gone])
                try await Self.expectEachOnce(observed, from: .leafA, agents: agents) { received in
                    #expect(received.event.objectIDs == [gone])
                }
            }
        }
    }

    @Test func channelReachesEveryBrokerOnce() async throws {
        try await BrokerStar.withStar { star in
            try await BridgedAgents.run(on: star) { agents in
                let channel = "bridged\(UUID().uuidString.prefix(8).lowercased())"
                let observed = try await Self.observers.asyncMap { place in
                    Deliveries.gather(
                        "the Channel at \(place.rawValue)", try await agents[place].observeChannel(channel))
                }
                let reading = BaseObject(name: "21.5")
                try agents.onLeafA.publish(Channel(id: channel, object: reading))
                try await Self.expectEachOnce(observed, from: .leafA, agents: agents) { received in
                    #expect(received.event.objects.map(\.objectID) == [reading.objectID])
                }
            }
        }
    }

    /// An agent on leaf A dies without DISCONNECT (``Agent/closeConnectionAbruptly()``, all the
    /// broker sees of a killed process): leaf A publishes its will, and the bridges carry it.
    @Test func theLastWillOfAnAgentOnOneLeafReachesEveryBrokerOnce() async throws {
        try await BrokerStar.withStar { star in
            try await BridgedAgents.run(on: star) { agents in
                let doomed = try Agent(configuration: RunningAgents.configuration("doomed", broker: star.leafA))
                let doomedID = doomed.identity.objectID
                let observed = try await Self.observers.asyncMap { place in
                    Deliveries.gather(
                        "the last will at \(place.rawValue)", try await agents[place].observeDeadvertise(),
                        where: { $0.event.objectIDs.contains(doomedID) })
                }
                try await RunningAgents.run([doomed]) {
                    doomed.closeConnectionAbruptly()
                }
                try await Self.expectEachOnce(observed, from: .leafA, agents: agents) { received in
                    #expect(received.event.objectIDs == [doomedID])
                    #expect(received.sourceID == doomedID)
                }
                #expect(doomed.connectionState == .stopped)
            }
        }
    }

    /// Waits for the first delivery of each of `observed`, checks it, then makes a round trip from
    /// the publisher to each observer, and expects that still only one arrived at each.
    static func expectEachOnce<Element>(
        _ observed: [Deliveries<Element>], from publisher: Place, agents: BridgedAgents,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ check: (Element) throws -> Void
    ) async throws {
        for deliveries in observed { try check(try await deliveries.wait()) }
        for place in [Place.leafB, .hub] where place != publisher {
            try await agents.roundTrip(from: publisher, to: place)
        }
        for deliveries in observed { deliveries.expectCount(1, sourceLocation: sourceLocation) }
    }
}

extension Array {
    /// The results of `transform` for each element, one after the other.
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async throws -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
