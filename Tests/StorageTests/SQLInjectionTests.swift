import CoatyStorage
import CoreTypes
import Testing

/// Collection names, member paths, values and keys made of SQL's meta-characters are data: they
/// find what the in-memory reference finds, and the database is intact afterwards.
@Suite(.postgresServer) struct SQLInjectionTests {
    static let hostile = [
        "it's", "say \"hi\"", "back\\slash", "a;b", "x -- y", "100%", "under_score", "'); DROP TABLE coaty_objects; --",
        "\" OR 1=1 --", "$.a", "[0]", "*",
    ]

    @Test(arguments: [BackendKind.sqlite, .postgres])
    func metaCharactersInNamesPathsAndValuesAreData(_ kind: BackendKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let reference = try await ObjectStore.make(.memory, in: folder)
        let store = try await ObjectStore.make(kind, in: folder)
        var objects: [any CoatyObject] = []
        for (index, text) in Self.hostile.enumerated() {
            objects.append(try item(text, name: text, [text: .string(text), "plain": .string(text), "n": .int(index)]))
        }
        let collection = "objects'; DELETE FROM coaty_objects; --"
        for target in [reference, store] {
            try await target.addCollection(collection)
            try await target.insert(objects, into: collection)
            try await target.setValue(.string("v"), forKey: Self.hostile[7])
        }
        for text in Self.hostile {
            for filter in [
                ObjectFilter.where(PropertyPath(components: [text]), .equals(.string(text))),
                ObjectFilter.where("plain", .equals(.string(text))),
                ObjectFilter.where("plain", .in([.string(text), "zzz"])),
                ObjectFilter.where("plain", .lessThan(.string(text))).orderBy(PropertyPath(components: [text]), .descending),
                ObjectFilter.where("plain", .like(text)),
                ObjectFilter.where(PropertyPath(text), .exists),
            ] {
                let expected = try await reference.json(in: collection, filter: filter)
                #expect(try await store.json(in: collection, filter: filter) == expected, "filter \(filter)")
            }
            #expect(try await store.object(withID: text, in: collection)?.name == text)
        }
        #expect(try await store.count(in: collection) == Self.hostile.count)
        #expect(try await store.collectionNames() == [collection])
        #expect(try await store.value(forKey: Self.hostile[7]) == "v")
        #expect(try await store.json(in: collection, filter: .where("plain", .equals("it's"))).count == 1)
    }
}
