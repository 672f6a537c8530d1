import Agent
import CoatyStorage
import CoatyStorageAgent
import CoreTypes
import Synchronization
import TestSupport
import Testing

/// What the historian tests share: objects, a container with a historian over a given store, and
/// a clock that steps one second per snapshot.
enum HistorianFixtures {
    static let lampID = "8d2f4b6a-1c3e-4f5a-b7d9-e1f3a5c7b9d2"
    static let lampJSON: JSONObject = [
        "objectId": .string(lampID), "objectType": "com.example.Light", "coreType": "CoatyObject",
        "name": "Desk lamp", "brightness": 0.8,
    ]
    static let hallJSON: JSONObject = [
        "objectId": "3e5a7c9e-2b4d-4f6a-8c1e-3a5c7e9b1d3f", "objectType": "com.example.Light",
        "coreType": "CoatyObject", "name": "Hall light", "brightness": 0.2,
    ]

    static func object(_ json: JSONObject, _ changes: JSONObject = [:]) throws -> any CoatyObject {
        var json = json
        for (key, value) in changes { json[key] = value }
        return try ObjectTypeRegistry().decodeObject(json)
    }

    /// A container on `broker` running one historian over `store`, its snapshots timed by `time`.
    static func container(
        _ broker: TestBroker, store: ObjectStore, options: HistorianController.Options,
        time: SteppingTime = SteppingTime(), clock: any Clock<Duration> = ContinuousClock()
    ) throws -> Container {
        let component = ControllerComponent(name: "HistorianController") { context in
            HistorianController(
                agent: context.agent, store: store, options: options, logger: context.logger, now: { time.next() },
                clock: clock)
        }
        return try Container(
            components: Components(controllers: [component]),
            configuration: RunningContainers.configuration("Historian", broker: broker))
    }

    /// The next Advertise of a `Snapshot` that `iterator` gives.
    static func nextSnapshotAdvertise(_ iterator: inout EventStream<CoatyMessage>.Iterator) async throws -> CoatyMessage
    {
        while let message = try await iterator.next() {
            if message.topic.eventType == .advertise, message.topic.filteredCoreType == .snapshot { return message }
        }
        throw AgentError(code: .stopped, detail: "the events ended before a Snapshot was advertised")
    }

    /// The snapshot an Advertise carries.
    static func snapshot(in message: CoatyMessage) throws -> Snapshot {
        let object = try Advertise(payload: message.payload, registry: ObjectTypeRegistry()).object
        return try #require(object as? Snapshot)
    }

    /// Waits until the store's `collection` holds `count` objects, and returns them.
    static func waitUntil(_ store: ObjectStore, holds count: Int, in collection: String = "historian")
        async throws -> [any CoatyObject]
    {
        try await store.observe(in: collection, filter: .all) { results in
            for try await result in results where result.objects.count >= count { return result.objects }
            return []
        }
    }
}

/// A time source for snapshots: 1,700,000,000,000 ms, then one second later on each reading.
final class SteppingTime: Sendable {
    static let start = 1_700_000_000_000.0
    private let readings = Mutex(0)

    func next() -> Double {
        let reading = readings.withLock { count in
            defer { count += 1 }
            return count
        }
        return Self.start + Double(reading) * 1000
    }
}

/// A backend whose writes wait while the gate is closed, telling the test when one arrives: a
/// test can act while a write is held and see what happened before it committed.
final class GatedBackend: StorageBackend {
    let base: any StorageBackend
    /// One element each time a write waits at the closed gate.
    let arrivals: AsyncStream<Void>
    private let arrived: AsyncStream<Void>.Continuation
    /// The writes waiting; `nil` while the gate is open.
    private let waiting = Mutex<[CheckedContinuation<Void, Never>]?>(nil)

    init(_ base: any StorageBackend) {
        self.base = base
        (arrivals, arrived) = AsyncStream.makeStream()
    }

    func close() { waiting.withLock { $0 = [] } }

    func open() {
        let released = waiting.withLock { waiting in
            defer { waiting = nil }
            return waiting ?? []
        }
        for write in released { write.resume() }
    }

    func read<T: Sendable>(_ body: @Sendable (any StorageReader) throws -> T) async throws -> T {
        try await base.read(body)
    }

    func write<T: Sendable>(_ body: @Sendable (any StorageWriter) throws -> T) async throws -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let held = waiting.withLock { waiting -> Bool in
                guard waiting != nil else { return false }
                waiting?.append(continuation)
                return true
            }
            if held { arrived.yield() } else { continuation.resume() }
        }
        return try await base.write(body)
    }
}

/// A backend whose next writes fail, when a test says so, as a database that went away does.
final class FailingBackend: StorageBackend {
    let base: any StorageBackend
    private let remaining = Mutex(0)

    init(_ base: any StorageBackend) {
        self.base = base
    }

    /// Makes the next `count` writes fail.
    func failNext(_ count: Int) {
        remaining.withLock { $0 = count }
    }

    func read<T: Sendable>(_ body: @Sendable (any StorageReader) throws -> T) async throws -> T {
        try await base.read(body)
    }

    func write<T: Sendable>(_ body: @Sendable (any StorageWriter) throws -> T) async throws -> T {
        let fails = remaining.withLock { remaining in
            defer { remaining = max(remaining - 1, 0) }
            return remaining > 0
        }
        if fails { throw StorageError.databaseFailed("writing", "the test's database is away") }
        return try await base.write(body)
    }
}
