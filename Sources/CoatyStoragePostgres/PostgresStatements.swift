import Logging
import NIOCore
import PostgresNIO

/// Synchronous statements on one connection, for the synchronous `StorageReader` and
/// `StorageWriter` protocols: each waits for its result. Used only on the backend's own thread
/// (never an event loop or a task's thread), where waiting is allowed.
///
/// In a write transaction every statement first lets ``write`` begin the transaction and send
/// the upserts it holds back.
struct PostgresStatements {
    let connection: PostgresConnection
    let logger: Logger
    /// The write transaction these statements belong to, if they write.
    var write: PostgresWrite? = nil

    /// Runs `sql` with `arguments` and returns all rows.
    @discardableResult
    func run(_ sql: String, _ arguments: PostgresArguments = PostgresArguments()) throws -> PostgresQueryResult {
        try write?.prepareForStatement()
        return try (write?.connection ?? connection).query(
            PostgresQuery(unsafeSQL: sql, binds: arguments.binds), logger: logger
        ).wait()
    }

    /// The first column of every row, as text.
    func strings(_ sql: String, _ arguments: PostgresArguments = PostgresArguments()) throws -> [String] {
        try run(sql, arguments).map { try $0.decode(String.self) }
    }

}
