import Agent
import CoatyStorage
import CoatyStorageAgent
import CoreTypes
import TestSupport
import Testing

/// The historian on a real broker, storing in memory and in a real SQLite file.
@Suite(.timeLimit(.minutes(1)))
struct HistorianControllerTests {
    typealias Fixtures = HistorianFixtures

    @Test(arguments: [BackendKind.memory, .sqlite])
    func aLocalSnapshotIsAdvertisedOnlyOnceTheStoreCommittedItAndCarriesCoatyJsBytes(_ kind: BackendKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let made = try await ObjectStore.make(kind, in: folder)
        let gated = GatedBackend(made.backend)
        let store = ObjectStore(backend: gated, registry: made.registry)
        try await TestBroker.withBroker { broker in
            let watcher = try Agent(configuration: RunningAgents.configuration("Watcher", broker: broker))
            try await RunningAgents.run([watcher]) {
                let events = try await watcher.observeAllEvents()
                let options = HistorianController.Options(advertisesSnapshots: true, persistsLocalSnapshots: true)
                let container = try Fixtures.container(broker, store: store, options: options)
                try await RunningContainers.run(container) {
                    let historian = try #require(container.controller(HistorianController.self))
                    let lamp = try Fixtures.object(Fixtures.lampJSON)
                    gated.close()
                    defer { gated.open() }
                    async let taken = historian.takeSnapshot(of: lamp, tags: ["hourly"])
                    var arrivals = gated.arrivals.makeAsyncIterator()
                    _ = await arrivals.next()
                    // The snapshot's write is held: whatever the historian advertised so far would
                    // reach the watcher before this marker, which the same agent advertises now.
                    let marker = Snapshot(
                        capturing: lamp, creatorID: container.agent.identity.objectID, creationTimestamp: 1,
                        tags: ["marker"])
                    try container.agent.advertise(marker)
                    var iterator = events.makeAsyncIterator()
                    let first = try await Fixtures.nextSnapshotAdvertise(&iterator)
                    #expect(try Fixtures.snapshot(in: first).objectID == marker.objectID)
                    gated.open()
                    let snapshot = try await taken
                    let advertised = try await Fixtures.nextSnapshotAdvertise(&iterator)
                    #expect(try await store.object(withID: snapshot.objectID, in: "historian") != nil)

                    let expected =
                        #"{"object":{"objectId":"\#(snapshot.objectID)","parentObjectId":"\#(Fixtures.lampID)","#
                        + #""objectType":"coaty.Snapshot","coreType":"Snapshot","name":"com.example.Light Desk lamp","#
                        + #""creatorId":"\#(container.agent.identity.objectID)","creationTimestamp":1700000000000,"#
                        + #""object":{"objectId":"\#(Fixtures.lampID)","objectType":"com.example.Light","#
                        + #""coreType":"CoatyObject","name":"Desk lamp","brightness":0.8},"tags":["hourly"]}}"#
                    #expect(String(decoding: advertised.payload, as: UTF8.self) == expected)
                    #expect(advertised.topic.sourceID == container.agent.identity.objectID)
                }
            }
        }
    }

    @Test func objectsOfTheObservedTypesInAdvertiseUpdateAndChannelEventsAreSnapshottedInArrivalOrder() async throws {
        let store = ObjectStore(backend: InMemoryBackend())
        try await TestBroker.withBroker { broker in
            let publisher = try Agent(configuration: RunningAgents.configuration("Publisher", broker: broker))
            try await RunningAgents.run([publisher]) {
                let events = try await publisher.observeAllEvents()
                let options = HistorianController.Options(
                    advertisesSnapshots: true, persistsLocalSnapshots: true, observedObjectTypes: ["com.example.Light"],
                    observedCoreTypes: [.snapshot], observedTags: ["observed"])
                let container = try Fixtures.container(broker, store: store, options: options)
                try await RunningContainers.run(container) {
                    let task = TaskObject(
                        name: "Repair", status: .done, creatorID: publisher.identity.objectID, creationTimestamp: 5)
                    let sensor = try Fixtures.object(
                        Fixtures.hallJSON,
                        ["objectId": "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", "objectType": "com.example.Sensor"])
                    try publisher.advertise(Fixtures.object(Fixtures.lampJSON))
                    try publisher.advertise(task)
                    _ = try await publisher.update(
                        Update(object: Fixtures.object(Fixtures.lampJSON, ["brightness": 0.1])))
                    try publisher.publish(
                        Channel(
                            id: "lights",
                            objects: [sensor, try Fixtures.object(Fixtures.lampJSON, ["brightness": 0.5])]))
                    try publisher.advertise(Fixtures.object(Fixtures.hallJSON))

                    var iterator = events.makeAsyncIterator()
                    var snapshots: [Snapshot] = []
                    for _ in 0..<4 {
                        snapshots.append(try Fixtures.snapshot(in: try await Fixtures.nextSnapshotAdvertise(&iterator)))
                    }
                    #expect(
                        snapshots.map(\.name) == Array(repeating: "com.example.Light Desk lamp", count: 3) + [
                            "com.example.Light Hall light"
                        ])
                    #expect(
                        try snapshots.map { try $0.object.jsonObject()["brightness"] } == [0.8, 0.1, 0.5, 0.2])
                    #expect(
                        snapshots.map(\.creationTimestamp) == (0..<4).map { SteppingTime.start + Double($0) * 1000 })
                    #expect(snapshots.allSatisfy { $0.tags == ["observed"] })
                    #expect(snapshots.allSatisfy { $0.creatorID == container.agent.identity.objectID })
                    // Stored before advertised: the store holds all four, and nothing else.
                    let historian = try #require(container.controller(HistorianController.self))
                    let stored = try await historian.snapshots(from: nil, through: nil)
                    #expect(stored.map(\.objectID) == snapshots.reversed().map(\.objectID))
                }
            }
        }
    }

    @Test(arguments: [false, true])
    func snapshotsAdvertisedByOtherAgentsAreStoredAndOwnOnesAreNot(_ alsoSnapshotsObservedTypes: Bool) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try await ObjectStore.make(.sqlite, in: folder)
        try await TestBroker.withBroker { broker in
            let other = try Agent(configuration: RunningAgents.configuration("Other", broker: broker))
            try await RunningAgents.run([other]) {
                let events = try await other.observeAllEvents()
                let options = HistorianController.Options(
                    advertisesSnapshots: true, persistsObservedSnapshots: true,
                    observedCoreTypes: alsoSnapshotsObservedTypes ? [.task] : [])
                let container = try Fixtures.container(broker, store: store, options: options)
                try await RunningContainers.run(container) {
                    let historian = try #require(container.controller(HistorianController.self))
                    let lamp = try Fixtures.object(Fixtures.lampJSON)
                    let own = try await historian.takeSnapshot(of: lamp)
                    var iterator = events.makeAsyncIterator()
                    // The historian's own Advertise reached the broker before the other agent's.
                    #expect(
                        try Fixtures.snapshot(in: try await Fixtures.nextSnapshotAdvertise(&iterator)).objectID
                            == own.objectID)
                    let remote = Snapshot(
                        capturing: lamp, creatorID: other.identity.objectID, creationTimestamp: 42, tags: ["remote"])
                    try other.advertise(remote)
                    let stored = try await Fixtures.waitUntil(store, holds: 1)
                    #expect(stored.map(\.objectID) == [remote.objectID])
                    let snapshot = try #require(stored.first as? Snapshot)
                    #expect(snapshot.tags == ["remote"] && snapshot.creationTimestamp == 42)
                }
            }
        }
    }

    @Test func aQueryForSnapshotsIsAnsweredFromTheStoreWithItsFilterOrderingAndPaging() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try await ObjectStore.make(.sqlite, in: folder)
        try await TestBroker.withBroker { broker in
            let asker = try Agent(configuration: RunningAgents.configuration("Asker", broker: broker))
            try await RunningAgents.run([asker]) {
                let options = HistorianController.Options(persistsLocalSnapshots: true, answersQueries: true)
                let container = try Fixtures.container(broker, store: store, options: options)
                try await RunningContainers.run(container) {
                    let historian = try #require(container.controller(HistorianController.self))
                    let lamp = try Fixtures.object(Fixtures.lampJSON)
                    let hall = try Fixtures.object(Fixtures.hallJSON)
                    for (object, time) in [(lamp, 1000.0), (hall, 1500), (lamp, 2000), (lamp, 3000), (hall, 3500)] {
                        try await historian.takeSnapshot(of: object, tags: ["t\(Int(time))"], at: time)
                    }
                    let paged = ObjectFilter.where("parentObjectId", .equals(.string(Fixtures.lampID)))
                        .orderBy("creationTimestamp", .descending).skip(1).take(1)
                    let page = try await asker.query(
                        Query(coreTypes: [.snapshot], filter: paged), timeout: .seconds(30)
                    )
                    .first()
                    #expect(page.event.objects.compactMap { ($0 as? Snapshot)?.creationTimestamp } == [2000])

                    let between = HistorianController.filter(parentObjectID: nil, from: 1500, through: 3000)
                    let frame = try await asker.query(
                        Query(coreTypes: [.snapshot], filter: between), timeout: .seconds(30)
                    )
                    .first()
                    #expect(
                        frame.event.objects.compactMap { ($0 as? Snapshot)?.creationTimestamp } == [3000, 2000, 1500])

                    let byParent = try await historian.querySnapshots(of: Fixtures.lampID, timeout: .seconds(30))
                        .first()
                    #expect(
                        byParent.event.objects.compactMap { ($0 as? Snapshot)?.tags } == [
                            ["t3000"], ["t2000"], ["t1000"],
                        ])

                    // coaty-js answers with an empty Retrieve when nothing matches.
                    let none = try await asker.query(
                        Query(coreTypes: [.snapshot], filter: .where("parentObjectId", .equals("nobody"))),
                        timeout: .seconds(30)
                    ).first()
                    #expect(none.event.objects.isEmpty)

                    // Only Queries for core type Snapshot are answered, as in coaty-js.
                    let byObjectType = try await asker.query(
                        Query(objectTypes: ["coaty.Snapshot"]), timeout: .milliseconds(300)
                    ).collect()
                    #expect(byObjectType.isEmpty)
                }
            }
        }
    }

    @Test func anObservedObjectsSnapshotIsStoredOnceTheFailingDatabaseIsBack() async throws {
        let failing = FailingBackend(InMemoryBackend())
        let store = ObjectStore(backend: failing)
        let clock = ManualClock()
        try await TestBroker.withBroker { broker in
            let publisher = try Agent(configuration: RunningAgents.configuration("Publisher", broker: broker))
            try await RunningAgents.run([publisher]) {
                let options = HistorianController.Options(
                    persistsLocalSnapshots: true, observedObjectTypes: ["com.example.Light"])
                let container = try Fixtures.container(broker, store: store, options: options, clock: clock)
                try await RunningContainers.run(container) {
                    failing.failNext(2)
                    try publisher.advertise(try Fixtures.object(Fixtures.lampJSON))
                    // Two failed writes, each followed by a wait on the clock: 100 ms, then 200 ms.
                    for wait in [Duration.milliseconds(100), .milliseconds(200)] {
                        await clock.waitForSleepers()
                        clock.advance(by: wait)
                    }
                    let stored = try await Fixtures.waitUntil(store, holds: 1)
                    let snapshot = try #require(stored.first as? Snapshot)
                    #expect(snapshot.parentObjectID == Fixtures.lampID)
                }
            }
        }
    }

    @Test func withEveryOptionOffNothingIsPersistedAdvertisedOrAnswered() async throws {
        let store = ObjectStore(backend: InMemoryBackend())
        try await TestBroker.withBroker { broker in
            let watcher = try Agent(configuration: RunningAgents.configuration("Watcher", broker: broker))
            try await RunningAgents.run([watcher]) {
                let events = try await watcher.observeAllEvents()
                let container = try Fixtures.container(broker, store: store, options: HistorianController.Options())
                try await RunningContainers.run(container) {
                    let historian = try #require(container.controller(HistorianController.self))
                    let lamp = try Fixtures.object(Fixtures.lampJSON)
                    let snapshot = try await historian.takeSnapshot(of: lamp, tags: ["kept"])
                    #expect(snapshot.parentObjectID == Fixtures.lampID && snapshot.tags == ["kept"])
                    #expect(snapshot.creationTimestamp == SteppingTime.start)
                    let marker = Snapshot(capturing: lamp, creatorID: "marker", creationTimestamp: 1)
                    try container.agent.advertise(marker)
                    try watcher.advertise(
                        Snapshot(capturing: lamp, creatorID: watcher.identity.objectID, creationTimestamp: 2))
                    var iterator = events.makeAsyncIterator()
                    var fromHistorian = try await Fixtures.nextSnapshotAdvertise(&iterator)
                    while fromHistorian.topic.sourceID != container.agent.identity.objectID {
                        fromHistorian = try await Fixtures.nextSnapshotAdvertise(&iterator)
                    }
                    // The marker, advertised after the snapshot was taken, is the historian's first.
                    #expect(try Fixtures.snapshot(in: fromHistorian).objectID == marker.objectID)
                    let answers = try await watcher.query(Query(coreTypes: [.snapshot]), timeout: .milliseconds(300))
                        .collect()
                    #expect(answers.isEmpty)
                    #expect(try await store.count(in: "historian") == 0)
                }
            }
        }
    }
}
