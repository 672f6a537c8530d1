import CoatyStorage

/// The tables of the PostgreSQL backend, created when missing on every new connection.
///
/// - `coaty_collections(name)`: the collections.
/// - `coaty_objects(seq, collection, object_id, external_id, data, doc)`: every object; `seq` is
///   the insertion order (an identity a replaced object keeps), unique on
///   `(collection, object_id)`, indexed on `(collection, external_id)` and, by a GIN index, on
///   `doc` (see `PostgresDocument` for `data` and `doc`). Collection names are data, never table
///   names.
/// - `coaty_values(key, value)`: the key-value store, values as JSON text.
enum PostgresSchema {
    static let statements = [
        "CREATE TABLE IF NOT EXISTS coaty_collections (name text PRIMARY KEY)",
        """
        CREATE TABLE IF NOT EXISTS coaty_objects (
            seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            collection text NOT NULL REFERENCES coaty_collections(name) ON DELETE CASCADE,
            object_id text NOT NULL,
            external_id text,
            data text NOT NULL,
            doc jsonb NOT NULL,
            UNIQUE (collection, object_id))
        """,
        "CREATE INDEX IF NOT EXISTS coaty_objects_external ON coaty_objects (collection, external_id)",
        "CREATE INDEX IF NOT EXISTS coaty_objects_doc ON coaty_objects USING GIN (doc)",
        "CREATE TABLE IF NOT EXISTS coaty_values (key text PRIMARY KEY, value text NOT NULL)",
    ]

    /// Checks the database's encoding and creates the tables, holding the writers' lock so that
    /// two processes starting together do not race.
    static func prepare(_ statements: PostgresStatements, lock: Int64) throws {
        let encoding = try statements.strings("SHOW server_encoding").first ?? "?"
        guard encoding == "UTF8" else {
            throw StorageError(
                code: .databaseFailed,
                detail: "the database's encoding is \(encoding), not UTF8; create it with createdb -E UTF8")
        }
        try statements.run("BEGIN")
        do {
            try statements.run("SELECT pg_advisory_xact_lock(\(lock))")
            for statement in Self.statements { try statements.run(statement) }
            try statements.run("COMMIT")
        } catch {
            _ = try? statements.run("ROLLBACK")
            throw error
        }
    }
}
