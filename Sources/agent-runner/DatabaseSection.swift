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

    /// A mapping of types at `path` (`storage.record`, `historian.snapshot`): its `objectTypes` and
    /// `coreTypes` lists, and its other members, which must be among `also`.
    ///
    /// - Throws: ``RunnerError`` (exit 2) naming the member at fault.
    static func types(_ value: JSONValue, at path: String, also: [String] = []) throws
        -> (objectTypes: Set<String>, coreTypes: Set<CoreType>, members: JSONObject)
    {
        let known = ["objectTypes", "coreTypes"] + also
        let listed = known.joined(separator: ", ")
        guard let mapping = value.objectValue else {
            throw RunConfiguration.invalid(path, "must be a mapping with \(listed)")
        }
        for key in mapping.keys where !known.contains(key) {
            throw RunConfiguration.invalid("\(path).\(key)", "is not a member here (\(listed))")
        }
        let objectTypes = try strings(mapping["objectTypes"], at: "\(path).objectTypes")
        let coreTypes = try Input.coreTypes(
            strings(mapping["coreTypes"], at: "\(path).coreTypes"), option: "\(path).coreTypes")
        return (Set(objectTypes), Set(coreTypes), mapping)
    }
}
