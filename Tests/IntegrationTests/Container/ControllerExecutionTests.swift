@testable import Agent
import CoreTypes
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(1)))
struct ControllerExecutionTests {
    /// Records, for its lifetime, a child task of it and its online hook, whether each ran on the
    /// thread of the agent's executor.
    struct ThreadRecordingController: Controller {
        let agent: Agent
        let recorder: HookRecorder

        private func record(_ place: String) {
            recorder.record("\(place) \(agent.client.eventLoop.isCurrentThread ? "on the agent's thread" : "elsewhere")")
        }

        func didGoOnline() async throws { record("didGoOnline") }

        func run() async throws {
            record("run")
            await withDiscardingTaskGroup { group in
                group.addTask { record("child task") }
            }
        }
    }

    func places(_ execution: Container.ControllerExecution, broker: TestBroker) async throws -> Set<String> {
        let recorder = HookRecorder()
        var configuration = RunningContainers.configuration("C", broker: broker)
        configuration.controllerExecution = execution
        let components = Components(controllers: [
            ControllerComponent(name: "Threads") { context in
                ThreadRecordingController(agent: context.agent, recorder: recorder)
            }
        ])
        let container = try Container(components: components, configuration: configuration)
        try await RunningContainers.run(container) {
            await recorder.wait { $0.count == 3 }
        }
        return Set(recorder.all)
    }

    @Test func controllersRunInTheGlobalPoolByDefault() async throws {
        #expect(Container.Configuration().controllerExecution == .globalPool)
        try await TestBroker.withBroker { broker in
            let found = try await places(.globalPool, broker: broker)
            #expect(found == ["run elsewhere", "child task elsewhere", "didGoOnline elsewhere"])
        }
    }

    @Test func agentExecutorRunsLifetimesChildTasksAndHooksOnTheAgentsThread() async throws {
        try await TestBroker.withBroker { broker in
            let found = try await places(.agentExecutor, broker: broker)
            #expect(
                found
                    == [
                        "run on the agent's thread", "child task on the agent's thread",
                        "didGoOnline on the agent's thread",
                    ])
        }
    }

    @Test func aProviderOnTheAgentExecutorAnswersDiscoversAndQueries() async throws {
        try await TestBroker.withBroker { broker in
            var configuration = RunningContainers.configuration(
                "Provider", broker: broker,
                options: ["ObjectProviderController": ["objects": [ObjectProviderControllerTests.lampJSON]]])
            configuration.controllerExecution = .agentExecutor
            let container = try Container(
                components: Components(controllers: [.objectProvider()]), configuration: configuration)
            let asker = try Agent(configuration: RunningAgents.configuration("Asker", broker: broker))
            try await RunningAgents.run([asker]) {
                try await RunningContainers.run(container) {
                    let resolved = try await asker.discover(Discover(externalID: "LX-1"), timeout: .seconds(30)).first()
                    #expect(resolved.event.object?.name == "Desk lamp")
                    let retrieved = try await asker.query(
                        Query(objectTypes: ["com.example.Light"]), timeout: .seconds(30)
                    ).first()
                    #expect(retrieved.event.objects.map(\.name) == ["Desk lamp"])
                }
            }
        }
    }
}
