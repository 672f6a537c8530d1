import CoatyStorage
import CoreTypes
import PostgresNIO

/// An unordered find read by one statement on a connection of its own, as the sequence asks for
/// objects: the server scans once (the driver holds back what is not asked for yet), where a
/// read per batch would repeat the scan. An inexact pre-filter's candidates pass the matcher here.
///
/// Ends by giving its connection back to the session: for the next stream when the statement
/// has run out, closed when the stream is released before or fails.
actor PostgresStream: ObjectStream {
    private let session: PostgresSession
    private let connection: PostgresConnection
    private var rows: PostgresRowSequence.AsyncIterator
    /// The conditions each row must match; `nil` when the statement selects exactly the matches.
    private let conditions: ObjectFilterConditions?
    /// Matches still to pass over before the first one delivered.
    private var skip: Int
    private var isEnded = false

    /// Runs `sql` on a stream connection, once more on a new one when a kept one turns out to be
    /// gone (the server restarted); `nil` when none is free.
    static func open(
        _ sql: String, _ arguments: PostgresArguments, session: PostgresSession,
        matching conditions: ObjectFilterConditions?, skip: Int
    ) async throws -> PostgresStream? {
        var attempts = 0
        while let connection = try await session.takeStreamConnection() {
            attempts += 1
            do {
                let rows = try await connection.query(
                    PostgresQuery(unsafeSQL: sql, binds: arguments.binds), logger: session.logger)
                return PostgresStream(
                    session: session, connection: connection, rows: rows.makeAsyncIterator(), matching: conditions,
                    skip: skip)
            } catch {
                session.releaseStreamConnection(connection, reusable: false)
                guard attempts == 1, PostgresSession.isConnectionLost(error) else {
                    throw session.databaseError("reading", error)
                }
                session.closeIdleStreamConnections()  // gone with the server too
            }
        }
        return nil
    }

    private init(
        session: PostgresSession, connection: PostgresConnection, rows: PostgresRowSequence.AsyncIterator,
        matching conditions: ObjectFilterConditions?, skip: Int
    ) {
        self.session = session
        self.connection = connection
        self.rows = rows
        self.conditions = conditions
        self.skip = skip
    }

    deinit {
        if !isEnded { session.releaseStreamConnection(connection, reusable: false) }
    }

    func next(_ count: Int) async throws -> [JSONObject] {
        var objects: [JSONObject] = []
        do {
            while objects.count < count, !isEnded {
                var iterator = rows  // shares the driver's buffer; the copy carries on from here
                let row = try await iterator.next(isolation: self)
                rows = iterator
                guard let row else {
                    end(reusable: true)
                    break
                }
                let object = try EncodedObject.object(fromStored: try row.decode(String.self))
                if let conditions, try !MatcherQuery.matches(object, conditions) { continue }
                if skip > 0 {
                    skip -= 1
                } else {
                    objects.append(object)
                }
            }
        } catch {
            end(reusable: false)
            throw session.databaseError("reading", error)
        }
        return objects
    }

    private func end(reusable: Bool) {
        guard !isEnded else { return }
        isEnded = true
        session.releaseStreamConnection(connection, reusable: reusable)
    }
}
