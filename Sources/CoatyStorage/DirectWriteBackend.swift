/// A backend that stores a batch of objects from the caller's task, without the synchronous body
/// of ``StorageBackend/write(_:)``, where handing that body to a thread of its own would cost
/// more than the write (PostgreSQL: two thread wake-ups per transaction).
package protocol DirectWriteBackend: StorageBackend {
    /// Stores `objects` in `collection` in one transaction, each replacing a stored object with its
    /// id; `false` when it wrote nothing and the store should write them through `write(_:)`.
    ///
    /// - Throws: ``StorageError/collectionNotFound(_:)``, or ``StorageError`` with code
    ///   `StorageError.Code.invalidArgument` or `StorageError.Code.databaseFailed`.
    func put(_ objects: [EncodedObject], in collection: String) async throws -> Bool
}
