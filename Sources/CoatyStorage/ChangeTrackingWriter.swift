import CoreTypes

/// A backend writer that remembers which collections a write changed, so the store can tell the
/// live queries of those collections once the write has been committed.
final class ChangeTrackingWriter: StorageWriter {
    private let base: any StorageWriter
    /// The collections whose objects this write added, replaced or removed (or which it created
    /// or removed).
    private(set) var changedCollections: Set<String> = []

    init(_ base: any StorageWriter) {
        self.base = base
    }

    // MARK: - Writes, remembered

    func addCollection(_ name: String) throws {
        try base.addCollection(name)
        changedCollections.insert(name)
    }

    func removeCollection(_ name: String) throws {
        try base.removeCollection(name)
        changedCollections.insert(name)
    }

    func clearCollection(_ name: String) throws {
        try base.clearCollection(name)
        changedCollections.insert(name)
    }

    func put(_ object: EncodedObject, in collection: String) throws {
        try base.put(object, in: collection)
        changedCollections.insert(collection)
    }

    func put(_ objects: [EncodedObject], in collection: String) throws {
        try base.put(objects, in: collection)
        if !objects.isEmpty { changedCollections.insert(collection) }
    }

    func removeObjects(withIDs ids: [String], from collection: String) throws -> Int {
        let removed = try base.removeObjects(withIDs: ids, from: collection)
        if removed > 0 { changedCollections.insert(collection) }
        return removed
    }

    func setValue(_ value: JSONValue?, forKey key: String) throws {
        try base.setValue(value, forKey: key)
    }

    // MARK: - Reads, passed on

    func collectionNames() throws -> [String] { try base.collectionNames() }

    func containsCollection(_ name: String) throws -> Bool { try base.containsCollection(name) }

    func object(withID id: String, in collection: String) throws -> JSONObject? {
        try base.object(withID: id, in: collection)
    }

    func objects(withExternalID externalID: String, in collection: String) throws -> [JSONObject] {
        try base.objects(withExternalID: externalID, in: collection)
    }

    func find(
        in collection: String, matching conditions: ObjectFilterConditions?, orderedBy ordering: [OrderByProperty],
        offset: Int, limit: Int
    ) throws -> [JSONObject] {
        try base.find(in: collection, matching: conditions, orderedBy: ordering, offset: offset, limit: limit)
    }

    func count(in collection: String, matching conditions: ObjectFilterConditions?) throws -> Int {
        try base.count(in: collection, matching: conditions)
    }

    func value(forKey key: String) throws -> JSONValue? { try base.value(forKey: key) }

    func keys() throws -> [String] { try base.keys() }
}
