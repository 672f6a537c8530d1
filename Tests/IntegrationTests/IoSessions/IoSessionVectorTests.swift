import Agent
import CoreTypes
import Foundation
import Testing
import TestSupport

/// The scenarios of `io-sessions.json`, replayed by Swift agents on a real mosquitto: each agent
/// is configured from the scenario's `agents` entry (identity, `ioContextNodes`, controllers,
/// router and its rules), the steps' actions drive them, and each step must produce the captured
/// messages and the captured IO observer emissions. Nothing depends on a scenario's name: a
/// scenario added to the file is replayed as it is.
///
/// How a run is compared with its capture:
/// - per step, the messages of each publisher (the Coaty topic's source level, else `external`)
///   in order, byte for byte with retain flag and QoS; messages of different publishers as a set;
/// - the router's correlation ids and the agents' generated IO node ids replaced by the vector's
///   placeholders (`<corr-N>`, `<ioNode-LABEL>`);
/// - per (agent, observable, IO point), the emissions in order, each in the step it happened in;
/// - no retained message stays; every agent connected once and dropped nothing, and, where
///   coaty-js logged nothing, rejected nothing.
///
/// A rule condition is JavaScript text; ``JSCondition`` maps the expression subset conditions over
/// the IO objects use. A scenario with a condition outside it is reported as not mappable
/// (cancelled with the reason), not failed.
@Suite(.timeLimit(.minutes(2)))
struct IoSessionVectorTests {
    /// Everything one replay produced.
    struct Outcome {
        let steps: [[SessionCase.Message]]
        let observations: [IoSessionCase.Observation]
        let problems: [String]
        let ioNodes: [(id: String, label: String)]
        let retainedTopics: [String]
        let statistics: [(label: String, statistics: AgentStatistics)]
    }

    @Test func theFileHasScenariosWithAgentsStepsAndObservations() throws {
        let sessions = try IoSessionCase.all()
        #expect(!sessions.isEmpty)
        for session in sessions {
            #expect(!session.roles.isEmpty && !session.steps.isEmpty && !session.observed.isEmpty, "\(session.name)")
        }
    }

    @Test(arguments: try IoSessionCase.all())
    func swiftAgentsReproduceTheCapture(_ session: IoSessionCase) async throws {
        try await Self.replay(session)
    }

    /// Replays `session` and checks the run against its capture.
    static func replay(_ session: IoSessionCase) async throws {
        let outcome: Outcome
        do {
            outcome = try await TestBroker.withBroker { broker in try await run(session, broker: broker) }
        } catch let error as JSCondition.NotMappable {
            try Test.cancel(Comment(rawValue: "\(session.name): \(error)"))
        }
        let labels = Dictionary(session.roles.map { ($0.id, $0.label) }) { first, _ in first }
        let recorded = outcome.steps.map { $0.map { normalized($0, ioNodes: outcome.ioNodes) } }
        let (mapping, problems) = SessionComparison.placeholders(
            expected: session.steps.flatMap(\.messages), recorded: recorded.flatMap { $0 })
        #expect(problems.isEmpty, "correlation ids:\n\(problems.joined(separator: "\n"))")
        #expect(outcome.steps.count == session.steps.count)
        for (step, messages) in zip(session.steps, recorded) {
            let ours = SessionComparison.byPublisher(messages.map { SessionComparison.normalized($0, mapping) })
            let theirs = SessionComparison.byPublisher(step.messages)
            for publisher in Set(ours.keys).union(theirs.keys).sorted() {
                let actual = ours[publisher] ?? []
                let expected = theirs[publisher] ?? []
                #expect(
                    actual == expected,
                    """
                    \(session.name) step '\(step.label)', messages published by \(labels[publisher] ?? publisher):
                    Swift:
                    \(actual.map(\.description).joined(separator: "\n"))
                    coaty-js:
                    \(expected.map(\.description).joined(separator: "\n"))
                    """)
            }
        }
        checkObservations(outcome.observations, of: session)
        #expect(outcome.problems.isEmpty, "observers or agents failed:\n\(outcome.problems.joined(separator: "\n"))")
        #expect(outcome.retainedTopics.isEmpty, "topics with a retained message at the end")
        for (label, counters) in outcome.statistics {
            #expect(counters.connections == 1, "agent \(label) connected \(counters.connections) times")
            #expect(counters.droppedObserverEvents == 0, "agent \(label): \(counters)")
        }
    }

    /// Starts a broker-wide capture, then runs the steps' actions; after each step waits for the
    /// step's observer emissions and cuts the capture (``SessionRecorder/recordStep(expecting:agents:)``).
    static func run(_ session: IoSessionCase, broker: TestBroker) async throws -> Outcome {
        let run = try IoSessionRun(session: session, broker: broker)
        var recorder = try await SessionRecorder(broker: broker) { _ in ["#"] }
        defer { recorder.close() }
        var watches: [SessionRecorder.BarrierWatch] = []
        var steps: [[SessionCase.Message]] = []
        var retained: [String] = []
        do {
            for (index, step) in session.steps.enumerated() {
                run.begin(step: step.label)
                for action in step.actions {
                    switch action {
                    case .start(let label):
                        let container = try run.makeContainer(label)
                        watches.append(try await recorder.barrierWatch(label, container.agent))
                        try await run.start(label, container)
                    case .publish(let label, let source, let value):
                        try run.publish(label, value, from: source)
                    case .shutdown(let label):
                        watches.removeAll { $0.label == label }
                        try await run.shutdown(label)
                    case .kill(let label):
                        watches.removeAll { $0.label == label }
                        try run.kill(label)
                    case .externalPublish(let topic, let payload):
                        try recorder.publishExternally(topic: topic, payload: payload)
                    }
                }
                try await run.waitForObservations(through: index)
                steps.append(try await recorder.recordStep(expecting: step.messages.count, agents: &watches))
            }
            retained = try await SessionRecorder.retainedTopics(broker: broker, topics: ["#"])
        } catch {
            broker.stop()
            await run.finish()
            throw error
        }
        // Without a broker the agents stop offline: nothing more reaches the capture or the observers.
        broker.stop()
        await run.finish()
        let (observations, problems) = run.outcome
        return Outcome(
            steps: steps, observations: observations, problems: problems, ioNodes: run.ioNodes,
            retainedTopics: retained, statistics: run.statistics)
    }

    /// `message` with the IO node ids the Swift agents generated replaced by the vector's
    /// `<ioNode-LABEL>` placeholders, in its topic and (UTF-8) payload.
    static func normalized(_ message: SessionCase.Message, ioNodes: [(id: String, label: String)]) -> SessionCase.Message {
        var topic = message.topic
        var text = String(validating: message.payload, as: UTF8.self)
        for node in ioNodes {
            topic = topic.replacingOccurrences(of: node.id, with: "<ioNode-\(node.label)>")
            text = text?.replacingOccurrences(of: node.id, with: "<ioNode-\(node.label)>")
        }
        return SessionCase.Message(
            topic: topic, payload: text.map { Array($0.utf8) } ?? message.payload, retain: message.retain,
            qos: message.qos)
    }

    /// Compares the Swift observers' emissions with `expected.observed`, per (agent, observable, point).
    static func checkObservations(_ observations: [IoSessionCase.Observation], of session: IoSessionCase) {
        let ours = Dictionary(grouping: observations, by: \.key)
        let theirs = Dictionary(grouping: session.observed, by: \.key)
        for key in Set(ours.keys).union(theirs.keys).sorted() {
            let actual = ours[key] ?? []
            let expected = theirs[key] ?? []
            #expect(
                actual == expected,
                """
                \(session.name), \(key):
                Swift:    \(actual.map(\.description).joined(separator: ", "))
                coaty-js: \(expected.map(\.description).joined(separator: ", "))
                """)
        }
    }
}
