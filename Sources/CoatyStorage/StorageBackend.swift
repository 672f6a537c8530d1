public import CoreTypes

/// A place where an ``ObjectStore`` keeps its collections and key-value pairs: the in-memory
/// reference (``InMemoryBackend``), SQLite, PostgreSQL.
///
/// A backend deals in JSON only; the store encodes, decodes, joins and aggregates, so every
/// backend behaves the same there. What a backend must get right is ``StorageReader/find(in:matching:orderedBy:offset:limit:)``:
/// the objects that `ObjectMatcher` matches, in `ObjectFilter/apply(to:)`'s order with the
/// collection's insertion order breaking ties.
///
/// `read` and `write` run their body synchronously and atomically: a body sees one consistent
/// state, and a `write` whose body throws leaves nothing behind.
public protocol StorageBackend: Sendable {
    /// Runs `body` on a consistent view of the stored data.
    ///
    /// - Throws: What `body` throws, or ``StorageError`` with code `StorageError.Code.databaseFailed`.
    func read<T: Sendable>(_ body: @Sendable (any StorageReader) throws -> T) async throws -> T

    /// Runs `body` in a transaction that is committed when `body` returns and rolled back when it
    /// throws.
    ///
    /// - Throws: What `body` throws, or ``StorageError`` with code `StorageError.Code.databaseFailed`.
    func write<T: Sendable>(_ body: @Sendable (any StorageWriter) throws -> T) async throws -> T
}

/// The reading half of a backend, valid only inside ``StorageBackend/read(_:)`` or
/// ``StorageBackend/write(_:)``.
///
/// Every method that names a collection throws ``StorageError/collectionNotFound(_:)`` when it
/// does not exist.
public protocol StorageReader {
    /// The names of the collections, sorted.
    func collectionNames() throws -> [String]
    /// Whether collection `name` exists.
    func containsCollection(_ name: String) throws -> Bool
    /// The object with object id `id`, or `nil`.
    func object(withID id: String, in collection: String) throws -> JSONObject?
    /// The objects whose `externalId` is `externalID`, in insertion order.
    func objects(withExternalID externalID: String, in collection: String) throws -> [JSONObject]
    /// The objects matching `conditions`, sorted by `ordering` (insertion order breaking ties),
    /// from sorted position `offset` on, at most `limit` of them.
    ///
    /// - Throws: ``StorageError/filterFailed(_:)`` where the matcher throws.
    func find(
        in collection: String, matching conditions: ObjectFilterConditions?, orderedBy ordering: [OrderByProperty],
        offset: Int, limit: Int
    ) throws -> [JSONObject]
    /// The objects matching `conditions` in insertion order, inserted after the object at
    /// `position` (from the first when `nil`), skipping `offset` of them, at most `limit`; with
    /// the position of the last one returned. `nil` when the backend cannot page so (then the
    /// store pages with offsets through ``find(in:matching:orderedBy:offset:limit:)``).
    ///
    /// Positions are the backend's own insertion sequence; paging by them reads each stored
    /// object once however far into the result a batch is.
    ///
    /// - Throws: ``StorageError/filterFailed(_:)`` where the matcher throws.
    func findInInsertionOrder(
        in collection: String, matching conditions: ObjectFilterConditions?, after position: Int64?, offset: Int,
        limit: Int
    ) throws -> (objects: [JSONObject], last: Int64?)?
    /// How many objects match `conditions`.
    ///
    /// - Throws: ``StorageError/filterFailed(_:)`` where the matcher throws.
    func count(in collection: String, matching conditions: ObjectFilterConditions?) throws -> Int
    /// The value stored under `key`, or `nil`.
    func value(forKey key: String) throws -> JSONValue?
    /// The keys of the key-value store, sorted by their UTF-8 bytes.
    func keys() throws -> [String]
}

extension StorageReader {
    /// Not supported: the store pages with offsets.
    public func findInInsertionOrder(
        in collection: String, matching conditions: ObjectFilterConditions?, after position: Int64?, offset: Int,
        limit: Int
    ) throws -> (objects: [JSONObject], last: Int64?)? {
        nil
    }
}

/// The writing half of a backend, valid only inside ``StorageBackend/write(_:)``.
public protocol StorageWriter: StorageReader {
    /// Creates collection `name`; does nothing when it exists.
    func addCollection(_ name: String) throws
    /// Removes collection `name` and its objects; does nothing when it does not exist.
    func removeCollection(_ name: String) throws
    /// Removes every object of collection `name`.
    func clearCollection(_ name: String) throws
    /// Stores `object`: appended when its object id is new, else replaced at its position in the
    /// insertion order.
    func put(_ object: EncodedObject, in collection: String) throws
    /// Stores `objects` in order, as `put(_:in:)` does for each; backends override it to check
    /// the collection once and write them together.
    func put(_ objects: [EncodedObject], in collection: String) throws
    /// Removes the objects with the given object ids; returns how many there were.
    func removeObjects(withIDs ids: [String], from collection: String) throws -> Int
    /// Stores `value` under `key`, or removes the key when `value` is `nil`.
    func setValue(_ value: JSONValue?, forKey key: String) throws
}

extension StorageWriter {
    public func put(_ objects: [EncodedObject], in collection: String) throws {
        for object in objects { try put(object, in: collection) }
    }
}

/// An object ready to be stored: its ids and its JSON text exactly as it goes on the wire, so
/// what a backend gives back is what the network would deliver (a double `1.0` comes back as
/// the integer `1`, as from `JSON.parse`).
public struct EncodedObject: Hashable, Sendable {
    /// The object id.
    public let objectID: String
    /// The external id, if any.
    public let externalID: String?
    /// The compact JSON text (`JSONWriter`'s form).
    public let text: String

    /// An object whose text was written and checked elsewhere.
    package init(objectID: String, externalID: String?, text: String) {
        self.objectID = objectID
        self.externalID = externalID
        self.text = text
    }

    /// Encodes `json`, which must carry a string `objectId`.
    ///
    /// - Throws: ``StorageError`` with code `StorageError.Code.invalidObject` when it does not.
    package init(_ json: JSONObject) throws {
        guard case .string(let id)? = json["objectId"], !id.isEmpty else {
            throw StorageError(
                code: .invalidObject,
                detail: "the object has no non-empty string objectId; give every stored object an id")
        }
        objectID = id
        if case .string(let external)? = json["externalId"] { externalID = external } else { externalID = nil }
        text = JSONValue.object(json).serializedString()
    }
}

extension EncodedObject {
    /// The object in the JSON `text` a database gives back, as the SQL backends read it.
    ///
    /// - Throws: ``StorageError`` with code `StorageError.Code.undecodableObject` when it is not a
    ///   JSON object.
    package static func object(fromStored text: String) throws -> JSONObject {
        guard case .object(let object) = try JSONValue(parsing: text) else {
            throw StorageError(
                code: .undecodableObject, detail: "a stored object is not a JSON object; remove it from the database")
        }
        return object
    }
}
