import CoatyStorage
import CoreTypes
import Foundation
import TestSupport
import Testing

/// SQLite and PostgreSQL must return exactly what the in-memory reference returns, in the same
/// order, for random objects and random filters. Set `COATY_STORAGE_SEED` to replay a printed seed.
@Suite(.postgresServer) struct StoragePropertyTests {
    static let objectSets = 100
    static let filtersPerSet = 20

    /// Batches paged by insertion position across many chunks of candidates: a filter that SQL
    /// narrows but cannot decide alone (a number condition), with updates that keep positions.
    @Test(arguments: [BackendKind.sqlite, .postgres])
    func longResultsPageByPositionAsTheReference(_ kind: BackendKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let reference = try await ObjectStore.make(.memory, in: folder)
        let store = try await ObjectStore.make(kind, in: folder)
        let objects = try (0..<800).map { index in
            let json: JSONObject = [
                "objectId": .string("id-\(index)"), "objectType": "com.example.Light", "coreType": "CoatyObject",
                "name": .string("Light \(index)"), "n": .int(index % 7), "level": .double(Double(index) / 4),
            ]
            return try ObjectTypeRegistry().decodeObject(json)
        }
        for target in [reference, store] {
            try await target.addCollection("c")
            try await target.insert(objects, into: "c")
            try await target.insert(Array(objects[100..<300]), into: "c")  // replaced: positions kept
        }
        let filters = [
            #"{"conditions":["n",[7,3]],"skip":5,"take":150}"#,
            #"{"conditions":{"and":[["level",[3,50]],["n",[8,1]]]}}"#,
            #"{"conditions":["name",[6,"Light 1%"]],"skip":2}"#,
            #"{}"#,
        ]
        for text in filters {
            let filter = try ObjectFilter(json: JSONValue(parsing: text))
            for batchSize in [7, 300, nil] {  // nil: growing batches (256, 512, …)
                let expected = try await reference.json(in: "c", filter: filter, batchSize: batchSize)
                let actual = try await store.json(in: "c", filter: filter, batchSize: batchSize)
                #expect(actual == expected, "\(kind) \(text) batch \(batchSize.map(String.init) ?? "growing")")
                #expect(!expected.isEmpty)
            }
        }
    }

    @Test(arguments: [BackendKind.sqlite, .postgres])
    func answersExactlyAsTheReference(_ kind: BackendKind) async throws {
        try await answerAsTheReference(kind, orderedAmongFewStrings: false)
    }

    /// Ordered filters over values that are seldom strings (numbers that tie, `-0`, 2^53 + 1,
    /// Booleans, `null`, arrays, objects, missing members), which PostgreSQL orders in SQL.
    @Test(arguments: [BackendKind.sqlite, .postgres])
    func ordersAmongFewStringsAsTheReference(_ kind: BackendKind) async throws {
        try await answerAsTheReference(kind, orderedAmongFewStrings: true)
    }

    private func answerAsTheReference(_ kind: BackendKind, orderedAmongFewStrings: Bool) async throws {
        let seed = ProcessInfo.processInfo.environment["COATY_STORAGE_SEED"].flatMap { UInt64($0) } ?? 0xC0A7_2024
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let reference = try await ObjectStore.make(.memory, in: folder)
        let store = try await ObjectStore.make(kind, in: folder)
        var cases = 0
        for set in 0..<Self.objectSets {
            let setSeed = seed &+ UInt64(set)
            var generator = RandomStorageCases(
                random: SeededGenerator(seed: setSeed), orderedAmongFewStrings: orderedAmongFewStrings)
            let objects = try (0..<generator.int(0...25)).map { try ObjectTypeRegistry().decodeObject(generator.object($0)) }
            for target in [reference, store] {
                try await target.removeCollection("c")
                try await target.addCollection("c")
                try await target.insert(objects, into: "c")
            }
            for _ in 0..<Self.filtersPerSet {
                let filter = generator.filter()
                let batchSize = generator.pick([1, 4, 256, nil])
                let context = "seed \(setSeed) (COATY_STORAGE_SEED=\(seed), set \(set)), filter \(filter), objects "
                    + objects.map { (try? $0.jsonObject().description) ?? "?" }.joined(separator: " ")
                let expected = try await reference.json(in: "c", filter: filter, batchSize: batchSize)
                let actual = try await store.json(in: "c", filter: filter, batchSize: batchSize)
                #expect(actual == expected, Comment(rawValue: context))
                let expectedCount = try await reference.count(in: "c", filter: filter)
                #expect(try await store.count(in: "c", filter: filter) == expectedCount, Comment(rawValue: context))
                #expect(expectedCount == expected.count, Comment(rawValue: context))
                cases += 1
                if actual != expected { return }
            }
        }
        #expect(cases == Self.objectSets * Self.filtersPerSet)
    }
}
