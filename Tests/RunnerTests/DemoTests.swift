import Agent
import CoreTypes
import Testing
import TestSupport

/// `agent-runner demo`: every event pattern, on its own broker or on a given one.
@Suite(.timeLimit(.minutes(1)))
struct DemoTests {
    static let patterns = [
        "Joining", "Advertise", "Discover → Resolve", "Query → Retrieve", "Update → Complete", "Call → Return",
        "Channel", "Associate → IoValue", "Raw", "Deadvertise", "Last will", "Leaving",
    ]

    @Test func demoStartsItsOwnBrokerGoesThroughEveryPatternAndExitsZero() async throws {
        let outcome = try await RunnerProcess.run(["demo"])
        #expect(outcome.exitCode == 0, "\(outcome)")
        let lines = try outcome.json()
        let steps = lines.filter { $0["demo"] == "step" }.compactMap { $0["pattern"]?.stringValue }
        #expect(steps == Self.patterns)
        // Each step is followed by what an agent saw.
        #expect(lines.filter { $0["demo"] == "saw" }.count == Self.patterns.count)
        #expect(lines.contains { $0["text"]?.stringValue?.hasPrefix("Stopped the private broker") == true })
    }

    @Test func demoRunsOnAGivenBroker() async throws {
        try await TestBroker.withBroker { broker in
            let outcome = try await RunnerProcess.run(["demo", "--broker", broker.url.description, "--output", "text"])
            #expect(outcome.exitCode == 0, "\(outcome)")
            #expect(outcome.stdout.contains { $0.hasPrefix("11. Leaving") })
            #expect(!outcome.stdout.contains { $0.contains("private broker") })
        }
    }
}
