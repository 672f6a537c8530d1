import CoatyStorage
import PostgresNIO

/// A write transaction that begins only when a statement needs it.
///
/// Puts are blind writes, so they are held back: before the next statement of the transaction
/// (which may read them) it begins (`BEGIN`, the writers' advisory lock) and sends them; when
/// the transaction ends having done nothing but one statement's worth of upserts, that
/// statement runs alone in autocommit and takes the lock itself, one round trip where a
/// recorder's write would otherwise take four. Lives on the session's thread only.
final class PostgresWrite {
    private(set) var connection: PostgresConnection
    private let logger: Logger
    private let lock: Int64
    /// A new connection, when the first statement finds the open one gone.
    private let reconnect: () throws -> PostgresConnection
    private var begun = false
    /// Upserts not sent yet, a collection's consecutive puts together.
    private var held: [(collection: String, objects: [EncodedObject])] = []

    init(
        connection: PostgresConnection, logger: Logger, lock: Int64,
        reconnect: @escaping () throws -> PostgresConnection
    ) {
        self.connection = connection
        self.logger = logger
        self.lock = lock
        self.reconnect = reconnect
    }

    /// The statements of this transaction.
    var statements: PostgresStatements {
        PostgresStatements(connection: connection, logger: logger, write: self)
    }

    /// Holds `objects` back until the next statement or the end.
    func hold(_ objects: [EncodedObject], in collection: String) {
        guard !objects.isEmpty else { return }
        if let last = held.last, last.collection == collection {
            held[held.count - 1].objects += objects
        } else {
            held.append((collection, objects))
        }
    }

    /// Begins when not yet begun and sends what is held.
    func prepareForStatement() throws {
        if !begun { try begin() }
        let sending = held
        held = []
        for (collection, objects) in sending {
            for statement in try PostgresUpsert.statements(objects, in: collection, lock: nil) {
                try run(statement, in: collection)
            }
        }
    }

    /// Ends the transaction: commits it, or sends a lone statement in autocommit.
    func commit() throws {
        if !begun {
            guard let only = held.first else { return }
            if held.count == 1, only.objects.count <= PostgresUpsert.chunkSize {
                held = []
                let statements = try PostgresUpsert.statements(only.objects, in: only.collection, lock: lock)
                try firstContact { try statements.forEach { try run($0, in: only.collection) } }
                return
            }
        }
        try prepareForStatement()
        try execute("COMMIT")
    }

    /// Rolls back a begun transaction; what was held is dropped.
    func rollBack() {
        held = []
        if begun { _ = try? execute("ROLLBACK") }
    }

    private func begin() throws {
        try firstContact {
            try execute("BEGIN ISOLATION LEVEL READ COMMITTED")
            try execute("SELECT pg_advisory_xact_lock(\(lock))")
        }
        begun = true
    }

    /// Runs the transaction's first statements, again on a new connection when the open one
    /// turns out to be gone (nothing of the transaction had run).
    private func firstContact(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch where PostgresSession.isConnectionLost(error) {
            connection = try reconnect()
            try body()
        }
    }

    private func run(_ statement: (sql: String, arguments: PostgresArguments), in collection: String) throws {
        do {
            try execute(statement.sql, statement.arguments)
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23503" {
            throw StorageError.collectionNotFound(collection)
        }
    }

    /// Runs `sql` as it is, outside this bookkeeping.
    private func execute(_ sql: String, _ arguments: PostgresArguments = PostgresArguments()) throws {
        try PostgresStatements(connection: connection, logger: logger).run(sql, arguments)
    }
}

/// The upsert statements of a put, so a replaced object keeps its `seq` (its place in the
/// insertion order).
enum PostgresUpsert {
    /// One statement per chunk of 1,000 objects. An object id given twice is stored once, at its
    /// first place with its last contents, as one put after another would leave it (PostgreSQL
    /// cannot upsert one row twice in a statement). With `lock`, the statement first takes that
    /// advisory lock (for a statement run alone in autocommit).
    static func statements(_ objects: [EncodedObject], in collection: String, lock: Int64?) throws -> [(
        sql: String, arguments: PostgresArguments
    )] {
        let unique = unique(objects)
        return try stride(from: 0, to: unique.count, by: chunkSize).map { first in
            try statement(unique[first..<min(first + chunkSize, unique.count)], in: collection, lock: lock)
        }
    }

    static var chunkSize: Int { 1000 }

    /// The start of a statement that first takes advisory lock `lock` (a CTE its `SELECT` reads `FROM`).
    static func locking(_ lock: Int64) -> String { "WITH writer AS (SELECT pg_advisory_xact_lock(\(lock))) " }
    static let insert = "INSERT INTO coaty_objects(collection, object_id, external_id, data, doc) "
    /// The end of every upsert: a stored object keeps its row (and `seq`), with the new contents.
    static let upsert = """
        ON CONFLICT (collection, object_id) DO UPDATE \
        SET external_id = excluded.external_id, data = excluded.data, doc = excluded.doc
        """

    /// Each object id once, at its first place with its last contents.
    static func unique(_ objects: [EncodedObject]) -> [EncodedObject] {
        guard objects.count > 1 else { return objects }
        var places: [String: Int] = [:]
        var unique: [EncodedObject] = []
        for object in objects {
            if let place = places[object.objectID] {
                unique[place] = object
            } else {
                places[object.objectID] = unique.count
                unique.append(object)
            }
        }
        return unique
    }

    private static func statement(_ objects: ArraySlice<EncodedObject>, in collection: String, lock: Int64?) throws -> (
        sql: String, arguments: PostgresArguments
    ) {
        var arguments = PostgresArguments()
        let locking = lock.map(Self.locking) ?? ""
        if objects.count == 1, let object = objects.first {
            // One object (a recorded event): plain values, which the server plans faster.
            let data = arguments.text(object.text)
            let values = [
                arguments.text(collection), arguments.text(object.objectID), arguments.text(object.externalID), data,
                try PostgresDocument.differingQueryText(of: object).map { arguments.jsonb($0) } ?? data + "::jsonb",
            ]
            let source = lock == nil ? "VALUES (\(values.joined(separator: ", ")))" : "SELECT \(values.joined(separator: ", ")) FROM writer"
            return (
                "\(locking)\(insert)\(source) \(upsert)",
                arguments
            )
        }
        let documents = try objects.map { try PostgresDocument.differingQueryText(of: $0) }
        let from = lock == nil ? "" : "writer, "
        let insert = locking + Self.insert
        let sql: String
        if documents.allSatisfy({ $0 == nil }), objects.allSatisfy({ $0.externalID == nil }) {
            // The usual batch (no external ids, no NUL): ids and texts only.
            let values = [arguments.texts(objects.map(\.objectID)), arguments.texts(objects.map(\.text))]
            sql = """
                \(insert)SELECT \(arguments.text(collection)), o.id, NULL, o.data, o.data::jsonb \
                FROM \(from)unnest(\(values.joined(separator: ", "))) WITH ORDINALITY AS o(id, data, n) \
                ORDER BY o.n \(upsert)
                """
        } else {
            let values = [
                arguments.texts(objects.map(\.objectID)), arguments.texts(objects.map { $0.externalID ?? "" }),
                arguments.booleans(objects.map { $0.externalID != nil }), arguments.texts(objects.map(\.text)),
                // The text again only where it differs (holds NUL); else "" and the data is used.
                arguments.texts(documents.map { $0 ?? "" }),
            ]
            sql = """
                \(insert)SELECT \(arguments.text(collection)), o.id, CASE WHEN o.has_external THEN o.external END, \
                o.data, (CASE WHEN o.doc = '' THEN o.data ELSE o.doc END)::jsonb \
                FROM \(from)unnest(\(values.joined(separator: ", "))) WITH ORDINALITY AS o(id, external, has_external, data, doc, n) \
                ORDER BY o.n \(upsert)
                """
        }
        return (sql, arguments)
    }
}
