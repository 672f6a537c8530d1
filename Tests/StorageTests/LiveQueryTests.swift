import CoatyStorage
import CoreTypes
import Testing

/// Live queries on every backend: a current result, then each changed result, coalesced, never
/// repeated. No sleeps: each step waits on the sequence's next element.
@Suite(.postgresServer, .timeLimit(.minutes(1)))
struct LiveQueryTests {
    static let lit = ObjectFilter.where("on", .equals(true)).orderBy("name")

    @Test(arguments: BackendKind.allCases)
    func yieldsTheCurrentResultThenEachChangeWithWhatWasAddedRemovedAndChanged(_ kind: BackendKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try await ObjectStore.make(kind, in: folder)
        try await store.addCollection("lights")
        try await store.insert(
            [try item("a", name: "a", ["on": true]), try item("b", name: "b", ["on": false])], into: "lights")
        try await store.observe(in: "lights", filter: Self.lit) { results in
            var iterator = results.makeAsyncIterator()
            let first = try #require(try await iterator.next())
            #expect(first.objects.map(\.objectID) == ["a"])
            #expect(first.added.map(\.objectID) == ["a"] && first.removed.isEmpty && first.changed.isEmpty)

            try await store.updateProperty("on", to: true, ofObjectWithID: "b", in: "lights")
            let second = try #require(try await iterator.next())
            #expect(second.objects.map(\.objectID) == ["a", "b"])
            #expect(second.added.map(\.objectID) == ["b"] && second.removed.isEmpty && second.changed.isEmpty)

            try await store.updateProperty("level", to: 3, ofObjectWithID: "a", in: "lights")
            let third = try #require(try await iterator.next())
            #expect(third.changed.map(\.objectID) == ["a"] && third.added.isEmpty && third.removed.isEmpty)
            #expect(try third.objects[0].jsonObject()["level"] == 3)

            try await store.delete(objectIDs: ["b"], from: "lights")
            let fourth = try #require(try await iterator.next())
            #expect(fourth.objects.map(\.objectID) == ["a"])
            #expect(fourth.removed.map(\.objectID) == ["b"] && fourth.added.isEmpty && fourth.changed.isEmpty)
        }
    }

    @Test(arguments: BackendKind.allCases)
    func writesBeforeTheNextResultAreCoalescedIntoOne(_ kind: BackendKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try await ObjectStore.make(kind, in: folder)
        try await store.addCollection("lights")
        try await store.observe(in: "lights", filter: Self.lit) { results in
            var iterator = results.makeAsyncIterator()
            #expect(try await iterator.next()?.objects.isEmpty == true)
            try await store.insert(try item("x", name: "x", ["on": true]), into: "lights")
            try await store.insert(try item("y", name: "y", ["on": true]), into: "lights")
            try await store.insert(try item("z", name: "z", ["on": false]), into: "lights")
            let next = try #require(try await iterator.next())
            #expect(next.objects.map(\.objectID) == ["x", "y"])
            #expect(next.added.map(\.objectID) == ["x", "y"])
        }
    }

    @Test(arguments: BackendKind.allCases)
    func aWriteThatLeavesTheResultAsItWasYieldsNothing(_ kind: BackendKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try await ObjectStore.make(kind, in: folder)
        try await store.addCollection("lights")
        try await store.addCollection("other")
        try await store.observe(in: "lights", filter: Self.lit) { results in
            // A consumer task: every element it receives goes to `received`, in order.
            let (received, input) = AsyncStream.makeStream(of: LiveResult.self)
            let consumer = Task {
                for try await result in results { input.yield(result) }
                input.finish()
            }
            defer { consumer.cancel() }
            var elements = received.makeAsyncIterator()
            #expect(await elements.next()?.objects.isEmpty == true)
            // Unchanged results, whenever the consumer evaluates them: a non-matching object, the
            // same object again, another collection.
            try await store.insert(try item("off", ["on": false]), into: "lights")
            try await store.insert(try item("off", ["on": false]), into: "lights")
            try await store.insert(try item("elsewhere", ["on": true]), into: "other")
            try await store.insert(try item("on", ["on": true]), into: "lights")
            let next = try #require(await elements.next())
            #expect(next.objects.map(\.objectID) == ["on"])
            #expect(next.added.map(\.objectID) == ["on"] && next.removed.isEmpty && next.changed.isEmpty)
        }
    }

    @Test(arguments: BackendKind.allCases)
    func aMissingCollectionFailsTheQuery(_ kind: BackendKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try await ObjectStore.make(kind, in: folder)
        let error = await #expect(throws: StorageError.self) {
            try await store.observe(in: "nowhere") { results in
                for try await _ in results {}
            }
        }
        #expect(error?.code == .collectionNotFound)
    }
}
