import CoreTypes
import Logging
import NIOPosix
import PostgresNIO

/// PostgresBackend's statements by hand through postgres-nio, on a connection of its own.
final class PostgresHandWritten: HandWritten {
    let connection: PostgresConnection
    private let logger = Logger(label: "benchmark.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    init(host: String, port: Int, user: String, database: String) async throws {
        let configuration = PostgresConnection.Configuration(
            host: host, port: port, username: user, password: nil, database: database, tls: .disable)
        connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration, id: 2, logger: logger)
    }

    func close() async throws {
        try await connection.close()
    }

    private func upsert(_ text: String, into collection: String) async throws {
        let id = try HandRow.objectID(of: text)
        try await connection.query(
            """
            INSERT INTO coaty_objects(collection, object_id, external_id, data, doc) \
            VALUES (\(collection), \(id), NULL, \(text), \(text)::jsonb) \
            ON CONFLICT (collection, object_id) DO UPDATE \
            SET external_id = excluded.external_id, data = excluded.data, doc = excluded.doc
            """, logger: logger)
    }

    func insertEach(_ texts: [String], into collection: String) async throws {
        for text in texts { try await upsert(text, into: collection) }
    }

    /// One statement for the batch, as the backend writes one (ids unique in the benchmark's batches).
    func insertAll(_ rows: [HandRow], into collection: String) async throws {
        let (ids, texts) = (rows.map(\.id), rows.map(\.text))
        try await connection.query(
            """
            INSERT INTO coaty_objects(collection, object_id, external_id, data, doc) \
            SELECT \(collection), o.id, NULL, o.data, o.data::jsonb \
            FROM unnest(\(ids)::text[], \(texts)::text[]) WITH ORDINALITY AS o(id, data, n) ORDER BY o.n \
            ON CONFLICT (collection, object_id) DO UPDATE \
            SET external_id = excluded.external_id, data = excluded.data, doc = excluded.doc
            """, logger: logger)
    }

    func find(_ query: Workload.Query, in collection: String) async throws -> Int {
        let rows: PostgresRowSequence
        switch query {
        case .equalities:
            let document = #"{"room":"room-3","n":7}"#
            rows = try await connection.query(
                "SELECT data FROM coaty_objects WHERE collection = \(collection) AND doc @> \(document)::jsonb ORDER BY seq",
                logger: logger)
        case .rangeOrdered:
            rows = try await connection.query(
                """
                SELECT data FROM coaty_objects WHERE collection = \(collection) \
                AND jsonb_typeof(doc->'level') = 'number' AND (doc->>'level')::float8 > \(990.0) \
                ORDER BY (doc->>'level')::float8 DESC, seq LIMIT 100
                """, logger: logger)
        case .prefix:
            rows = try await connection.query(
                """
                SELECT data FROM coaty_objects WHERE collection = \(collection) \
                AND doc->>'name' LIKE \("Light 12345%") ORDER BY seq
                """, logger: logger)
        }
        var count = 0
        for try await text in rows.decode(String.self) {
            _ = try JSONValue(parsing: text)
            count += 1
        }
        return count
    }

    func countOn(in collection: String) async throws -> Int {
        let document = #"{"on":true}"#
        let rows = try await connection.query(
            "SELECT COUNT(*) FROM coaty_objects WHERE collection = \(collection) AND doc @> \(document)::jsonb",
            logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }
}
