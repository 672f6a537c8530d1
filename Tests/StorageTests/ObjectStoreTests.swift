import CoatyStorage
import CoreTypes
import Testing

@Suite(.postgresServer) struct ObjectStoreTests {
    @Test(arguments: BackendKind.allCases)
    func insertReplacesInPlaceAndFindsByIDs(_ kind: BackendKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try await ObjectStore.make(kind, in: folder)
        try await store.addCollection("things")
        try await store.insert(
            [try item("1", name: "one"), try item("2", name: "two", ["externalId": "ext"]), try item("3")],
            into: "things")
        try await store.insert(try item("1", name: "uno"), into: "things")
        let names = try await store.find(in: "things").collect().map(\.name)
        #expect(names == ["uno", "two", "item"])
        #expect(try await store.object(withID: "2", in: "things")?.name == "two")
        #expect(try await store.objects(withExternalID: "ext", in: "things").map(\.objectID) == ["2"])
        #expect(try await store.object(withID: "9", in: "things") == nil)
        #expect(try await store.count(in: "things") == 3)
    }

    @Test(arguments: BackendKind.allCases)
    func anIDTwiceInOneBatchKeepsItsFirstPlaceAndLastContents(_ kind: BackendKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try await ObjectStore.make(kind, in: folder)
        try await store.addCollection("things")
        try await store.insert(try item("0"), into: "things")
        try await store.insert(
            [try item("1", name: "one"), try item("2", ["externalId": "ext"]), try item("1", name: "uno"),
             try item("0", name: "zero"), try item("2", name: "two")],
            into: "things")
        let stored = try await store.find(in: "things").collect()
        #expect(stored.map(\.objectID) == ["0", "1", "2"])
        #expect(stored.map(\.name) == ["zero", "uno", "two"])
        #expect(try await store.objects(withExternalID: "ext", in: "things").isEmpty)
        let missing = await #expect(throws: StorageError.self) { try await store.insert(try item("3"), into: "missing") }
        #expect(missing?.code == .collectionNotFound)
    }

    /// Ids and external ids with quotes, SQL and non-ASCII text are stored as given, in a batch
    /// and alone, and found again by both.
    @Test(arguments: BackendKind.allCases)
    func idsWithQuotesAndNonASCIITextAreStoredAsGiven(_ kind: BackendKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try await ObjectStore.make(kind, in: folder)
        try await store.addCollection("things")
        let ids = ["it's", "\"; DROP TABLE coaty_objects; --", "Zürich 🌡️", "back\\slash"]
        try await store.insert(
            try ids.map { try item($0, ["externalId": .string("ext " + $0)]) } + [try item("plain")], into: "things")
        try await store.insert(try item("alone 'ü'", ["externalId": "ext 'ü'"]), into: "things")
        let stored = try await store.find(in: "things").collect()
        #expect(stored.map(\.objectID) == ids + ["plain", "alone 'ü'"])
        for id in ids {
            #expect(try await store.object(withID: id, in: "things")?.externalID == "ext " + id)
            #expect(try await store.objects(withExternalID: "ext " + id, in: "things").map(\.objectID) == [id])
        }
        #expect(try await store.object(withID: "plain", in: "things")?.externalID == nil)
        #expect(try await store.objects(withExternalID: "ext 'ü'", in: "things").map(\.objectID) == ["alone 'ü'"])
    }

    @Test(arguments: BackendKind.allCases)
    func aBatchIsAllOrNothing(_ kind: BackendKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try await ObjectStore.make(kind, in: folder)
        try await store.addCollection("things")
        try await store.insert(try item("1"), into: "things")
        let error = await #expect(throws: StorageError.self) {
            try await store.insert([try item("2"), try item("1")], into: "things", replacing: false)
        }
        #expect(error?.code == .objectExists)
        #expect(try await store.count(in: "things") == 1)
        let transactionError = await #expect(throws: StorageError.self) {
            try await store.transaction { tx in
                try tx.insert([try item("3")], into: "things")
                try tx.update(try item("4"), in: "things")
            }
        }
        #expect(transactionError?.code == .objectNotFound)
        #expect(try await store.object(withID: "3", in: "things") == nil)
    }

    /// Objects given as JSON are checked through the registry, not decoded, and come back as the
    /// decode chain gives them, members in their order; a bad one stores nothing.
    @Test(arguments: BackendKind.allCases)
    func objectsGivenAsJSONAreCheckedStoredAndComeBackTyped(_ kind: BackendKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try await ObjectStore.make(kind, in: folder)
        try await store.addCollection("things")
        let lamp: JSONObject = [
            "objectType": "com.example.Lamp", "coreType": "CoatyObject", "objectId": "1", "name": "Lamp",
            "on": true, "externalId": "ext",
        ]
        let task: JSONObject = [
            "objectId": "2", "objectType": "coaty.Task", "coreType": "Task", "name": "T", "creatorId": "c",
            "creationTimestamp": 1.5, "status": 0,
        ]
        try await store.insert(json: [lamp, task], into: "things")
        let stored = try await store.find(in: "things").collect()
        #expect(try stored.map { try $0.jsonObject() } == [lamp, task])
        #expect(stored.last is TaskObject)
        #expect(try await store.objects(withExternalID: "ext", in: "things").map(\.objectID) == ["1"])

        var broken = task
        broken["status"] = "done"
        let invalid = await #expect(throws: StorageError.self) {
            try await store.insert(json: [["objectId": "3", "objectType": "x", "coreType": "CoatyObject", "name": "n"], broken], into: "things")
        }
        #expect(invalid?.code == .invalidObject)
        #expect(try await store.count(in: "things") == 2)
        let exists = await #expect(throws: StorageError.self) {
            try await store.insert(json: [lamp], into: "things", replacing: false)
        }
        #expect(exists?.code == .objectExists)
        let missing = await #expect(throws: StorageError.self) { try await store.insert(json: [lamp], into: "missing") }
        #expect(missing?.code == .collectionNotFound)
    }

    @Test(arguments: BackendKind.allCases)
    func propertiesAreUpdatedAndRemovedByPath(_ kind: BackendKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try await ObjectStore.make(kind, in: folder)
        try await store.addCollection("things")
        try await store.insert(try item("1", ["battery": ["level": 0.5]]), into: "things")
        try await store.updateProperty("battery.level", to: 0.25, ofObjectWithID: "1", in: "things")
        try await store.updateProperty("tags", to: ["a"], ofObjectWithID: "1", in: "things")
        try await store.removeProperty("battery", ofObjectWithID: "1", in: "things")
        let json = try #require(try await store.object(withID: "1", in: "things")).jsonObject()
        #expect(json["battery"] == nil && json["tags"] == ["a"])
        let invalid = await #expect(throws: StorageError.self) {
            try await store.removeProperty("name", ofObjectWithID: "1", in: "things")
        }
        #expect(invalid?.code == .invalidObject)
        let identity = await #expect(throws: StorageError.self) {
            try await store.updateProperty("objectId", to: "2", ofObjectWithID: "1", in: "things")
        }
        #expect(identity?.code == .invalidPath)
    }

    @Test(arguments: BackendKind.allCases)
    func deletesByIDAndByFilter(_ kind: BackendKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try await ObjectStore.make(kind, in: folder)
        try await store.addCollection("things")
        try await store.insert((1...6).map { try item("\($0)", ["n": .int($0)]) }, into: "things")
        #expect(try await store.delete(objectIDs: ["1", "9"], from: "things") == 1)
        #expect(try await store.delete(matching: .where("n", .greaterThan(4)), from: "things") == 2)
        #expect(try await store.find(in: "things").collect().map(\.objectID) == ["2", "3", "4"])
        try await store.clearCollection("things")
        #expect(try await store.count(in: "things") == 0)
        try await store.removeCollection("things")
        let missing = await #expect(throws: StorageError.self) { try await store.count(in: "things") }
        #expect(missing?.code == .collectionNotFound)
    }

    @Test(arguments: BackendKind.allCases)
    func aggregatesNumbersAndBooleans(_ kind: BackendKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try await ObjectStore.make(kind, in: folder)
        try await store.addCollection("things")
        try await store.insert(
            [
                try item("1", ["n": 3, "on": true]), try item("2", ["n": 1.5, "on": false]),
                try item("3", ["n": "9"]), try item("4", ["n": 4]),
            ], into: "things")
        #expect(try await store.aggregate(.max, of: "n", in: "things") == 4)
        #expect(try await store.aggregate(.min, of: "n", in: "things") == 1.5)
        #expect(try await store.aggregate(.sum, of: "n", in: "things") == 8.5)
        #expect(try await store.aggregate(.sum, of: "n", in: "things", filter: .where("n", .in([3, 4]))) == 7)
        #expect(try await store.aggregate(.avg, of: "n", in: "things") == .double(8.5 / 3))
        #expect(try await store.aggregate(.every, of: "on", in: "things") == false)
        #expect(try await store.aggregate(.some, of: "on", in: "things") == true)
        #expect(try await store.aggregate(.max, of: "missing", in: "things") == nil)
    }

    @Test(arguments: BackendKind.allCases)
    func joinsStoreRelatedObjects(_ kind: BackendKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try await ObjectStore.make(kind, in: folder)
        try await store.addCollection("tasks")
        try await store.addCollection("places")
        try await store.insert([try item("p1", name: "lab"), try item("p2", name: "hall")], into: "places")
        try await store.insert(
            [try item("t1", ["at": "p2", "near": ["p2", "p1", "p2"]]), try item("t2", ["at": "p9"])], into: "tasks")
        let one = StorageJoin(
            ObjectJoinCondition(localProperty: "at", asProperty: "place", isOneToOneRelation: true),
            collection: "places")
        let many = StorageJoin(
            ObjectJoinCondition(localProperty: "near", asProperty: "nearby", isLocalPropertyArray: true),
            collection: "places")
        let joined = try await store.json(in: "tasks", joins: [one, many])
        #expect(joined[0]["place"]?["name"] == "hall")
        #expect(joined[0]["nearby"]?.arrayValue?.compactMap { $0["objectId"] } == ["p1", "p2"])
        #expect(joined[1]["place"] == nil)
        #expect(joined[1]["nearby"] == [])
    }

    @Test(arguments: BackendKind.allCases)
    func keyValueStore(_ kind: BackendKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try await ObjectStore.make(kind, in: folder)
        try await store.setValue(["a": [1, 2.5]], forKey: "config")
        try await store.setValue("x", forKey: "b")
        #expect(try await store.value(forKey: "config") == ["a": [1, 2.5]])
        #expect(try await store.keys() == ["b", "config"])
        try await store.setValue(nil, forKey: "b")
        #expect(try await store.keys() == ["config"])
    }

    @Test(arguments: BackendKind.allCases)
    func aFilterThatThrowsEverywhereFailsWithFilterFailed(_ kind: BackendKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try await ObjectStore.make(kind, in: folder)
        try await store.addCollection("things")
        try await store.insert([try item("1", ["n": 1])], into: "things")
        let filter = ObjectFilter(conditions: .condition(ObjectFilterCondition("n", ObjectFilterExpression(.in, operands: [5]))))
        let error = await #expect(throws: StorageError.self) { try await store.json(in: "things", filter: filter) }
        #expect(error?.code == .filterFailed)
    }
}
