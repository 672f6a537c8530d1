import CoatyStorage
import CoreTypes
import PostgresNIO

/// The reads of the PostgreSQL backend, shared by its reader and its writer; they run on the
/// backend's own thread inside a transaction (see `PostgresSession`).
protocol PostgresReading: StorageReader {
    var statements: PostgresStatements { get }
}

extension PostgresReading {
    func collectionNames() throws -> [String] {
        try statements.strings("SELECT name FROM coaty_collections ORDER BY name COLLATE \"C\"")
    }

    func containsCollection(_ name: String) throws -> Bool {
        guard PostgresText.canHold(name) else { return false }
        var arguments = PostgresArguments()
        let sql = "SELECT name FROM coaty_collections WHERE name = \(arguments.text(name))"
        return try !statements.strings(sql, arguments).isEmpty
    }

    func requireCollection(_ name: String) throws {
        guard try containsCollection(name) else { throw StorageError.collectionNotFound(name) }
    }

    func object(withID id: String, in collection: String) throws -> JSONObject? {
        try requireCollection(collection)
        guard PostgresText.canHold(id) else { return nil }
        var arguments = PostgresArguments()
        let sql =
            "SELECT data FROM coaty_objects WHERE collection = \(arguments.text(collection)) "
            + "AND object_id = \(arguments.text(id))"
        return try statements.strings(sql, arguments).first.map(EncodedObject.object(fromStored:))
    }

    func objects(withExternalID externalID: String, in collection: String) throws -> [JSONObject] {
        try requireCollection(collection)
        guard PostgresText.canHold(externalID) else { return [] }
        var arguments = PostgresArguments()
        let sql =
            "SELECT data FROM coaty_objects WHERE collection = \(arguments.text(collection)) "
            + "AND external_id = \(arguments.text(externalID)) ORDER BY seq"
        return try statements.strings(sql, arguments).map(EncodedObject.object(fromStored:))
    }

    /// Exact pre-filter and no ordering: SQL pages with `LIMIT`/`OFFSET` in insertion order. An
    /// ordering on plain member paths is SQL's (`PostgresOrdering`) unless strings are read at its
    /// keys. Otherwise the candidates come in insertion order and `MatcherQuery` (the reference
    /// code) matches, orders and pages them in Swift: the ICU collation that string order needs
    /// is not SQL.
    func find(
        in collection: String, matching conditions: ObjectFilterConditions?, orderedBy ordering: [OrderByProperty],
        offset: Int, limit: Int
    ) throws -> [JSONObject] {
        try requireCollection(collection)
        guard limit > 0 else { return [] }
        var arguments = PostgresArguments()
        let filter = PostgresFilter(conditions, arguments: &arguments)
        let condition = "collection = \(arguments.text(collection)) AND \(filter.sql)"
        if filter.isExact && ordering.isEmpty {
            let sql =
                "SELECT data FROM coaty_objects WHERE \(condition) ORDER BY seq "
                + "LIMIT \(arguments.integer(limit)) OFFSET \(arguments.integer(offset))"
            return try statements.strings(sql, arguments).map(EncodedObject.object(fromStored:))
        }
        if let order = PostgresOrdering(ordering),
            let found = try findInSQLOrder(
                condition, arguments, isExact: filter.isExact, matching: conditions, ordering: order, offset: offset,
                limit: limit)
        {
            return found
        }
        let candidates = try candidatesInInsertionOrder(condition, arguments)
        return try MatcherQuery.find(
            in: candidates, matching: conditions, orderedBy: ordering, offset: offset, limit: limit)
    }

    /// Pages by `seq`: an exact pre-filter in SQL alone; else the candidates after `position`
    /// are read in chunks and the matcher keeps those that match, until `limit` are found.
    func findInInsertionOrder(
        in collection: String, matching conditions: ObjectFilterConditions?, after position: Int64?, offset: Int,
        limit: Int
    ) throws -> (objects: [JSONObject], last: Int64?)? {
        try requireCollection(collection)
        guard limit > 0 else { return ([], position) }
        var objects: [JSONObject] = []
        var last = position
        var skip = offset
        let chunk = max(limit, 256)
        while true {
            var arguments = PostgresArguments()
            let filter = PostgresFilter(conditions, arguments: &arguments)
            var sql =
                "SELECT seq, data FROM coaty_objects WHERE collection = \(arguments.text(collection)) "
                + "AND seq > \(arguments.integer(Int(last ?? Int64.min))) AND \(filter.sql) ORDER BY seq"
            if filter.isExact {
                sql += " LIMIT \(arguments.integer(limit)) OFFSET \(arguments.integer(skip))"
                for row in try statements.run(sql, arguments) {
                    let (seq, text) = try row.decode((Int64, String).self)
                    objects.append(try EncodedObject.object(fromStored: text))
                    last = seq
                }
                return (objects, last)
            }
            sql += " LIMIT \(arguments.integer(chunk))"
            let rows = try statements.run(sql, arguments).map { try $0.decode((Int64, String).self) }
            for (seq, text) in rows {
                let object = try EncodedObject.object(fromStored: text)
                guard try MatcherQuery.matches(object, conditions) else { continue }
                if skip > 0 {
                    skip -= 1
                } else {
                    objects.append(object)
                }
                last = seq
                if objects.count == limit { return (objects, last) }
            }
            guard rows.count == chunk, let end = rows.last?.0 else { return (objects, last) }
            last = end  // the chunk's rows were all examined: continue after them
        }
    }

    /// The objects that `condition` selects, in insertion order. They are put in order here:
    /// without `ORDER BY` the server may scan in parallel, where ordering by `seq` would have it
    /// walk the primary key one row at a time.
    private func candidatesInInsertionOrder(_ condition: String, _ arguments: PostgresArguments) throws
        -> [JSONObject]
    {
        try statements.run("SELECT seq, data FROM coaty_objects WHERE \(condition)", arguments)
            .map { try $0.decode((Int64, String).self) }
            .sorted { $0.0 < $1.0 }
            .map { try EncodedObject.object(fromStored: $0.1) }
    }

    /// `COUNT(*)` when the pre-filter is exact, else the matcher over the candidates.
    func count(in collection: String, matching conditions: ObjectFilterConditions?) throws -> Int {
        try requireCollection(collection)
        var arguments = PostgresArguments()
        let filter = PostgresFilter(conditions, arguments: &arguments)
        let condition = "collection = \(arguments.text(collection)) AND \(filter.sql)"
        guard filter.isExact else {
            // In any order: the count does not depend on it.
            return try statements.strings("SELECT data FROM coaty_objects WHERE \(condition)", arguments).count {
                try MatcherQuery.matches(try EncodedObject.object(fromStored: $0), conditions)
            }
        }
        let rows = try statements.run("SELECT COUNT(*) FROM coaty_objects WHERE \(condition)", arguments)
        return try rows.first.map { Int(try $0.decode(Int64.self)) } ?? 0
    }

    func value(forKey key: String) throws -> JSONValue? {
        guard PostgresText.canHold(key) else { return nil }
        var arguments = PostgresArguments()
        let sql = "SELECT value FROM coaty_values WHERE key = \(arguments.text(key))"
        return try statements.strings(sql, arguments).first.map { try JSONValue(parsing: $0) }
    }

    func keys() throws -> [String] {
        try statements.strings("SELECT key FROM coaty_values ORDER BY key COLLATE \"C\"")
    }
}

struct PostgresReader: PostgresReading {
    let statements: PostgresStatements
}

/// The writes of the PostgreSQL backend, inside the transaction of one `write`.
struct PostgresWriter: PostgresReading, StorageWriter {
    let write: PostgresWrite
    var statements: PostgresStatements { write.statements }

    func addCollection(_ name: String) throws {
        try PostgresText.require(name, "a collection name")
        var arguments = PostgresArguments()
        try statements.run(
            "INSERT INTO coaty_collections(name) VALUES (\(arguments.text(name))) ON CONFLICT DO NOTHING", arguments)
    }

    /// The collection's objects go with it (`ON DELETE CASCADE`).
    func removeCollection(_ name: String) throws {
        guard PostgresText.canHold(name) else { return }
        var arguments = PostgresArguments()
        try statements.run("DELETE FROM coaty_collections WHERE name = \(arguments.text(name))", arguments)
    }

    func clearCollection(_ name: String) throws {
        try requireCollection(name)
        var arguments = PostgresArguments()
        try statements.run("DELETE FROM coaty_objects WHERE collection = \(arguments.text(name))", arguments)
    }

    func put(_ object: EncodedObject, in collection: String) throws {
        try put([object], in: collection)
    }

    /// Held back by the transaction (see `PostgresWrite`); a missing collection is reported by the
    /// foreign key when they are sent.
    func put(_ objects: [EncodedObject], in collection: String) throws {
        try Self.check(objects, in: collection)
        write.hold(objects, in: collection)
    }

    /// Throws what storing `objects` in `collection` must throw before any SQL: a name, id or
    /// external id that PostgreSQL text cannot hold.
    static func check(_ objects: [EncodedObject], in collection: String) throws {
        guard PostgresText.canHold(collection) else { throw StorageError.collectionNotFound(collection) }
        for object in objects {
            try PostgresText.require(object.objectID, "an objectId")
            if let externalID = object.externalID { try PostgresText.require(externalID, "an externalId") }
        }
    }

    func removeObjects(withIDs ids: [String], from collection: String) throws -> Int {
        try requireCollection(collection)
        var arguments = PostgresArguments()
        let sql =
            "DELETE FROM coaty_objects WHERE collection = \(arguments.text(collection)) "
            + "AND object_id = ANY(\(arguments.texts(ids.filter(PostgresText.canHold))))"
        return try statements.run(sql, arguments).metadata.rows ?? 0
    }

    func setValue(_ value: JSONValue?, forKey key: String) throws {
        var arguments = PostgresArguments()
        guard let value else {
            guard PostgresText.canHold(key) else { return }
            try statements.run("DELETE FROM coaty_values WHERE key = \(arguments.text(key))", arguments)
            return
        }
        try PostgresText.require(key, "a key")
        try statements.run(
            """
            INSERT INTO coaty_values(key, value) VALUES (\(arguments.text(key)), \(arguments.text(value.serializedString()))) \
            ON CONFLICT (key) DO UPDATE SET value = excluded.value
            """, arguments)
    }
}

/// PostgreSQL `text` cannot hold U+0000: names, ids and keys with it cannot be stored (so they
/// are never found), and storing one says so.
enum PostgresText {
    static func canHold(_ string: String) -> Bool {
        !string.utf8.contains(0)
    }

    static func require(_ string: String, _ what: String) throws {
        guard canHold(string) else {
            throw StorageError(
                code: .invalidArgument,
                detail: "\(what) holds U+0000, which PostgreSQL text cannot store; remove the NUL character")
        }
    }
}
