import CoatyStorageAgent
import CoreTypes

/// The `storage` member of `run`'s configuration file:
///
/// ```yaml
/// storage:
///   database: sqlite:/var/lib/coaty/recorder.db   # or postgres://user@host:5432/database
///   collection: objects                   # optional
///   record: { objectTypes: [com.example.Light], coreTypes: [Task] }
///   answer: true
/// ```
struct StorageSettings: Sendable {
    let database: DatabaseURL
    let options: StorageRecorderController.Options

    /// Reads and checks the member.
    ///
    /// - Throws: ``RunnerError`` (exit 2) naming the member at fault.
    init(json: JSONValue) throws {
        let section = try DatabaseSection(json, named: "storage", members: ["record", "answer"])
        let root = section.members
        database = section.database
        var options = StorageRecorderController.Options()
        if let collection = section.collection { options.collection = collection }
        if let value = root["record"] {
            (options.objectTypes, options.coreTypes, _) = try DatabaseSection.types(value, at: "storage.record")
        }
        if let value = root["answer"] {
            guard let answers = value.boolValue else {
                throw RunConfiguration.invalid("storage.answer", "must be true or false")
            }
            options.answers = answers
        }
        self.options = options
    }
}
