import CoatyStorageAgent
import CoreTypes

/// The `historian` member of `run`'s configuration file: a `HistorianController` that snapshots
/// the objects of the given types it observes and keeps the snapshots in a database.
///
/// ```yaml
/// historian:
///   database: sqlite:/var/lib/coaty/historian.db  # or postgres://user@host:5432/database
///   collection: historian                 # optional
///   snapshot: { objectTypes: [com.example.Light], coreTypes: [Task], tags: [observed] }
///   persistLocal: true                    # store the snapshots it takes
///   persistObserved: true                 # store the snapshots other agents advertise
///   advertise: true                       # advertise the snapshots it takes
///   answer: true                          # answer Queries for Snapshot
/// ```
struct HistorianSettings: Sendable {
    let database: DatabaseURL
    let options: HistorianController.Options

    /// Reads and checks the member.
    ///
    /// - Throws: ``RunnerError`` (exit 2) naming the member at fault.
    init(json: JSONValue) throws {
        let section = try DatabaseSection(
            json, named: "historian", members: ["snapshot", "persistLocal", "persistObserved", "advertise", "answer"])
        let root = section.members
        database = section.database
        var options = HistorianController.Options()
        if let collection = section.collection { options.collection = collection }
        options.persistsLocalSnapshots = try Self.flag(root, "persistLocal")
        options.persistsObservedSnapshots = try Self.flag(root, "persistObserved")
        options.advertisesSnapshots = try Self.flag(root, "advertise")
        options.answersQueries = try Self.flag(root, "answer")
        if let value = root["snapshot"] { try Self.readSnapshot(value, into: &options) }
        self.options = options
    }

    /// `snapshot: { objectTypes, coreTypes, tags }`: what is snapshotted when observed, and how
    /// the snapshots are tagged.
    private static func readSnapshot(_ value: JSONValue, into options: inout HistorianController.Options) throws {
        let snapshot: JSONObject
        (options.observedObjectTypes, options.observedCoreTypes, snapshot) = try DatabaseSection.types(
            value, at: "historian.snapshot", also: ["tags"])
        guard !options.observedCoreTypes.contains(.snapshot) else {
            throw RunConfiguration.invalid(
                "historian.snapshot.coreTypes",
                "cannot hold Snapshot: snapshots are not snapshotted again; set persistObserved: true to store them")
        }
        let tags = try DatabaseSection.strings(snapshot["tags"], at: "historian.snapshot.tags")
        guard !tags.contains("") else {
            throw RunConfiguration.invalid("historian.snapshot.tags", "must be non-empty strings")
        }
        options.observedTags = tags
        guard options.persistsLocalSnapshots || options.advertisesSnapshots else {
            throw RunConfiguration.invalid(
                "historian.snapshot", "takes snapshots that go nowhere: set persistLocal: true, advertise: true or both"
            )
        }
    }

    /// A true-or-false member; false when it is missing.
    private static func flag(_ root: JSONObject, _ member: String) throws -> Bool {
        guard let value = root[member] else { return false }
        guard let flag = value.boolValue else {
            throw RunConfiguration.invalid("historian.\(member)", "must be true or false")
        }
        return flag
    }
}
