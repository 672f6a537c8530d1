import CoatyStorage
import CoatyStoragePostgres
import CoreTypes
import TestSupport
import Testing

/// What only the PostgreSQL backend has: a server that goes away and comes back, text that cannot
/// hold NUL, and its URL. Each test that stops its server starts its own.
@Suite struct PostgresBackendTests {
    @Test func aStoppedServerSaysSoAndARestartedOneIsUsedAgain() async throws {
        try await TestPostgres.withServer { server in
            let url = try await server.createDatabase()
            let store = ObjectStore(backend: try PostgresBackend(url: url))
            try await store.addCollection("things")
            try await store.insert(try item("1"), into: "things")

            // Restarted between two operations: the next one reconnects.
            try await server.stop()
            try await server.startAgain()
            try await store.insert(try item("2"), into: "things")
            #expect(try await store.count(in: "things") == 2)

            // Stopped: the operation says where it tried to connect and what to check.
            try await server.stop()
            let error = await #expect(throws: StorageError.self) { try await store.count(in: "things") }
            #expect(error?.code == .databaseFailed)
            let detail = error?.detail ?? ""
            #expect(detail.hasPrefix("cannot connect to \(url): "), "\(detail)")
            #expect(detail.hasSuffix("; is the server running?"), "\(detail)")

            // Back again: nothing acknowledged was lost.
            try await server.startAgain()
            #expect(try await store.find(in: "things").collect().map(\.objectID) == ["1", "2"])
        }
    }

    @Test func objectsComeBackExactlyAndNULIsDataOrAClearError() async throws {
        try await TestPostgres.withServer { server in
            let store = ObjectStore(backend: try PostgresBackend(url: try await server.createDatabase()))
            try await store.addCollection("things")
            // Members in a non-sorted order, NUL in a value and a member name, a number JSONB would rewrite.
            let original = try item("1", ["z": "a\u{0}b", "a\u{0}": 1, "m": 1e-7, "\u{FFFF}": "\u{FFFF}"])
            try await store.insert(original, into: "things")
            let stored = try #require(try await store.object(withID: "1", in: "things"))
            #expect(try stored.jsonObject().keys.elementsEqual(try original.jsonObject().keys))
            #expect(try JSONValue.object(stored.jsonObject()) == JSONValue.object(original.jsonObject()))
            for filter in [
                ObjectFilter.where("z", .equals("a\u{0}b")), ObjectFilter.where(PropertyPath(components: ["a\u{0}"]), .exists),
                ObjectFilter.where(PropertyPath(components: ["\u{FFFF}"]), .equals("\u{FFFF}")),
            ] {
                #expect(try await store.count(in: "things", filter: filter) == 1, "\(filter)")
            }
            #expect(try await store.count(in: "things", filter: .where("z", .equals("a\u{FFFF}b"))) == 0)

            let error = await #expect(throws: StorageError.self) { try await store.addCollection("a\u{0}") }
            #expect(error?.code == .invalidArgument)
            #expect(try await store.object(withID: "1\u{0}", in: "things") == nil)
            #expect(try await store.value(forKey: "k\u{0}") == nil)
        }
    }

    @Test func aMalformedURLSaysWhatToWrite() throws {
        for text in ["mysql://u@h/db", "postgres://h/db", "postgres://u@h", "postgres://u@h:5432/db?sslmode=require"] {
            let error = #expect(throws: StorageError.self) { try PostgresBackend(url: text) }
            #expect(error?.code == .invalidArgument)
            #expect(error?.detail.hasSuffix("write postgres://user@host:port/database") == true, "\(text)")
        }
        #expect(try PostgresURL("postgresql://me:secret@db.local/objects").description == "postgres://me@db.local:5432/objects")
    }
}
