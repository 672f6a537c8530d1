import CoatyStorage
import GRDB
import GRDBSQLite

/// The backend's upsert of objects, run through SQLite's C API on GRDB's cached statement: per
/// object three bindings and a step. GRDB's `execute(arguments:)` would validate and box the
/// arguments and clear the bindings twice for every object; the strings are bound as GRDB binds
/// them (C strings for the duration of the step, no copy).
///
/// A replaced object keeps its `seq` (its place in the insertion order): an upsert, not a delete
/// and an insert.
enum SQLiteUpsert {
    static let sql = """
        INSERT INTO coaty_objects(collection, objectId, externalId, data) VALUES (?, ?, ?, ?)
        ON CONFLICT(collection, objectId) DO UPDATE SET externalId = excluded.externalId, data = excluded.data
        """

    /// Stores `objects` in `collection`, inside the caller's write transaction.
    static func run(_ objects: [EncodedObject], in collection: String, db: Database) throws {
        let statement = try db.cachedStatement(sql: sql)
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        // Each step resets the statement; no binding may outlive the strings it points to.
        defer { sqlite3_clear_bindings(handle) }
        try collection.withCString { collectionText in
            sqlite3_bind_text(handle, 1, collectionText, -1, nil)
            for object in objects {
                let code = object.objectID.withCString { id in
                    object.text.withCString { text in
                        sqlite3_bind_text(handle, 2, id, -1, nil)
                        sqlite3_bind_text(handle, 4, text, -1, nil)
                        guard let externalID = object.externalID else {
                            sqlite3_bind_null(handle, 3)
                            return step(handle)
                        }
                        return externalID.withCString { externalText in
                            sqlite3_bind_text(handle, 3, externalText, -1, nil)
                            return step(handle)
                        }
                    }
                }
                guard code == SQLITE_DONE else {
                    throw DatabaseError(
                        resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                        sql: sql)
                }
            }
        }
    }

    /// Runs the upsert once with the current bindings; SQLite's result code.
    private static func step(_ handle: OpaquePointer) -> CInt {
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        return code
    }
}
