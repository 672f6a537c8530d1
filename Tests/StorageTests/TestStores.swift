import CoatyStorage
import CoatyStoragePostgres
import CoatyStorageSQLite
import CoreTypes
import Foundation
import TestSupport
import Testing

/// The backends every store test runs against.
enum BackendKind: String, CaseIterable {
    case memory
    case sqlite
    case postgres
}

/// The PostgreSQL server of the running suite (see ``PostgresServerTrait``).
enum TestStores {
    @TaskLocal static var postgres: TestPostgres?
}

/// Starts a real PostgreSQL server for a suite's tests and stops it after them: `@Suite(.postgresServer)`.
struct PostgresServerTrait: SuiteTrait, TestScoping {
    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @concurrent @Sendable () async throws -> Void
    ) async throws {
        try await TestPostgres.withServer { server in
            try await TestStores.$postgres.withValue(server) { try await function() }
        }
    }
}

extension Trait where Self == PostgresServerTrait {
    /// A PostgreSQL server for the suite's stores of kind `.postgres`.
    static var postgresServer: Self { Self() }
}


/// A temporary folder, removed by ``remove()``.
struct TemporaryFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("coaty-storage-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

extension ObjectStore {
    /// A fresh store of `kind`; an SQLite store is a real file in `folder`, a PostgreSQL store a new
    /// database on the suite's server.
    static func make(_ kind: BackendKind, in folder: TemporaryFolder, registry: ObjectTypeRegistry = .init())
        async throws -> ObjectStore
    {
        switch kind {
        case .memory: return ObjectStore(backend: InMemoryBackend(), registry: registry)
        case .sqlite:
            return ObjectStore(
                backend: try SQLiteBackend(path: folder.path + "/store-\(UUID().uuidString).sqlite"), registry: registry)
        case .postgres:
            guard let server = TestStores.postgres else {
                throw TestPostgres.Failure(description: "a suite with PostgreSQL stores needs @Suite(.postgresServer)")
            }
            return ObjectStore(backend: try PostgresBackend(url: try await server.createDatabase()), registry: registry)
        }
    }

    /// The JSON of every object `filter` finds.
    func json(in collection: String, filter: ObjectFilter = .all, joins: [StorageJoin] = [], batchSize: Int? = nil)
        async throws -> [JSONObject]
    {
        try await find(in: collection, filter: filter, joins: joins, batchSize: batchSize).collect().map {
            try $0.jsonObject()
        }
    }
}

/// A Coaty object of core type CoatyObject with `members` added.
func item(_ id: String, name: String = "item", _ members: JSONObject = [:]) throws -> any CoatyObject {
    var json: JSONObject = [
        "coreType": "CoatyObject", "objectType": "com.example.Item", "objectId": .string(id), "name": .string(name),
    ]
    for (key, value) in members { json[key] = value }
    return try ObjectTypeRegistry().decodeObject(json)
}
