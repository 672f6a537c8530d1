import Agent
import CoreTypes
import Testing
import TestSupport

/// The scenarios of `sessions.json`, replayed by Swift agents in the same roles (same identity
/// ids, names and namespaces) on a real mosquitto: the same topics and payload bytes must go out,
/// step by step, and the observers must receive the same events.
///
/// How a run is compared with its capture:
/// - per step, the messages of each publisher in order (messages of different publishers as a
///   set, as the vectors README says), byte for byte, with retain flag and QoS;
/// - correlation ids replaced by the vector's placeholders (``SessionComparison/placeholders(expected:recorded:)``);
/// - what the observers received, per (agent, observer, source) in order, as parsed JSON (the
///   data is a value, not bytes, in `expected.observed` too);
/// - no topic keeps a retained message unless the vector's message was retained;
/// - every agent connected once and, where coaty-js logged nothing, rejected and dropped nothing.
///
/// A script may list publishers whose messages are compared as a set, each with its written
/// reason (``SessionScript/unorderedPublishers``).
@Suite(.timeLimit(.minutes(2)))
struct SessionVectorTests {
    /// Scripts are keyed by scenario name: what the agents do (which observer answers what, with
    /// which data) is in no field of a scenario, only in the JS program that ran it. A scenario
    /// without a script is reported, once here and once as its own cancelled test, as "not
    /// scripted": a missing reproduction, not a failure of the agent.
    @Test func scenariosWithoutAScriptAreReportedNotFailed() throws {
        let sessions = try SessionCase.all()
        #expect(!sessions.isEmpty)
        let unscripted = sessions.filter { SessionScripts.table[$0.name] == nil }.map(\.name)
        #expect(sessions.allSatisfy { !$0.steps.isEmpty && !$0.roles.isEmpty }, "every scenario has agents and steps")
        if !unscripted.isEmpty {
            try Test.cancel("not scripted (no Swift script reproduces them yet): \(unscripted.joined(separator: ", "))")
        }
    }

    @Test(arguments: try SessionCase.all())
    func swiftAgentsReproduceTheCapture(_ session: SessionCase) async throws {
        guard let script = SessionScripts.table[session.name] else {
            try Test.cancel(Comment(rawValue: Self.notScripted(session)))
        }
        try await Self.replay(session, script: script)
    }

    /// The note for a scenario that no script reproduces.
    static func notScripted(_ session: SessionCase) -> String {
        "not scripted: no Swift script reproduces \(session.name) (\(session.summary)); "
            + "add one to SessionScripts.table"
    }

    /// Runs `script` for `session` and checks the run against the capture.
    static func replay(_ session: SessionCase, script: SessionScript) async throws {
        let outcome = try await TestBroker.withBroker { broker in
            try await SessionDriver.run(session, script: script, broker: broker)
        }
        let labels = Dictionary(uniqueKeysWithValues: session.roles.map { ($0.id, $0.label) })
        let unordered = Set(script.unorderedPublishers.keys)
        let (mapping, problems) = SessionComparison.placeholders(
            expected: session.steps.flatMap(\.messages), recorded: outcome.steps.flatMap { $0 })
        #expect(problems.isEmpty, "correlation ids:\n\(problems.joined(separator: "\n"))")
        for (step, recorded) in zip(session.steps, outcome.steps) {
            let ours = SessionComparison.byPublisher(recorded.map { SessionComparison.normalized($0, mapping) })
            let theirs = SessionComparison.byPublisher(step.messages)
            for publisher in Set(ours.keys).union(theirs.keys).sorted() {
                let name = labels[publisher] ?? publisher
                var expected = theirs[publisher] ?? []
                var actual = ours[publisher] ?? []
                if unordered.contains(name) {
                    expected.sort { $0.description < $1.description }
                    actual.sort { $0.description < $1.description }
                }
                #expect(
                    actual == expected,
                    """
                    step '\(step.label)', messages published by \(name):
                    Swift:
                    \(actual.map(\.description).joined(separator: "\n"))
                    coaty-js:
                    \(expected.map(\.description).joined(separator: "\n"))
                    """)
            }
        }
        #expect(outcome.steps.count == session.steps.count)
        checkObservations(outcome.observations, of: session, unorderedSources: unordered)
        #expect(
            outcome.problems.isEmpty, "observers or responders failed:\n\(outcome.problems.joined(separator: "\n"))")
        let retainedInVector = Set(session.steps.flatMap(\.messages).filter(\.retain).map(\.topic))
        #expect(Set(outcome.retainedTopics) == retainedInVector, "topics with a retained message at the end")
        checkStatistics(outcome.statistics, of: session)
    }

    /// Every agent connected once, and, when the coaty-js agents logged no error, no Swift agent
    /// dropped or rejected anything (coaty-js logs each payload and response it rejects).
    static func checkStatistics(_ statistics: [(label: String, statistics: AgentStatistics)], of session: SessionCase) {
        for (label, counters) in statistics {
            #expect(counters.connections == 1, "agent \(label) connected \(counters.connections) times")
            #expect(counters.droppedObserverEvents == 0, "agent \(label): \(counters)")
            guard session.agentLogs == nil else { continue }
            #expect(counters.rejectedPayloads == 0, "agent \(label) rejected payloads: \(counters)")
            #expect(counters.rejectedResponses == 0, "agent \(label) rejected responses: \(counters)")
        }
    }

    /// Compares what the Swift observers received with `expected.observed`.
    static func checkObservations(
        _ observations: [SessionCase.Observation], of session: SessionCase, unorderedSources: Set<String>
    ) {
        let labels = Dictionary(uniqueKeysWithValues: session.roles.map { ($0.id, $0.label) })
        let ours = SessionComparison.byObserverAndSource(observations)
        let theirs = SessionComparison.byObserverAndSource(session.observed)
        for key in Set(ours.keys).union(theirs.keys).sorted() {
            var expected = theirs[key] ?? []
            var actual = ours[key] ?? []
            if let source = (expected.first ?? actual.first)?.sourceID, let label = labels[source],
                unorderedSources.contains(label)
            {
                expected.sort { $0.description < $1.description }
                actual.sort { $0.description < $1.description }
            }
            #expect(
                actual == expected,
                """
                observer \(key):
                Swift:
                \(actual.map(\.description).joined(separator: "\n"))
                coaty-js:
                \(expected.map(\.description).joined(separator: "\n"))
                """)
        }
    }
}
