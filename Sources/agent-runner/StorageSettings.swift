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
    static let members: Set<String> = ["database", "collection", "record", "answer"]

    let database: DatabaseURL
    let options: StorageRecorderController.Options

    /// Reads and checks the member.
    ///
    /// - Throws: ``RunnerError`` (exit 2) naming the member at fault.
    init(json: JSONValue) throws {
        guard let root = json.objectValue else {
            throw RunConfiguration.invalid("storage", "must be a mapping with database, collection, record and answer")
        }
        for key in root.keys where !Self.members.contains(key) {
            throw RunConfiguration.invalid(
                "storage.\(key)", "is not a storage member (\(Self.members.sorted().joined(separator: ", ")))")
        }
        guard let database = root["database"]?.stringValue else {
            throw RunConfiguration.invalid(
                "storage.database", "is missing: give sqlite:PATH or postgres://user@host:5432/database")
        }
        self.database = try DatabaseURL(database, option: "storage.database")
        var options = StorageRecorderController.Options()
        if let value = root["collection"] {
            guard let name = value.stringValue, !name.isEmpty else {
                throw RunConfiguration.invalid("storage.collection", "must be a non-empty string")
            }
            options.collection = name
        }
        if let value = root["record"] {
            guard let record = value.objectValue else {
                throw RunConfiguration.invalid("storage.record", "must be a mapping with objectTypes and coreTypes")
            }
            for key in record.keys where key != "objectTypes" && key != "coreTypes" {
                throw RunConfiguration.invalid(
                    "storage.record.\(key)", "is not a record member (objectTypes, coreTypes)")
            }
            options.objectTypes = Set(try Self.strings(record["objectTypes"], at: "storage.record.objectTypes"))
            let coreTypes = try Self.strings(record["coreTypes"], at: "storage.record.coreTypes")
            options.coreTypes = Set(try Input.coreTypes(coreTypes, option: "storage.record.coreTypes"))
        }
        if let value = root["answer"] {
            guard let answers = value.boolValue else {
                throw RunConfiguration.invalid("storage.answer", "must be true or false")
            }
            options.answers = answers
        }
        self.options = options
    }

    private static func strings(_ value: JSONValue?, at member: String) throws -> [String] {
        guard let value else { return [] }
        guard let list = value.arrayValue, let strings = Optional(list.compactMap(\.stringValue)),
            strings.count == list.count
        else {
            throw RunConfiguration.invalid(member, "must be a list of strings")
        }
        return strings
    }
}
