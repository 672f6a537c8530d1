import Agent
import CoreTypes
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(1)))
struct RequestTimeoutTests {
    /// The timeout can pass before the broker acknowledged the response subscription; the request
    /// must still return (and publish), not wait for a SUBACK whose waiter was dropped.
    @Test(arguments: 0..<20)
    func aRequestWhoseTimeoutPassesBeforeItsSubscriptionIsAcknowledgedReturns(_ round: Int) async throws {
        try await TestBroker.withBroker { broker in
            let asker = try Agent(configuration: RunningAgents.configuration("Asker \(round)", broker: broker))
            try await RunningAgents.run([asker]) {
                let responses = try await asker.discover(Discover(coreTypes: [.identity]), timeout: .zero)
                _ = try await responses.collect()
                // The agent still works afterwards.
                let resolve = try await asker.discover(
                    Discover(objectID: asker.identity.objectID), timeout: .seconds(30)
                ).first()
                #expect(resolve.sourceID == asker.identity.objectID)
            }
        }
    }
}
