import CoatyStorage
import CoreTypes
import GRDB

/// The reads of the SQLite backend, shared by its reader and its writer.
protocol SQLiteReading: StorageReader {
    var db: Database { get }
}

extension SQLiteReading {
    func collectionNames() throws -> [String] {
        try String.fetchAll(db.cachedStatement(sql: "SELECT name FROM coaty_collections ORDER BY name"))
    }

    func containsCollection(_ name: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM coaty_collections WHERE name = ?"), arguments: [name])
            ?? false
    }

    func requireCollection(_ name: String) throws {
        guard try containsCollection(name) else { throw StorageError.collectionNotFound(name) }
    }

    func object(withID id: String, in collection: String) throws -> JSONObject? {
        try requireCollection(collection)
        let text = try String.fetchOne(
            db.cachedStatement(sql: "SELECT data FROM coaty_objects WHERE collection = ? AND objectId = ?"),
            arguments: [collection, id])
        return try text.map(Self.parse)
    }

    func objects(withExternalID externalID: String, in collection: String) throws -> [JSONObject] {
        try requireCollection(collection)
        return try String.fetchAll(
            db.cachedStatement(
                sql: "SELECT data FROM coaty_objects WHERE collection = ? AND externalId = ? ORDER BY seq"),
            arguments: [collection, externalID]
        ).map(Self.parse)
    }

    func find(
        in collection: String, matching conditions: ObjectFilterConditions?, orderedBy ordering: [OrderByProperty],
        offset: Int, limit: Int
    ) throws -> [JSONObject] {
        try requireCollection(collection)
        guard limit > 0 else { return [] }
        let filter = SQLFilter(conditions)
        var arguments: StatementArguments = [collection]
        arguments += filter.arguments
        var keys: [String] = []
        for key in ordering {
            keys.append("coaty_sort_key(data, ?) COLLATE coaty_order" + (key.order == .descending ? " DESC" : ""))
            arguments += [key.path.json.serializedString()]
        }
        keys.append("seq")
        arguments += [Int64(clamping: limit), Int64(clamping: offset)]
        let sql =
            "SELECT data FROM coaty_objects WHERE collection = ? AND \(filter.sql) ORDER BY "
            + keys.joined(separator: ", ") + " LIMIT ? OFFSET ?"
        return try String.fetchAll(db, sql: sql, arguments: arguments).map(Self.parse)
    }

    func findInInsertionOrder(
        in collection: String, matching conditions: ObjectFilterConditions?, after position: Int64?, offset: Int,
        limit: Int
    ) throws -> (objects: [JSONObject], last: Int64?)? {
        try requireCollection(collection)
        guard limit > 0 else { return ([], position) }
        let filter = SQLFilter(conditions)
        var arguments: StatementArguments = [collection, position ?? Int64.min]
        arguments += filter.arguments
        arguments += [Int64(clamping: limit), Int64(clamping: offset)]
        let sql =
            "SELECT seq, data FROM coaty_objects WHERE collection = ? AND seq > ? AND \(filter.sql) "
            + "ORDER BY seq LIMIT ? OFFSET ?"
        var objects: [JSONObject] = []
        var last = position
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try rows.next() {
            last = row[0]
            objects.append(try Self.parse(row[1]))
        }
        return (objects, last)
    }

    func count(in collection: String, matching conditions: ObjectFilterConditions?) throws -> Int {
        try requireCollection(collection)
        let filter = SQLFilter(conditions)
        var arguments: StatementArguments = [collection]
        arguments += filter.arguments
        return try Int.fetchOne(
            db, sql: "SELECT COUNT(*) FROM coaty_objects WHERE collection = ? AND \(filter.sql)", arguments: arguments)
            ?? 0
    }

    func value(forKey key: String) throws -> JSONValue? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM coaty_values WHERE key = ?"), arguments: [key])
            .map { try JSONValue(parsing: $0) }
    }

    func keys() throws -> [String] {
        try String.fetchAll(db.cachedStatement(sql: "SELECT key FROM coaty_values ORDER BY key"))
    }

    static func parse(_ text: String) throws -> JSONObject {
        try EncodedObject.object(fromStored: text)
    }
}

struct SQLiteReader: SQLiteReading {
    let db: Database
}

/// The writes of the SQLite backend, inside GRDB's write transaction.
struct SQLiteWriter: SQLiteReading, StorageWriter {
    let db: Database

    func addCollection(_ name: String) throws {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO coaty_collections(name) VALUES (?)").execute(arguments: [
            name
        ])
    }

    func removeCollection(_ name: String) throws {
        try db.cachedStatement(sql: "DELETE FROM coaty_objects WHERE collection = ?").execute(arguments: [name])
        try db.cachedStatement(sql: "DELETE FROM coaty_collections WHERE name = ?").execute(arguments: [name])
    }

    func clearCollection(_ name: String) throws {
        try requireCollection(name)
        try db.cachedStatement(sql: "DELETE FROM coaty_objects WHERE collection = ?").execute(arguments: [name])
    }

    func put(_ object: EncodedObject, in collection: String) throws {
        try put([object], in: collection)
    }

    func put(_ objects: [EncodedObject], in collection: String) throws {
        try requireCollection(collection)
        try SQLiteUpsert.run(objects, in: collection, db: db)
    }

    func removeObjects(withIDs ids: [String], from collection: String) throws -> Int {
        try requireCollection(collection)
        var removed = 0
        for id in ids {
            try db.cachedStatement(sql: "DELETE FROM coaty_objects WHERE collection = ? AND objectId = ?").execute(
                arguments: [collection, id])
            removed += db.changesCount
        }
        return removed
    }

    func setValue(_ value: JSONValue?, forKey key: String) throws {
        if let value {
            try db.cachedStatement(
                sql:
                    "INSERT INTO coaty_values(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
            ).execute(
                arguments: [key, value.serializedString()])
        } else {
            try db.cachedStatement(sql: "DELETE FROM coaty_values WHERE key = ?").execute(arguments: [key])
        }
    }
}
