import Agent
import CoreTypes
import Foundation
import ServiceLifecycleTestKit
import Synchronization
import TestSupport

/// The Swift agents of one `io-sessions.json` scenario while it runs: each a ``Container`` made
/// from the scenario's `agents` entry, started, shut down or killed by the steps' actions, and
/// what their IO observers emitted, stamped with the step they emitted in.
final class IoSessionRun: Sendable {
    /// A scenario asks for something the harness cannot do.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A container running in a task of its own until ``shutdown(_:)`` (or the run's end).
    private struct Running: Sendable {
        let container: Container
        let shutdownSignal: AsyncStream<Void>.Continuation
        let task: Task<Void, any Error>
    }

    private struct Store {
        var step = ""
        var observations: [IoSessionCase.Observation] = []
        var problems: [String] = []
        var observers: [Task<Void, Never>] = []
        var running: [String: Running] = [:]
        var ioNodes: [(id: String, label: String)] = []
        /// Agents killed and not started again: a dead process emits nothing.
        var killed: Set<String> = []
    }

    let session: IoSessionCase
    private let broker: TestBroker
    private let rules: [String: [IoRoutingRule]]
    private let store = Mutex(Store())
    /// Signals each recorded observation (and the waits' deadlines) to ``waitForObservations(through:)``.
    private let changes: AsyncStream<Void>
    private let changed: AsyncStream<Void>.Continuation

    /// Maps every router's rule conditions first; throws ``JSCondition/NotMappable`` for one it cannot map.
    init(session: IoSessionCase, broker: TestBroker) throws {
        self.session = session
        self.broker = broker
        var rules: [String: [IoRoutingRule]] = [:]
        for role in session.roles {
            rules[role.label] = try (role.router?["rules"]?.arrayValue ?? []).map(Self.rule)
        }
        self.rules = rules
        (changes, changed) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The step that observations are stamped with from now on.
    func begin(step label: String) {
        store.withLock { $0.step = label }
    }

    /// The IO node ids the Swift agents generated, by the label of their agent (`<ioNode-LABEL>`).
    var ioNodes: [(id: String, label: String)] { store.withLock { $0.ioNodes } }

    /// The step label of emissions after the last step, which the outcome leaves out.
    static let afterTheScenario = "(after the scenario)"

    /// What the IO observers emitted during the scenario, and what went wrong in them.
    var outcome: (observations: [IoSessionCase.Observation], problems: [String]) {
        store.withLock { ($0.observations.filter { $0.step != Self.afterTheScenario }, $0.problems) }
    }

    /// The counters of every agent that started, by label.
    var statistics: [(label: String, statistics: AgentStatistics)] {
        store.withLock { $0.running.map { ($0.key, $0.value.container.agent.statistics) } }
    }

    /// Makes the container of agent `label` (not yet running).
    func makeContainer(_ label: String) throws -> Container {
        let role = try session.role(label)
        var agent = Agent.Configuration(identity: Identity(objectID: role.id, name: role.name))
        agent.broker.url = "mqtt://\(broker.host):\(broker.port)"
        agent.ioNodes = try role.ioContextNodes.map { context, node in
            IoNode(
                objectID: ObjectID.make(), name: context,
                ioSources: try (node["ioSources"]?.arrayValue ?? []).map { try IoSource(jsonObject: Self.object($0)) },
                ioActors: try (node["ioActors"]?.arrayValue ?? []).map { try IoActor(jsonObject: Self.object($0)) },
                characteristics: node["characteristics"]?.objectValue)
        }
        let nodes = agent.ioNodes.map { (id: $0.objectID, label: label) }
        store.withLock { $0.ioNodes += nodes }
        let controllers = try role.controllers.map { try component($0, of: role) }
        return try Container(
            components: Components(controllers: controllers), configuration: Container.Configuration(agent: agent))
    }

    /// Subscribes the observers coaty-js's generator subscribed (its sources', then its actors'),
    /// waits until each has replayed, then runs `container` as agent `label` until it is online.
    ///
    /// The generator subscribed them when its agent came online, in the same JavaScript turn, so
    /// before anything arrived from the broker; subscribing before the Swift agent connects is the
    /// same, where subscribing after its online state could miss a quick router's first Associate.
    func start(_ label: String, _ container: Container) async throws {
        store.withLock { _ = $0.killed.remove(label) }
        let agent = container.agent
        if let sources = container.controller(IoSourceController.self) {
            for source in agent.configuration.ioNodes.flatMap({ $0.ioSources ?? [] }) {
                let id = source.objectID
                await observe(label, "IoSourceController.observeAssociation", id) { emit in
                    await sources.observeAssociation(of: id) { for await flag in $0 { emit(.bool(flag)) } }
                }
                await observe(label, "IoSourceController.observeUpdateRate", id) { emit in
                    await sources.observeUpdateRate(of: id) { for await rate in $0 { emit(Self.rate(rate)) } }
                }
                await observeIoState(label, agent, id)
            }
        }
        if let actors = container.controller(IoActorController.self) {
            for actor in agent.configuration.ioNodes.flatMap({ $0.ioActors ?? [] }) {
                let id = actor.objectID
                await observe(label, "IoActorController.observeAssociation", id) { emit in
                    await actors.observeAssociation(of: id) { for await flag in $0 { emit(.bool(flag)) } }
                }
                // coaty-js's value observable starts with `undefined`; Swift's replays only a value it has.
                let initially = actors.lastValue(of: id) == nil ? Self.undefined : nil
                await observe(label, "IoActorController.observeIoValue", id, initially: initially) { emit in
                    await actors.observeIoValue(of: id) { for await value in $0 { emit(Self.value(value)) } }
                }
                await observeIoState(label, agent, id)
            }
        }
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
        store.withLock { $0.running[label] = Running(container: container, shutdownSignal: fire, task: task) }
        await RunningAgents.waitUntilOnline(container.agent)
    }

    /// Publishes `value` from `source` of agent `label` with its IoSourceController.
    func publish(_ label: String, _ value: IoValue, from source: String) throws {
        guard let controller = try running(label).container.controller(IoSourceController.self) else {
            throw Failure(description: "agent \(label) publishes IO values but has no IoSourceController")
        }
        try controller.publish(value, from: source)
    }

    /// Shuts agent `label` down gracefully and waits until its container returned.
    func shutdown(_ label: String) async throws {
        let running = try running(label)
        running.shutdownSignal.finish()
        try await running.task.value
    }

    /// Kills agent `label` as SIGKILL would: no Deadvertise, no DISCONNECT; the broker sends its last will.
    ///
    /// From then on its observers record nothing, as the killed process's could not.
    func kill(_ label: String) throws {
        let agent = try running(label).container.agent
        store.withLock { _ = $0.killed.insert(label) }
        agent.closeConnectionAbruptly()
    }

    /// Waits until every (agent, observable, IO point) has emitted at least as often as the vector's
    /// entries up to and including step `index`; throws, naming what is missing, after `timeout`.
    func waitForObservations(through index: Int, timeout: Duration = .seconds(10)) async throws {
        let labels = Set(session.steps.prefix(index + 1).map(\.label))
        let wanted = Dictionary(grouping: session.observed.filter { labels.contains($0.step) }, by: \.key)
            .mapValues(\.count)
        let deadline = ContinuousClock.now + timeout
        let alarm = Task { [changed] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            changed.yield()
        }
        defer { alarm.cancel() }
        var iterator = changes.makeAsyncIterator()
        while true {
            let counts = store.withLock { Dictionary(grouping: $0.observations, by: \.key).mapValues(\.count) }
            let missing = wanted.filter { counts[$0.key, default: 0] < $0.value }
            if missing.isEmpty { return }
            if ContinuousClock.now >= deadline {
                throw Failure(
                    description: "step '\(session.steps[index].label)': observers still wait for "
                        + missing.map { "\($0.key) (\(counts[$0.key, default: 0]) of \($0.value))" }.sorted()
                        .joined(separator: ", "))
            }
            _ = await iterator.next()
        }
    }

    /// Shuts every running container down (after the broker stopped, so nothing more is published)
    /// and waits until every observer ended.
    ///
    /// What the observers emit from here on (the IO states that end unassociated with their agent)
    /// is not part of the scenario: the capture ended with its last step, its agents still running.
    func finish() async {
        let (running, observers) = store.withLock { store in
            store.step = Self.afterTheScenario
            return (store.running, store.observers)
        }
        for entry in running.values { entry.shutdownSignal.finish() }
        for (label, entry) in running {
            do {
                try await entry.task.value
            } catch {
                store.withLock { $0.problems.append("agent \(label) ended with \(error)") }
            }
        }
        for observer in observers { await observer.value }
    }

    // MARK: - Observers

    /// Runs `body` (a scoped observation that hands each element, mapped to the vector's JSON, to
    /// its `emit` argument) in a task of its own, after recording `initially`; returns once the
    /// first element was recorded.
    private func observe(
        _ label: String, _ via: String, _ point: String, initially: JSONValue? = nil,
        _ body: @escaping @Sendable (_ emit: @escaping @Sendable (JSONValue) -> Void) async throws -> Void
    ) async {
        let (first, firstArrived) = AsyncStream.makeStream(of: Void.self)
        if let initially {
            record(label, via, point, initially)
            firstArrived.finish()
        }
        let task = Task {
            do {
                try await body { value in
                    self.record(label, via, point, value)
                    firstArrived.finish()
                }
            } catch let error as AgentError where error.code == .stopped {
                // The agent stopped: its IO states end with it.
            } catch {
                store.withLock { $0.problems.append("\(label) \(via) of \(point) ended with \(error)") }
            }
            firstArrived.finish()
        }
        store.withLock { $0.observers.append(task) }
        for await _ in first {}
    }

    private func observeIoState(_ label: String, _ agent: Agent, _ point: String) async {
        await observe(label, "CommunicationManager.observeIoState", point) { emit in
            try await agent.observeIoState(of: point) { states in
                for try await state in states { emit(Self.state(state)) }
            }
        }
    }

    private func record(_ label: String, _ via: String, _ point: String, _ value: JSONValue) {
        store.withLock {
            guard !$0.killed.contains(label) else { return }
            $0.observations.append(IoSessionCase.Observation(step: $0.step, agent: label, via: via, ioPoint: point, value: value))
        }
        changed.yield()
    }

    private func running(_ label: String) throws -> Running {
        guard let running = store.withLock({ $0.running[label] }) else {
            throw Failure(description: "agent \(label) acts before its 'start' action")
        }
        return running
    }

    // MARK: - Mapping coaty-js's set-up and values

    /// The controller component for a coaty-js controller class.
    private func component(_ name: String, of role: IoSessionCase.Role) throws -> ControllerComponent {
        switch name {
        case "IoSourceController": return .ioSources()
        case "IoActorController": return .ioActors()
        case "BasicIoRouter", "RuleBasedIoRouter":
            guard let context = role.router?["ioContext"] else {
                throw Failure(description: "agent \(role.label) runs \(name) without router.ioContext")
            }
            let ioContext = try IoContext(jsonObject: Self.object(context))
            let rules = name == "BasicIoRouter" ? [IoRoutingRule.anyCompatiblePair] : self.rules[role.label] ?? []
            return .ioRouter(name: name, ioContext: ioContext, rules: rules)
        default:
            throw Failure(description: "agent \(role.label): no Swift counterpart of the controller \(name) is mapped")
        }
    }

    /// A rule of a RuleBasedIoRouter, its condition mapped from JavaScript.
    private static func rule(_ json: JSONValue) throws -> IoRoutingRule {
        guard let name = json["name"]?.stringValue, let text = json["condition"]?.stringValue else {
            throw Failure(description: "a rule without name or condition: \(json)")
        }
        let condition = try JSCondition(text)
        return IoRoutingRule(name: name, valueType: json["valueType"]?.stringValue) { candidate in
            try condition.holds([
                .json(.object(try candidate.source.jsonObject())), .json(.object(try candidate.sourceNode.jsonObject())),
                .json(.object(try candidate.actor.jsonObject())), .json(.object(try candidate.actorNode.jsonObject())),
                .json(.object(try candidate.context.jsonObject())),
            ])
        }
    }

    private static func object(_ json: JSONValue) throws -> JSONObject {
        guard let object = json.objectValue else { throw Failure(description: "not a JSON object: \(json)") }
        return object
    }

    static let undefined: JSONValue = ["$undefined": true]

    static func rate(_ rate: Double?) -> JSONValue {
        guard let rate else { return undefined }
        return rate.rounded() == rate && abs(rate) < 1e15 ? .int(Int(rate)) : .double(rate)
    }

    static func state(_ state: IoState) -> JSONValue {
        ["hasAssociations": .bool(state.hasAssociations), "updateRate": rate(state.updateRate)]
    }

    static func value(_ value: IoValue) -> JSONValue {
        switch value {
        case .json(let json): json
        case .raw(let bytes): ["$bytesHex": .string(bytes.map { String(format: "%02x", $0) }.joined())]
        }
    }
}
