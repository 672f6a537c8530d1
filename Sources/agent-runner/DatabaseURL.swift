import CoatyStorage
import CoatyStoragePostgres
import CoatyStorageSQLite
import CoreTypes
import Foundation

/// Where a store lives, as `run`'s `storage.database` and `store --database` name it:
/// `sqlite:PATH` (`sqlite:/var/lib/coaty/recorder.db`, `sqlite:recorder.db`, `sqlite:///var/…`) or
/// `postgres://user[:password]@host[:port]/database` (`postgresql://` too).
struct DatabaseURL: Sendable, CustomStringConvertible {
    /// The kind of database and where it is.
    enum Location: Sendable {
        /// A SQLite file.
        case sqlite(path: String)
        /// A PostgreSQL database.
        case postgres(PostgresURL)
    }

    let location: Location
    /// The URL as given, without a password.
    let description: String

    /// Parses `text`.
    ///
    /// - Throws: ``RunnerError`` (exit 2) naming `option` and what is wrong.
    init(_ text: String, option: String) throws {
        let lowercased = text.lowercased()
        if lowercased.hasPrefix("postgres://") || lowercased.hasPrefix("postgresql://") {
            do {
                let url = try PostgresURL(text)
                location = .postgres(url)
                description = url.description
            } catch let error as StorageError {
                throw RunnerError.usage(option, error.detail)
            }
            return
        }
        guard lowercased.hasPrefix("sqlite:") else {
            throw RunnerError.usage(
                option,
                "'\(text)' is not a database URL; give sqlite:PATH (like sqlite:/var/lib/coaty/objects.db) "
                    + "or postgres://user@host:5432/database")
        }
        var path = Substring(text.dropFirst("sqlite:".count))
        if path.hasPrefix("///") { path = path.dropFirst(2) }  // sqlite:///var/x.db
        guard !path.isEmpty, !path.hasPrefix("//") else {
            throw RunnerError.usage(
                option, "'\(text)' names no file; give sqlite:PATH, like sqlite:/var/lib/coaty/objects.db")
        }
        location = .sqlite(path: String(path))
        description = text
    }

    /// Checks that a store about to be read exists: a SQLite file must be there already (a
    /// PostgreSQL database is checked when it is first used).
    ///
    /// - Throws: ``RunnerError`` (exit 2) naming `option`.
    func requireExisting(option: String) throws {
        if case .sqlite(let path) = location, !FileManager.default.fileExists(atPath: path) {
            throw RunnerError.usage(option, "no database at '\(path)'; check the path (a recorder creates it)")
        }
    }

    /// Opens (or creates) the database; a PostgreSQL server is first contacted by the first operation.
    ///
    /// - Throws: ``RunnerError`` (exit 1) when it cannot be opened, saying why.
    func backend() throws -> any StorageBackend {
        switch location {
        case .sqlite(let path):
            do {
                return try SQLiteBackend(path: path)
            } catch let error as StorageError {
                throw RunnerError(code: .failure, message: "cannot open the database \(description): \(error.detail)")
            }
        case .postgres(let url):
            return PostgresBackend(url: url)
        }
    }

    /// A store over the database, decoding with `registry`.
    func store(registry: ObjectTypeRegistry = ObjectTypeRegistry()) throws -> ObjectStore {
        ObjectStore(backend: try backend(), registry: registry)
    }
}
