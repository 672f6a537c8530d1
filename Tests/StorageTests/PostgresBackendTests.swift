import CoatyStorage
import CoatyStoragePostgres
import CoreTypes
import Foundation
import Synchronization
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

    /// A write of one upsert runs alone in autocommit; it must still wait for a writer that has
    /// read and not yet written, or that writer's update would overwrite it.
    @Test(.timeLimit(.minutes(2))) func aLoneWriteWaitsForAnotherWritersTransaction() async throws {
        try await TestPostgres.withServer { server in
            let url = try await server.createDatabase()
            let first = ObjectStore(backend: try PostgresBackend(url: url))
            let second = ObjectStore(backend: try PostgresBackend(url: url))
            try await first.addCollection("things")
            try await first.insert(try item("1", name: "a"), into: "things")
            #expect(try await second.count(in: "things") == 1)  // connected: its tables are prepared
            let hasRead = Mutex(false)
            let gate = DispatchSemaphore(value: 0)
            async let readModifyWrite: Void = first.transaction { tx in
                let name = try tx.object(withID: "1", in: "things")?.name ?? "?"
                hasRead.withLock { $0 = true }
                gate.wait()
                try tx.insert([try item("1", name: name + " and A")], into: "things")
            }
            defer { gate.signal() }
            try await yieldUntil { hasRead.withLock { $0 } }
            let blindDone = Mutex(false)
            let blind = Task {
                defer { blindDone.withLock { $0 = true } }
                try await second.insert(try item("1", name: "B"), into: "things")
            }
            // Until the lone write waits for the lock (or, wrongly, is done without waiting).
            let waiting = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            while try await server.psql(waiting, on: url).trimmingCharacters(in: .whitespacesAndNewlines) != "1",
                !blindDone.withLock({ $0 })
            {
                try Task.checkCancellation()
            }
            gate.signal()
            try await readModifyWrite
            try await blind.value
            #expect(try await first.object(withID: "1", in: "things")?.name == "B")
        }
    }

    /// Inserts that are one upsert go from the caller's task as prepared statements; from many
    /// tasks at once they take turns on the backend's one connection with the transactions of
    /// other inserts (a batch with external ids) and with reads: nothing is lost, and each task
    /// reads its own write. A store's first operation may be such an insert (it connects first).
    @Test(.timeLimit(.minutes(2))) func insertsFromManyTasksTakeTurnsWithTransactionsAndReads() async throws {
        try await TestPostgres.withServer { server in
            let url = try await server.createDatabase()
            let store = ObjectStore(backend: try PostgresBackend(url: url))
            try await store.addCollection("things")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<16 {
                    group.addTask {
                        for n in 0..<25 {
                            let id = "\(task)-\(n)"
                            if n % 5 == 4 {
                                try await store.insert([try item(id), try item(id + "e", ["externalId": "x"])], into: "things")
                            } else {
                                try await store.insert(try item(id), into: "things")
                            }
                            #expect(try await store.object(withID: id, in: "things") != nil, "\(id)")
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await store.count(in: "things") == 16 * 25 + 16 * 5)
            #expect(try await store.objects(withExternalID: "x", in: "things").count == 16 * 5)

            let fresh = ObjectStore(backend: try PostgresBackend(url: url))
            try await fresh.insert(try item("first"), into: "things")
            #expect(try await store.object(withID: "first", in: "things") != nil)
        }
    }

    /// An unordered find streams on a connection of its own: writes go on while it is read, one
    /// left unfinished gives its connection back, more than four at once read in batches (the
    /// first batch, 256 objects, does not end these), and
    /// kept connections lost with a restarted server are replaced.
    @Test(.timeLimit(.minutes(2))) func streamedFindsLetWritesThroughAndGiveTheirConnectionsBack() async throws {
        try await TestPostgres.withServer { server in
            let url = try await server.createDatabase()
            let store = ObjectStore(backend: try PostgresBackend(url: url))
            try await store.addCollection("things")
            try await store.insert(try (0..<600).map { try item("\($0)", ["n": .int($0 % 3)]) }, into: "things")
            let ones = ObjectFilter.where("n", .equals(1))

            var seen: [String] = []
            for try await object in store.find(in: "things", filter: ones) {
                if seen.count % 100 == 0 { try await store.insert(try item("w\(seen.count)", ["n": 1]), into: "things") }
                seen.append(object.objectID)
            }
            #expect(Array(seen.prefix(200)) == (0..<200).map { "\($0 * 3 + 1)" })
            #expect(try await store.count(in: "things", filter: ones) == 202)

            for _ in 0..<10 {
                var unfinished = store.find(in: "things").makeAsyncIterator()
                _ = try await unfinished.next()
            }
            var iterators = (0..<6).map { _ in store.find(in: "things").makeAsyncIterator() }
            var found = Array(repeating: [String](), count: 6)
            for index in 0..<6 { found[index].append(try #require(try await iterators[index].next()).objectID) }
            // Four streams read at once (the unfinished ones gave theirs back); two read in batches.
            let streaming = """
                SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() \
                AND query LIKE 'SELECT data FROM coaty_objects%'
                """
            while try await server.psql(streaming, on: url).trimmingCharacters(in: .whitespacesAndNewlines) != "4" {
                try Task.checkCancellation()
            }
            for index in 0..<6 {
                while let object = try await iterators[index].next() { found[index].append(object.objectID) }
            }
            let all = (0..<600).map { "\($0)" } + ["w0", "w100"]
            #expect(found.allSatisfy { $0 == all })

            try await server.stop()
            try await server.startAgain()
            #expect(try await store.find(in: "things", filter: ones).collect().count == 202)
        }
    }

    @Test func objectsComeBackExactlyAndNULIsDataOrAClearError() async throws {
        try await TestPostgres.withServer { server in
            let store = ObjectStore(backend: try PostgresBackend(url: try await server.createDatabase()))
            try await store.addCollection("things")
            // Members in a non-sorted order, NUL in a value and a member name, a number JSONB would rewrite,
            // and a backslash followed by "u0000" (text, not NUL).
            let original = try item(
                "1", ["z": "a\u{0}b", "a\u{0}": 1, "m": 1e-7, "\u{FFFF}": "\u{FFFF}", "y": "\\u0000"])
            // In one batch with objects without NUL, whose query form is their text.
            try await store.insert([original, try item("2", ["z": "plain"]), try item("3", ["y": "\\u0000"])], into: "things")
            #expect(try await store.count(in: "things", filter: .where("z", .equals("plain"))) == 1)
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
            #expect(try await store.count(in: "things", filter: .where("y", .equals("\\u0000"))) == 2)
            #expect(try await store.count(in: "things", filter: .where("y", .equals("\u{0}"))) == 0)

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
