import CoreTypes

/// The reads of an ``ObjectStore`` over one backend reader: decoding through the registry and
/// resolving joins, the same for every backend.
struct StorageView {
    let reader: any StorageReader
    let registry: ObjectTypeRegistry

    func object(withID id: String, in collection: String) throws -> (any CoatyObject)? {
        try reader.object(withID: id, in: collection).map(decode)
    }

    func objects(withExternalID externalID: String, in collection: String) throws -> [any CoatyObject] {
        try reader.objects(withExternalID: externalID, in: collection).map(decode)
    }

    /// One batch of a find: the objects at sorted positions `offset ..< offset + limit`, joined.
    func batch(
        in collection: String, filter: ObjectFilter, joins: [StorageJoin], offset: Int, limit: Int
    ) throws -> [JSONObject] {
        let objects = try reader.find(
            in: collection, matching: filter.conditions, orderedBy: filter.orderByProperties ?? [],
            offset: offset, limit: limit)
        return try joins.reduce(objects) { objects, join in try resolve(join, in: objects) }
    }

    /// One batch of an unordered find paged by insertion position (see
    /// ``StorageReader/findInInsertionOrder(in:matching:after:offset:limit:)``), joined; `nil`
    /// when the backend pages with offsets only.
    func batch(
        in collection: String, filter: ObjectFilter, joins: [StorageJoin], after position: Int64?, offset: Int,
        limit: Int
    ) throws -> (objects: [JSONObject], last: Int64?)? {
        guard
            let (objects, last) = try reader.findInInsertionOrder(
                in: collection, matching: filter.conditions, after: position, offset: offset, limit: limit)
        else { return nil }
        return (try joins.reduce(objects) { objects, join in try resolve(join, in: objects) }, last)
    }

    /// The whole result of `filter` (paged by its `skip` and `take`), joined.
    func all(in collection: String, filter: ObjectFilter, joins: [StorageJoin]) throws -> [JSONObject] {
        let window = ResultWindow(filter)
        guard let (offset, limit) = window.batch(after: 0, size: Int.max) else { return [] }
        return try batch(in: collection, filter: filter, joins: joins, offset: offset, limit: limit)
    }

    func count(in collection: String, filter: ObjectFilter) throws -> Int {
        ResultWindow(filter).count(of: try reader.count(in: collection, matching: filter.conditions))
    }

    func decode(_ json: JSONObject) throws -> any CoatyObject {
        try registry.decodeStored(json)
    }

    /// Stores the related objects of `join` in each of `objects`.
    private func resolve(_ join: StorageJoin, in objects: [JSONObject]) throws -> [JSONObject] {
        let locals = objects.map { join.localValues(of: $0) }
        var wanted: [JSONValue] = []
        for value in locals.joined() where !wanted.contains(value) { wanted.append(value) }
        let candidates =
            wanted.isEmpty
            ? []
            : try reader.find(
                in: join.collection, matching: .condition(ObjectFilterCondition(join.fromPath, .in(wanted))),
                orderedBy: [], offset: 0, limit: Int.max)
        return try zip(objects, locals).map { object, values in
            let condition = ObjectFilterCondition(join.fromPath, .in(values))
            let related = try candidates.filter { try Self.matches($0, condition) }
            return join.store(related, in: object)
        }
    }

    private static func matches(_ object: JSONObject, _ condition: ObjectFilterCondition) throws -> Bool {
        do {
            return try ObjectMatcher.matches(.object(object), condition: condition)
        } catch let error as FilterError {
            throw StorageError.filterFailed(error)
        }
    }
}

extension ObjectTypeRegistry {
    /// Decodes a stored object through the chain.
    ///
    /// - Throws: ``StorageError`` with code `StorageError.Code.undecodableObject`.
    func decodeStored(_ json: JSONObject) throws -> any CoatyObject {
        do {
            return try decodeObject(json)
        } catch {
            throw StorageError(
                code: .undecodableObject,
                detail: "a stored object no longer decodes: \(error); register its type or remove the object")
        }
    }
}
