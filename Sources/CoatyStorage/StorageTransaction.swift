public import CoreTypes

/// The operations of an ``ObjectStore`` inside one transaction: all of them take effect together
/// when the transaction's body returns, or none of them when it throws.
///
/// ```swift
/// try await store.transaction { tx in
///     try tx.delete(objectIDs: [old.objectID], from: "lights")
///     try tx.insert([new], into: "lights")
/// }
/// ```
///
/// A transaction is valid only inside the body it was given to; its methods are synchronous.
public struct StorageTransaction {
    let writer: any StorageWriter
    let view: StorageView

    init(writer: any StorageWriter, registry: ObjectTypeRegistry) {
        self.writer = writer
        view = StorageView(reader: writer, registry: registry)
    }

    // MARK: - Collections

    /// Creates collection `name`; does nothing when it exists.
    ///
    /// - Throws: ``StorageError`` with code `StorageError.Code.invalidArgument` for an empty name.
    public func addCollection(_ name: String) throws {
        guard !name.isEmpty else {
            throw StorageError(code: .invalidArgument, detail: "a collection name must not be empty")
        }
        try writer.addCollection(name)
    }

    /// Removes collection `name` with its objects; does nothing when it does not exist.
    public func removeCollection(_ name: String) throws {
        try writer.removeCollection(name)
    }

    /// Removes every object of collection `name`.
    public func clearCollection(_ name: String) throws {
        try writer.clearCollection(name)
    }

    /// The names of the collections, sorted by their UTF-8 bytes.
    public func collectionNames() throws -> [String] {
        try writer.collectionNames()
    }

    // MARK: - Writing objects

    /// Stores `objects`; an object whose id is stored already replaces it (keeping its place in
    /// the insertion order) unless `replacing` is `false`.
    ///
    /// - Throws: ``StorageError`` with code `StorageError.Code.objectExists` (not replacing),
    ///   `StorageError.Code.invalidObject` or `StorageError.Code.collectionNotFound`.
    public func insert(_ objects: [any CoatyObject], into collection: String, replacing: Bool = true) throws {
        try insert(encoded: objects.map(encode), into: collection, replacing: replacing)
    }

    /// Stores objects given as JSON (a line of `agent-runner store export`, a payload's object),
    /// each checked to decode through the store's registry, without decoding them; otherwise as
    /// ``insert(_:into:replacing:)``.
    ///
    /// - Throws: ``StorageError`` with code `StorageError.Code.objectExists` (not replacing),
    ///   `StorageError.Code.invalidObject` or `StorageError.Code.collectionNotFound`.
    public func insert(json objects: [JSONObject], into collection: String, replacing: Bool = true) throws {
        try insert(encoded: objects.map(encode), into: collection, replacing: replacing)
    }

    /// Stores objects already encoded and checked (``encode(_:registry:)``); not replacing, it
    /// throws at the first whose id is stored already.
    package func insert(encoded objects: [EncodedObject], into collection: String, replacing: Bool) throws {
        guard !replacing else { return try writer.put(objects, in: collection) }
        for encoded in objects {
            if try writer.object(withID: encoded.objectID, in: collection) != nil {
                throw StorageError(
                    code: .objectExists,
                    detail: "collection '\(collection)' already holds objectId '\(encoded.objectID)'; "
                        + "insert with replacing: true or update it")
            }
            try writer.put(encoded, in: collection)
        }
    }

    /// Replaces the stored object with `object`'s object id.
    ///
    /// - Throws: ``StorageError`` with code `StorageError.Code.objectNotFound` when there is none.
    public func update(_ object: any CoatyObject, in collection: String) throws {
        let encoded = try encode(object)
        guard try writer.object(withID: encoded.objectID, in: collection) != nil else {
            throw StorageError.objectNotFound(encoded.objectID, in: collection)
        }
        try writer.put(encoded, in: collection)
    }

    /// Sets the property at a dotted `path` (`"battery.level"`, `"cells.0"`) of a stored object,
    /// creating missing containers as `JSONObject/subscript(path:)` does.
    ///
    /// - Throws: ``StorageError`` with code `StorageError.Code.objectNotFound`,
    ///   `StorageError.Code.invalidPath` (empty, or `objectId`) or `StorageError.Code.invalidObject`
    ///   when the result is no valid Coaty object (nothing is changed then).
    public func updateProperty(_ path: String, to value: JSONValue, ofObjectWithID id: String, in collection: String)
        throws
    {
        try change(path, ofObjectWithID: id, in: collection) { $0[path: path] = value }
    }

    /// Removes the property at a dotted `path` of a stored object.
    ///
    /// - Throws: As ``updateProperty(_:to:ofObjectWithID:in:)``; removing a required member such
    ///   as `name` is `StorageError.Code.invalidObject`.
    public func removeProperty(_ path: String, ofObjectWithID id: String, in collection: String) throws {
        try change(path, ofObjectWithID: id, in: collection) { $0[path: path] = nil }
    }

    /// Removes the objects with the given ids; returns how many were stored.
    public func delete(objectIDs: [String], from collection: String) throws -> Int {
        try writer.removeObjects(withIDs: objectIDs, from: collection)
    }

    /// Removes the objects that ``find(in:filter:joins:)`` returns for `filter`; returns how many.
    ///
    /// - Throws: ``StorageError`` with code `StorageError.Code.filterFailed` where the matcher throws.
    public func delete(matching filter: ObjectFilter, from collection: String) throws -> Int {
        let ids = try view.all(in: collection, filter: filter, joins: []).compactMap { $0["objectId"]?.stringValue }
        return try writer.removeObjects(withIDs: ids, from: collection)
    }

    // MARK: - Reading objects

    /// The object with object id `id`, or `nil`.
    public func object(withID id: String, in collection: String) throws -> (any CoatyObject)? {
        try view.object(withID: id, in: collection)
    }

    /// The objects whose `externalId` is `externalID`, in insertion order.
    public func objects(withExternalID externalID: String, in collection: String) throws -> [any CoatyObject] {
        try view.objects(withExternalID: externalID, in: collection)
    }

    /// The whole result of `filter` with `joins` (see ``ObjectStore/find(in:filter:joins:batchSize:)``).
    public func find(in collection: String, filter: ObjectFilter = .all, joins: [StorageJoin] = []) throws
        -> [any CoatyObject]
    {
        try view.all(in: collection, filter: filter, joins: joins).map(view.decode)
    }

    /// How many objects ``find(in:filter:joins:)`` returns for `filter`.
    public func count(in collection: String, filter: ObjectFilter = .all) throws -> Int {
        try view.count(in: collection, filter: filter)
    }

    // MARK: - Key-value store

    /// The value stored under `key`, or `nil`.
    public func value(forKey key: String) throws -> JSONValue? {
        try writer.value(forKey: key)
    }

    /// Stores `value` under `key`, replacing what was there; `nil` removes the key.
    public func setValue(_ value: JSONValue?, forKey key: String) throws {
        try writer.setValue(value, forKey: key)
    }

    /// The keys of the key-value store, sorted by their UTF-8 bytes.
    public func keys() throws -> [String] {
        try writer.keys()
    }

    // MARK: - Helpers

    /// The stored form of `object`, checked to decode again with the store's registry.
    private func encode(_ object: any CoatyObject) throws -> EncodedObject {
        try Self.encode(object, registry: view.registry)
    }

    /// The stored form of `object`, checked to decode again with `registry`.
    ///
    /// - Throws: ``StorageError`` with code `StorageError.Code.invalidObject`.
    package static func encode(_ object: any CoatyObject, registry: ObjectTypeRegistry) throws -> EncodedObject {
        // A plain object of a type the registry does not decode otherwise is valid when its text is.
        if let plain = object as? BaseObject, registry.registeredType(for: plain.objectType) == nil,
            let text = plain.validCompactText()
        {
            return EncodedObject(objectID: plain.objectID, externalID: plain.externalID, text: text)
        }
        let json: JSONObject
        do {
            json = try object.jsonObject()
        } catch {
            throw StorageError(code: .invalidObject, detail: "\(type(of: object)) does not encode: \(error)")
        }
        return try encode(json, registry: registry)
    }

    /// Checks that `json` decodes back through the registry and encodes it.
    private func encode(_ json: JSONObject) throws -> EncodedObject {
        try Self.encode(json, registry: view.registry)
    }

    /// Checks that `json` decodes back through `registry` and encodes it.
    ///
    /// - Throws: ``StorageError`` with code `StorageError.Code.invalidObject`.
    package static func encode(_ json: JSONObject, registry: ObjectTypeRegistry) throws -> EncodedObject {
        do {
            try registry.validate(json)
        } catch {
            throw StorageError(
                code: .invalidObject,
                detail: "the object would not decode when read back: \(error); store valid Coaty objects only")
        }
        return try EncodedObject(json)
    }

    private func change(
        _ path: String, ofObjectWithID id: String, in collection: String, _ body: (inout JSONObject) -> Void
    ) throws {
        let first = path.split(separator: ".", omittingEmptySubsequences: false).first ?? ""
        guard !path.isEmpty, first != "objectId" else {
            throw StorageError(
                code: .invalidPath,
                detail: "cannot change property '\(path)': give a non-empty path other than objectId")
        }
        guard var json = try writer.object(withID: id, in: collection) else {
            throw StorageError.objectNotFound(id, in: collection)
        }
        body(&json)
        try writer.put(try encode(json), in: collection)
    }
}
