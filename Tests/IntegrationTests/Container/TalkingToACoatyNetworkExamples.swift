import Agent
import CoreTypes
import Synchronization
import Testing
import TestSupport

/// What the documentation examples print, with a way to wait for it.
final class PrintedLines: Sendable {
    private let lines = Mutex<[String]>([])
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Void.self)
    }

    var all: [String] { lines.withLock { $0 } }

    func append(_ line: String) {
        lines.withLock { $0.append(line) }
        continuation.yield()
    }

    /// Returns once every line in `expected` was printed.
    func wait(for expected: [String]) async {
        func done() -> Bool { Set(expected).isSubset(of: all) }
        if done() { return }
        for await _ in stream where done() { return }
    }
}

/// The code of the article "Talking to a Coaty network" (Sources/Agent/Agent.docc), run against a
/// test broker. Each example is copied unchanged (but for its timeouts) into a task; `print` records what it prints so
/// the test can check it, and the endless loops of the examples are cancelled once they printed
/// what they should. Keep the two in step.
@Suite(.timeLimit(.minutes(1)))
struct TalkingToACoatyNetworkExamples {
    struct Light: CoatyObject {
        static let coreType = CoreType.coatyObject
        static let objectType = "com.example.Light"
        var objectID = ObjectID.make()
        var name: String
        var isOn: Bool
    }

    let output = PrintedLines()
    /// The examples' `.seconds(2)`, longer here so a busy test machine cannot make them time out.
    let exampleTimeout = Duration.seconds(30)

    /// Records a line as `Swift.print` would print it.
    func print<each Item>(_ items: repeat each Item) {
        var parts: [String] = []
        for item in repeat each items { parts.append("\(item)") }
        output.append(parts.joined(separator: " "))
    }

    /// The article's two agents on the test's broker, running while `body` runs.
    func withAgents(_ body: @Sendable (_ lamps: Agent, _ panel: Agent) async throws -> Void) async throws {
        try await TestBroker.withBroker { broker in
            var registry = ObjectTypeRegistry()
            try registry.register(Light.self)
            var configuration = Agent.Configuration(identity: Identity(name: "Lamp controller"))
            configuration.broker.url = "mqtt://127.0.0.1:1883"
            configuration.broker.url = "mqtt://\(broker.host):\(broker.port)"  // the test's broker
            let lamps = try Agent(configuration: configuration, registry: registry)
            configuration.identity = Identity(name: "Panel")
            let panel = try Agent(configuration: configuration, registry: registry)
            try await RunningAgents.run([lamps, panel]) { try await body(lamps, panel) }
        }
    }

    /// Runs an example until it printed `expected`, then cancels it.
    func run(until expected: [String], _ example: @escaping @Sendable () async throws -> Void) async throws {
        let task = Task { try await example() }
        await output.wait(for: expected)
        task.cancel()
        try await task.value
    }

    @Test func advertiseAndDeadvertise() async throws {
        try await withAgents { lamps, panel in
            let desk = Light(name: "Desk lamp", isOn: true)
            try await run(until: ["Desk lamp on", "gone: [\"\(desk.objectID)\"] said \(lamps.identity.objectID)"]) {
                try await panel.observeAdvertise(objectType: Light.objectType) { advertised in
                    try await panel.observeDeadvertise { deadvertised in
                        try lamps.advertise(desk)
                        try lamps.deadvertise([desk.objectID])

                        try await withThrowingDiscardingTaskGroup { group in
                            group.addTask {
                                for try await event in advertised {
                                    if let light = event.event.object as? Light { print(light.name, light.isOn ? "on" : "off") }
                                }
                            }
                            group.addTask {
                                for try await event in deadvertised {
                                    print("gone:", event.event.objectIDs, "said", event.sourceID)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    @Test func channel() async throws {
        try await withAgents { lamps, panel in
            try await run(until: ["[\"t1\"] from \(lamps.identity.objectID)"]) {
                try await panel.observeChannel("sensors.floor1") { readings in
                    let reading = BaseObject(objectType: "com.example.Reading", name: "t1", custom: ["value": 21.5])
                    try lamps.publish(Channel(id: "sensors.floor1", object: reading))

                    for try await event in readings {
                        print(event.event.objects.map(\.name), "from", event.sourceID)
                    }
                }
            }
        }
    }

    @Test func discoverAndResolve() async throws {
        try await withAgents { lamps, panel in
            let desk = Light(name: "Desk lamp", isOn: true)
            // The lamp controller resolves Discovers for its lamp while the panel asks.
            try await lamps.serveDiscover { request in
                if request.event.matches(desk) { try request.respond(Resolve(object: desk)) }
            } while: {
                try await run(until: ["found: Desk lamp", "agent: Lamp controller", "agent: Panel"]) {
                    // The panel asks for the lamp, then for every agent in the namespace.
                    let found = try await panel.discover(Discover(objectID: desk.objectID), timeout: exampleTimeout).first()
                    print("found:", found.event.object?.name ?? "?")

                    for try await identity in try await panel.discover(
                        Discover(coreTypes: [.identity]), timeout: exampleTimeout)
                    {
                        print("agent:", identity.event.object?.name ?? "?")
                    }
                }
            }
        }
    }

    @Test func answeringInlineAndFromATaskOnTheAgentsExecutor() async throws {
        try await withAgents { lamps, panel in
            let toggle = Call(operation: "com.example.lamp.toggle")
            try await lamps.serveCall("com.example.lamp.toggle") { call in
                try call.respond(Return(result: true))
            } while: {
                let answer = try await panel.call(toggle, timeout: exampleTimeout).first()
                #expect(answer.event.result == true)
            }
            try await lamps.observeCall("com.example.lamp.toggle") { calls in
                let responder = Task(executorPreference: lamps.executor) {
                    for try await call in calls { try? call.respond(Return(result: true)) }
                }
                defer { responder.cancel() }
                let answer = try await panel.call(toggle, timeout: exampleTimeout).first()
                #expect(answer.event.result == true)
            }
        }
    }

    @Test func queryAndRetrieve() async throws {
        try await withAgents { lamps, panel in
            let desk = Light(name: "Desk lamp", isOn: true)
            let lights = [desk, Light(name: "Ceiling", isOn: false)]
            try await lamps.serveQuery { request in
                guard request.event.types == .objectTypes([Light.objectType]) else { return }
                let selected = try request.event.filter.apply(to: lights) { .object(try $0.jsonObject()) }
                try request.respond(Retrieve(objects: selected))
            } while: {
                try await run(until: ["lit: [\"Desk lamp\"]"]) {
                    let query = Query(objectTypes: [Light.objectType], filter: .where("isOn", .equals(true)))
                    let retrieved = try await panel.query(query, timeout: exampleTimeout).first()
                    print("lit:", retrieved.event.objects.map(\.name))
                }
            }
        }
    }

    @Test func updateAndComplete() async throws {
        try await withAgents { lamps, panel in
            let desk = Light(name: "Desk lamp", isOn: true)
            try await lamps.observeUpdate(objectType: Light.objectType) { updates in
                let responder = Task {
                    for try await request in updates {
                        guard let light = request.event.object as? Light else { continue }
                        // … switch the real lamp (this may wait: the answer comes from a task) …
                        try request.respond(Complete(object: light))
                    }
                }
                defer { responder.cancel() }
                try await run(until: ["now: off"]) {
                    var switchedOff = desk
                    switchedOff.isOn = false
                    let completed = try await panel.update(Update(object: switchedOff), timeout: exampleTimeout).first()
                    print("now:", (completed.event.object as? Light)?.isOn == true ? "on" : "off")
                }
            }
        }
    }

    @Test func callAndReturn() async throws {
        try await withAgents { lamps, panel in
            let kitchen = BaseObject(objectType: "com.example.Room", name: "Kitchen", custom: ["floor": 1])
            try await lamps.serveCall("com.example.switchAll", context: kitchen) { request in
                guard let on = request.event.parameter(named: "on")?.boolValue else {
                    try request.respond(Return(error: .invalidParameters))
                    return
                }
                try request.respond(Return(result: .bool(on), executionInfo: ["room": "Kitchen"]))
            } while: {
                try await run(until: ["switched: true"]) {
                    let call = Call(
                        operation: "com.example.switchAll", parameters: .named(["on": true]),
                        filter: .where("floor", .equals(1)))
                    for try await response in try await panel.call(call, timeout: exampleTimeout) {
                        switch response.event.outcome {
                        case .result(let value): print("switched:", value)
                        case .error(let failure): print("failed:", failure.text ?? "?")
                        }
                    }
                }
            }
        }
    }

    @Test func ioRouting() async throws {
        try await withAgents { lamps, panel in
            try await run(until: ["temperature: json(21.5)"]) {
                let thermometer = IoSource(name: "Thermometer", valueType: "temperature.celsius")
                let display = IoActor(name: "Display", valueType: "temperature.celsius")
                try await panel.observeAssociate(ioContextName: "Climate") { associations in
                    // The router (here the lamp controller) publishes the association.
                    let route = lamps.ioRoute(forIoSource: thermometer.objectID)
                    try lamps.publish(
                        Associate(
                            ioContextName: "Climate", ioSourceID: thermometer.objectID, ioActorID: display.objectID,
                            associatingRoute: route))

                    // The display's agent learns the route and listens on it; the thermometer's agent publishes.
                    for try await association in associations where association.event.ioActorID == display.objectID {
                        guard let route = association.event.associatingRoute else { continue }
                        try await panel.observeIoValue(route: route) { values in
                            try lamps.publish(IoValue(21.5), on: route)
                            for try await value in values { print("temperature:", value) }
                        }
                    }
                }
            }
        }
    }

    @Test func rawMQTT() async throws {
        try await withAgents { lamps, panel in
            try await run(until: ["sensors/kitchen/temperature 21.5"]) {
                try await panel.observeRaw("sensors/+/temperature") { messages in
                    try lamps.publish(Raw(topic: "sensors/kitchen/temperature", text: "21.5"))
                    for try await message in messages {
                        print(message.topic, String(decoding: message.payload, as: UTF8.self))
                    }
                }
            }
        }
    }

    @Test func theConnection() async throws {
        try await withAgents { lamps, _ in
            try await run(until: ["lamp controller is online"]) {
                try await lamps.observeConnectionState { states in
                    for await state in states {
                        print("lamp controller is", state)  // connecting, online, offline, …, stopped
                    }
                }
            }
        }
    }
}
