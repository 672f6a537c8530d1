@testable import Agent
import CoreTypes
import Synchronization
import Testing
import TestSupport

/// Responder groups across bridged brokers: each broker shares a request among the group's members
/// connected to it, so a group whose members sit on two brokers answers each request twice.
@Suite(.timeLimit(.minutes(1)))
struct BridgedResponderGroupTests {
    @Test
    func aGroupIsSharedWithinEachBroker() async throws {
        try await BrokerStar.withStar { star in
            let requester = try Agent(configuration: Reliability.configuration("requester", broker: star.hub))
            let onLeafA = try (1...2).map { try Agent(configuration: Reliability.configuration("A\($0)", broker: star.leafA)) }
            let onLeafB = try Agent(configuration: Reliability.configuration("B", broker: star.leafB))
            let replicas = onLeafA + [onLeafB]
            let tally = ResponderGroupTests.Tally()
            try await RunningAgents.run([requester] + replicas) {
                var responders = try await ResponderGroupTests.serveQueries(onLeafA, counting: tally, group: "lamps")
                defer { responders.forEach { $0.cancel() } }
                let query = Query(objectTypes: ["com.example.Lamp"])
                for _ in 0..<20 { _ = try await requester.query(query, timeout: .seconds(30)).first() }
                try await ResponderGroupTests.fence(requester, replicas)
                #expect(tally.requests.count == 20, "members on one broker: each Query once")
                #expect(tally.count(by: onLeafA[0]) > 0 && tally.count(by: onLeafA[1]) > 0)

                // The bridges carry all of `coaty/#` already: once leaf B acknowledged the member, it gets its copy.
                responders += try await ResponderGroupTests.serveQueries([onLeafB], counting: tally, group: "lamps")
                for _ in 0..<20 { _ = try await requester.query(query, timeout: .seconds(30)).first() }
                try await ResponderGroupTests.fence(requester, replicas)
                #expect(tally.count(by: onLeafB) == 20, "the only member on leaf B took every Query")
                #expect(tally.requests.count == 60, "members on two brokers: each later Query twice")
            }
        }
    }
}
