public import CoreTypes

/// Coaty objects in named collections, and a key-value store, kept by a ``StorageBackend``.
///
/// Objects go in as any `CoatyObject` and come back as the registry's decode chain
/// gives them: the registered type, else the core type with unknown members in `custom`.
/// Queries take Coaty's own `ObjectFilter` and answer as `ObjectMatcher`
/// does, whatever the backend.
///
/// ```swift
/// let store = ObjectStore(backend: InMemoryBackend(), registry: registry)
/// try await store.addCollection("lights")
/// try await store.insert([desk, hall], into: "lights")
/// let filter = ObjectFilter.where("isOn", .equals(true)).orderBy("name")
/// for try await light in store.find(in: "lights", filter: filter) { print(light.name) }
/// ```
///
/// A store is a value: copies share the backend and the live queries. Every method is one
/// transaction; group several with ``transaction(_:)``. Live queries
/// (``observe(in:filter:joins:isolation:_:)``) see the writes made through this store and its
/// copies, not those of another store or process writing the same database.
public struct ObjectStore: Sendable {
    /// Where the data lives.
    public let backend: any StorageBackend
    /// Decodes stored objects (and checks objects before they are stored).
    public let registry: ObjectTypeRegistry
    /// The live queries to tell about committed writes (see ``observe(in:filter:joins:isolation:_:)``).
    let liveQueries = LiveQueryHub()

    /// A store over `backend` that decodes with `registry`.
    public init(backend: some StorageBackend, registry: ObjectTypeRegistry = ObjectTypeRegistry()) {
        self.backend = backend
        self.registry = registry
    }

    /// Runs `body` in one transaction: its changes take effect together when it returns, and not
    /// at all when it throws. Once committed, the live queries of the collections it changed
    /// re-evaluate.
    ///
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or ``StorageError``.
    public func transaction<T: Sendable>(_ body: @Sendable (StorageTransaction) throws -> T) async throws -> T {
        let registry = registry
        let (result, changed) = try await backend.write { writer in
            let tracking = ChangeTrackingWriter(writer)
            let result = try body(StorageTransaction(writer: tracking, registry: registry))
            return (result, tracking.changedCollections)
        }
        liveQueries.notify(changed)
        return result
    }

    /// Runs `body` on one consistent view of the data.
    func reading<T: Sendable>(_ body: @Sendable (StorageView) throws -> T) async throws -> T {
        let registry = registry
        return try await backend.read { reader in try body(StorageView(reader: reader, registry: registry)) }
    }

    // MARK: - Collections

    /// Creates collection `name`; does nothing when it exists.
    public func addCollection(_ name: String) async throws {
        try await transaction { try $0.addCollection(name) }
    }

    /// Removes collection `name` with its objects; does nothing when it does not exist.
    public func removeCollection(_ name: String) async throws {
        try await transaction { try $0.removeCollection(name) }
    }

    /// Removes every object of collection `name`.
    public func clearCollection(_ name: String) async throws {
        try await transaction { try $0.clearCollection(name) }
    }

    /// The names of the collections, sorted by their UTF-8 bytes.
    public func collectionNames() async throws -> [String] {
        try await reading { try $0.reader.collectionNames() }
    }

    // MARK: - Writing objects

    /// Stores `objects`, all or nothing; see ``StorageTransaction/insert(_:into:replacing:)``.
    public func insert(_ objects: [any CoatyObject], into collection: String, replacing: Bool = true) async throws {
        let registry = registry
        let encoded = try objects.map { try StorageTransaction.encode($0, registry: registry) }
        try await insert(encoded, into: collection, replacing: replacing)
    }

    /// Stores objects given as JSON, checked without decoding them; see
    /// ``StorageTransaction/insert(json:into:replacing:)``.
    public func insert(json objects: [JSONObject], into collection: String, replacing: Bool = true) async throws {
        let registry = registry
        let encoded = try objects.map { try StorageTransaction.encode($0, registry: registry) }
        try await insert(encoded, into: collection, replacing: replacing)
    }

    /// Stores objects encoded (and checked) by the caller: through a ``DirectWriteBackend`` when it
    /// takes them, else in a transaction.
    private func insert(_ encoded: [EncodedObject], into collection: String, replacing: Bool) async throws {
        if replacing, !encoded.isEmpty, let direct = backend as? any DirectWriteBackend,
            try await direct.put(encoded, in: collection)
        {
            liveQueries.notify([collection])
            return
        }
        try await transaction { try $0.insert(encoded: encoded, into: collection, replacing: replacing) }
    }

    /// Stores one object; see ``StorageTransaction/insert(_:into:replacing:)``.
    public func insert(_ object: any CoatyObject, into collection: String, replacing: Bool = true) async throws {
        try await insert([object], into: collection, replacing: replacing)
    }

    /// Replaces the stored object with `object`'s id; see ``StorageTransaction/update(_:in:)``.
    public func update(_ object: any CoatyObject, in collection: String) async throws {
        try await transaction { try $0.update(object, in: collection) }
    }

    /// Sets one property of a stored object by dotted path; see
    /// ``StorageTransaction/updateProperty(_:to:ofObjectWithID:in:)``.
    public func updateProperty(
        _ path: String, to value: JSONValue, ofObjectWithID id: String, in collection: String
    ) async throws {
        try await transaction { try $0.updateProperty(path, to: value, ofObjectWithID: id, in: collection) }
    }

    /// Removes one property of a stored object by dotted path; see
    /// ``StorageTransaction/removeProperty(_:ofObjectWithID:in:)``.
    public func removeProperty(_ path: String, ofObjectWithID id: String, in collection: String) async throws {
        try await transaction { try $0.removeProperty(path, ofObjectWithID: id, in: collection) }
    }

    /// Removes the objects with the given ids.
    ///
    /// - Returns: How many were stored.
    @discardableResult
    public func delete(objectIDs: [String], from collection: String) async throws -> Int {
        try await transaction { try $0.delete(objectIDs: objectIDs, from: collection) }
    }

    /// Removes the objects that `filter` finds (its ordering, `skip` and `take` included).
    ///
    /// - Returns: How many were removed.
    @discardableResult
    public func delete(matching filter: ObjectFilter, from collection: String) async throws -> Int {
        try await transaction { try $0.delete(matching: filter, from: collection) }
    }

    // MARK: - Reading objects

    /// The object with object id `id`, or `nil`.
    public func object(withID id: String, in collection: String) async throws -> (any CoatyObject)? {
        try await reading { try $0.object(withID: id, in: collection) }
    }

    /// The objects whose `externalId` is `externalID`, in insertion order.
    public func objects(withExternalID externalID: String, in collection: String) async throws -> [any CoatyObject] {
        try await reading { try $0.objects(withExternalID: externalID, in: collection) }
    }

    /// How many objects `filter` finds (after its `skip` and `take`).
    public func count(in collection: String, filter: ObjectFilter = .all) async throws -> Int {
        try await reading { try $0.count(in: collection, filter: filter) }
    }

    // MARK: - Key-value store

    /// The value stored under `key`, or `nil`.
    public func value(forKey key: String) async throws -> JSONValue? {
        try await reading { try $0.reader.value(forKey: key) }
    }

    /// Stores `value` under `key`; `nil` removes the key.
    public func setValue(_ value: JSONValue?, forKey key: String) async throws {
        try await transaction { try $0.setValue(value, forKey: key) }
    }

    /// The keys of the key-value store, sorted by their UTF-8 bytes.
    public func keys() async throws -> [String] {
        try await reading { try $0.reader.keys() }
    }
}
