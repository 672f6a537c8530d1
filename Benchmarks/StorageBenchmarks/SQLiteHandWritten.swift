import CoreTypes
import GRDB

/// SQLiteBackend's statements by hand through GRDB, on a pool over the same file layout.
struct SQLiteHandWritten: HandWritten {
    let pool: DatabasePool

    init(path: String) throws {
        pool = try DatabasePool(path: path)
    }

    private static let upsert = """
        INSERT INTO coaty_objects(collection, objectId, externalId, data) VALUES (?, ?, NULL, ?)
        ON CONFLICT(collection, objectId) DO UPDATE SET externalId = excluded.externalId, data = excluded.data
        """

    func insertEach(_ texts: [String], into collection: String) async throws {
        for text in texts {
            let id = try HandRow.objectID(of: text)
            try await pool.write { db in try db.execute(sql: Self.upsert, arguments: [collection, id, text]) }
        }
    }

    func insertAll(_ rows: [HandRow], into collection: String) async throws {
        try await pool.write { db in
            let statement = try db.cachedStatement(sql: Self.upsert)
            for row in rows {
                try statement.execute(arguments: [collection, row.id, row.text])
            }
        }
    }

    func find(_ query: Workload.Query, in collection: String) async throws -> Int {
        let (condition, order, arguments): (String, String, StatementArguments)
        switch query {
        case .equalities:
            (condition, order, arguments) = (
                "json_extract(data, '$.room') = ? AND json_extract(data, '$.n') = ?", "seq", ["room-3", 7]
            )
        case .rangeOrdered:
            (condition, order, arguments) = (
                "json_extract(data, '$.level') > ?", "json_extract(data, '$.level') DESC, seq LIMIT 100", [990]
            )
        case .prefix:
            (condition, order, arguments) = ("json_extract(data, '$.name') LIKE ?", "seq", ["Light 12345%"])
        }
        let sql = "SELECT data FROM coaty_objects WHERE collection = ? AND \(condition) ORDER BY \(order)"
        return try await pool.read { db in
            var rows = 0
            let cursor = try String.fetchCursor(db, sql: sql, arguments: [collection] + arguments)
            while let text = try cursor.next() {
                _ = try JSONValue(parsing: text)
                rows += 1
            }
            return rows
        }
    }

    func countOn(in collection: String) async throws -> Int {
        try await pool.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM coaty_objects WHERE collection = ? AND json_extract(data, '$.on') = 1",
                arguments: [collection]) ?? 0
        }
    }
}
