public import CoreTypes

/// Why a storage operation failed: a missing collection or object, an object that cannot be
/// stored or read back, a filter that cannot be evaluated, or the database itself.
///
/// ```swift
/// do {
///     try await store.update(light, in: "lights")
/// } catch let error as StorageError where error.code == .objectNotFound {
///     try await store.insert(light, into: "lights")
/// }
/// ```
public struct StorageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of problem.
    public typealias Code = ErrorCode<StorageError>

    /// The kind of problem.
    public let code: Code
    /// What went wrong and what to do about it, in words.
    public let detail: String

    /// Creates an error; backends use the factories below so every backend says the same.
    public init(code: Code, detail: String) {
        self.code = code
        self.detail = detail
    }

    /// "code: detail".
    public var description: String { "\(code): \(detail)" }
}

extension StorageError {
    /// The collection `name` does not exist.
    public static func collectionNotFound(_ name: String) -> StorageError {
        StorageError(
            code: .collectionNotFound,
            detail: "no collection named '\(name)'; create it with addCollection(_:) first")
    }

    /// No object `id` in collection `name`.
    public static func objectNotFound(_ id: String, in name: String) -> StorageError {
        StorageError(
            code: .objectNotFound,
            detail: "no object with objectId '\(id)' in collection '\(name)'; insert it first")
    }

    /// The database failed (I/O, a corrupt file, a locked database); `operation` names what was tried.
    public static func databaseFailed(_ operation: String, _ reason: String) -> StorageError {
        StorageError(
            code: .databaseFailed,
            detail: "\(operation) failed: \(reason); check that the database is reachable and writable")
    }

    /// A filter threw while it was evaluated, where coaty-js's matcher throws.
    public static func filterFailed(_ error: FilterError) -> StorageError {
        StorageError(
            code: .filterFailed,
            detail: "the filter cannot be evaluated: \(error.detail); correct the filter")
    }
}
