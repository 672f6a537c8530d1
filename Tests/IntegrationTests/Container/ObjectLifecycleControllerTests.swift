import Agent
import CoreTypes
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(1)))
struct ObjectLifecycleControllerTests {
    /// A watching container with an object lifecycle controller.
    func watcher(_ broker: TestBroker) throws -> (Container, ObjectLifecycleController) {
        let container = try Container(
            components: Components(controllers: [.objectLifecycle()]),
            configuration: RunningContainers.configuration(
                "Watcher", broker: broker, options: ["ObjectLifecycleController": ["discoverTimeout": 30]]))
        return (container, try #require(container.controller(ObjectLifecycleController.self)))
    }

    /// The next event, as kind and object id.
    func next(
        _ iterator: inout EventStream<ObjectLifecycleEvent>.AsyncIterator
    ) async throws -> (ObjectLifecycleEvent.Kind, String) {
        let next = try await iterator.next(isolation: #isolation)
        let event = try #require(next)
        return (event.kind, event.object.objectID)
    }

    @Test func agentsJoinChangeAndLeaveGracefullyOrByTheirWill() async throws {
        try await TestBroker.withBroker { broker in
            let (container, lifecycle) = try watcher(broker)
            let early = try Agent(configuration: RunningAgents.configuration("Early", broker: broker))
            let late = try Agent(configuration: RunningAgents.configuration("Late", broker: broker))
            let crashing = try Agent(configuration: RunningAgents.configuration("Crashing", broker: broker))
            try await RunningAgents.run([early]) {
                try await RunningContainers.run(container) {
                    var events = try await lifecycle.observeAgents().makeAsyncIterator()
                    // Early and the watcher itself were there already: the Discover finds them, in any order.
                    var discovered: Set<String> = []
                    for _ in 0..<2 { discovered.insert(try await next(&events).1) }
                    #expect(discovered == [early.identity.objectID, container.agent.identity.objectID])

                    let lateRun = Task { try await late.run() }
                    #expect(try await next(&events) == (.added, late.identity.objectID))
                    var renamed = late.identity
                    renamed.name = "Late (renamed)"
                    try late.advertise(renamed)
                    let changed = try #require(await events.next())
                    #expect(changed.kind == .changed)
                    #expect(changed.object.name == "Late (renamed)")
                    try late.advertise(renamed)  // the same content again is no change
                    lateRun.cancel()  // a graceful stop: Deadvertise, then DISCONNECT
                    try await lateRun.value
                    #expect(try await next(&events) == (.removed, late.identity.objectID))

                    let crashed = Task { try await crashing.run() }
                    #expect(try await next(&events) == (.added, crashing.identity.objectID))
                    crashing.closeConnectionAbruptly()
                    try await crashed.value
                    #expect(
                        try await next(&events) == (.removed, crashing.identity.objectID), "the broker sent its will")
                }
            }
        }
    }

    @Test func objectsLeaveWithTheAgentTheyBelongTo() async throws {
        try await TestBroker.withBroker { broker in
            let (container, lifecycle) = try watcher(broker)
            let owner = try Agent(configuration: RunningAgents.configuration("Owner", broker: broker))
            let other = try Agent(configuration: RunningAgents.configuration("Other", broker: broker))
            let lamp = BaseObject(
                objectType: "com.example.test.Lamp", name: "lamp", parentObjectID: owner.identity.objectID)
            let bulb = BaseObject(objectType: "com.example.test.Lamp", name: "bulb", parentObjectID: lamp.objectID)
            let foreign = BaseObject(
                objectType: "com.example.test.Lamp", name: "foreign", parentObjectID: other.identity.objectID)
            try await RunningAgents.run([other]) {
                try await RunningContainers.run(container) {
                    var events = try await lifecycle.events(objectType: "com.example.test.Lamp").makeAsyncIterator()
                    try other.advertise(foreign)
                    #expect(try await next(&events) == (.added, foreign.objectID))
                    let running = Task { try await owner.run() }
                    await RunningAgents.waitUntilOnline(owner)
                    try owner.advertise(lamp)
                    try owner.advertise(bulb)
                    #expect(try await next(&events) == (.added, lamp.objectID))
                    #expect(try await next(&events) == (.added, bulb.objectID))
                    owner.closeConnectionAbruptly()
                    try await running.value
                    // The will deadvertises only the owner's identity; its lamp and the lamp's bulb go with it.
                    #expect(try await next(&events) == (.removed, lamp.objectID))
                    #expect(try await next(&events) == (.removed, bulb.objectID))
                    try other.deadvertise([foreign.objectID])
                    #expect(
                        try await next(&events) == (.removed, foreign.objectID), "the foreign lamp stayed until now")
                }
            }
        }
    }

    @Test func objectsThatAreAlreadyThereAreDiscoveredAndFiltered() async throws {
        try await TestBroker.withBroker { broker in
            let (container, lifecycle) = try watcher(broker)
            let holder = try Agent(configuration: RunningAgents.configuration("Holder", broker: broker))
            let on = BaseObject(objectType: "com.example.test.Lamp", name: "on", custom: ["isOn": true])
            let off = BaseObject(objectType: "com.example.test.Lamp", name: "off", custom: ["isOn": false])
            try await RunningAgents.run([holder]) {
                let requests = try await holder.observeDiscover()
                let responder = Task {
                    for try await request in requests where request.event.objectTypes == ["com.example.test.Lamp"] {
                        for lamp in [on, off] { try request.respond(Resolve(object: lamp)) }
                    }
                }
                defer { responder.cancel() }
                try await RunningContainers.run(container) {
                    let lamps = try await lifecycle.events(objectType: "com.example.test.Lamp") {
                        $0.custom["isOn"] == true
                    }
                    var events = lamps.makeAsyncIterator()
                    #expect(try await next(&events) == (.added, on.objectID))
                    try holder.advertise(off)  // filtered out
                    var dimmed = on
                    dimmed.custom["brightness"] = 0.5
                    try holder.advertise(dimmed)
                    #expect(try await next(&events) == (.changed, on.objectID), "the filtered-out lamp never shows")
                }
            }
        }
    }

    @Test func observationsEndWhenTheContainerStops() async throws {
        try await TestBroker.withBroker { broker in
            let (container, lifecycle) = try watcher(broker)
            let events = try await RunningContainers.run(container) { try await lifecycle.observeAgents() }
            var count = 0
            for try await _ in events { count += 1 }
            #expect(count <= 1, "at most the watcher's own identity, then the end")
            let error = await #expect(throws: AgentError.self) { try await lifecycle.observeAgents() }
            #expect(error?.code == .stopped)
        }
    }
}
