import CoreTypes

/// A member of `run`'s configuration file that works on a database (`storage`, `historian`): a
/// mapping with a `database` URL, an optional `collection`, and the section's own members.
struct DatabaseSection {
    /// All members of the section, as given.
    let members: JSONObject
    let database: DatabaseURL
    /// The collection, when given.
    let collection: String?

    /// Reads `json` as section `name` whose own members are `known`.
    ///
    /// - Throws: ``RunnerError`` (exit 2) naming the member at fault.
    init(_ json: JSONValue, named name: String, members known: Set<String>) throws {
        let all = known.union(["database", "collection"])
        let listed = all.sorted().joined(separator: ", ")
        guard let root = json.objectValue else {
            throw RunConfiguration.invalid(name, "must be a mapping with \(listed)")
        }
        for key in root.keys where !all.contains(key) {
            throw RunConfiguration.invalid("\(name).\(key)", "is not a \(name) member (\(listed))")
        }
        guard let database = root["database"]?.stringValue else {
            throw RunConfiguration.invalid(
                "\(name).database", "is missing: give sqlite:PATH or postgres://user@host:5432/database")
        }
        self.database = try DatabaseURL(database, option: "\(name).database")
        if let value = root["collection"] {
            guard let collection = value.stringValue, !collection.isEmpty else {
                throw RunConfiguration.invalid("\(name).collection", "must be a non-empty string")
            }
            self.collection = collection
        } else {
            collection = nil
        }
        members = root
    }

    /// A list of strings, or none when `value` is missing.
    ///
    /// - Throws: ``RunnerError`` (exit 2) naming `member` when it is something else.
    static func strings(_ value: JSONValue?, at member: String) throws -> [String] {
        guard let value else { return [] }
        guard let list = value.arrayValue, let strings = Optional(list.compactMap(\.stringValue)),
            strings.count == list.count
        else {
            throw RunConfiguration.invalid(member, "must be a list of strings")
        }
        return strings
    }
}
