import CoreTypes
import Testing
import TestSupport

/// `BaseObject.validCompactText()`, which the store writes objects with, against the tree it
/// stands for: `jsonObject()`, serialized.
@Suite struct BaseObjectCompactTextTests {
    @Test func isTheSerializedTreeOfDecodedCreatedAndChangedObjects() throws {
        for seed in UInt64(0)..<400 {
            var random = SeededGenerator(seed: seed)
            var object = try BaseObject(jsonObject: Self.randomWireObject(&random))
            for _ in 0..<Int.random(in: 0...2, using: &random) { Self.change(&object, &random) }
            let tree = try object.jsonObject()
            let expected = JSONValue.object(tree).serializedString()
            let isValid = (try? ObjectTypeRegistry().decodeObject(tree)) != nil
                && !object.custom.keys.contains(where: Self.baseKeys.contains)
            #expect(object.validCompactText() == (isValid ? expected : nil), "seed \(seed): \(expected)")
        }
    }

    @Test func isNilWhereTheTreeMustBeChecked() throws {
        var light = BaseObject(objectType: "com.example.Light", name: "Lamp", custom: ["on": true])
        #expect(light.validCompactText() == JSONValue.object(try light.jsonObject()).serializedString())
        light.custom["externalId"] = 7  // a custom member named like a base field
        #expect(light.validCompactText() == nil)
        light.custom["externalId"] = nil
        light.base.externalID = ""
        #expect(light.validCompactText() == nil)
        let user = try BaseObject(
            jsonObject: ["objectId": "u", "objectType": "coaty.User", "coreType": "User", "name": "U", "names": [:]])
        #expect(user.validCompactText() == nil)  // a base view of another core type
    }

    private static let baseKeys = [
        "objectId", "objectType", "coreType", "name", "externalId", "parentObjectId", "locationId", "isDeactivated",
    ]

    /// A valid wire object: the base fields (some optional ones) and custom members, shuffled.
    private static func randomWireObject(_ random: inout SeededGenerator) -> JSONObject {
        var members: [(String, JSONValue)] = [
            ("objectId", .string("id-\(random.next() % 100)")), ("objectType", "com.example.Thing"),
            ("coreType", "CoatyObject"), ("name", .string(["", "Lamp", "a \"quoted\" \\ name"].randomElement(using: &random)!)),
        ]
        for key in ["externalId", "parentObjectId", "locationId"] where Bool.random(using: &random) {
            members.append((key, .string("\(key)-1")))
        }
        if Bool.random(using: &random) { members.append(("isDeactivated", .bool(Bool.random(using: &random)))) }
        for index in 0..<Int.random(in: 0...5, using: &random) {
            members.append(("c\(index)", randomValue(&random, depth: 0)))
        }
        members.shuffle(using: &random)
        return JSONObject(members)
    }

    private static func randomValue(_ random: inout SeededGenerator, depth: Int) -> JSONValue {
        switch Int.random(in: 0..<(depth < 2 ? 7 : 5), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .int(Int.random(in: -1000...1000, using: &random))
        case 3: return .double(Double.random(in: -1...1, using: &random))
        case 4: return .string(["", "x", "é\u{1}\n", "\\u0000"].randomElement(using: &random)!)
        case 5: return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in randomValue(&random, depth: depth + 1) })
        default:
            return .object(JSONObject((0..<Int.random(in: 0...3, using: &random)).map { ("k\($0)", randomValue(&random, depth: depth + 1)) }))
        }
    }

    /// A change an application might make after decoding.
    private static func change(_ object: inout BaseObject, _ random: inout SeededGenerator) {
        switch Int.random(in: 0..<8, using: &random) {
        case 0: object.custom["new"] = .int(1)
        case 1: if let key = object.custom.keys.first { object.custom[key] = nil }
        case 2: if let key = object.custom.keys.last { object.custom[key] = "changed" }
        case 3: object.base.externalID = [nil, "", "x"].randomElement(using: &random)!
        case 4: object.base.isDeactivated = [nil, true].randomElement(using: &random)!
        case 5: object.base.name = "renamed"
        case 6: object.custom[Self.baseKeys.randomElement(using: &random)!] = "clash"
        default: object.base.objectID = ["", "other"].randomElement(using: &random)!
        }
    }
}
