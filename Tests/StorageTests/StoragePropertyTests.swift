import CoatyStorage
import CoreTypes
import Foundation
import Testing

/// SQLite and PostgreSQL must return exactly what the in-memory reference returns, in the same
/// order, for random objects and random filters. Set `COATY_STORAGE_SEED` to replay a printed seed.
@Suite(.postgresServer) struct StoragePropertyTests {
    static let objectSets = 100
    static let filtersPerSet = 20

    @Test(arguments: [BackendKind.sqlite, .postgres])
    func answersExactlyAsTheReference(_ kind: BackendKind) async throws {
        let seed = ProcessInfo.processInfo.environment["COATY_STORAGE_SEED"].flatMap { UInt64($0) } ?? 0xC0A7_2024
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let reference = try await ObjectStore.make(.memory, in: folder)
        let store = try await ObjectStore.make(kind, in: folder)
        var cases = 0
        for set in 0..<Self.objectSets {
            let setSeed = seed &+ UInt64(set)
            var generator = RandomStorageCases(random: SeededGenerator(seed: setSeed))
            let objects = try (0..<generator.int(0...25)).map { try ObjectTypeRegistry().decodeObject(generator.object($0)) }
            for target in [reference, store] {
                try await target.removeCollection("c")
                try await target.addCollection("c")
                try await target.insert(objects, into: "c")
            }
            for _ in 0..<Self.filtersPerSet {
                let filter = generator.filter()
                let batchSize = generator.pick([1, 4, 256])
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
