import CoreTypes
import Synchronization
import Testing

@testable import Agent
import TestSupport

/// An agent that holds lamps and resolves Discovers for them by id, counting the Discovers.
final class LampHolder: Sendable {
    let agent: Agent
    private let lamps: Mutex<[String: BaseObject]>
    private let discovers = Atomic<Int>(0)

    init(_ broker: TestBroker, lamps: [BaseObject]) throws {
        agent = try Agent(configuration: RunningAgents.configuration("Holder", broker: broker))
        self.lamps = Mutex(Dictionary(uniqueKeysWithValues: lamps.map { ($0.objectID, $0) }))
    }

    /// How many Discovers for a lamp arrived.
    var discoverCount: Int { discovers.load(ordering: .relaxed) }

    /// Answers Discovers until cancelled.
    func answer(_ requests: EventStream<IncomingRequest<Discover>>) async throws {
        for try await request in requests {
            guard let id = request.event.objectID, let lamp = lamps.withLock({ $0[id] }) else { continue }
            discovers.add(1, ordering: .relaxed)
            try? request.respond(Resolve(object: lamp))
        }
    }

    /// Changes a lamp (later Resolves carry the new version) and advertises it.
    func change(_ lamp: BaseObject) throws {
        lamps.withLock { $0[lamp.objectID] = lamp }
        try agent.advertise(lamp)
    }
}

@Suite(.timeLimit(.minutes(1)))
struct ObjectCacheControllerTests {
    let lamp = BaseObject(objectType: "com.example.test.Lamp", name: "desk", custom: ["isOn": true])

    func cache(_ broker: TestBroker, _ options: ObjectCacheController.Options) throws -> (
        Container, ObjectCacheController
    ) {
        let container = try Container(
            components: Components(controllers: [.objectCache(name: "Cache")]),
            configuration: RunningContainers.configuration("Cache", broker: broker, options: ["Cache": .typed(options)])
        )
        return (container, try #require(container.controller(ObjectCacheController.self)))
    }

    /// Runs the holder (answering Discovers) and the container around `body`.
    func withHolder(
        _ holder: LampHolder, _ container: Container, _ body: @Sendable () async throws -> Void
    ) async throws {
        try await RunningAgents.run([holder.agent]) {
            let requests = try await holder.agent.observeDiscover()
            let responder = Task { try await holder.answer(requests) }
            defer { responder.cancel() }
            try await RunningContainers.run(container, body)
        }
    }

    @Test func resolvesThroughDiscoverOnceThenFromTheCache() async throws {
        try await TestBroker.withBroker { broker in
            let holder = try LampHolder(broker, lamps: [lamp])
            let (container, cache) = try cache(broker, .init(discoverTimeout: .seconds(30)))
            try await withHolder(holder, container) {
                #expect(cache.cachedObject(objectID: lamp.objectID) == nil)
                let first = try await cache.resolve(objectID: lamp.objectID)
                #expect(first.name == "desk")
                #expect(first.custom["isOn"] == true)
                #expect(holder.discoverCount == 1)
                let second = try await cache.resolve(objectID: lamp.objectID)
                #expect(second.objectID == lamp.objectID)
                #expect(holder.discoverCount == 1, "local first: the cache answered")
                _ = try await cache.resolve(objectID: lamp.objectID, policy: .networkFirst)
                #expect(holder.discoverCount == 2, "network first: asked again")
                #expect(cache.count == 1)
            }
        }
    }

    @Test func anAdvertiseRefreshesACachedObject() async throws {
        try await TestBroker.withBroker { broker in
            let holder = try LampHolder(broker, lamps: [lamp])
            let (container, cache) = try cache(broker, .init(discoverTimeout: .seconds(30)))
            try await withHolder(holder, container) {
                _ = try await cache.resolve(objectID: lamp.objectID)
                var updates = cache.updates().makeAsyncIterator()
                var dimmed = lamp
                dimmed.custom["brightness"] = 0.3
                try holder.change(dimmed)
                #expect(await updates.next() == lamp.objectID)
                #expect(cache.cachedObject(objectID: lamp.objectID)?.custom["brightness"] == 0.3)
                _ = try await cache.resolve(objectID: lamp.objectID)
                #expect(holder.discoverCount == 1)
            }
        }
    }

    @Test func aDeadvertiseOrTheOwnersWillEvictsObjects() async throws {
        try await TestBroker.withBroker { broker in
            let holder = try LampHolder(broker, lamps: [])
            let owned = BaseObject(
                objectType: "com.example.test.Lamp", name: "owned", parentObjectID: holder.agent.identity.objectID)
            try holder.change(lamp)
            try holder.change(owned)
            let (container, cache) = try cache(broker, .init(discoverTimeout: .seconds(30)))
            try await withHolder(holder, container) {
                _ = try await cache.resolve(objectID: lamp.objectID)
                _ = try await cache.resolve(objectID: owned.objectID)
                var updates = cache.updates().makeAsyncIterator()
                try holder.agent.deadvertise([lamp.objectID])
                #expect(await updates.next() == lamp.objectID)
                #expect(cache.cachedObject(objectID: lamp.objectID) == nil)
                holder.agent.closeConnectionAbruptly()
                #expect(await updates.next() == owned.objectID, "the holder's will evicts what belongs to it")
                #expect(cache.count == 0)
            }
        }
    }

    @Test func aZeroTimeToLiveAlwaysAsksTheNetwork() async throws {
        try await TestBroker.withBroker { broker in
            let holder = try LampHolder(broker, lamps: [lamp])
            let (container, cache) = try cache(broker, .init(timeToLive: .zero, discoverTimeout: .seconds(30)))
            try await withHolder(holder, container) {
                _ = try await cache.resolve(objectID: lamp.objectID)
                _ = try await cache.resolve(objectID: lamp.objectID)
                #expect(holder.discoverCount == 2)
                #expect(cache.cachedObject(objectID: lamp.objectID) == nil)
            }
        }
    }

    @Test func networkFirstFallsBackToTheCacheWhenNobodyAnswers() async throws {
        try await TestBroker.withBroker { broker in
            let holder = try LampHolder(broker, lamps: [lamp])
            let (container, cache) = try cache(
                broker, .init(policy: .networkFirst, discoverTimeout: .milliseconds(200)))
            try await RunningContainers.run(container) {
                try await RunningAgents.run([holder.agent]) {
                    let requests = try await holder.agent.observeDiscover()
                    let responder = Task { try await holder.answer(requests) }
                    _ = try await cache.resolve(objectID: lamp.objectID, timeout: .seconds(30))
                    responder.cancel()
                    _ = await responder.result
                }
                // The holder is gone: the Discover (200 ms, from the options) times out; the cached lamp answers.
                let fallback = try await cache.resolve(objectID: lamp.objectID)
                #expect(fallback.objectID == lamp.objectID)
                let unknown = ObjectID.make()
                let error = await #expect(throws: AgentError.self) { try await cache.resolve(objectID: unknown) }
                #expect(error?.code == .responseTimedOut)
                #expect(error?.detail.contains(unknown) == true)
            }
        }
    }
}
