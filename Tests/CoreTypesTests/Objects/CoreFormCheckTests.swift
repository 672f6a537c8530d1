@testable import CoreTypes
import Testing
import TestSupport

/// `ObjectTypeRegistry.validateCoreForm`, which checks every outbound object: objects of core type
/// `CoatyObject` are checked in place in one pass, and that check must accept exactly what decoding
/// with core types only accepts (and leave the explaining to it).
@Suite struct CoreFormCheckTests {
    static let valid: JSONObject = [
        "objectId": "8d2f4b6a-1c3e-4f5a-b7d9-e1f3a5c7b9d2", "objectType": "com.example.Light",
        "coreType": "CoatyObject", "name": "Hall light", "isOn": true,
    ]

    /// The valid object with one member replaced (`nil` removes it).
    static func variant(_ key: String, _ value: JSONValue?) -> JSONObject {
        var object = valid
        object[key] = value
        return object
    }

    static let variants: [JSONObject] = {
        var all = [valid]
        let values: [JSONValue?] = [nil, "", "x", 1, true, .null, [], ["a": 1], "CoatyObject", "Task", "coatyobject"]
        for key in ["objectId", "objectType", "coreType", "name", "externalId", "parentObjectId", "locationId", "isDeactivated"] {
            for value in values { all.append(variant(key, value)) }
        }
        all.append(variant("isDeactivated", false))
        all.append(variant("custom", ["objectId": ""]))  // a nested member of the same name is not a base field
        // Another core type goes the full way (a Task needs more than the base fields).
        all.append(variant("coreType", "Task"))
        return all
    }()

    @Test func theInPlaceCheckAcceptsExactlyWhatDecodingWithCoreTypesAccepts() {
        for object in Self.variants {
            let decodes = (try? ObjectTypeRegistry().decodeObject(object)) != nil
            var passes = true
            do {
                try ObjectTypeRegistry.validateCoreForm(object)
            } catch {
                passes = false
                #expect(!error.description.isEmpty)
            }
            #expect(passes == decodes, "\(object)")
        }
    }

    @Test func aFailureStillSaysWhichMemberIsWrong() {
        let error = #expect(throws: ObjectDecodingError.self) {
            try ObjectTypeRegistry.validateCoreForm(Self.variant("objectId", ""))
        }
        #expect(error?.field == "objectId")
        let missing = #expect(throws: ObjectDecodingError.self) {
            try ObjectTypeRegistry.validateCoreForm(Self.variant("name", nil))
        }
        #expect(missing?.field == "name")
    }

    @Test func everyCoreStructIsRecognisedWithoutAValueCastAndWritesItsOwnWireForm() throws {
        // The metatype check `jsonObject()` makes: core structs pass it, application types do not.
        for coreType in CoreType.allCases {
            let type: any CoatyObject.Type = ObjectTypeRegistry.coreStruct(for: coreType)
            #expect(type is any CoreObject.Type, "\(coreType)")
        }
        let application: any CoatyObject.Type = Light.self
        #expect(!(application is any CoreObject.Type))
        // Every object of the validation vectors that decodes with core types only: its core struct
        // writes its own wire form, and `jsonObject()` must hand that over, not a `Codable` encoding.
        var checked: Set<CoreType> = []
        for vector in try VectorFiles.cases("objects.json", group: "validation") {
            guard case .object(let object)? = vector.input["object"],
                let decoded = try? ObjectTypeRegistry().decodeObject(object), let core = decoded as? any CoreObject
            else { continue }
            // Compared as text: member order counts on the wire, not in `JSONObject`'s `==`.
            #expect(
                try JSONValue.object(decoded.jsonObject()).serializedString()
                    == JSONValue.object(core.wireObject()).serializedString(), "\(vector.name)")
            checked.insert(type(of: decoded).coreType)
        }
        #expect(checked.count >= 8, "core types seen: \(checked)")
    }
}
