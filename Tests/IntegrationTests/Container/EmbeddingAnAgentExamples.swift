import Agent
import CoreTypes
import Logging
import ServiceLifecycle
import ServiceLifecycleTestKit
import Testing
import TestSupport

/// The code of the article "Embedding an agent in another program" (Sources/Agent/Agent.docc), of
/// the README section "Embedding the library" and of the ``Controller`` and ``Agent`` module
/// examples, run against a test broker. The code is copied unchanged except where marked: the
/// broker URL, no signal handlers in the test process (graceful shutdown comes from the test),
/// and no `LoggingSystem.bootstrap` (tests never bootstrap logging). Keep them in step.
@Suite(.timeLimit(.minutes(1)))
struct EmbeddingAnAgentExamples {
    struct Light: CoatyObject {
        static let coreType = CoreType.coatyObject
        static let objectType = "com.example.Light"
        var objectID = ObjectID.make()
        var name: String
        var isOn: Bool
    }

    struct LampOptions: Decodable, Sendable {
        var name: String
    }

    struct LampController: Controller {
        let agent: Agent
        let lamp: Light

        init(context: ControllerContext) throws {
            agent = context.agent
            lamp = Light(name: try context.options(as: LampOptions.self).name, isOn: false)
        }

        func didGoOnline() async throws {
            try agent.advertise(lamp)
        }

        func willStop() async throws {
            try agent.deadvertise([lamp.objectID])
        }

        func run() async throws {
            // Answers until the container stops (the serve call returns when its task is cancelled).
            try await cancelWhenGracefulShutdown {
                try await agent.serveDiscover { request in
                    if request.event.matches(lamp) { try request.respond(Resolve(object: lamp)) }
                }
            }
        }
    }

    struct AgentWatcher: Service {
        let container: Container
        let logger: Logger

        func run() async throws {
            guard let lifecycle = container.controller(ObjectLifecycleController.self) else { return }
            try await lifecycle.observeAgents { events in
                for try await event in events.cancelOnGracefulShutdown() {
                    logger.info(
                        "Agent came or went",
                        metadata: ["agent.change": "\(event.kind)", "agent.name": "\(event.object.name)"])
                }
            }
        }
    }

    @Test func theArticlesServiceGroupRunsTheContainerAndTheHostsService() async throws {
        try await TestBroker.withBroker { broker in
            let local = CollectingLogHandler()
            let logger = Logger(label: "lamp-service") { _ in local }
            let panel = try Agent(configuration: RunningAgents.configuration("Panel", broker: broker))

            var configuration = Container.Configuration()
            configuration.identity = Identity(name: "Lamp service")
            configuration.broker.url = "mqtt://broker.local:1883"
            configuration.broker.url = "mqtt://\(broker.host):\(broker.port)"  // test: the test's broker
            configuration.namespace = "building-7"
            configuration.namespace = "-"  // test: the panel's namespace
            configuration.controllerOptions["Lamps"] = ["name": "Desk lamp"]
            configuration.controllerOptions["ObjectCacheController"] = ["timeToLive": 60, "policy": "localFirst"]

            let container = try Container(
                components: Components(
                    controllers: [
                        ControllerComponent(name: "Lamps") { try LampController(context: $0) },
                        .objectLifecycle(),
                        .objectCache(),
                    ],
                    objectTypes: [Light.self]),
                configuration: configuration,
                logger: logger)

            // The logging bootstrap of the article, as the factory it gives LoggingSystem.bootstrap.
            let factory: @Sendable (String) -> any LogHandler = { label in
                container.logHandler(
                    label: label, local: StreamLogHandler.standardError(label: label), remoteLogLevel: .warning)
            }
            #expect(factory("x").logLevel == .info, "stderr's default level is info, below the remote warning")

            try await RunningAgents.run([panel]) {
                let deadvertised = try await panel.observeDeadvertise()
                try await testGracefulShutdown { trigger in
                    try await withThrowingTaskGroup(of: Void.self) { tasks in
                        tasks.addTask {
                            let group = ServiceGroup(
                                configuration: .init(
                                    services: [container, AgentWatcher(container: container, logger: logger)],
                                    gracefulShutdownSignals: [],  // test: [.sigterm, .sigint] in the article
                                    logger: logger))
                            try await group.run()
                        }
                        await RunningAgents.waitUntilOnline(container.agent)
                        let lamp = try await panel.discover(
                            Discover(objectTypes: [Light.objectType]), timeout: .seconds(30)
                        )
                        .first()
                        #expect(lamp.event.object?.name == "Desk lamp")
                        #expect(lamp.sourceID == container.agent.identity.objectID)
                        await local.wait(for: "Agent came or went")  // the host's service saw an agent
                        trigger.triggerGracefulShutdown()
                        try await tasks.waitForAll()
                    }
                }
                var iterator = deadvertised.makeAsyncIterator()
                let lampGone = try #require(await iterator.next())
                let agentGone = try #require(await iterator.next())
                #expect(lampGone.event.objectIDs.count == 1, "the controller's willStop deadvertised the lamp")
                #expect(agentGone.event.objectIDs == [container.agent.identity.objectID])
            }
        }
    }

    @Test func theREADMEsContainerJoinsAndStops() async throws {
        try await TestBroker.withBroker { broker in
            let logger = Logger(label: "my-service") { _ in CollectingLogHandler() }
            // README "Embedding the library":
            var configuration = Container.Configuration()
            configuration.identity = Identity(name: "Lamp service")
            configuration.broker.url = "mqtt://127.0.0.1:1883"
            configuration.broker.url = "mqtt://\(broker.host):\(broker.port)"  // test: the test's broker

            let container = try Container(
                components: Components(controllers: [.objectLifecycle()], objectTypes: [Light.self]),
                configuration: configuration, logger: logger)
            try await testGracefulShutdown { trigger in
                try await withThrowingTaskGroup(of: Void.self) { tasks in
                    tasks.addTask {
                        let group = ServiceGroup(
                            configuration: .init(
                                services: [container],
                                gracefulShutdownSignals: [],  // test: [.sigterm, .sigint] in the README
                                logger: logger))
                        try await group.run()
                    }
                    await RunningAgents.waitUntilOnline(container.agent)
                    try container.agent.advertise(Light(name: "Desk lamp", isOn: true))
                    trigger.triggerGracefulShutdown()
                    try await tasks.waitForAll()
                }
            }
            #expect(container.agent.connectionState == .stopped)
        }
    }

    @Test func theREADMEsObservationAndRequestsRun() async throws {
        try await TestBroker.withBroker { broker in
            let logger = Logger(label: "my-service") { _ in CollectingLogHandler() }
            var configuration = Container.Configuration()
            configuration.identity = Identity(name: "Lamp service")
            configuration.broker.url = "mqtt://\(broker.host):\(broker.port)"
            let container = try Container(
                components: Components(controllers: [.objectLifecycle()], objectTypes: [Light.self]),
                configuration: configuration, logger: logger)
            var registry = ObjectTypeRegistry()
            try registry.register(Light.self)
            let other = try Agent(
                configuration: RunningAgents.configuration("Other", broker: broker), registry: registry)
            let lines = PrintedLines()
            @Sendable func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }
            try await RunningAgents.run([other]) {
                try await testGracefulShutdown { trigger in
                    try await withThrowingTaskGroup(of: Void.self) { tasks in
                        tasks.addTask {
                            let group = ServiceGroup(
                                configuration: .init(services: [container], gracefulShutdownSignals: [], logger: logger))
                            try await group.run()
                        }
                        await RunningAgents.waitUntilOnline(container.agent)
                        // README "Embedding the library":
                        // Observe while the closure runs: the loop ends when the task is cancelled, and throws the
                        // reason (AgentError .stopped or .subscribeFailed) if the agent stops or the broker refuses.
                        try await container.agent.observeAdvertise(objectType: Light.objectType) { events in
                            try other.advertise(Light(name: "Desk lamp", isOn: true))  // test: subscribed once the closure runs
                            for try await event in events {
                                print(event.event.object.name, "from", event.sourceID)
                                break  // test
                            }
                        }

                        // Ask (in another task): the responses stream in until the timeout; first() takes one.
                        // Every agent online resolves a Discover for its identity.
                        let agent = container.agent
                        for try await resolve in try await agent.discover(Discover(coreTypes: [.identity]), timeout: .seconds(2)) {
                            print("online:", resolve.event.object?.name ?? "?")
                        }
                        let first = try await agent.discover(Discover(coreTypes: [.identity]), timeout: .seconds(2)).first()

                        #expect(first.event.object != nil)  // test
                        trigger.triggerGracefulShutdown()
                        try await tasks.waitForAll()
                    }
                }
            }
            #expect(lines.all.first == "Desk lamp from \(other.identity.objectID)")
            #expect(Set(lines.all.dropFirst()) == ["online: Lamp service", "online: Other"])
        }
    }

    @Test func theModuleOverviewExampleRuns() async throws {
        try await TestBroker.withBroker { broker in
            var registry = ObjectTypeRegistry()
            try registry.register(Light.self)
            let other = try Agent(
                configuration: RunningAgents.configuration("Other", broker: broker), registry: registry)
            var settings = Agent.Configuration(identity: Identity(name: "Lamp controller"))
            settings.broker.url = "mqtt://\(broker.host):\(broker.port)"  // test: the test's broker
            let (configuration, types) = (settings, registry)
            let lights = PrintedLines()
            @Sendable func print(_ name: String, _ from: String, _ source: String) {
                lights.append("\(name) \(from) \(source)")
            }
            try await RunningAgents.run([other]) {
                // Agent.md, with the test's configuration and registry:
                let registry = types
                let agent = try Agent(configuration: configuration, registry: registry)
                try await withThrowingDiscardingTaskGroup { group in
                    group.addTask { try await agent.run() }
                    group.addTask {  // test: once the agent answers, its subscription is in place; advertise a light
                        await RunningAgents.waitUntilOnline(agent)
                        _ = try await other.discover(Discover(objectID: agent.identity.objectID), timeout: .seconds(30))
                            .first()
                        try other.advertise(Light(name: "Desk lamp", isOn: true))
                    }
                    try await agent.observeAdvertise(objectType: Light.objectType) { advertised in
                        for try await event in advertised {
                            print(event.event.object.name, "from", event.sourceID)
                            break  // test
                        }
                    }
                    group.cancelAll()  // test
                }
                #expect(lights.all == ["Desk lamp from \(other.identity.objectID)"])
            }
        }
    }
}
