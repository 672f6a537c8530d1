import Agent
import CoreTypes
import Synchronization
import Testing
import TestSupport

/// The Swift agents of one scenario while it runs, and what their observers received.
///
/// Scripts use it to reach an agent by its label (`try run.agent("A")`), to observe an event
/// stream (``observe(_:via:_:handle:)``, which records every element as an observation and
/// optionally responds) and to kill an agent (``kill(_:)``).
final class SessionRun: Sendable {
    /// A script asked for an agent the scenario does not have.
    struct UnknownAgent: Error, CustomStringConvertible {
        let label: String
        var description: String { "the scenario has no agent labelled '\(label)'" }
    }

    private struct Store {
        var observations: [SessionCase.Observation] = []
        var problems: [String] = []
        var tasks: [Task<Void, Never>] = []
        var killed: Set<String> = []
    }

    let session: SessionCase
    /// The agents in the order of the scenario's `agents`.
    let agents: [(label: String, agent: Agent)]
    private let store = Mutex(Store())

    init(session: SessionCase, broker: TestBroker, script: SessionScript) throws {
        self.session = session
        self.agents = try session.roles.map { role in
            var configuration = Agent.Configuration(identity: Identity(objectID: role.id, name: role.name))
            configuration.broker.url = "mqtt://\(broker.host):\(broker.port)"
            configuration.namespace = role.namespace
            configuration.isCrossNamespacing = role.isCrossNamespacing
            script.configure(role.label, &configuration)
            return (role.label, try Agent(configuration: configuration, registry: SessionFixtures.registry()))
        }
    }

    /// The agent labelled `label` (`A` for "Agent A").
    func agent(_ label: String) throws -> Agent {
        guard let agent = agents.first(where: { $0.label == label })?.agent else { throw UnknownAgent(label: label) }
        return agent
    }

    /// The agents that have not been killed.
    var liveAgents: [(label: String, agent: Agent)] {
        let killed = store.withLock { $0.killed }
        return agents.filter { !killed.contains($0.label) }
    }

    /// Records every element of `events` as an observation of agent `label` through `via` (the
    /// coaty-js call that the vector names), then hands it to `handle` (a responder answers there).
    ///
    /// The iteration runs in a task of its own until the stream ends, which happens when the agent
    /// stops; ``finish()`` waits for it.
    func observe<Events: AsyncSequence & Sendable>(
        _ label: String, via: String, _ events: Events,
        handle: @escaping @Sendable (Events.Element) throws -> Void = { _ in }
    ) where Events.Element: SessionObservable {
        let task = Task {
            do {
                for try await element in events {
                    // A failing responder is reported, and the observer goes on recording.
                    do {
                        let observation = try element.observation(agent: label, via: via)
                        store.withLock { $0.observations.append(observation) }
                        try handle(element)
                    } catch {
                        store.withLock { $0.problems.append("\(label) \(via): \(error)") }
                    }
                }
            } catch let error as AgentError where error.code == .stopped {
                // The session's end: its agents stop under their observations and requests.
            } catch {
                store.withLock { $0.problems.append("\(label) \(via) ended: \(error)") }
            }
        }
        store.withLock { $0.tasks.append(task) }
    }

    /// Kills agent `label` as SIGKILL would: the socket closes without DISCONNECT, so the broker
    /// publishes its last will; the agent publishes nothing more.
    func kill(_ label: String) throws {
        let agent = try agent(label)
        store.withLock { _ = $0.killed.insert(label) }
        agent.closeConnectionAbruptly()
    }

    /// Waits until every observation has ended (the agents have stopped) and returns what the
    /// observers received and any error a script's observer or responder threw.
    func finish() async -> (observations: [SessionCase.Observation], problems: [String]) {
        let tasks = store.withLock { $0.tasks }
        for task in tasks { await task.value }
        return store.withLock { ($0.observations, $0.problems) }
    }
}

/// An element of an observed stream that becomes an entry of `expected.observed`.
protocol SessionObservable: Sendable {
    func observation(agent: String, via: String) throws -> SessionCase.Observation
}

extension SessionObservable {
    /// The event's data as coaty-js would print it, parsed back: `toJsonObject()` of the event data.
    static func data(of event: some CoatyEvent) throws -> JSONValue {
        try JSONValue(parsing: event.json().serializedString())
    }
}

extension Received: SessionObservable where Event: CoatyEvent {
    func observation(agent: String, via: String) throws -> SessionCase.Observation {
        SessionCase.Observation(
            agent: agent, via: via, event: Event.eventType.description, sourceID: sourceID,
            data: try Self.data(of: event))
    }
}

extension IncomingRequest: SessionObservable {
    func observation(agent: String, via: String) throws -> SessionCase.Observation {
        SessionCase.Observation(
            agent: agent, via: via, event: Request.eventType.description, sourceID: sourceID,
            data: try Self.data(of: event))
    }
}
