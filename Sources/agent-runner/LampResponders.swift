import Agent
import CoreTypes
import Synchronization

/// What the demo's lamp agent does when others talk to it: resolves Discovers and answers
/// Queries about its light, applies Updates, executes the `switchOff` Call, and tells the script
/// about the Channel and Raw messages it receives.
final class LampResponders: Sendable {
    /// What the script waits for.
    enum Kind: Sendable { case channel, raw }

    private struct Observations: Sendable {
        let discovers: EventStream<IncomingRequest<Discover>>
        let queries: EventStream<IncomingRequest<Query>>
        let updates: EventStream<IncomingRequest<Update>>
        let calls: EventStream<IncomingRequest<Call>>
        let channel: EventStream<Received<Channel>>
        let raw: EventStream<Raw>
    }

    private let lamp: Agent
    private let model: LampModel
    private let observations: Observations
    private let received: AsyncStream<(Kind, String)>
    private let receivedInput: AsyncStream<(Kind, String)>.Continuation
    private let task = Mutex<Task<Void, Never>?>(nil)

    private init(lamp: Agent, model: LampModel, observations: Observations) {
        self.lamp = lamp
        self.model = model
        self.observations = observations
        (received, receivedInput) = AsyncStream.makeStream(of: (Kind, String).self)
    }

    deinit {
        task.withLock { $0?.cancel() }
    }

    /// Observes everything on `lamp` (before it connects, so nothing is missed).
    static func observe(_ lamp: Agent, model: LampModel) async throws -> LampResponders {
        let observations = Observations(
            discovers: try await lamp.observeDiscover(),
            queries: try await lamp.observeQuery(),
            updates: try await lamp.observeUpdate(objectType: DemoLight.objectType),
            calls: try await lamp.observeCall("com.example.switchOff", context: model.light),
            channel: try await lamp.observeChannel("announcements"),
            raw: try await lamp.observeRaw("demo/raw/#"))
        return LampResponders(lamp: lamp, model: model, observations: observations)
    }

    /// Starts answering.
    func start() {
        let started = Task { [self] in
            await withDiscardingTaskGroup { group in
                group.addTask { try? await self.answerDiscovers() }
                group.addTask { try? await self.answerQueries() }
                group.addTask { try? await self.applyUpdates() }
                group.addTask { try? await self.executeCalls() }
                // Each task ends when the agent stops (its stream throws `stopped`).
                group.addTask {
                    try? await self.observations.channel.forEachEvent { channel in
                        self.receivedInput.yield(
                            (.channel, channel.event.objects.map { "\"\($0.name)\"" }.joined(separator: ", ")))
                    }
                }
                group.addTask {
                    try? await self.observations.raw.forEachEvent { raw in
                        self.receivedInput.yield((.raw, "\"\(String(decoding: raw.payload, as: UTF8.self))\""))
                    }
                }
            }
        }
        task.withLock { $0 = started }
    }

    /// The next Channel or Raw message of `kind` the lamp received, described.
    func next(_ kind: Kind) async -> String? {
        for await (receivedKind, text) in received where receivedKind == kind { return text }
        return nil
    }

    private func answerDiscovers() async throws {
        for try await request in observations.discovers where request.event.matches(model.light) {
            try? request.respond(Resolve(object: model.light))
        }
    }

    private func answerQueries() async throws {
        for try await request in observations.queries {
            let light = model.light
            guard request.event.objectTypes?.contains(DemoLight.objectType) == true,
                let kept = try? request.event.filter.apply(to: [light], json: { .object(try $0.jsonObject()) }),
                !kept.isEmpty
            else { continue }
            try? request.respond(Retrieve(objects: kept))
        }
    }

    private func applyUpdates() async throws {
        for try await request in observations.updates {
            guard let wanted = request.event.object as? DemoLight, wanted.objectID == model.light.objectID else {
                continue
            }
            let updated = model.change { $0.brightness = wanted.brightness }
            try? request.respond(Complete(object: updated))
        }
    }

    private func executeCalls() async throws {
        for try await request in observations.calls {
            let switched = model.change { $0.isOn = false }
            try? request.respond(
                Return(result: ["isOn": .bool(switched.isOn), "brightness": .double(switched.brightness)]))
        }
    }
}
