import CoatyStorage
import Foundation

/// Where a ``PostgresBackend`` connects: `postgres://user[:password]@host[:port]/database`
/// (`postgresql://` too; the port defaults to 5432).
///
/// ```swift
/// let url = try PostgresURL("postgres://coaty@db.local:5432/objects")
/// ```
public struct PostgresURL: Hashable, Sendable, CustomStringConvertible {
    /// The user name.
    public let user: String
    /// The password, if any (never shown by ``description``).
    public let password: String?
    /// The server's host name or address.
    public let host: String
    /// The server's TCP port.
    public let port: Int
    /// The database name.
    public let database: String

    /// Parses `text`.
    ///
    /// - Throws: `StorageError` with code `StorageError.Code.invalidArgument` when it is not such a URL.
    public init(_ text: String) throws {
        func invalid(_ problem: String) -> StorageError {
            StorageError(
                code: .invalidArgument,
                detail: "'\(text)' is not a PostgreSQL URL (\(problem)); write postgres://user@host:port/database")
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw invalid("it does not parse as a URL")
        }
        guard scheme == "postgres" || scheme == "postgresql" else { throw invalid("the scheme is not postgres") }
        guard let user = components.user, !user.isEmpty else { throw invalid("it names no user") }
        guard let host = components.host, !host.isEmpty else { throw invalid("it names no host") }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else { throw invalid("it names no database") }
        guard components.query == nil, components.fragment == nil else {
            throw invalid("options after ? or # are not supported")
        }
        self.user = user
        password = components.password
        self.host = host
        port = components.port ?? 5432
        self.database = database
    }

    /// The URL without its password: `postgres://user@host:port/database`.
    public var description: String {
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        return "postgres://\(user)@\(host):\(port)/\(database)"
    }
}
