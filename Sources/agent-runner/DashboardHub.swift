import Agent
import CoreTypes
import Foundation
import Synchronization

/// The dashboard's ``DashboardModel`` between the task that feeds it every message and the
/// WebSocket connections that read snapshots of it a few times a second.
///
/// Recording a message holds the lock briefly; a snapshot holds it while it is built (about a
/// millisecond), so the events cost only the model's updates, however many pages are open.
final class DashboardHub: Sendable {
    let agent: Agent
    private let model: Mutex<DashboardModel>
    private let sequence = Atomic<Int>(0)

    init(agent: Agent, model: DashboardModel = DashboardModel()) {
        self.agent = agent
        self.model = Mutex(model)
    }

    /// Records one message, as it arrives.
    func record(_ message: CoatyMessage) {
        let now = Self.now()
        model.withLock { $0.record(message, at: now) }
    }

    /// A new snapshot as JSON text, with the log entries that contain `logFilter`.
    func snapshot(logFilter: String = "") -> String {
        let now = Self.now()
        let number = sequence.add(1, ordering: .relaxed).newValue
        let statistics = agent.statistics
        let drops = DashboardModel.AgentDrops(
            observerBuffer: statistics.droppedObserverEvents, invalidPayloads: statistics.rejectedPayloads)
        let ownID = agent.identity.objectID
        var json = model.withLock { model in
            model.expireRequests(at: now)
            return model.snapshot(
                at: now, sequence: number, drops: drops, ownID: ownID, logFilter: logFilter)
        }
        json["namespace"] = .string(agent.configuration.isCrossNamespacing ? "(all)" : agent.configuration.namespace)
        json["broker"] = .string(agent.configuration.broker.url)
        json["connected"] = .bool(agent.connectionState == .online)
        return JSONValue.object(json).serializedString()
    }

    private static func now() -> Double {
        Date().timeIntervalSince1970
    }
}
