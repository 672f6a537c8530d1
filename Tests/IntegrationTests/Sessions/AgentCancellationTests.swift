import Agent
import CoreTypes
import Testing
import TestSupport

/// Regression test: cancelling a running agent while messages stream in must not deadlock.
@Suite(.timeLimit(.minutes(1)))
struct AgentCancellationTests {
    /// Cancelling `run()` ends it, even while the event loop thread is delivering messages.
    ///
    /// The cancellation handler of `run()` runs while the Swift runtime holds the task's status
    /// lock. It used to publish the Deadvertise from there, which takes the connection's lock;
    /// the event loop thread, holding that lock while it hands the next message to the same task,
    /// needs the status lock: both waited for ever (seen under ThreadSanitizer in the session
    /// tests). The flood keeps the loop thread inside the connection lock most of the time; a
    /// hang shows as the time limit.
    @Test func cancellingWhileMessagesArriveEndsRun() async throws {
        try await TestBroker.withBroker { broker in
            var flooder = try TestClient("cancel-flooder", broker: broker.url)
            try await flooder.connect()
            let publisher = flooder.client
            let flood = Task {
                var count = 0
                while !Task.isCancelled {
                    _ = try? publisher.publish(topic: "flood/\(count % 8)", payload: [UInt8(count % 256)])
                    count += 1
                    if count.isMultiple(of: 64) { await Task.yield() }
                }
            }
            defer { flood.cancel() }
            for round in 0..<40 {
                let agent = try Agent(configuration: RunningAgents.configuration("Cancelled \(round)", broker: broker))
                let flooded = try await agent.observeRaw("flood/#")
                // The reader ends when the agent stops under it (the stream throws `stopped`).
                let reader = Task { do { for try await _ in flooded {} } catch let error as AgentError where error.code == .stopped {} }
                let running = Task { try await agent.run() }
                var states = agent.connectionStates().makeAsyncIterator()
                while let state = await states.next(isolation: #isolation), state != .online {}
                running.cancel()
                try await running.value
                try await reader.value
            }
        }
    }

    /// Cancelling tasks that watch the connection states while the agent stops ends them all.
    ///
    /// The agent yields each state change with its state lock held; a cancelled watcher's stream
    /// ran its termination handler, which took that lock, under the runtime's lock of the
    /// watcher's task, which the yield needs to resume the watcher. Both waited for ever. The race
    /// is narrow: before the fix this test hung in four runs out of six (a hang shows as the time
    /// limit); ServiceGroup shutdowns, which cancel everything at once, hit the same pattern.
    @Test func cancellingAStateWatcherWhileTheAgentStopsEndsBoth() async throws {
        try await TestBroker.withBroker { broker in
            for round in 0..<1000 {
                let agent = try Agent(configuration: RunningAgents.configuration("Watched \(round)", broker: broker))
                let running = Task { try await agent.run() }
                await RunningAgents.waitUntilOnline(agent)
                let watchers = (0..<8).map { _ in
                    let states = agent.connectionStates()
                    return Task { for await _ in states {} }
                }
                await withTaskGroup(of: Void.self) { group in
                    for watcher in watchers { group.addTask { watcher.cancel() } }
                    group.addTask { running.cancel() }
                }
                try await running.value
                for watcher in watchers { await watcher.value }
            }
        }
    }
}
