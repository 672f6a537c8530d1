import Agent
import CoreTypes
import Testing
import TestSupport

/// Runs one scenario with Swift agents on a test broker and returns what was captured.
enum SessionDriver {
    /// A script has no closure for a step of its scenario.
    struct MissingStep: Error, CustomStringConvertible {
        let scenario: String
        let label: String
        var description: String { "the script of \(scenario) has no closure for step '\(label)'" }
    }

    /// Everything a scenario run produced.
    struct Outcome {
        /// The recorded messages, one list per step of the scenario.
        let steps: [[SessionCase.Message]]
        /// What the application observers received.
        let observations: [SessionCase.Observation]
        /// Errors that a script's observer or responder threw.
        let problems: [String]
        /// Topics with a retained message at the end.
        let retainedTopics: [String]
        /// Each agent's counters at the end, by label.
        let statistics: [(label: String, statistics: AgentStatistics)]
    }

    /// The topics besides `coaty/#` that the capture must watch: every other topic in the vector.
    static func extraTopics(of session: SessionCase) -> [String] {
        var topics: [String] = []
        for step in session.steps {
            for message in step.messages where !message.topic.hasPrefix("coaty/") && !topics.contains(message.topic) {
                topics.append(message.topic)
            }
        }
        return topics
    }

    /// Starts the recorder, then the agents; runs the steps, cutting the capture after each one;
    /// checks what stayed retained; then ends the run.
    ///
    /// The run ends by stopping the broker before the agents. Stopping an agent gracefully sends
    /// its Deadvertise, which would reach the others' Deadvertise observers after the capture; with
    /// the broker gone, every agent stops offline and sends nothing, and every observation ends
    /// after its buffered events have been read (the capture's last barrier made sure every event
    /// of the scenario is in those buffers).
    static func run(_ session: SessionCase, script: SessionScript, broker: TestBroker) async throws -> Outcome {
        let run = try SessionRun(session: session, broker: broker, script: script)
        let extraTopics = extraTopics(of: session)
        var recorder = try await SessionRecorder(broker: broker, extraTopics: extraTopics)
        defer { recorder.close() }
        var watches = try await recorder.barrierWatches(for: run)
        var steps: [[SessionCase.Message]] = []
        var retained: [String] = []
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (_, agent) in run.agents {
                group.addTask { try await agent.run() }
            }
            do {
                for (_, agent) in run.agents { await RunningAgents.waitUntilOnline(agent) }
                for step in session.steps {
                    if step.label != "setup-join" {
                        guard let body = script.steps[step.label] else {
                            throw MissingStep(scenario: session.name, label: step.label)
                        }
                        try await body(run)
                    }
                    let live = Set(run.liveAgents.map(\.label))
                    watches.removeAll { !live.contains($0.label) }
                    steps.append(try await recorder.recordStep(expecting: step.messages.count, agents: &watches))
                }
                retained = try await SessionRecorder.retainedTopics(broker: broker, topics: ["coaty/#"] + extraTopics)
            } catch {
                group.cancelAll()
                throw error
            }
            broker.stop()
            group.cancelAll()
            try await group.waitForAll()
        }
        let (observations, problems) = await run.finish()
        return Outcome(
            steps: steps, observations: observations, problems: problems, retainedTopics: retained,
            statistics: run.agents.map { ($0.label, $0.agent.statistics) })
    }
}
