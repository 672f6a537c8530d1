import CoreTypes
import Testing

/// The code of the DocC article "Custom object types" (CustomObjectTypes.md), compiled and checked.
/// Keep the two in step: change one, change the other.
@Suite struct CustomObjectTypesArticleTests {
    struct Light: CoatyObject {
        static let coreType = CoreType.coatyObject
        static let objectType = "com.example.Light"
        var objectID = ObjectID.make()
        var name: String
        var isOn: Bool
        var luminosity: Double?
        @CustomFields var custom: JSONObject
    }

    struct Battery: Codable, Sendable {
        var level: Double
        var charging: Bool
    }

    struct Meter: CoatyObject, WireKeyNaming {
        static let coreType = CoreType.coatyObject
        static let objectType = "com.example.Meter"
        static let wireKeyStrategy = JSONKeyStrategy.pascalCase
        var objectID = ObjectID.make()
        var name: String
        var serialNumber: String
    }

    @Test func registerDecodeAndEncode() throws {
        var registry = ObjectTypeRegistry()
        try registry.register(Light.self)
        registry.freeze()

        let json = try JSONValue(
            parsing: #"""
                {"objectType":"com.example.Light","coreType":"CoatyObject","objectId":"l1",
                 "name":"Lamp","isOn":true,"color":"red"}
                """#)
        let object = try registry.decodeObject(json)
        let light = try #require(object as? Light)
        #expect(light.isOn)
        #expect(light.custom["color"] == "red")

        let sensor = try registry.decodeObject(
            JSONValue(
                parsing: #"""
                    {"objectType":"com.example.Sensor","coreType":"CoatyObject","objectId":"s1","name":"T","celsius":21.5}
                    """#))
        #expect(sensor is BaseObject)
        #expect(sensor.custom["celsius"] == 21.5)

        let payload = JSONValue.object(try light.jsonObject()).serializedString()
        #expect(
            payload
                == #"{"objectId":"l1","objectType":"com.example.Light","coreType":"CoatyObject","name":"Lamp","isOn":true,"color":"red"}"#
        )
    }

    @Test func customFieldsAndFragments() throws {
        var robot = BaseObject(objectType: "com.example.Robot", name: "R2")
        robot.custom[path: "battery.level"] = 0.8
        robot.custom[pointer: "/arm/joints/-"] = ["angle": 90]
        let level = try robot.custom.value("battery.level", as: Double.self, default: 0)
        #expect(level == 0.8)
        #expect(robot.custom[path: "arm.joints.0.angle"] == 90)

        var registry = ObjectTypeRegistry()
        try registry.register(Light.self)
        try registry.register(fragment: Battery.self, forField: "battery")
        registry.freeze()

        // The battery above lacks "charging", so it is not a Battery: the error names the field.
        let error = #expect(throws: ObjectDecodingError.self) { try registry.fragment(Battery.self, in: robot) }
        #expect(error?.field == "battery.charging")
        try registry.setFragment(Battery(level: 1, charging: false), in: &robot)
        let battery = try registry.fragment(Battery.self, in: robot)
        #expect(battery?.level == 1)
    }

    /// The article's ``Light`` with the section "Skip Codable for the types you send most".
    struct WireLight: CoatyObject {
        static let coreType = CoreType.coatyObject
        static let objectType = "com.example.WireLight"
        var objectID = ObjectID.make()
        var name: String
        var isOn: Bool
        var luminosity: Double?
        @CustomFields var custom: JSONObject
    }

    @Test func wireCodableLightMatchesTheCodableOne() throws {
        var registry = ObjectTypeRegistry()
        try registry.register(Light.self)
        try registry.register(WireLight.self)
        registry.freeze()
        let members = #""coreType":"CoatyObject","objectId":"l1","name":"Lamp","isOn":true,"luminosity":0.5,"color":"red"}"#
        let codable = try #require(
            try registry.decodeObject(JSONValue(parsing: #"{"objectType":"com.example.Light","# + members)) as? Light)
        let wire = try #require(
            try registry.decodeObject(JSONValue(parsing: #"{"objectType":"com.example.WireLight","# + members))
                as? WireLight)
        #expect(wire.name == codable.name && wire.isOn == codable.isOn && wire.luminosity == codable.luminosity)
        #expect(wire.custom == codable.custom)
        var written = try wire.jsonObject()
        var expected = try codable.jsonObject()
        written["objectType"] = nil
        expected["objectType"] = nil
        #expect(written == expected)
    }

    @Test func pascalCaseMeter() throws {
        let meter = Meter(objectID: "m", name: "M", serialNumber: "SN-1")
        #expect(
            JSONValue.object(try meter.jsonObject()).serializedString()
                == #"{"objectId":"m","objectType":"com.example.Meter","coreType":"CoatyObject","name":"M","SerialNumber":"SN-1"}"#
        )
    }
}

extension CustomObjectTypesArticleTests.WireLight: WireCodable {
    init(wire reader: inout WireReader) throws(ObjectDecodingError) {
        objectID = try reader.decode(String.self, forKey: "objectId")
        name = try reader.decode(String.self, forKey: "name")
        isOn = try reader.decode(Bool.self, forKey: "isOn")
        luminosity = try reader.decodeIfPresent(Double.self, forKey: "luminosity")
    }

    func write(to writer: inout WireWriter) throws {
        writer.encode(isOn, forKey: "isOn")
        try writer.encodeIfPresent(luminosity, forKey: "luminosity")
    }
}
