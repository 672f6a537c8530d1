import CoreTypes
import Testing

struct Battery: Codable, Sendable, Hashable {
    var level: Double
    var charging: Bool
}

@Suite struct CustomDataTests {
    let sample: JSONObject = [
        "customAttributeComplex": ["name": "a", "tags": ["x", "y"], "a.b": 1],
        "battery": ["level": 0.5, "charging": true],
        "items": [["id": 1], ["id": 2]],
        "nothing": nil,
    ]

    @Test func dotPathsReadNestedMembersAndArrayElements() {
        #expect(sample[path: "customAttributeComplex.name"] == "a")
        #expect(sample[path: "customAttributeComplex.tags.1"] == "y")
        #expect(sample[path: "items.0.id"] == 1)
        #expect(sample[path: "items.2.id"] == nil)
        #expect(sample[path: "items.01.id"] == nil)
        #expect(sample[path: "customAttributeComplex.name.length"] == nil)
        #expect(sample[path: "nothing"] == .null)
        #expect(sample[path: "missing"] == nil)
        #expect(sample[pathComponents: ["customAttributeComplex", "a.b"]] == 1)
    }

    @Test func jsonPointersFollowRFC6901() {
        #expect(sample[pointer: "/customAttributeComplex/name"] == "a")
        #expect(sample[pointer: "/customAttributeComplex/a.b"] == 1)
        #expect(sample[pointer: "/items/1/id"] == 2)
        #expect(sample[pointer: ""] == .object(sample))
        #expect(sample[pointer: "items"] == nil)
        let escaped: JSONObject = ["a/b": ["m~n": true]]
        #expect(escaped[pointer: "/a~1b/m~0n"] == true)
    }

    @Test func settingByPathCreatesAndReplacesLikeLodashSet() {
        var object = sample
        object[path: "customAttributeComplex.name"] = "b"
        object[path: "battery.cells.1.voltage"] = 3.7
        object[path: "items.0.id"] = nil
        object[path: "fresh.list.2"] = true
        object[path: "customAttributeComplex.name.inner"] = 1
        #expect(object[path: "customAttributeComplex.name.inner"] == 1)
        #expect(object[path: "battery.cells"] == [nil, ["voltage": 3.7]])
        #expect(object[path: "items.0"] == [:])
        #expect(object[path: "fresh"] == ["list": [nil, nil, true]])
        #expect(object.keys == sample.keys + ["fresh"])
        object[path: "missing.deeper"] = nil
        #expect(object[path: "missing"] == nil)
    }

    @Test func settingByPointerAppendsWithDash() {
        var object = sample
        object[pointer: "/customAttributeComplex/tags/-"] = "z"
        object[pointer: "/items/0"] = nil
        object[pointer: "/a~1b"] = 1
        #expect(object[path: "customAttributeComplex.tags"] == ["x", "y", "z"])
        #expect(object[path: "items"] == [["id": 2]])
        #expect(object["a/b"] == 1)
        object[pointer: "not-a-pointer"] = 1
        #expect(object["not-a-pointer"] == nil)
        object[pointer: ""] = ["only": true]
        #expect(object == ["only": true])
    }

    @Test func typedGettersDecodeWithDefaults() throws {
        #expect(try sample.value("battery.level", as: Double.self, default: 0) == 0.5)
        #expect(try sample.value("battery.missing", as: Double.self, default: 7) == 7)
        #expect(try sample.value("nothing", as: Int.self, default: 3) == 3)
        #expect(try sample.value("battery", as: Battery.self) == Battery(level: 0.5, charging: true))
        #expect(try sample.value("items.1.id", as: Int.self) == 2)
        #expect(try sample.value("customAttributeComplex.tags", as: [String].self) == ["x", "y"])
        #expect(try sample.value("nothing", as: JSONValue.self) == .null)
    }

    @Test func typedGettersReportTheWrongShapeWithThePath() throws {
        let error = #expect(throws: DecodingError.self) {
            try sample.value("battery.level", as: String.self, default: "")
        }
        guard case .typeMismatch(_, let context) = error else {
            Issue.record("expected a type mismatch, got \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["battery", "level"])
    }

    @Test func typedSetterEncodes() throws {
        var object = JSONObject()
        try object.setValue(Battery(level: 1, charging: false), at: "device.battery")
        #expect(object.description == #"{"device":{"battery":{"level":1,"charging":false}}}"#)
    }

    @Test func fragmentsDecodeTypedInAnyObject() throws {
        var registry = ObjectTypeRegistry()
        try registry.register(Light.self)
        try registry.register(fragment: Battery.self, forField: "battery")
        registry.freeze()
        #expect(registry.fragmentField(for: Battery.self) == "battery")

        var base = BaseObject(
            objectType: "com.example.Robot", name: "R", custom: ["battery": ["level": 0.25, "charging": false]])
        #expect(try registry.fragment(Battery.self, in: base) == Battery(level: 0.25, charging: false))
        try registry.setFragment(Battery(level: 0.75, charging: true), in: &base)
        #expect(base.custom[path: "battery.level"] == 0.75)

        var light = Light(name: "Lamp", isOn: true)
        #expect(try registry.fragment(Battery.self, in: light) == nil)
        try registry.setFragment(Battery(level: 1, charging: false), in: &light)
        #expect(try light.jsonObject()[path: "battery.charging"] == false)
        try registry.setFragment(Battery?.none, in: &light)
        #expect(light.custom["battery"] == nil)

        var erased: any CoatyObject = base
        try registry.setFragment(Battery(level: 0, charging: true), in: &erased)
        #expect(try registry.fragment(Battery.self, in: erased)?.level == 0)
    }

    @Test func fragmentsOfTheWrongShapeNameTheField() throws {
        var registry = ObjectTypeRegistry()
        try registry.register(fragment: Battery.self, forField: "battery")
        let base = BaseObject(
            objectType: "com.example.Robot", name: "R", custom: ["battery": ["level": "full", "charging": false]])
        let error = #expect(throws: ObjectDecodingError.self) { try registry.fragment(Battery.self, in: base) }
        #expect(error?.field == "battery.level")
        #expect(error?.objectType == "com.example.Robot")
    }

    @Test func fragmentRegistrationErrors() throws {
        struct Other: Codable, Sendable {}
        var registry = ObjectTypeRegistry()
        try registry.register(fragment: Battery.self, forField: "battery")
        let sameType = #expect(throws: ObjectTypeRegistryError.self) {
            try registry.register(fragment: Battery.self, forField: "power")
        }
        #expect(sameType?.code == .duplicateFragment)
        let sameField = #expect(throws: ObjectTypeRegistryError.self) {
            try registry.register(fragment: Other.self, forField: "battery")
        }
        #expect(sameField?.code == .duplicateFragment)
        let baseField = #expect(throws: ObjectTypeRegistryError.self) {
            try registry.register(fragment: Other.self, forField: "name")
        }
        #expect(baseField?.code == .invalidFragmentField)
        let unregistered = #expect(throws: ObjectTypeRegistryError.self) {
            try registry.fragment(Other.self, in: BaseObject(name: "x"))
        }
        #expect(unregistered?.code == .fragmentNotRegistered)
    }
}
