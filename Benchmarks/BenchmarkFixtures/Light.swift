public import CoreTypes

/// The application type every messaging benchmark sends: a registered object of about 300 bytes.
public struct Light: CoatyObject {
    /// `CoatyObject`.
    public static let coreType = CoreType.coatyObject
    /// `com.example.Light`.
    public static let objectType = "com.example.Light"
    /// The object id.
    public var objectId: String
    /// The name.
    public var name: String
    /// An external id.
    public var externalId: String?
    /// The parent object id.
    public var parentObjectId: String?
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
        var registry = ObjectTypeRegistry()
        do {
            try registry.register(Light.self)
        } catch {
            fatalError("cannot register Light: \(error)")
        }
        registry.freeze()
        return registry
    }

    /// The light of ``text``, decoded through the registry.
    public static func light() -> Light {
        guard let light = try? registry().decodeObject(JSONValue(parsing: bytes)) as? Light else {
            fatalError("the fixture does not decode as Light")
        }
        return light
    }
}
