// Every error code of CoatyStorage (see ErrorCode).

public import CoreTypes

// MARK: - StorageError

extension StorageError.Code {
    /// The named collection does not exist.
    public static var collectionNotFound: Self { Self("collectionNotFound") }
    /// No object with the given object id exists in the collection.
    public static var objectNotFound: Self { Self("objectNotFound") }
    /// An insert without replacing found an object with the same object id.
    public static var objectExists: Self { Self("objectExists") }
    /// An object (or the result of a property update) is not a valid Coaty object, so it could
    /// not be read back; nothing was stored.
    public static var invalidObject: Self { Self("invalidObject") }
    /// A stored object no longer decodes with the store's registry.
    public static var undecodableObject: Self { Self("undecodableObject") }
    /// A property path cannot be updated (empty, or the object id).
    public static var invalidPath: Self { Self("invalidPath") }
    /// An argument is out of range (an empty collection name, a batch size below 1).
    public static var invalidArgument: Self { Self("invalidArgument") }
    /// A filter threw while it was evaluated (coaty-js's matcher throws there too).
    public static var filterFailed: Self { Self("filterFailed") }
    /// The database failed.
    public static var databaseFailed: Self { Self("databaseFailed") }
}
