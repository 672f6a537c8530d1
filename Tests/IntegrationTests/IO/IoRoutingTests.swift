import Agent
import CoreTypes
import ServiceLifecycleTestKit
import Testing
import TestSupport

/// IO routing on a real broker: agents with IO sources and actors, and an ``IoRouter`` in a
/// container of its own, as coaty-js's routers, sources and actors work together.
@Suite(.timeLimit(.minutes(1)))
struct IoRoutingTests {
    static let context = "kitchen"
    static let sourceID = "7f1e2d3c-4b5a-4c6d-9e8f-1a2b3c4d5e6f"
    static let actorID = "2a4c6e8a-0b1d-4e3f-a5b7-c9d1e3f5a7b9"

    /// An agent with one IO node in the kitchen holding `sources` and `actors`.
    static func agent(
        _ name: String, broker: TestBroker, sources: [IoSource] = [], actors: [IoActor] = [],
        characteristics: JSONObject? = nil
    ) throws -> Agent {
        var configuration = RunningAgents.configuration(name, broker: broker)
        configuration.ioNodes = [
            IoNode(name: context, ioSources: sources, ioActors: actors, characteristics: characteristics)
        ]
        return try Agent(configuration: configuration)
    }

    static func thermometer(_ id: String = sourceID, raw: Bool? = nil) -> IoSource {
        IoSource(objectID: id, name: "Thermometer", valueType: "number[Celsius]", useRawIoValues: raw)
    }

    static func display(_ id: String = actorID, type: String = "number[Celsius]", raw: Bool? = nil) -> IoActor {
        IoActor(objectID: id, name: "Display", valueType: type, useRawIoValues: raw)
    }

    /// A router container in a task of its own; the returned closure shuts it down gracefully and waits.
    static func startRouter(
        _ broker: TestBroker, rules: [IoRoutingRule] = [.anyCompatiblePair]
    ) throws -> (router: IoRouter, stop: @Sendable () async throws -> Void) {
        let container = try Container(
            components: Components(controllers: [.ioRouter(ioContext: IoContext(name: context), rules: rules)]),
            configuration: RunningContainers.configuration("Router", broker: broker))
        let router = try #require(container.controller(IoRouter.self))
        let (signal, fire) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            try await testGracefulShutdown { trigger in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await container.run() }
                    for await _ in signal {}
                    trigger.triggerGracefulShutdown()
                    try await group.waitForAll()
                }
            }
        }
        return (router, { fire.finish(); try await task.value })
    }

    @Test func theRouterAssociatesValuesFlowAndItsStopDisassociates() async throws {
        try await TestBroker.withBroker { broker in
            let source = try Self.agent("Source", broker: broker, sources: [Self.thermometer()])
            let actor = try Self.agent("Actor", broker: broker, actors: [Self.display()])
            try await RunningAgents.run([source, actor]) {
                try await source.observeIoState(of: Self.sourceID) { sourceStates in
                    try await actor.observeIoState(of: Self.actorID) { actorStates in
                        try await actor.observeIoValue(ofActor: Self.actorID) { values in
                            var sourceState = sourceStates.makeAsyncIterator()
                            var actorState = actorStates.makeAsyncIterator()
                            var value = values.makeAsyncIterator()
                            let unassociated = IoState(hasAssociations: false)
                            #expect(try await sourceState.next() == unassociated)
                            #expect(try await actorState.next() == unassociated)
                            #expect(try source.publishIoValue(.json(20), from: Self.sourceID) == false)

                            let (router, stopRouter) = try Self.startRouter(broker)
                            #expect(try await sourceState.next() == IoState(hasAssociations: true))
                            #expect(try await actorState.next() == IoState(hasAssociations: true))
                            #expect(router.associations.map(\.actorID) == [Self.actorID])
                            let readings: [JSONValue] = [21.5, 22, 22.5, "hot", ["celsius": 23]]
                            for reading in readings {
                                #expect(try source.publishIoValue(.json(reading), from: Self.sourceID))
                            }
                            for reading in readings { #expect(try await value.next() == .json(reading)) }

                            try await stopRouter()
                            #expect(try await sourceState.next() == unassociated)
                            #expect(try await actorState.next() == unassociated)
                            #expect(try source.publishIoValue(.json(23), from: Self.sourceID) == false)
                            #expect(source.ioState(of: Self.sourceID) == unassociated)
                        }
                    }
                }
            }
        }
    }

    @Test func incompatibleTypesAreNotAssociatedAndRawValuesArriveAsBytes() async throws {
        try await TestBroker.withBroker { broker in
            let rawSourceID = "60718293-acbd-4ecf-b0d1-e2f304152637"
            let rawActorID = "4e5f6071-8a9b-4cad-9ebf-c0d1e2f30415"
            let source = try Self.agent(
                "Source", broker: broker, sources: [Self.thermometer(), Self.thermometer(rawSourceID, raw: true)])
            let actor = try Self.agent(
                "Actor", broker: broker,
                actors: [Self.display(type: "string"), Self.display(rawActorID, raw: true)])
            try await RunningAgents.run([source, actor]) {
                try await actor.observeIoState(of: rawActorID) { states in
                    try await actor.observeIoValue(ofActor: rawActorID) { values in
                        var state = states.makeAsyncIterator()
                        var value = values.makeAsyncIterator()
                        #expect(try await state.next()?.hasAssociations == false)
                        let (router, stopRouter) = try Self.startRouter(broker)
                        #expect(try await state.next()?.hasAssociations == true)
                        // Only the raw pair: the JSON thermometer has no JSON number actor.
                        #expect(router.associations.map(\.sourceID) == [rawSourceID])
                        #expect(try source.publishIoValue(.json(21.5), from: Self.sourceID) == false)
                        let frames: [[UInt8]] = [[0x00, 0x01, 0xfe, 0xff], Array(#"{"v":1}"#.utf8), []]
                        for frame in frames { #expect(try source.publishIoValue(.raw(frame), from: rawSourceID)) }
                        for frame in frames { #expect(try await value.next() == .raw(frame)) }
                        try await stopRouter()
                    }
                }
            }
        }
    }

    @Test func aNodeThatLeavesOrDiesIsDisassociated() async throws {
        try await TestBroker.withBroker { broker in
            let actor = try Self.agent("Actor", broker: broker, actors: [Self.display()])
            let graceful = try Self.agent("Graceful", broker: broker, sources: [Self.thermometer()])
            let dying = try Self.agent(
                "Dying", broker: broker, sources: [Self.thermometer("1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e5f")])
            try await RunningAgents.run([actor]) {
                try await actor.observeIoState(of: Self.actorID) { states in
                    var state = states.makeAsyncIterator()
                    #expect(try await state.next()?.hasAssociations == false)
                    let (router, stopRouter) = try Self.startRouter(broker)
                    let gracefulRun = Task { try await graceful.run() }
                    #expect(try await state.next()?.hasAssociations == true)
                    gracefulRun.cancel()  // Deadvertise of its identity and IO node
                    try await gracefulRun.value
                    #expect(try await state.next()?.hasAssociations == false)
                    #expect(router.associations.isEmpty)

                    let dyingRun = Task { try await dying.run() }
                    #expect(try await state.next()?.hasAssociations == true)
                    dying.closeConnectionAbruptly()  // the broker publishes its last will
                    try await dyingRun.value
                    #expect(try await state.next()?.hasAssociations == false)
                    #expect(router.associations.isEmpty)
                    try await stopRouter()
                }
            }
        }
    }

    @Test func rulesDecideByNodeCharacteristics() async throws {
        try await TestBroker.withBroker { broker in
            let floor1 = "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d"
            let floor2 = "4e5f6071-8a9b-4cad-9ebf-c0d1e2f30415"
            let source = try Self.agent(
                "Source", broker: broker, sources: [Self.thermometer()], characteristics: ["floor": 1])
            let actor1 = try Self.agent("A1", broker: broker, actors: [Self.display(floor1)], characteristics: ["floor": 1])
            let actor2 = try Self.agent("A2", broker: broker, actors: [Self.display(floor2)], characteristics: ["floor": 2])
            let sameFloor = IoRoutingRule(name: "same floor", valueType: "number[Celsius]") { pair in
                pair.sourceNode.characteristics?["floor"] == pair.actorNode.characteristics?["floor"]
            }
            try await RunningAgents.run([source, actor1, actor2]) {
                try await actor1.observeIoState(of: floor1) { states in
                    var state = states.makeAsyncIterator()
                    #expect(try await state.next()?.hasAssociations == false)
                    let (router, stopRouter) = try Self.startRouter(broker, rules: [sameFloor])
                    #expect(try await state.next()?.hasAssociations == true)
                    #expect(router.associations.map(\.actorID) == [floor1])
                    #expect(actor2.ioState(of: floor2).hasAssociations == false)
                    try await stopRouter()
                }
            }
        }
    }

    /// A container with `controller` whose agent has one IO node in the kitchen.
    static func container(
        _ name: String, broker: TestBroker, _ controller: ControllerComponent, sources: [IoSource] = [],
        actors: [IoActor] = []
    ) throws -> Container {
        var configuration = RunningContainers.configuration(name, broker: broker)
        configuration.agent.ioNodes = [IoNode(name: context, ioSources: sources, ioActors: actors)]
        return try Container(components: Components(controllers: [controller]), configuration: configuration)
    }

    @Test func theControllersPublishWhileAssociatedAndReplayAnActorsLastValue() async throws {
        try await TestBroker.withBroker { broker in
            let sourceContainer = try Self.container(
                "Source", broker: broker, .ioSources(), sources: [Self.thermometer()])
            let actorContainer = try Self.container("Actor", broker: broker, .ioActors(), actors: [Self.display()])
            let sources = try #require(sourceContainer.controller(IoSourceController.self))
            let actors = try #require(actorContainer.controller(IoActorController.self))
            try await RunningContainers.run(sourceContainer) {
                try await RunningContainers.run(actorContainer) {
                    #expect(sources.isAssociated(Self.sourceID) == false)
                    try sources.publish(.json(0), from: Self.sourceID)  // dropped: not associated
                    let (_, stopRouter) = try Self.startRouter(broker)
                    await sources.observeAssociation(of: Self.sourceID) { states in
                        for await associated in states where associated { break }
                    }
                    await actors.observeAssociation(of: Self.actorID) { states in
                        for await associated in states where associated { break }
                    }
                    #expect(sources.updateRate(of: Self.sourceID) == nil)
                    await actors.observeIoValue(of: Self.actorID) { values in
                        var value = values.makeAsyncIterator()
                        for reading: JSONValue in [1, 2] { try? sources.publish(.json(reading), from: Self.sourceID) }
                        #expect(await value.next() == .json(1))
                        #expect(await value.next() == .json(2))
                    }
                    // A new observer gets the last value first.
                    await actors.observeIoValue(of: Self.actorID) { values in
                        var value = values.makeAsyncIterator()
                        #expect(await value.next() == .json(2))
                    }
                    #expect(actors.lastValue(of: Self.actorID) == .json(2))
                    try await stopRouter()
                    await actors.observeAssociation(of: Self.actorID) { states in
                        for await associated in states where !associated { break }
                    }
                    await sources.observeAssociation(of: Self.sourceID) { states in
                        for await associated in states where !associated { break }
                    }
                    #expect(sources.isAssociated(Self.sourceID) == false)
                }
            }
        }
    }

    /// The examples of the IoRouting article, as written there.
    @Test func theArticlesExamplesMakeAnAgentAndAContainer() throws {
        var configuration = Agent.Configuration(identity: Identity(name: "Thermometer agent"))
        configuration.ioNodes = [
            IoNode(name: "kitchen", ioSources: [
                IoSource(name: "Thermometer", valueType: "number[Celsius]", updateRate: 500)
            ])
        ]
        let components = Components(controllers: [
            .ioRouter(ioContext: IoContext(name: "kitchen")),  // coaty-js's BasicIoRouter
            .ioSources(),
            .ioActors(),
        ])
        let sameFloor = IoRoutingRule(name: "same floor", valueType: "number[Celsius]") { pair in
            pair.sourceNode.characteristics?["floor"] == pair.actorNode.characteristics?["floor"]
        }
        let router = ControllerComponent.ioRouter(ioContext: IoContext(name: "kitchen"), rules: [sameFloor])

        let container = try Container(
            components: components, configuration: Container.Configuration(agent: configuration))
        #expect(container.controllerNames == ["BasicIoRouter", "IoSourceController", "IoActorController"])
        #expect(router.name == "BasicIoRouter")
        let source = try #require(configuration.ioNodes.first?.ioSources?.first)
        #expect(container.agent.ioState(of: source.objectID) == IoState(hasAssociations: false))
    }

    @Test func threeAgentsGetTheSlowestRateAndARestartedRouterAssociatesAgain() async throws {
        try await TestBroker.withBroker { broker in
            let source1 = IoSource(objectID: ObjectID.make(), name: "S1", valueType: "number[Celsius]")
            let source2 = IoSource(objectID: ObjectID.make(), name: "S2", valueType: "number[Celsius]", updateRate: 200)
            let actor1 = IoActor(objectID: ObjectID.make(), name: "A1", valueType: "number[Celsius]", updateRate: 100)
            let actor2 = IoActor(objectID: ObjectID.make(), name: "A2", valueType: "number[Celsius]", updateRate: 500)
            let actor3 = IoActor(objectID: ObjectID.make(), name: "A3", valueType: "string")
            let x = try Self.agent("X", broker: broker, sources: [source1], actors: [actor3])
            let y = try Self.agent("Y", broker: broker, sources: [source2], actors: [actor1])
            let z = try Self.agent("Z", broker: broker, actors: [actor2])
            try await RunningAgents.run([x, y, z]) {
                try await x.observeIoState(of: source1.objectID) { states1 in
                    try await y.observeIoState(of: source2.objectID) { states2 in
                        var state1 = states1.makeAsyncIterator()
                        var state2 = states2.makeAsyncIterator()
                        #expect(try await state1.next() == IoState(hasAssociations: false))
                        #expect(try await state2.next() == IoState(hasAssociations: false))
                        for round in 1...2 {
                            let (router, stopRouter) = try Self.startRouter(broker)
                            // The router associates as the nodes arrive; each source ends with the slowest
                            // rate among its actors (pair rate: the slower of source and actor).
                            var last1 = try await state1.next()
                            while let state = last1, state.updateRate != 500 { last1 = try await state1.next() }
                            var last2 = try await state2.next()
                            while let state = last2, state.updateRate != 500 { last2 = try await state2.next() }
                            #expect(last1?.updateRate == 500 && last2?.updateRate == 500)
                            let pairs = Set(router.associations.map { "\($0.sourceID)-\($0.actorID)" })
                            #expect(
                                pairs == [
                                    "\(source1.objectID)-\(actor1.objectID)", "\(source1.objectID)-\(actor2.objectID)",
                                    "\(source2.objectID)-\(actor1.objectID)", "\(source2.objectID)-\(actor2.objectID)",
                                ], "round \(round)")
                            #expect(router.associations.allSatisfy { $0.updateRate == 500 })
                            #expect(x.ioState(of: actor3.objectID).hasAssociations == false)
                            try await stopRouter()
                            var end1 = try await state1.next()
                            while let state = end1, state.hasAssociations { end1 = try await state1.next() }
                            var end2 = try await state2.next()
                            while let state = end2, state.hasAssociations { end2 = try await state2.next() }
                            #expect(end1 == IoState(hasAssociations: false) && end2 == IoState(hasAssociations: false))
                        }
                    }
                }
            }
        }
    }
}

/// The update strategies on a clock the test advances: exact, without sleeping.
extension IoRoutingTests {
    /// Runs `body` with a source (update rate 100 ms, `strategy`) paced on a manual clock,
    /// associated by a router with an actor, and the actor's values.
    static func withPacedSource(
        _ strategy: IoSourceBackpressureStrategy,
        _ body: @Sendable (IoSourceController, ManualClock, AsyncStream<IoValue>) async throws -> Void
    ) async throws {
        try await TestBroker.withBroker { broker in
            let clock = ManualClock()
            let source = IoSource(
                objectID: sourceID, name: "Thermometer", valueType: "number[Celsius]", updateStrategy: strategy,
                updateRate: 100)
            let sourceContainer = try container("Source", broker: broker, .ioSources(clock: clock), sources: [source])
            let actorContainer = try container("Actor", broker: broker, .ioActors(), actors: [display()])
            let sources = try #require(sourceContainer.controller(IoSourceController.self))
            let actors = try #require(actorContainer.controller(IoActorController.self))
            try await RunningContainers.run(sourceContainer) {
                try await RunningContainers.run(actorContainer) {
                    let (_, stopRouter) = try startRouter(broker)
                    await sources.observeAssociation(of: sourceID) { states in
                        for await associated in states where associated { break }
                    }
                    #expect(sources.updateRate(of: sourceID) == 100)
                    try await actors.observeIoValue(of: actorID) { values in try await body(sources, clock, values) }
                    try await stopRouter()
                }
            }
        }
    }

    @Test func sampleSendsTheLatestValueOncePerPeriod() async throws {
        try await Self.withPacedSource(.sample) { sources, clock, stream in
            var values = stream.makeAsyncIterator()
            for reading: JSONValue in [1, 2, 3] { try sources.publish(.json(reading), from: Self.sourceID) }
            await clock.waitForSleepers()
            clock.advance(by: .milliseconds(100))
            let received = await values.next()
            #expect(received == .json(3), "only the latest value of the period")
            await clock.waitForSleepers()
            clock.advance(by: .milliseconds(100))  // a period without a value sends nothing
            await clock.waitForSleepers()
            try sources.publish(.json(4), from: Self.sourceID)
            clock.advance(by: .milliseconds(100))
            let next = await values.next()
            #expect(next == .json(4))
        }
    }

    @Test func throttleSendsTheLastValueAfterAQuietPeriod() async throws {
        try await Self.withPacedSource(.throttle) { sources, clock, stream in
            var values = stream.makeAsyncIterator()
            try sources.publish(.json(1), from: Self.sourceID)
            await clock.waitForSleepers()
            clock.advance(by: .milliseconds(60))
            try sources.publish(.json(2), from: Self.sourceID)  // restarts the quiet period
            await clock.waitForSleepers()
            clock.advance(by: .milliseconds(60))
            try sources.publish(.json(3), from: Self.sourceID)
            await clock.waitForSleepers()
            clock.advance(by: .milliseconds(99))
            try sources.publish(.json(4), from: Self.sourceID)
            await clock.waitForSleepers()
            clock.advance(by: .milliseconds(100))
            let received = await values.next()
            #expect(received == .json(4), "only the value after which the source was quiet")
            try sources.publish(.json(5), from: Self.sourceID)
            await clock.waitForSleepers()
            clock.advance(by: .milliseconds(100))
            let next = await values.next()
            #expect(next == .json(5))
        }
    }
}
