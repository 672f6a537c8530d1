public import CoreTypes

/// The application type every messaging benchmark sends: a registered object of about 300 bytes,
/// read and written as a ``WireCodable`` type (see ``CodableLight`` for the same with `Codable`).
public struct Light: CoatyObject {
    /// `CoatyObject`.
    public static let coreType = CoreType.coatyObject
    /// `com.example.Light`.
    public static let objectType = "com.example.Light"
    /// The object id.
    public var objectID: String
    /// The name.
    public var name: String
    /// An external id.
    public var externalID: String?
    /// The parent object id.
    public var parentObjectID: String?
    /// Whether it is on.
    public var isOn: Bool
    /// How bright it is, 0…1.
    public var luminosity: Double
    /// Its colour, `#rrggbb`.
    public var color: String
    /// The floor it is on.
    public var floor: Int
    /// Tags.
    public var tags: [String]
    /// Every other member (`installedAt`).
    @CustomFields public var custom: JSONObject
}

/// The light the benchmarks send, as text and as a value.
public enum LightFixture {
    /// The JSON text of the light (325 bytes).
    public static let text =
        ##"{"objectId":"8d2f4b6a-1c3e-4f5a-b7d9-e1f3a5c7b9d2","objectType":"com.example.Light","coreType":"CoatyObject","name":"Hall light 3","externalId":"LX-2291-B","parentObjectId":"3e5a7c9e-2b4d-4f6a-8c1e-3a5c7e9b1d3f","isOn":true,"luminosity":0.75,"color":"#ffcc00","floor":2,"tags":["hall","dimmable"],"installedAt":1600000000000}"##
    /// The UTF-8 bytes of ``text``.
    public static let bytes = Array(text.utf8)

    /// A frozen registry that knows ``Light``.
    public static func registry() -> ObjectTypeRegistry {
        frozenRegistry(knowing: [Light.self])
    }

    /// The text of ``CodableLight``: ``text`` with its object type.
    public static let codableText = text.replacing(Light.objectType, with: CodableLight.objectType)

    /// The UTF-8 bytes of ``codableText``.
    public static let codableBytes = Array(codableText.utf8)

    /// A frozen registry that knows ``Light`` and ``CodableLight``.
    public static func registryWithCodableLight() -> ObjectTypeRegistry {
        frozenRegistry(knowing: [Light.self, CodableLight.self])
    }

    /// The light of ``text``, decoded through the registry.
    public static func light() -> Light {
        decoded(bytes, as: Light.self)
    }

    /// The light of ``codableText``, decoded through the registry.
    public static func codableLight() -> CodableLight {
        decoded(codableBytes, as: CodableLight.self)
    }

    private static func frozenRegistry(knowing types: [any CoatyObject.Type]) -> ObjectTypeRegistry {
        var registry = ObjectTypeRegistry()
        for type in types {
            do {
                try registry.register(type)
            } catch {
                fatalError("cannot register \(type): \(error)")
            }
        }
        registry.freeze()
        return registry
    }

    private static func decoded<T: CoatyObject>(_ bytes: [UInt8], as type: T.Type) -> T {
        guard let object = try? registryWithCodableLight().decodeObject(JSONValue(parsing: bytes)) as? T else {
            fatalError("the fixture does not decode as \(T.self)")
        }
        return object
    }
}

extension Light: WireCodable {
    /// Reads the light's members without `Codable`.
    public init(wire reader: inout WireReader) throws(ObjectDecodingError) {
        objectID = try reader.decode(String.self, forKey: "objectId")
        name = try reader.decode(String.self, forKey: "name")
        externalID = try reader.decodeIfPresent(String.self, forKey: "externalId")
        parentObjectID = try reader.decodeIfPresent(String.self, forKey: "parentObjectId")
        isOn = try reader.decode(Bool.self, forKey: "isOn")
        luminosity = try reader.decode(Double.self, forKey: "luminosity")
        color = try reader.decode(String.self, forKey: "color")
        floor = try reader.decode(Int.self, forKey: "floor")
        tags = try reader.decode([String].self, forKey: "tags")
    }

    /// Writes the light's own members without `Codable`.
    public func write(to writer: inout WireWriter) throws {
        writer.encode(isOn, forKey: "isOn")
        try writer.encode(luminosity, forKey: "luminosity")
        writer.encode(color, forKey: "color")
        writer.encode(floor, forKey: "floor")
        writer.encode(tags, forKey: "tags")
    }
}

/// ``Light`` decoded and encoded through `Codable`, as an application type is by default: the
/// benchmarks of decoding and encoding compare the two.
public struct CodableLight: CoatyObject {
    /// `CoatyObject`.
    public static let coreType = CoreType.coatyObject
    /// `com.example.CodableLight`.
    public static let objectType = "com.example.CodableLight"
    /// The object id.
    public var objectID: String
    /// The name.
    public var name: String
    /// An external id.
    public var externalID: String?
    /// The parent object id.
    public var parentObjectID: String?
    /// Whether it is on.
    public var isOn: Bool
    /// How bright it is, 0…1.
    public var luminosity: Double
    /// Its colour, `#rrggbb`.
    public var color: String
    /// The floor it is on.
    public var floor: Int
    /// Tags.
    public var tags: [String]
    /// Every other member (`installedAt`).
    @CustomFields public var custom: JSONObject
}
