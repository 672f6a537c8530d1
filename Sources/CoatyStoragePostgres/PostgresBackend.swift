public import CoatyStorage
package import CoreTypes
public import Logging

/// The server backend: a PostgreSQL database, for many agents sharing one store and for long
/// histories.
///
/// ```swift
/// let backend = try PostgresBackend(url: "postgres://coaty@db.local:5432/objects")
/// let store = ObjectStore(backend: backend, registry: registry)
/// ```
///
/// It connects on the first operation and creates its tables when missing (`coaty_collections`,
/// `coaty_objects`, `coaty_values`, in the database's search path). When the server cannot be
/// reached, an operation fails with `StorageError.Code.databaseFailed`
/// ("cannot connect to postgres://…: …; is the server running?"); the next operation tries again,
/// so a restarted server is picked up without a new backend.
///
/// **Layout.** Objects are stored twice in one row: their exact JSON text, which reads return,
/// and as JSONB with a GIN index, which queries look at; `objectId` and `externalId` are indexed
/// columns. `seq` keeps the insertion order, which a replaced object keeps (an upsert).
///
/// **Queries.** PostgreSQL cannot run `ObjectMatcher` or the ICU collation, so conditions become a
/// parameterised SQL pre-filter that is exact where SQL provably is the matcher (`Exists`, strict
/// equality with strings, Booleans, `null` and integers) and a superset elsewhere; the matcher
/// then decides in Swift on the candidate rows. An ordering on plain member paths is SQL's until
/// a match has a string at a key (strings need the collation); then the reference code
/// (`ObjectFilter/apply(to:)`) orders. A filter whose pre-filter is exact is counted and paged in
/// SQL. Every member path and value is a bound parameter.
///
/// **Transactions.** Reads run in a `REPEATABLE READ, READ ONLY` transaction (one snapshot);
/// writes in one that first takes a transaction-scoped advisory lock, so writers of the database,
/// in this process or another, take turns as SQLite's one writer does, and a write that throws is
/// rolled back. One connection per backend serves these one at a time; an unordered find without
/// joins is one statement read as it goes on a connection of its own (up to 4 more). An
/// `ObjectStore/insert(_:into:replacing:)` that is one upsert statement (up to 1,000 objects) is
/// sent from the caller's task as a prepared statement, in autocommit, taking the same lock.
///
/// **Limits.** PostgreSQL `text` cannot hold U+0000: collection names, object ids, external ids
/// and keys holding it are rejected with `StorageError.Code.invalidArgument` (object contents may
/// hold it). The connection is not encrypted (TLS is not configurable yet).
public final class PostgresBackend: StorageBackend {
    private let session: PostgresSession

    /// The server and database it connects to.
    public var url: PostgresURL { session.location }

    /// A backend for the database at `url` (`postgres://user[:password]@host[:port]/database`);
    /// nothing is connected until the first operation.
    ///
    /// - Parameters:
    ///   - url: The server and database.
    ///   - logger: Where postgres-nio logs; nothing is logged by default.
    /// - Throws: `StorageError` with code `StorageError.Code.invalidArgument` for a malformed URL.
    public convenience init(url: String, logger: Logger? = nil) throws {
        self.init(url: try PostgresURL(url), logger: logger)
    }

    /// A backend for the database at `url`; nothing is connected until the first operation.
    ///
    /// - Parameters:
    ///   - url: The server and database.
    ///   - logger: Where postgres-nio logs; nothing is logged by default.
    public init(url: PostgresURL, logger: Logger? = nil) {
        session = PostgresSession(
            location: url,
            logger: logger ?? Logger(label: "coaty.storage.postgres", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    /// Runs `body` in a read-only transaction that sees one snapshot.
    public func read<T: Sendable>(_ body: @Sendable (any StorageReader) throws -> T) async throws -> T {
        try await session.read { statements in try body(PostgresReader(statements: statements)) }
    }

    /// Runs `body` in a write transaction, committed when it returns and rolled back when it throws.
    public func write<T: Sendable>(_ body: @Sendable (any StorageWriter) throws -> T) async throws -> T {
        try await session.write { write in try body(PostgresWriter(write: write)) }
    }
}

extension PostgresBackend: DirectWriteBackend {
    /// A batch that is one upsert statement, sent from the caller's task (see `PostgresSession`).
    package func put(_ objects: [EncodedObject], in collection: String) async throws -> Bool {
        try await session.put(objects, in: collection)
    }
}

extension PostgresBackend: StreamingBackend {
    /// One statement in insertion order on a connection of its own (`PostgresStream`), paged in
    /// SQL when the pre-filter is exact; an inexact one is streamed only without a `limit` (the
    /// statement would otherwise run on past the last object wanted). `nil` when
    /// `PostgresSession.streamLimit` streams are reading.
    package func stream(
        in collection: String, matching conditions: ObjectFilterConditions?, offset: Int, limit: Int?
    ) async throws -> (any ObjectStream)? {
        var arguments = PostgresArguments()
        let filter = PostgresFilter(conditions, arguments: &arguments)
        guard filter.isExact || limit == nil else { return nil }
        try await read { reader in
            guard try reader.containsCollection(collection) else { throw StorageError.collectionNotFound(collection) }
        }
        var sql = "SELECT data FROM coaty_objects WHERE collection = \(arguments.text(collection)) AND \(filter.sql) ORDER BY seq"
        if filter.isExact {
            sql += " OFFSET \(arguments.integer(offset))"
            if let limit { sql += " LIMIT \(arguments.integer(limit))" }
        }
        return try await PostgresStream.open(
            sql, arguments, session: session, matching: filter.isExact ? nil : conditions,
            skip: filter.isExact ? 0 : offset)
    }
}
