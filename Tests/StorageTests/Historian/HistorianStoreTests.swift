import Agent
import CoatyStorage
import CoatyStorageAgent
import CoreTypes
import TestSupport
import Testing

/// The historian's own store: finding snapshots by filter, parent and time, and its options.
@Suite struct HistorianStoreTests {
    typealias Fixtures = HistorianFixtures

    /// A historian that persists what it takes, over a store of `kind`; its agent never connects.
    static func historian(_ kind: BackendKind, in folder: TemporaryFolder) async throws -> HistorianController {
        let agent = try Agent(configuration: Agent.Configuration(identity: Identity(name: "Historian")))
        let store = try await ObjectStore.make(kind, in: folder)
        let historian = HistorianController(
            agent: agent, store: store, options: HistorianController.Options(persistsLocalSnapshots: true),
            now: { 5000 })
        try await historian.initialize()
        return historian
    }

    @Test(arguments: [BackendKind.memory, .sqlite])
    func snapshotsAreFoundByParentAndBetweenTimestampsNewestFirst(_ kind: BackendKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let historian = try await Self.historian(kind, in: folder)
        let lamp = try Fixtures.object(Fixtures.lampJSON)
        let hall = try Fixtures.object(Fixtures.hallJSON)
        try await historian.takeSnapshot(of: lamp, at: 1000)
        try await historian.takeSnapshots(of: [hall, lamp], tags: ["pair"], at: 2000)
        try await historian.takeSnapshot(of: lamp, tags: ["late"])  // at 5000, from the time source
        try await historian.takeSnapshot(of: hall, at: 3000)

        func times(_ snapshots: [Snapshot]) -> [Double] { snapshots.map(\.creationTimestamp) }
        #expect(times(try await historian.snapshots(of: Fixtures.lampID)) == [5000, 2000, 1000])
        #expect(times(try await historian.snapshots(of: Fixtures.lampID, from: 1500)) == [5000, 2000])
        #expect(times(try await historian.snapshots(of: Fixtures.lampID, from: 1000, through: 2000)) == [2000, 1000])
        #expect(times(try await historian.snapshots(from: 2000, through: 3000)) == [3000, 2000, 2000])
        #expect(times(try await historian.snapshots(from: nil, through: 1000)) == [1000])
        let tagged = try await historian.snapshots(
            matching: ObjectFilter.where("tags", .contains(["pair"])).orderBy("name"))
        #expect(tagged.map(\.name) == ["com.example.Light Desk lamp", "com.example.Light Hall light"])
        #expect(try await historian.snapshots(matching: .all).count == 5)
    }

    @Test func anInvalidSnapshotIsNeitherStoredNorReturned() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let historian = try await Self.historian(.memory, in: folder)
        let lamp = try Fixtures.object(Fixtures.lampJSON)
        await #expect(throws: ObjectDecodingError.self) { try await historian.takeSnapshot(of: lamp, tags: [""]) }
        await #expect(throws: ObjectDecodingError.self) { try await historian.takeSnapshot(of: lamp, at: 0) }
        #expect(try await historian.snapshots().isEmpty)
    }

    @Test func optionsReadCoatyJsNamesFromTheContainerConfiguration() throws {
        let options: ControllerOptions = [
            "shouldAdvertiseSnapshots": true, "shouldPersistLocalSnapshots": true,
            "shouldPersistObservedSnapshots": true, "shouldReplyToQueries": true,
            "database": ["key": "db", "collection": "history"],
            "objectTypes": ["com.example.Light"], "coreTypes": ["Task"], "tags": ["observed"],
        ]
        let container = try Container(
            components: Components(controllers: [.historian(backend: InMemoryBackend())]),
            configuration: Container.Configuration(controllerOptions: ["HistorianController": options]))
        let historian = try #require(container.controller(HistorianController.self))
        #expect(
            historian.options
                == HistorianController.Options(
                    collection: "history", advertisesSnapshots: true, persistsLocalSnapshots: true,
                    persistsObservedSnapshots: true, answersQueries: true, observedObjectTypes: ["com.example.Light"],
                    observedCoreTypes: [.task], observedTags: ["observed"]))
        #expect(
            try Container(
                components: Components(controllers: [.historian(backend: InMemoryBackend())]), configuration: .init()
            ).controller(
                HistorianController.self)?.options == HistorianController.Options())

        let bad = #expect(throws: ContainerError.self) {
            try Container(
                components: Components(controllers: [.historian(backend: InMemoryBackend())]),
                configuration: Container.Configuration(controllerOptions: [
                    "HistorianController": ["coreTypes": ["Lamp"]]
                ]))
        }
        #expect(bad?.detail.contains("HistorianController") == true, "\(String(describing: bad))")
    }
}
