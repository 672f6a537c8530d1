public import CoreTypes

/// A registered application type of core type `CoatyObject` with optional, nested and custom members.
public struct Lamp: CoatyObject, Hashable {
    public static let coreType = CoreType.coatyObject
    public static let objectType = "com.example.fuzz.Lamp"

    /// Nested settings.
    public struct Settings: Codable, Hashable, Sendable {
        /// A mode.
        public var mode: String
        /// Levels.
        public var levels: [Int]?
    }

    public var objectId: String
    public var name: String
    public var parentObjectId: String?
    public var isOn: Bool
    public var brightness: Double?
    public var tags: [String]?
    public var settings: Settings?
    @CustomFields public var custom: JSONObject
}

/// A registered application type of core type `Task`, so the registry validates it as a Task first.
public struct Job: CoatyObject, Hashable {
    public static let coreType = CoreType.task
    public static let objectType = "com.example.fuzz.Job"

    public var objectId: String
    public var name: String
    public var status: TaskStatus
    public var creatorId: String
    public var creationTimestamp: Double
    public var priority: Int?
    @CustomFields public var custom: JSONObject
}

/// A registered application type with PascalCase wire keys and no custom fields.
public struct Meter: CoatyObject, WireKeyNaming, Hashable {
    public static let coreType = CoreType.coatyObject
    public static let objectType = "com.example.fuzz.Meter"
    public static let wireKeyStrategy = JSONKeyStrategy.pascalCase

    public var objectId: String
    public var name: String
    public var serialNumber: String
    public var readings: [String: Double]?
}

/// The registries the object and event targets decode with.
public enum Registries {
    /// Knows only the core types.
    public static let plain: ObjectTypeRegistry = {
        var registry = ObjectTypeRegistry()
        registry.freeze()
        return registry
    }()

    /// Knows ``Lamp``, ``Job`` and ``Meter``.
    public static let registered: ObjectTypeRegistry = {
        var registry = ObjectTypeRegistry()
        do {
            try registry.register(Lamp.self)
            try registry.register(Job.self)
            try registry.register(Meter.self)
        } catch {
            fatalError("cannot register the fuzz test types: \(error)")
        }
        registry.freeze()
        return registry
    }()
}
