package import CoreTypes

/// A backend that can read an unordered find in one pass of its database and hand the matches
/// out a batch at a time, where reading each batch on its own would repeat the query's scan.
package protocol StreamingBackend: StorageBackend {
    /// The objects matching `conditions` in insertion order from matching position `offset` on,
    /// at most `limit` (`nil`: all); `nil` when the backend reads this find in batches instead.
    ///
    /// - Throws: ``StorageError/collectionNotFound(_:)``, or ``StorageError`` with code
    ///   `StorageError.Code.databaseFailed`.
    func stream(in collection: String, matching conditions: ObjectFilterConditions?, offset: Int, limit: Int?)
        async throws -> (any ObjectStream)?
}

/// The matches of a streamed find (see ``StreamingBackend``), read as they are asked for; the
/// backend's resources go when the last object has been read or the stream is released.
package protocol ObjectStream: AnyObject, Sendable {
    /// The next `count` objects, fewer only when the stream ends.
    ///
    /// - Throws: ``StorageError/filterFailed(_:)`` where the matcher throws, or ``StorageError``
    ///   with code `StorageError.Code.databaseFailed`.
    func next(_ count: Int) async throws -> [JSONObject]
}
