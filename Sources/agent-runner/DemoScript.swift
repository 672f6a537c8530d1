import Agent
import CoreTypes
import Logging
import ServiceLifecycle
import Synchronization

/// The light the demo's lamp agent holds: an application object type, registered in both agents.
struct DemoLight: CoatyObject, Hashable {
    static let coreType = CoreType.coatyObject
    static let objectType = "com.example.Light"
    var objectID = ObjectID.make()
    var name: String
    var isOn: Bool
    var brightness: Double
    var floor: Int
}

/// The demo's scenario: a lamp agent, a control panel and a short-lived sensor exercise every
/// event pattern, one step at a time; each step waits (at most 10 s) for what it should cause.
struct DemoScript: Sendable {
    let settings: Settings
    let narrator: Narrator
    let logger: Logger
    static let stepTimeout = Duration.seconds(10)

    func run() async throws {
        var registry = ObjectTypeRegistry()
        try registry.register(DemoLight.self)
        let lightLevel = IoSource(name: "Light level", valueType: "number[Brightness]")
        let display = IoActor(name: "Brightness display", valueType: "number[Brightness]")
        let lamp = try agent("Lamp agent", registry: registry, ioNodes: [IoNode(name: "Lighting", ioSources: [lightLevel])])
        let panel = try agent("Control panel", registry: registry, ioNodes: [IoNode(name: "Lighting", ioActors: [display])])
        let sensor = try agent("Hallway sensor", registry: registry)
        let model = LampModel(DemoLight(name: "Desk lamp", isOn: true, brightness: 0.8, floor: 2))
        let responders = try await LampResponders.observe(lamp, model: model)
        let running = RunningAgents()
        defer { running.cancelAll() }

        // 0. Joining: every agent advertises its identity when it connects.
        let identities = try await panel.observeAdvertise(coreType: .identity)
        let deadvertised = try await panel.observeDeadvertise()
        running.start(panel)
        _ = try await wait("the control panel to connect") { await Self.online(panel) }
        narrator.step(0, "Joining", "\"Lamp agent\" connects; every agent advertises its identity when it joins.")
        running.start(lamp)
        responders.start()
        let joined = try await first(identities, "the lamp's identity") { $0.sourceID == lamp.identity.objectID }
        narrator.saw("Control panel saw Advertise of the identity \"\(joined.event.object.name)\".")

        // 1. Advertise
        let lights = try await panel.observeAdvertise(objectType: DemoLight.objectType)
        narrator.step(1, "Advertise", "Lamp agent tells everyone about its light.")
        try lamp.advertise(model.light)
        let advertised = try await first(lights, "the Advertise of the light")
        narrator.saw("Control panel received \(Self.describe(advertised.event.object)).")

        // 2. Discover → Resolve
        narrator.step(2, "Discover → Resolve", "Control panel asks the network for the object with the lamp's id.")
        let resolve = try await response("a Resolve") {
            try await panel.discover(Discover(objectID: model.light.objectID), timeout: Self.stepTimeout).first()
        }
        narrator.saw("\(name(of: resolve.sourceID, lamp)) resolved it: \(Self.describe(resolve.event.object)).")

        // 3. Query → Retrieve
        narrator.step(3, "Query → Retrieve", "Control panel queries lights brighter than 0.5, brightest first.")
        let filter = ObjectFilter.where("brightness", .greaterThan(0.5)).orderBy("brightness", .descending)
        let retrieve = try await response("a Retrieve") {
            try await panel.query(Query(objectTypes: [DemoLight.objectType], filter: filter), timeout: Self.stepTimeout)
                .first()
        }
        narrator.saw(
            "\(name(of: retrieve.sourceID, lamp)) retrieved \(retrieve.event.objects.count) object(s): "
                + retrieve.event.objects.map { Self.describe($0) }.joined(separator: ", ") + ".")

        // 4. Update → Complete
        narrator.step(4, "Update → Complete", "Control panel dims the lamp to 0.3.")
        var change = model.light
        change.brightness = 0.3
        let dimmed = change
        let complete = try await response("a Complete") {
            try await panel.update(Update(object: dimmed), timeout: Self.stepTimeout).first()
        }
        narrator.saw(
            "\(name(of: complete.sourceID, lamp)) applied it and completed: \(Self.describe(complete.event.object)).")

        // 5. Call → Return
        narrator.step(
            5, "Call → Return", "Control panel calls \"switchOff\" on the lights of floor 2 (a context filter).")
        let call = Call(
            operation: "com.example.switchOff", parameters: .named(["reason": "demo"]),
            filter: ContextFilter.where("floor", .equals(2)))
        let returned = try await response("a Return") { try await panel.call(call, timeout: Self.stepTimeout).first() }
        narrator.saw(
            "\(name(of: returned.sourceID, lamp)) switched off and returned \(returned.event.result ?? .null).")

        // 6. Channel
        narrator.step(6, "Channel", "Control panel broadcasts an announcement on channel \"announcements\".")
        try panel.publish(Channel(id: "announcements", object: BaseObject(name: "Lights out at 10 pm")))
        let announcement = try await wait("the announcement") { await responders.next(.channel) }
        narrator.saw("Lamp agent received it: \(announcement).")

        // 7. Associate → IoValue, through an IO router
        narrator.step(
            7, "Associate → IoValue",
            "\"IO router\" joins the Lighting context and associates the lamp's light level with the panel's display.")
        let router = try routerGroup()
        running.start(router)
        let value: IoValue = try await wait("the display's first value") {
            // Both ends hear of the association before the lamp publishes.
            guard (try? await Self.associated(lamp, lightLevel.objectID)) != nil,
                (try? await Self.associated(panel, display.objectID)) != nil
            else { return nil }
            return try? await panel.observeIoValue(ofActor: display.objectID) { values in
                try lamp.publishIoValue(.json(.double(model.light.brightness)), from: lightLevel.objectID)
                return try await values.first { _ in true }
            }
        }
        narrator.saw(
            "Lamp agent published its light level on \(lamp.scope.ioRoute(forIoSource: lightLevel.objectID)); "
                + "the display received \(Self.describe(value)).")

        // 8. Raw MQTT
        narrator.step(8, "Raw", "Control panel publishes plain MQTT on demo/raw/greeting, outside Coaty's topics.")
        try panel.publish(Raw(topic: "demo/raw/greeting", text: "hello from the control panel"))
        let raw = try await wait("the raw message") { await responders.next(.raw) }
        narrator.saw("Lamp agent received it on its raw subscription demo/raw/#: \(raw).")

        // 9. Deadvertise
        narrator.step(9, "Deadvertise", "Lamp agent withdraws its light.")
        try lamp.deadvertise([model.light.objectID])
        let withdrawn = try await first(deadvertised, "the Deadvertise") {
            $0.event.objectIDs.contains(model.light.objectID)
        }
        narrator.saw("Control panel saw Deadvertise of \(withdrawn.event.objectIDs.count) object: the light is gone.")

        // 10. Last will
        narrator.step(
            10, "Last will", "\"Hallway sensor\" joins, then dies without saying goodbye (its connection is cut).")
        running.start(sensor)
        _ = try await first(identities, "the sensor's identity") { $0.sourceID == sensor.identity.objectID }
        sensor.closeConnectionAbruptly()
        _ = try await first(deadvertised, "the sensor's last will") {
            $0.event.objectIDs.contains(sensor.identity.objectID)
        }
        narrator.saw("The broker published the sensor's last will: Control panel saw Deadvertise of its identity.")

        // 11. Leaving
        narrator.step(11, "Leaving", "Lamp agent stops gracefully and deadvertises its identity.")
        let lampStopped = running.stop(lamp)
        _ = try await first(deadvertised, "the lamp's Deadvertise") {
            $0.event.objectIDs.contains(lamp.identity.objectID)
        }
        narrator.saw("Control panel saw Deadvertise of the lamp agent's identity.")
        await lampStopped.value
        await running.stop(router)
        await running.stop(panel).value
        narrator.note("\nDone: every Coaty event pattern worked.")
        narrator.note(
            "To watch the wire, run `agent-runner monitor --broker URL` in one terminal and "
                + "`agent-runner demo --broker URL` in another, with URL a broker you started (mqtt://127.0.0.1:1883).")
    }

    // MARK: - Helpers

    private func agent(_ name: String, registry: ObjectTypeRegistry, ioNodes: [IoNode] = []) throws -> Agent {
        var configuration = settings.agentConfiguration(defaultName: name, reconnect: ReconnectPolicy())
        configuration.identity = Identity(name: name)
        configuration.ioNodes = ioNodes
        return try CommandContext.makeAgent(configuration, registry: registry, logger: logger)
    }

    /// The IO router of the Lighting context: a container with a `BasicIoRouter`, in a service group.
    private func routerGroup() throws -> ServiceGroup {
        var configuration = settings.agentConfiguration(defaultName: "IO router", reconnect: ReconnectPolicy())
        configuration.identity = Identity(name: "IO router")
        let container = try Container(
            components: Components(controllers: [.ioRouter(ioContext: IoContext(name: "Lighting"))]),
            configuration: Container.Configuration(agent: configuration), logger: logger)
        return ServiceGroup(services: [container], logger: logger)
    }

    private func name(of sourceID: String, _ lamp: Agent) -> String {
        sourceID == lamp.identity.objectID ? "Lamp agent" : "Agent \(sourceID.prefix(8))"
    }

    /// Waits until `body` returns a value (at most ``stepTimeout``), with progress on a terminal.
    ///
    /// - Throws: ``RunnerError`` with exit code 4 when nothing came in time.
    private func wait<T: Sendable>(_ what: String, _ body: @escaping @Sendable () async -> T?) async throws -> T {
        let progress = ProgressLine(output: narrator.output, label: "Waiting for \(what)", timeout: Self.stepTimeout)
        defer { progress.finish() }
        let result: T? = try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { await body() }
            group.addTask {
                try await Task.sleep(for: Self.stepTimeout)
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        guard let result else { throw RunnerError.timeout("demo: no sign of \(what) within \(Self.stepTimeout)") }
        return result
    }

    private func first<E: Sendable>(
        _ stream: EventStream<E>, _ what: String, where isWanted: @escaping @Sendable (E) -> Bool = { _ in true }
    ) async throws -> E {
        // A stream that ends, normally or because the agent stopped, is a step that did not happen.
        try await wait(what) { (try? await stream.first(where: isWanted)) ?? nil }
    }

    private func response<R: Sendable>(_ what: String, _ body: @escaping @Sendable () async throws -> R) async throws
        -> R
    {
        try await wait(what) { try? await body() }
    }

    /// Returns once `agent`'s IO point `pointID` is associated.
    private static func associated(_ agent: Agent, _ pointID: String) async throws {
        try await agent.observeIoState(of: pointID) { states in
            for try await state in states where state.hasAssociations { return }
        }
    }

    private static func online(_ agent: Agent) async -> Bool? {
        for await state in agent.connectionStates() where state == .online { return true }
        return nil
    }

    static func describe(_ object: (any CoatyObject)?) -> String {
        guard let object else { return "nothing" }
        if let light = object as? DemoLight {
            return
                "\"\(light.name)\" (\(DemoLight.objectType)): \(light.isOn ? "on" : "off"), brightness \(light.brightness)"
        }
        return "\"\(object.name)\" (\(object.objectType))"
    }

    static func describe(_ value: IoValue) -> String {
        switch value {
        case .json(let json): "\(json)"
        case .raw(let bytes): "\(bytes.count) raw bytes"
        }
    }
}

/// The lamp's light, changed by Update and Call.
final class LampModel: Sendable {
    private let state: Mutex<DemoLight>

    init(_ light: DemoLight) {
        state = Mutex(light)
    }

    var light: DemoLight { state.withLock { $0 } }

    func change(_ body: (inout DemoLight) -> Void) -> DemoLight {
        state.withLock { light in
            body(&light)
            return light
        }
    }
}

/// The demo's agents, each run in its own task until stopped.
final class RunningAgents: Sendable {
    private let tasks = Mutex<[String: Task<Void, any Error>]>([:])

    func start(_ agent: Agent) {
        let task = Task { try await agent.run() }
        tasks.withLock { $0[agent.identity.objectID] = task }
    }

    /// Stops an agent gracefully (cancellation: Deadvertise, then DISCONNECT); the returned task
    /// ends when it has stopped.
    func stop(_ agent: Agent) -> Task<Void, Never> {
        let task = tasks.withLock { $0.removeValue(forKey: agent.identity.objectID) }
        task?.cancel()
        return Task { _ = try? await task?.value }
    }

    /// Runs a service group (a container) until it is stopped or cancelled.
    func start(_ group: ServiceGroup) {
        let task = Task { try await group.run() }
        tasks.withLock { $0["\(ObjectIdentifier(group))"] = task }
    }

    /// Shuts a service group down gracefully and waits until it has ended.
    func stop(_ group: ServiceGroup) async {
        let task = tasks.withLock { $0.removeValue(forKey: "\(ObjectIdentifier(group))") }
        await group.triggerGracefulShutdown()
        _ = try? await task?.value
    }

    func cancelAll() {
        let all = tasks.withLock { tasks in
            defer { tasks = [:] }
            return Array(tasks.values)
        }
        all.forEach { $0.cancel() }
    }
}
