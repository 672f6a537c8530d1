import Agent
import CoreTypes
import Foundation
import Testing
import TestSupport

/// Waits and checks shared by the fault tests: connection states, the broker's view of an agent's
/// subscriptions, and numbered Channel streams.
enum Reliability {
    /// A reconnect policy that retries quickly, so that tests do not wait long for a restarted broker.
    static let quickReconnect = ReconnectPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(200))

    /// A test agent configuration on `broker` that reconnects quickly.
    static func configuration(
        _ name: String, broker: TestBroker, qos: MQTTQoS = .atMostOnce
    ) -> Agent.Configuration {
        var configuration = RunningAgents.configuration(name, broker: broker)
        configuration.reconnect = quickReconnect
        configuration.qos = qos
        return configuration
    }

    /// Returns when `agent` reports `state` (at once if it already does).
    static func waitFor(_ state: ConnectionState, _ agent: Agent) async {
        for await current in agent.connectionStates() where current == state { return }
    }

    /// Returns once `agent` is online and the broker holds every subscription it made on this connection.
    ///
    /// A broker handles one client's packets in order, so once a fresh subscription made after
    /// the resubscription is acknowledged, the earlier ones are in place too. The probe
    /// observation is dropped at once, which unsubscribes it again.
    static func waitUntilSubscribed(_ agent: Agent) async throws {
        await waitFor(.online, agent)
        _ = try await agent.observeChannel("probe-\(UUID().uuidString.prefix(8))")
    }

    /// A Channel event whose one object is named `number`, so that streams can be checked for order and loss.
    static func numbered(_ number: Int, on channel: String) -> Channel {
        Channel(id: channel, object: BaseObject(name: "\(number)"))
    }

    /// The number a ``numbered(_:on:)`` event carries.
    static func number(of received: Received<Channel>) throws -> Int {
        try #require(Int(received.event.objects.first?.name ?? ""), "not a numbered Channel event: \(received.event)")
    }

    /// Reads numbered events from `iterator` until `last` arrives; returns every number in arrival order.
    static func numbers(
        from iterator: inout EventStream<Received<Channel>>.AsyncIterator, through last: Int
    ) async throws -> [Int] {
        var numbers: [Int] = []
        while true {
            let next = try await iterator.next(isolation: #isolation)
            let received = try #require(next, "the stream ended before \(last) arrived; got \(numbers)")
            let number = try number(of: received)
            numbers.append(number)
            if number == last { return numbers }
        }
    }

    /// The numbers of `sequence` without repeats, each at its first arrival.
    static func firstArrivals(_ sequence: [Int]) -> [Int] {
        var seen: Set<Int> = []
        return sequence.filter { seen.insert($0).inserted }
    }

    /// The numbers in `range` that `sequence` lacks.
    static func missing(_ range: Range<Int>, in sequence: [Int]) -> [Int] {
        let present = Set(sequence)
        return range.filter { !present.contains($0) }
    }

    /// Runs `agent` in a child task while `body` runs and returns how `run()` ended.
    ///
    /// Unlike ``RunningAgents/run(_:_:)`` it does not wait until the agent is online and does not stop it:
    /// `body` decides (it returns the agent's own outcome, so tests can check the error `run()` threw).
    static func outcome(
        of agent: Agent, while body: @escaping @Sendable () async throws -> Void = {}
    ) async throws -> Result<Void, any Error> {
        try await withThrowingTaskGroup(of: Result<Void, any Error>?.self) { group in
            group.addTask {
                do {
                    try await agent.run()
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                try await body()
                return nil
            }
            var outcome: Result<Void, any Error>?
            for try await result in group {
                if let result { outcome = result }
            }
            return try #require(outcome)
        }
    }

    /// The ``AgentError`` that `outcome` failed with; records an issue when it did not fail that way.
    static func agentError(_ outcome: Result<Void, any Error>, sourceLocation: SourceLocation = #_sourceLocation)
        -> AgentError?
    {
        switch outcome {
        case .success:
            Issue.record("run() returned normally; an AgentError was expected", sourceLocation: sourceLocation)
            return nil
        case .failure(let error as AgentError):
            return error
        case .failure(let error):
            Issue.record("run() threw \(error), not an AgentError", sourceLocation: sourceLocation)
            return nil
        }
    }
}
