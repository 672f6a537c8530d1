import Agent
import CoreTypes
import ServiceLifecycle
import ServiceLifecycleTestKit
import Testing
import TestSupport

/// The last publications of an agent that stops reach the broker, followed by its Deadvertise:
/// whether it stops by graceful shutdown or by cancellation of ``Agent/run()``, and even when the
/// broker is still answering it (here the UNSUBACKs of two observations dropped just before: had
/// the agent closed its socket before reading them, the broker's second UNSUBACK would fail with
/// EPIPE and the broker would drop what it had not processed yet, then send the will).
@Suite(.timeLimit(.minutes(1)))
struct GracefulStopTests {
    enum Stop: Sendable, CaseIterable { case gracefulShutdown, cancellation }

    static let rounds = Stop.allCases.flatMap { stop in (0..<8).map { (stop, $0) } }

    @Test(.serialized, arguments: rounds)
    func publicationsJustBeforeTheStopReachTheBroker(_ stop: Stop, _ round: Int) async throws {
        try await TestBroker.withBroker { broker in
            let watcher = try Agent(configuration: RunningAgents.configuration("Watcher", broker: broker))
            let leaving = try Agent(configuration: RunningAgents.configuration("Leaving \(round)", broker: broker))
            try await RunningAgents.run([watcher]) {
                let lastWords = try await watcher.observeChannel("last-words")
                let deadvertised = try await watcher.observeDeadvertise()
                try await testGracefulShutdown { trigger in
                    let running = Task { try await leaving.run() }
                    await RunningAgents.waitUntilOnline(leaving)
                    do {
                        // Dropped at the end of this scope: two UNSUBSCRIBEs, answered by two UNSUBACKs.
                        let first = try await leaving.observeDeadvertise()
                        let second = try await leaving.observeAdvertise(coreType: .identity)
                        _ = (first, second)
                    }
                    try leaving.publish(Channel(id: "last-words", object: BaseObject(name: "Goodbye \(round)")))
                    switch stop {
                    case .gracefulShutdown: trigger.triggerGracefulShutdown()
                    case .cancellation: running.cancel()
                    }
                    try await running.value
                }
                var words = lastWords.makeAsyncIterator()
                let received = try #require(await words.next())
                #expect(received.event.objects.first?.name == "Goodbye \(round)")
                var leaves = deadvertised.makeAsyncIterator()
                #expect(try #require(await leaves.next()).event.objectIDs == [leaving.identity.objectID])
            }
        }
    }
}
