import CoatyStorage
import CoatyStorageSQLite
import CoreTypes
import Foundation

/// The backends every store test runs against.
enum BackendKind: String, CaseIterable {
    case memory
    case sqlite
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
    /// A fresh store of `kind`; an SQLite store is a real file in `folder`.
    static func make(_ kind: BackendKind, in folder: TemporaryFolder, registry: ObjectTypeRegistry = .init()) throws
        -> ObjectStore
    {
        switch kind {
        case .memory: return ObjectStore(backend: InMemoryBackend(), registry: registry)
        case .sqlite:
            return ObjectStore(
                backend: try SQLiteBackend(path: folder.path + "/store-\(UUID().uuidString).sqlite"), registry: registry)
        }
    }

    /// The JSON of every object `filter` finds.
    func json(in collection: String, filter: ObjectFilter = .all, joins: [StorageJoin] = [], batchSize: Int = 256)
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
