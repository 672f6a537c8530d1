import CoatyStorage
import PostgresNIO

/// The two upserts a recorder sends most, prepared once per connection: the server parses and
/// plans them once instead of for every write (about 100 µs of its time a statement).
///
/// Each runs alone in autocommit and first takes the writers' advisory lock, as the statements of
/// `PostgresUpsert` with a lock do; the SQL is the same.
enum PostgresPreparedUpsert {
    /// One object whose query form is its text.
    case one(One)
    /// Objects without external ids whose query forms are their texts, in one statement.
    case batch(Batch)

    /// The prepared statement for storing `objects`, or `nil` when they need another
    /// (`PostgresUpsert.statements(_:in:lock:)`): more than one statement's worth, text that holds
    /// U+0000, or external ids in a batch.
    static func make(_ objects: [EncodedObject], in collection: String) -> PostgresPreparedUpsert? {
        let unique = PostgresUpsert.unique(objects)
        guard unique.count <= PostgresUpsert.chunkSize,
            !unique.contains(where: { PostgresDocument.holdsEscapedNUL($0.text) })
        else { return nil }
        if unique.count == 1, let object = unique.first {
            return .one(One(collection: collection, object: object))
        }
        guard unique.allSatisfy({ $0.externalID == nil }) else { return nil }
        return .batch(Batch(collection: collection, ids: unique.map(\.objectID), texts: unique.map(\.text)))
    }

    /// Runs the statement on `connection`.
    func run(on connection: PostgresConnection, logger: Logger) async throws {
        switch self {
        case .one(let statement): _ = try await connection.execute(statement, logger: logger)
        case .batch(let statement): _ = try await connection.execute(statement, logger: logger)
        }
    }

    /// The statements' shared start: the writers' lock, then the insert.
    private static let start = PostgresUpsert.locking(PostgresSession.writerLock) + PostgresUpsert.insert

    struct One: PostgresPreparedStatement {
        static let name = "coaty_upsert_one"
        static let sql = start + "SELECT $1::text, $2::text, $3::text, $4::text, $4::text::jsonb FROM writer " + PostgresUpsert.upsert
        typealias Row = ()

        let collection: String
        let object: EncodedObject

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 4)
            bindings.append(collection)
            bindings.append(object.objectID)
            bindings.append(object.externalID)
            bindings.append(object.text)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {}
    }

    struct Batch: PostgresPreparedStatement {
        static let name = "coaty_upsert_batch"
        static let sql =
            start + "SELECT $1::text, o.id, NULL, o.data, o.data::jsonb "
            + "FROM writer, unnest($2::text[], $3::text[]) WITH ORDINALITY AS o(id, data, n) ORDER BY o.n " + PostgresUpsert.upsert
        typealias Row = ()

        let collection: String
        let ids: [String]
        let texts: [String]

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(collection)
            bindings.append(ids)
            bindings.append(texts)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {}
    }
}
