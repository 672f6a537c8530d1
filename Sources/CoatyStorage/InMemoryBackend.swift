import CoreTypes
import Synchronization

/// The reference backend: collections held in memory and queried with `ObjectFilter/apply(to:)`,
/// so its answers are by construction `ObjectMatcher`'s. Every other backend must
/// return what this one returns.
///
/// Nothing survives the process. Reads work on a copy of the state taken under a lock, and a
/// write works on a copy that replaces the state only when the write's body returns, so a
/// failed write or transaction leaves nothing behind.
///
/// ```swift
/// let store = ObjectStore(backend: InMemoryBackend())
/// ```
public final class InMemoryBackend: StorageBackend {
    private let state = Mutex(MemoryState())

    /// An empty store.
    public init() {}

    /// Runs `body` on a snapshot of the state.
    public func read<T: Sendable>(_ body: @Sendable (any StorageReader) throws -> T) async throws -> T {
        try body(MemoryReader(state: state.withLock { $0 }))
    }

    /// Runs `body` on a copy of the state, which becomes the state when `body` returns.
    public func write<T: Sendable>(_ body: @Sendable (any StorageWriter) throws -> T) async throws -> T {
        try state.withLock { current in
            let writer = MemoryWriter(state: current)
            let result = try body(writer)
            current = writer.state
            return result
        }
    }
}

/// Everything the in-memory backend holds.
struct MemoryState: Sendable {
    var collections: [String: MemoryCollection] = [:]
    var values: [String: JSONValue] = [:]

    func collection(_ name: String) throws -> MemoryCollection {
        guard let collection = collections[name] else { throw StorageError.collectionNotFound(name) }
        return collection
    }
}

/// One collection: objects keyed by their insertion sequence number, which orders them.
struct MemoryCollection: Sendable {
    var nextSequence = 0
    var sequences: [String: Int] = [:]
    var objects: [Int: JSONObject] = [:]

    /// The objects in insertion order.
    var ordered: [JSONObject] {
        objects.sorted { $0.key < $1.key }.map(\.value)
    }
}

/// The reads of the in-memory backend, shared by its reader and its writer.
protocol MemoryReading: StorageReader {
    var state: MemoryState { get }
}

extension MemoryReading {
    func collectionNames() throws -> [String] { state.collections.keys.sorted(by: utf8Order) }

    func containsCollection(_ name: String) throws -> Bool { state.collections[name] != nil }

    func object(withID id: String, in collection: String) throws -> JSONObject? {
        let stored = try state.collection(collection)
        return stored.sequences[id].flatMap { stored.objects[$0] }
    }

    func objects(withExternalID externalID: String, in collection: String) throws -> [JSONObject] {
        try state.collection(collection).ordered.filter {
            if case .string(let id)? = $0["externalId"] { return id == externalID }
            return false
        }
    }

    func find(
        in collection: String, matching conditions: ObjectFilterConditions?, orderedBy ordering: [OrderByProperty],
        offset: Int, limit: Int
    ) throws -> [JSONObject] {
        try MatcherQuery.find(
            in: state.collection(collection).ordered, matching: conditions, orderedBy: ordering, offset: offset,
            limit: limit)
    }

    func count(in collection: String, matching conditions: ObjectFilterConditions?) throws -> Int {
        try MatcherQuery.count(in: state.collection(collection).ordered, matching: conditions)
    }

    func value(forKey key: String) throws -> JSONValue? { state.values[key] }

    func keys() throws -> [String] { state.values.keys.sorted(by: utf8Order) }
}

struct MemoryReader: MemoryReading {
    let state: MemoryState
}

/// The writer of one in-memory write: it changes its own copy of the state.
final class MemoryWriter: MemoryReading, StorageWriter {
    var state: MemoryState

    init(state: MemoryState) {
        self.state = state
    }

    func addCollection(_ name: String) throws {
        if state.collections[name] == nil { state.collections[name] = MemoryCollection() }
    }

    func removeCollection(_ name: String) throws {
        state.collections[name] = nil
    }

    func clearCollection(_ name: String) throws {
        _ = try state.collection(name)
        state.collections[name] = MemoryCollection()
    }

    func put(_ object: EncodedObject, in collection: String) throws {
        var stored = try state.collection(collection)
        guard case .object(let json) = try JSONValue(parsing: object.text) else {
            throw StorageError(code: .invalidObject, detail: "the encoded object is not a JSON object")
        }
        if let sequence = stored.sequences[object.objectID] {
            stored.objects[sequence] = json
        } else {
            stored.sequences[object.objectID] = stored.nextSequence
            stored.objects[stored.nextSequence] = json
            stored.nextSequence += 1
        }
        state.collections[collection] = stored
    }

    func removeObjects(withIDs ids: [String], from collection: String) throws -> Int {
        var stored = try state.collection(collection)
        var removed = 0
        for id in ids {
            guard let sequence = stored.sequences.removeValue(forKey: id) else { continue }
            stored.objects[sequence] = nil
            removed += 1
        }
        state.collections[collection] = stored
        return removed
    }

    func setValue(_ value: JSONValue?, forKey key: String) throws {
        state.values[key] = value
    }
}

/// Sorts strings by their UTF-8 bytes, as SQLite's `BINARY` collation does.
func utf8Order(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
}
