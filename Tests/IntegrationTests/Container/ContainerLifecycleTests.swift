import Agent
import CoreTypes
import ServiceLifecycle
import ServiceLifecycleTestKit
import Synchronization
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(1)))
struct ContainerLifecycleTests {
    func recording(_ names: [String], _ recorder: HookRecorder) -> Components {
        Components(
            controllers: names.map { name in
                ControllerComponent(name: name) { _ in RecordingController(name: name, recorder: recorder) }
            })
    }

    @Test func hooksRunInOrderAroundAReconnectAndTheStop() async throws {
        try await TestBroker.withBroker { broker in
            let recorder = HookRecorder()
            let container = try Container(
                components: recording(["A", "B"], recorder),
                configuration: RunningContainers.configuration("C", broker: broker))
            try await RunningContainers.run(container) {
                await recorder.wait(for: "B.didGoOnline")
                try await broker.restart()
                await recorder.wait(for: "B.didGoOnline", count: 2)
            }
            let hooks = recorder.all.filter { !$0.hasSuffix(".run") }
            #expect(
                hooks == [
                    "A.initialize", "B.initialize",
                    "A.didGoOnline", "B.didGoOnline",
                    "A.didGoOffline", "B.didGoOffline",
                    "A.didGoOnline", "B.didGoOnline",
                    "B.willStop", "A.willStop",
                ])
            #expect(Set(recorder.all.filter { $0.hasSuffix(".run") }) == ["A.run", "B.run"])
            #expect(container.agent.connectionState == .stopped)
        }
    }

    @Test func willStopRunsWhileTheAgentIsStillConnected() async throws {
        try await TestBroker.withBroker { broker in
            let watcher = try Agent(configuration: RunningAgents.configuration("W", broker: broker))
            let recorder = HookRecorder()
            let lampID = ObjectID.make()
            let holder = AgentHolder()
            let components = Components(controllers: [
                ControllerComponent(name: "Lamps") { context in
                    holder.agent = context.agent
                    return RecordingController(name: "Lamps", recorder: recorder) {
                        try context.agent.deadvertise([lampID])
                    }
                }
            ])
            let container = try Container(
                components: components, configuration: RunningContainers.configuration("C", broker: broker))
            try await RunningAgents.run([watcher]) {
                let deadvertised = try await watcher.observeDeadvertise()
                try await RunningContainers.run(container) {}
                var iterator = deadvertised.makeAsyncIterator()
                let first = try #require(await iterator.next())
                let second = try #require(await iterator.next())
                #expect(first.event.objectIDs == [lampID], "the controller deadvertises its lamp first")
                #expect(second.event.objectIDs == [container.agent.identity.objectID], "then the agent its identity")
            }
            #expect(holder.agent === container.agent)
        }
    }

    @Test func aFailingHookStopsTheContainerGracefullyAndNamesTheController() async throws {
        try await TestBroker.withBroker { broker in
            let watcher = try Agent(configuration: RunningAgents.configuration("W", broker: broker))
            let recorder = HookRecorder()
            let components = Components(controllers: [
                ControllerComponent(name: "Good") { _ in RecordingController(name: "Good", recorder: recorder) },
                ControllerComponent(name: "Broken") { _ in
                    RecordingController(name: "Broken", recorder: recorder, failsIn: "didGoOnline")
                },
            ])
            let container = try Container(
                components: components, configuration: RunningContainers.configuration("C", broker: broker))
            try await RunningAgents.run([watcher]) {
                let deadvertised = try await watcher.observeDeadvertise()
                let error = await #expect(throws: ContainerError.self) { try await container.run() }
                #expect(error?.code == .controllerFailed)
                #expect(error?.controller == "Broken")
                #expect(error?.detail.contains("the lamp broke in didGoOnline") == true)
                var iterator = deadvertised.makeAsyncIterator()
                let event = try #require(await iterator.next())
                #expect(event.event.objectIDs == [container.agent.identity.objectID], "the agent still deadvertised")
            }
            #expect(recorder.all.contains("Good.willStop"))
            #expect(recorder.all.contains("Broken.willStop"))
        }
    }

    @Test func aFailingInitializeNeverConnects() async throws {
        try await TestBroker.withBroker { broker in
            let recorder = HookRecorder()
            let components = Components(controllers: [
                ControllerComponent(name: "Broken") { _ in
                    RecordingController(name: "Broken", recorder: recorder, failsIn: "initialize")
                },
                ControllerComponent(name: "Later") { _ in RecordingController(name: "Later", recorder: recorder) },
            ])
            let container = try Container(
                components: components, configuration: RunningContainers.configuration("C", broker: broker))
            let error = await #expect(throws: ContainerError.self) { try await container.run() }
            #expect(error?.controller == "Broken")
            #expect(container.agent.connectionState == .idle)
            #expect(recorder.all == ["Broken.initialize"])
        }
    }

    @Test func anUnreachableBrokerEndsTheContainerWithTheAgentsError() async throws {
        let recorder = HookRecorder()
        try await TestBroker.withUnreachablePort { port in
            var configuration = Container.Configuration(agent: Agent.Configuration(identity: Identity(name: "C")))
            configuration.broker.url = "mqtt://127.0.0.1:\(port)"
            configuration.agent.reconnect = .never
            let container = try Container(components: recording(["A"], recorder), configuration: configuration)
            let error = await #expect(throws: AgentError.self) { try await container.run() }
            #expect(error?.code == .connectionFailed)
            #expect(error?.detail.contains("127.0.0.1") == true)
        }
        #expect(recorder.all.contains("A.willStop"))
        #expect(!recorder.all.contains("A.didGoOnline"))
    }

    @Test func aContainerRunsOnlyOnce() async throws {
        try await TestBroker.withBroker { broker in
            let container = try Container(
                components: Components(), configuration: RunningContainers.configuration("C", broker: broker))
            try await RunningContainers.run(container) {
                let error = await #expect(throws: ContainerError.self) { try await container.run() }
                #expect(error?.code == .alreadyRunning)
            }
        }
    }

    @Test func theConnectionStateControllerSeesEachConnection() async throws {
        try await TestBroker.withBroker { broker in
            let container = try Container(
                components: Components(controllers: [.connectionState()]),
                configuration: RunningContainers.configuration("C", broker: broker))
            let connection = try #require(container.controller(ConnectionStateController.self))
            try await RunningContainers.run(container) {
                try await connection.waitUntilOnline()
                #expect(connection.isOnline)
                var states = connection.states().makeAsyncIterator()
                #expect(await states.next() == .online)
                try await broker.restart()
                // Failed attempts while the broker restarts report .offline again.
                var seen: [ConnectionState] = []
                while let state = await states.next() {
                    seen.append(state)
                    if state == .online { break }
                }
                #expect(seen.first == .offline)
                #expect(seen.last == .online)
                #expect(Set(seen) == [.offline, .online])
            }
            #expect(connection.state == .stopped)
            #expect(connection.onlineCount >= 1, "the hook of the reconnect may come after the stop began")
        }
    }
}

/// Keeps the agent a controller component was given, to compare it with the container's.
final class AgentHolder: Sendable {
    private let stored = Mutex<Agent?>(nil)

    var agent: Agent? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
