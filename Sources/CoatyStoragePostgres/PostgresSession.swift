import CoatyStorage
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// The connection of a ``PostgresBackend`` and the thread that uses it.
///
/// The storage protocols are synchronous, postgres-nio is not: every transaction runs on a
/// thread of its own (a one-thread `NIOThreadPool`), which waits for each statement's result. A
/// batch of upserts that is one statement runs from the caller's task instead (``put(_:in:)``),
/// without the two thread wake-ups. A ``SerialGate`` lets one of them at a time use the
/// connection, in the order they were asked, so a read after a write sees it.
///
/// **Reconnecting.** A transaction starts on the open connection, or connects first when there is
/// none or it was closed (the server restarted, the network went away). When the first statement
/// of a transaction fails because the connection turns out to be gone, it connects once more and
/// runs it again: nothing of the transaction had run. A connection lost in the middle of a transaction fails that transaction
/// (the server rolls it back), and the next one reconnects.
final class PostgresSession: Sendable {
    /// Where it connects.
    let location: PostgresURL
    let logger: Logger
    private let thread: NIOThreadPool
    /// Who uses `connection` now: a transaction on `thread` or a direct write.
    private let gate = SerialGate()
    /// The open connection, set once its tables exist; used only by the holder of `gate`.
    private let connection = Mutex<PostgresConnection?>(nil)
    /// The connections of streamed finds (`PostgresStream`): the idle ones, kept for the next,
    /// and how many are in use (at most ``streamLimit``).
    private let streamConnections = Mutex<(idle: [PostgresConnection], inUse: Int)>(([], 0))

    init(location: PostgresURL, logger: Logger) {
        self.location = location
        self.logger = logger
        thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
    }

    deinit {
        connection.withLock { $0.map(Self.close) }
        streamConnections.withLock { $0.idle.forEach(Self.close) }
        thread.shutdownGracefully { _ in }
    }

    /// Runs `body` in a read-only transaction on the session's thread; it sees one snapshot.
    func read<T: Sendable>(_ body: @Sendable (PostgresStatements) throws -> T) async throws -> T {
        try await onThread { try self.readOnThread(body) }
    }

    /// Runs `body` in a write transaction on the session's thread: committed when it returns,
    /// rolled back when it throws. Writes take a lock that serializes them with every other writer
    /// of the database (as SQLite has one writer), and begin only when they need to (see
    /// `PostgresWrite`).
    func write<T: Sendable>(_ body: @Sendable (PostgresWrite) throws -> T) async throws -> T {
        try await onThread { try self.writeOnThread(body) }
    }

    /// Stores `objects` with one prepared autocommit statement from the caller's task
    /// (`PostgresPreparedUpsert`); `false` when they need another statement or there is no open
    /// connection (the caller writes them in a transaction on the thread, which connects).
    func put(_ objects: [EncodedObject], in collection: String) async throws -> Bool {
        try PostgresWriter.check(objects, in: collection)
        guard let statement = PostgresPreparedUpsert.make(objects, in: collection) else { return false }
        await gate.enter()
        defer { gate.leave() }
        guard let open = connection.withLock({ $0 }), !open.isClosed else { return false }
        do {
            try await statement.run(on: open, logger: logger)
            return true
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23503" {
            throw StorageError.collectionNotFound(collection)
        } catch where Self.isConnectionLost(error) {
            // The transaction that writes them instead reconnects; an upsert done twice changes nothing.
            close()
            return false
        } catch {
            throw databaseError("writing", error)
        }
    }

    private func onThread<T: Sendable>(_ work: @Sendable () throws -> T) async throws -> T {
        await gate.enter()
        defer { gate.leave() }
        return try await withoutActuallyEscaping(work) { work in
            // The pool may hold its work item a little after it ran: the item holds `work` only
            // through the handoff, which lets go of it before the result is delivered.
            let handoff = Handoff(work)
            defer { handoff.release() }
            return try await thread.runIfActive { try handoff.run() }
        }
    }

    private func writeOnThread<T>(_ body: (PostgresWrite) throws -> T) throws -> T {
        let write = PostgresWrite(connection: try openConnection().connection, logger: logger, lock: Self.writerLock) {
            self.close()
            return try self.openConnection().connection
        }
        do {
            let result = try body(write)
            try write.commit()
            return result
        } catch {
            if Self.isConnectionLost(error) {
                close()
            } else {
                write.rollBack()
            }
            throw databaseError("writing", error)
        }
    }

    private func readOnThread<T>(_ body: (PostgresStatements) throws -> T) throws -> T {
        let begin = "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"
        var statements = try openConnection()
        do {
            do {
                try statements.run(begin)
            } catch where Self.isConnectionLost(error) {
                close()
                statements = try openConnection()
                try statements.run(begin)
            }
        } catch {
            throw databaseError("starting a transaction", error)
        }
        do {
            let result = try body(statements)
            try statements.run("COMMIT")
            return result
        } catch {
            if Self.isConnectionLost(error) {
                close()
            } else {
                _ = try? statements.run("ROLLBACK")
            }
            throw databaseError("reading", error)
        }
    }

    // MARK: - Connecting

    /// The statements of the open connection; connects (and creates the tables) when there is none.
    private func openConnection() throws -> PostgresStatements {
        if let open = connection.withLock({ $0 }), !open.isClosed {
            return PostgresStatements(connection: open, logger: logger)
        }
        close()
        let opened: PostgresConnection
        do {
            opened = try connect(id: 1).wait()
        } catch {
            throw connectionFailure(error)
        }
        let statements = PostgresStatements(connection: opened, logger: logger)
        do {
            try PostgresSchema.prepare(statements, lock: Self.writerLock)
        } catch {
            Self.close(opened)
            throw databaseError("preparing the tables", error)
        }
        connection.withLock { $0 = opened }
        return statements
    }

    private func connect(id: Int) -> EventLoopFuture<PostgresConnection> {
        let configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: .disable)
        return PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration, id: id, logger: logger)
    }

    private func connectionFailure(_ error: any Error) -> StorageError {
        StorageError(
            code: .databaseFailed, detail: "cannot connect to \(location): \(Self.reason(error)); is the server running?")
    }

    /// How many streamed finds may read at once; more read in batches on the session's connection.
    static var streamLimit: Int { 4 }

    /// A connection for a streamed find: an idle one, else a new one; `nil` when ``streamLimit``
    /// are in use. Give it back with ``releaseStreamConnection(_:reusable:)``.
    func takeStreamConnection() async throws -> PostgresConnection? {
        let taken = streamConnections.withLock { state -> PostgresConnection?? in
            guard state.inUse < Self.streamLimit else { return nil }
            state.inUse += 1
            while let idle = state.idle.popLast() {
                if !idle.isClosed { return .some(idle) }
            }
            return .some(nil)
        }
        guard let taken else { return nil }
        if let taken { return taken }
        do {
            return try await connect(id: 2).get()
        } catch {
            streamConnections.withLock { $0.inUse -= 1 }
            throw connectionFailure(error)
        }
    }

    /// Gives back a stream's connection: kept for the next when `reusable` (its statement has
    /// ended), else closed.
    func releaseStreamConnection(_ released: PostgresConnection, reusable: Bool) {
        let keep = reusable && !released.isClosed
        streamConnections.withLock { state in
            state.inUse -= 1
            if keep { state.idle.append(released) }
        }
        if !keep { Self.close(released) }
    }

    /// Closes the kept stream connections.
    func closeIdleStreamConnections() {
        let idle = streamConnections.withLock { state in
            defer { state.idle = [] }
            return state.idle
        }
        idle.forEach(Self.close)
    }

    private func close() {
        connection.withLock { current in
            current.map(Self.close)
            current = nil
        }
    }

    /// Closes `connection` and keeps it until it is closed (postgres-nio requires that).
    private static func close(_ connection: PostgresConnection) {
        connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    /// The advisory lock every writer holds for its transaction (a constant: "coaty").
    static var writerLock: Int64 { 0x636F_6174_79 }

    // MARK: - Errors

    /// A `StorageError` for an error of the driver; any other error (a `StorageError`, the
    /// caller's own) is returned as it is.
    func databaseError(_ operation: String, _ error: any Error) -> any Error {
        guard error is PSQLError || error is ChannelError else { return error }
        if Self.isConnectionLost(error) {
            return StorageError(
                code: .databaseFailed,
                detail: "\(operation) failed: the connection to \(location) was lost (\(Self.reason(error))); "
                    + "the next operation reconnects")
        }
        return StorageError.databaseFailed("\(operation) on \(location)", Self.reason(error))
    }

    /// Whether `error` means the connection is gone (rather than a statement failed).
    static func isConnectionLost(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return error is ChannelError }
        switch error.code {
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .connectionError: return true
        case .server:
            // 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now: the server is going away.
            return error.serverInfo?[.sqlState].map { $0.hasPrefix("57P") } ?? false
        default: return false
        }
    }

    /// The server's message, or the underlying network error, in words.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if let message = error.serverInfo?[.message] {
            let state = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
            return message + state
        }
        if let underlying = error.underlying { return "\(underlying)" }
        return "\(error.code)"
    }
}

/// Work handed to another thread that must not outlive the call that handed it over
/// (`withoutActuallyEscaping` checks that).
private final class Handoff<T: Sendable>: Sendable {
    private let work: Mutex<(@Sendable () throws -> T)?>

    init(_ work: @escaping @Sendable () throws -> T) {
        self.work = Mutex(work)
    }

    /// Runs the work, once; the reference to it ends when this returns.
    func run() throws -> T {
        let work = self.work.withLock { work in
            defer { work = nil }
            return work
        }
        guard let work else { throw CancellationError() }
        return try work()
    }

    /// Lets go of the work if it never ran.
    func release() {
        work.withLock { $0 = nil }
    }
}
