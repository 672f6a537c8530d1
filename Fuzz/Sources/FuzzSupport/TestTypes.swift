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

    public var objectID: String
    public var name: String
    public var parentObjectID: String?
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

    public var objectID: String
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

    public var objectID: String
    public var name: String
    public var serialNumber: String
    public var readings: [String: Double]?
}

/// A registered application type with every kind of `Codable` member the coders handle: small and
/// unsigned integers, `Float`, string enumerations, nested arrays and dictionaries, and a custom
/// key strategy (snake case).
public struct Gadget: CoatyObject, WireKeyNaming, Hashable {
    public static let coreType = CoreType.coatyObject
    public static let objectType = "com.example.fuzz.Gadget"
    public static let wireKeyStrategy = JSONKeyStrategy.custom(
        { name in
            name.unicodeScalars.map { $0.properties.isUppercase ? "_" + $0.properties.lowercaseMapping : String($0) }
                .joined()
        },
        fromWire: { name in
            var result = ""
            var upper = false
            for scalar in name.unicodeScalars {
                if scalar == "_" { upper = true; continue }
                result += upper ? scalar.properties.uppercaseMapping : String(scalar)
                upper = false
            }
            return result
        })

    /// A string enumeration.
    public enum Mode: String, Codable, Hashable, Sendable { case eco, boost, off }

    /// A nested structure.
    public struct Part: Codable, Hashable, Sendable {
        /// A label.
        public var partLabel: String
        /// A weight.
        public var weightGrams: Float?
    }

    public var objectID: String
    public var name: String
    public var smallCount: UInt8
    public var offsetValue: Int32?
    public var serialNumber: UInt64?
    public var ratio: Float?
    public var mode: Mode?
    public var matrix: [[Int]]?
    public var flagsByName: [String: [Bool]]?
    public var parts: [Part]?
    public var mainPart: Part?
    @CustomFields public var custom: JSONObject
}

/// A registered ``WireCodable`` application type of core type `CoatyObject`: the agent decodes its
/// objects in Advertise, Update, Resolve, Retrieve and Complete from the bytes without a tree.
public struct Beacon: CoatyObject, Hashable {
    public static let coreType = CoreType.coatyObject
    public static let objectType = "com.example.fuzz.Beacon"

    public var objectID: String
    public var name: String
    public var externalID: String?
    public var isOn: Bool
    public var level: Double
    public var floor: Int?
    public var label: String?
    public var tags: [String]
    public var aliases: [String]?
    public var settings: Lamp.Settings?
    @CustomFields public var custom: JSONObject
}

extension Beacon: WireCodable {
    public init(wire reader: inout WireReader) throws(ObjectDecodingError) {
        objectID = try reader.decode(String.self, forKey: "objectId")
        name = try reader.decode(String.self, forKey: "name")
        externalID = try reader.decodeIfPresent(String.self, forKey: "externalId")
        isOn = try reader.decode(Bool.self, forKey: "isOn")
        level = try reader.decode(Double.self, forKey: "level")
        floor = try reader.decodeIfPresent(Int.self, forKey: "floor")
        label = try reader.decodeIfPresent(String.self, forKey: "label")
        tags = try reader.decode([String].self, forKey: "tags")
        aliases = try reader.decodeIfPresent([String].self, forKey: "aliases")
        settings = try reader.decodeIfPresent(Lamp.Settings.self, forKey: "settings")
    }

    public func write(to writer: inout WireWriter) throws {
        writer.encode(isOn, forKey: "isOn")
        try writer.encode(level, forKey: "level")
        if let floor { writer.encode(floor, forKey: "floor") }
        if let label { writer.encode(label, forKey: "label") }
        writer.encode(tags, forKey: "tags")
        if let aliases { writer.encode(aliases, forKey: "aliases") }
        if let settings { try writer.encode(settings, forKey: "settings") }
    }
}

/// The registries the object and event targets decode with.
public enum Registries {
    /// Knows only the core types.
    public static let plain: ObjectTypeRegistry = {
        var registry = ObjectTypeRegistry()
        registry.freeze()
        return registry
    }()

    /// Knows ``Lamp``, ``Job``, ``Meter``, ``Gadget`` and ``Beacon``.
    public static let registered: ObjectTypeRegistry = {
        var registry = ObjectTypeRegistry()
        do {
            try registry.register(Lamp.self)
            try registry.register(Job.self)
            try registry.register(Meter.self)
            try registry.register(Gadget.self)
            try registry.register(Beacon.self)
        } catch {
            fatalError("cannot register the fuzz test types: \(error)")
        }
        registry.freeze()
        return registry
    }()
}
