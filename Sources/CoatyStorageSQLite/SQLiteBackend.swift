public import CoatyStorage
import CoreTypes
import GRDB

/// The embedded default backend: one SQLite file, nothing to start.
///
/// ```swift
/// let store = ObjectStore(backend: try SQLiteBackend(path: "/var/lib/coaty/objects.db"), registry: registry)
/// ```
///
/// **Why GRDB** (rather than sqlite-nio): its `DatabasePool` runs SQLite in WAL mode with one
/// writer and concurrent readers, it is synchronous underneath (SQLite is; no event loop to hop
/// through), battle-tested, and it registers custom SQL functions and collations, which this
/// backend needs to order strings by ICU collation and to evaluate what SQL cannot express
/// exactly as `ObjectMatcher` does. It links the system's SQLite (`libsqlite3-dev`).
///
/// **Layout.** One table `coaty_objects(seq, collection, objectId, externalId, data)` holds every
/// object as its JSON text, unique on `(collection, objectId)` and indexed on
/// `(collection, externalId)` and `(collection, seq)`; `seq` is the insertion order, which a replaced object keeps (an
/// upsert, not delete and insert). Collection names are therefore data, never table names.
/// `coaty_collections` lists the collections, `coaty_values` is the key-value store.
///
/// **Queries.** Conditions become parameterised SQL, exact where SQL is provably the matcher and
/// the matcher itself (a registered function) elsewhere; ordering is `ORDER BY` on a sort key
/// with a collation that calls CoreTypes' comparison, ties broken by `seq`; `skip`/`take` become
/// `LIMIT`/`OFFSET`, and the batches of an unordered find continue after the last `seq` read,
/// all bound parameters. The choices are listed on the
/// functions and the filter translation.
public final class SQLiteBackend: StorageBackend {
    private let pool: DatabasePool

    /// Opens (or creates) the database file at `path` and its tables.
    ///
    /// - Throws: `StorageError` with code `StorageError.Code.databaseFailed` when the
    ///   file cannot be opened or is not a database of this layout.
    public init(path: String) throws {
        var configuration = Configuration()
        let functions = SQLiteFunctions()
        configuration.prepareDatabase { db in functions.install(in: db) }
        // Other processes (a CLI reading while a recorder writes) may hold the write lock briefly.
        configuration.busyMode = .timeout(10)
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            try Self.migrator.migrate(pool)
        } catch {
            throw StorageError.databaseFailed("opening '\(path)'", "\(error)")
        }
    }

    /// Runs `body` in a read transaction of its own (WAL: it does not wait for writers).
    public func read<T: Sendable>(_ body: @Sendable (any StorageReader) throws -> T) async throws -> T {
        try await Self.mappingErrors("reading") {
            try await pool.read { db in try body(SQLiteReader(db: db)) }
        }
    }

    /// Runs `body` in a write transaction, committed when it returns.
    public func write<T: Sendable>(_ body: @Sendable (any StorageWriter) throws -> T) async throws -> T {
        try await Self.mappingErrors("writing") {
            try await pool.write { db in try body(SQLiteWriter(db: db)) }
        }
    }

    /// Turns GRDB's errors into `StorageError`s; other errors (the caller's own,
    /// cancellation) pass through.
    private static func mappingErrors<T>(_ operation: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as DatabaseError {
            if let message = error.message, message.hasPrefix(SQLiteFunctions.filterFailedMarker) {
                let detail = String(message.dropFirst(SQLiteFunctions.filterFailedMarker.count))
                throw StorageError.filterFailed(FilterError(code: .evaluationFailed, detail: detail))
            }
            throw StorageError.databaseFailed(operation, "\(error)")
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("coaty-storage-1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE coaty_collections (name TEXT PRIMARY KEY) WITHOUT ROWID;
                    CREATE TABLE coaty_objects (
                        seq INTEGER PRIMARY KEY,
                        collection TEXT NOT NULL REFERENCES coaty_collections(name) ON DELETE CASCADE,
                        objectId TEXT NOT NULL,
                        externalId TEXT,
                        data TEXT NOT NULL,
                        UNIQUE (collection, objectId));
                    CREATE INDEX coaty_objects_external ON coaty_objects(collection, externalId);
                    CREATE TABLE coaty_values (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                    """)
        }
        // Finds page by `seq` within a collection: an index range instead of a scan per batch.
        migrator.registerMigration("coaty-storage-2") { db in
            try db.execute(sql: "CREATE INDEX coaty_objects_order ON coaty_objects(collection, seq)")
        }
        return migrator
    }
}
