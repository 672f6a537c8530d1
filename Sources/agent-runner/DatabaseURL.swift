import CoatyStorage
import CoatyStorageSQLite
import CoreTypes

/// Where a store lives, as `run`'s `storage.database` and `store --database` name it:
/// `sqlite:PATH` (`sqlite:/var/lib/coaty/recorder.db`, `sqlite:recorder.db`, `sqlite:///var/…`).
///
/// PostgreSQL URLs (`postgres://user@host:5432/db`) are recognised and refused with a message
/// saying that the CLI does not open them yet (the library's `CoatyStoragePostgres` does).
struct DatabaseURL: Sendable, CustomStringConvertible {
    /// The SQLite file.
    let path: String
    let description: String

    /// Parses `text`.
    ///
    /// - Throws: ``RunnerError`` (exit 2) naming `option` and what is wrong.
    init(_ text: String, option: String) throws {
        description = text
        let lowercased = text.lowercased()
        if lowercased.hasPrefix("postgres://") || lowercased.hasPrefix("postgresql://") {
            throw RunnerError.usage(
                option,
                "'\(text)': agent-runner does not open PostgreSQL databases yet (programs can, with the "
                    + "CoatyStoragePostgres module's PostgresBackend); use sqlite:PATH for now")
        }
        guard lowercased.hasPrefix("sqlite:") else {
            throw RunnerError.usage(
                option, "'\(text)' is not a database URL; give sqlite:PATH, like sqlite:/var/lib/coaty/objects.db")
        }
        var path = Substring(text.dropFirst("sqlite:".count))
        if path.hasPrefix("///") { path = path.dropFirst(2) }  // sqlite:///var/x.db
        guard !path.isEmpty, !path.hasPrefix("//") else {
            throw RunnerError.usage(
                option, "'\(text)' names no file; give sqlite:PATH, like sqlite:/var/lib/coaty/objects.db")
        }
        self.path = String(path)
    }

    /// Opens (or creates) the database.
    ///
    /// - Throws: ``RunnerError`` (exit 1) when it cannot be opened, saying why.
    func backend() throws -> SQLiteBackend {
        do {
            return try SQLiteBackend(path: path)
        } catch let error as StorageError {
            throw RunnerError(code: .failure, message: "cannot open the database \(description): \(error.detail)")
        }
    }

    /// A store over the database, decoding with `registry`.
    func store(registry: ObjectTypeRegistry = ObjectTypeRegistry()) throws -> ObjectStore {
        ObjectStore(backend: try backend(), registry: registry)
    }
}
