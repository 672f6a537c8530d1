import Agent
import CoatyStorage
import CoreTypes
import Logging
import ServiceLifecycle

extension HistorianController {
    /// Snapshots the objects of the observed types that each event carries, and stores the
    /// snapshots other agents advertise when asked to; one event at a time, in arrival order.
    func snapshotObserved(_ events: EventStream<CoatyMessage>) async throws {
        try await untilAgentStops {
            for try await message in events.cancelOnGracefulShutdown() {
                let objects: [any CoatyObject]
                do {
                    objects = try StoreChange.objects(in: message, registry: agent.registry, includesChannels: true)
                } catch {
                    logger.debug(
                        "Not snapshotted: invalid payload",
                        metadata: ["mqtt.topic": "\(message.topic)", "error": "\(error)"])
                    continue
                }
                guard !objects.isEmpty else { continue }
                if message.topic.eventType == .advertise {
                    guard try await persistObserved(objects, from: message.topic.sourceID) else { return }
                }
                let captured = objects.filter(options.snapshots)
                guard !captured.isEmpty else { continue }
                let snapshots = try makeSnapshots(of: captured, tags: options.observedTags)
                guard try await publish(snapshots, retrying: true) else { return }
                logger.trace(
                    "Snapshotted", metadata: ["storage.count": "\(captured.count)", "coaty.event": "\(message.topic)"])
            }
        }
    }

    /// Stores the snapshots other agents advertise.
    func persistAdvertised(_ advertised: EventStream<Received<Advertise>>) async throws {
        try await untilAgentStops {
            for try await received in advertised.cancelOnGracefulShutdown() {
                guard try await persistObserved([received.event.object], from: received.sourceID) else { return }
            }
        }
    }

    /// Stores the snapshots among the advertised `objects` when observed snapshots are persisted
    /// and another agent advertised them (this agent's own are local snapshots), again while the
    /// database fails; false when the container stopped before they could be stored.
    private func persistObserved(_ objects: [any CoatyObject], from sourceID: String) async throws -> Bool {
        guard options.persistsObservedSnapshots, sourceID != agent.identity.objectID else { return true }
        let snapshots = objects.filter { $0.coreType == .snapshot }
        guard !snapshots.isEmpty else { return true }
        guard
            try await retry.run("an observed snapshot", { try await store.insert(snapshots, into: options.collection) })
        else { return false }
        logger.trace("Stored an observed snapshot", metadata: ["coaty.source": "\(sourceID)"])
        return true
    }

    /// Runs `body`, ending quietly when the agent stopped (nothing more arrives then).
    private func untilAgentStops(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as AgentError where error.code == .stopped {
            return
        }
    }
}
