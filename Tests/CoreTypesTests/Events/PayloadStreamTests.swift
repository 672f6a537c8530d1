import CoreTypes
import Testing

/// Writes a key twice, a base field, and reads the writer's members while writing.
struct Inspector: CoatyObject, WireCodable {
    static let coreType = CoreType.coatyObject
    static let objectType = "com.example.Inspector"
    var objectID = "i1"
    var name = "Inspector"
    var parentObjectID: String? = "p1"
    init(wire reader: inout WireReader) throws(ObjectDecodingError) {}
    init() {}
    func write(to writer: inout WireWriter) throws {
        writer.encode(1, forKey: "first")
        writer.encode(writer.object.count, forKey: "seen")
        writer.encode(writer.object.keys.joined(separator: ","), forKey: "keys")
        writer.encode(2, forKey: "first")
        writer.encode(writer.object.count, forKey: "seenAfter")
        writer.encode("renamed", forKey: "name")
    }
    var custom: JSONObject = [:]
}

/// Writes into a copy of its writer as well as into the writer.
struct Copier: CoatyObject, WireCodable {
    static let coreType = CoreType.coatyObject
    static let objectType = "com.example.Copier"
    var objectID = "c1"
    var name = "Copier"
    init(wire reader: inout WireReader) throws(ObjectDecodingError) {}
    init() {}
    func write(to writer: inout WireWriter) throws {
        writer.encode(1, forKey: "before")
        var copy = writer
        copy.encode("lost", forKey: "fromCopy")
        writer.encode(2, forKey: "after")
    }
    var custom: JSONObject = ["extra": "kept"]
}

/// Writes more members than the writer keeps signatures for inline, and one of them again.
struct Wide: CoatyObject, WireCodable {
    static let coreType = CoreType.coatyObject
    static let objectType = "com.example.Wide"
    var objectID = "w1"
    var name = "Wide"
    var repeated: Int?
    init(wire reader: inout WireReader) throws(ObjectDecodingError) {}
    init(repeated: Int?) { self.repeated = repeated }
    func write(to writer: inout WireWriter) throws {
        for i in 0..<20 { writer.encode(i, forKey: "member\(i)") }
        writer.encodeIfPresent(repeated, forKey: "member18")
    }
    var custom: JSONObject = ["member19": "custom, not written", "tail": [1, 2.5, "three", nil, ["k": true]]]
}

/// A plain object whose members and custom members need escapes and carry every kind of value.
struct Escapes: CoatyObject, WireCodable {
    static let coreType = CoreType.coatyObject
    static let objectType = "com.example.Escapes"
    var objectID = "e\"1"
    var name = "line\nbreak \u{1} é"
    var externalID: String? = "x\\y"
    var locationID: String? = "l1"
    var isDeactivated: Bool? = false
    var custom: JSONObject
    init(wire reader: inout WireReader) throws(ObjectDecodingError) { custom = [:] }
    init(custom: JSONObject) { self.custom = custom }
    func write(to writer: inout WireWriter) throws {
        writer.encode("quote\"d", forKey: "key\"with quote")
        writer.encode(["a\tb", "", "ü"], forKey: "strings")
        try writer.encode(-0.000_01, forKey: "small")
        try writer.encode(1e21, forKey: "large")
        try writer.encode(0.1 + 0.2, forKey: "sum")
        writer.encode(JSONValue.null, forKey: "nothing")
        writer.encode(["nested": ["deep": [1, 2]]] as JSONObject, forKey: "object")
        try writer.encode([3, 1, 2], forKey: "encodable")
    }
}

/// Payloads written straight into bytes (`payload()`) are the bytes of the tree (`json()`).
@Suite struct PayloadStreamTests {
    static func objects() -> [(String, any CoatyObject)] {
        var lamp = WireLamp(name: "Hall lamp", isOn: true, luminosity: 0.75, floor: 2, tags: ["hall", "dimmable"])
        lamp.custom = ["installedAt": 1_600_000_000_000, "room": ["id": "r7"]]
        var bare = WireLamp(name: "", isOn: false, floor: -1, tags: [])
        bare.externalID = "LX-7"
        bare.battery = CodableLamp.Battery(level: 0.5, charging: true)
        var job = WireJob(
            objectID: "j1", name: "Job", status: 1, creatorID: "u1", creationTimestamp: 1.5, payload: ["a": 1], steps: [3, 1])
        job.custom = ["note": "kept"]
        return [
            ("a lamp with custom members", lamp), ("a lamp with optional base fields", bare), ("a Task (through the tree)", job),
            ("a key written twice, a base field, the members read while writing", Inspector()),
            ("a writer copied", Copier()), ("more members than inline signatures", Wide(repeated: nil)),
            ("more members, one written twice", Wide(repeated: 99)), ("a base object (not WireCodable)", StreamFixtures.plainObject()),
            ("escapes and every kind of value", Escapes(custom: ["ü\"": "\u{7f}", "locationId": "custom, not written"])),
            ("a custom member repeating a written key", Escapes(custom: ["small": "custom, not written", "zz": 1])),
            ("a base field in custom that the head lacks", Twice()),
            ("a custom base field the head lacks", Escapes.withoutLocation(custom: ["locationId": "from custom"])),
        ]
    }

    static let cases = objects().map(\.0)

    static func events(of object: any CoatyObject) -> [(String, any CoatyEvent)] {
        [
            ("Advertise", Advertise(object: object, privateData: ["p": 1])),
            ("Resolve", Resolve(object: object, relatedObjects: [object, StreamFixtures.plainObject()])),
            ("Retrieve", Retrieve(objects: [object, object])), ("Retrieve, empty", Retrieve(objects: [])),
            ("Update", Update(object: object)), ("Complete", Complete(object: object, privateData: ["q": "r"])),
            ("Channel", Channel(id: "ch", objects: [object])), ("Channel, one object", Channel(id: "ch", object: object)),
        ]
    }

    @Test(arguments: cases)
    func streamedPayloadsAreTheTreesBytes(_ name: String) throws {
        let object = try #require(Self.objects().first { $0.0 == name }?.1)
        for (eventName, event) in Self.events(of: object) {
            let tree = try event.json().serialized()
            let streamed = try event.payload()
            #expect(
                String(decoding: streamed, as: UTF8.self) == String(decoding: tree, as: UTF8.self),
                "\(eventName) of \(name)")
        }
    }

    @Test func theWriterSaysWhatItHasWrittenAndRepeatedKeysKeepTheirPlace() throws {
        let payload = try Advertise(object: Inspector()).payload()
        let object = try #require(try JSONValue(parsing: payload)["object"]?.objectValue)
        #expect(object.keys == ["objectId", "objectType", "coreType", "name", "parentObjectId", "first", "seen", "keys", "seenAfter"])
        #expect(object["seen"] == 6)
        #expect(object["keys"] == "objectId,objectType,coreType,name,parentObjectId,first,seen")
        #expect(object["first"] == 2)
        #expect(object["seenAfter"] == 8)
        #expect(object["name"] == "renamed")
    }

    @Test func aCopiedWriterDoesNotAddItsMembers() throws {
        let object = try #require(try JSONValue(parsing: Update(object: Copier()).payload())["object"]?.objectValue)
        #expect(object.keys == ["objectId", "objectType", "coreType", "name", "before", "after", "extra"])
    }

    @Test func invalidObjectsFailAsInTheTree() throws {
        var emptyID = WireLamp(name: "Lamp", isOn: true, floor: 0, tags: [])
        emptyID.objectID = ""
        var notFinite = WireLamp(name: "Lamp", isOn: true, floor: 0, tags: [])
        notFinite.luminosity = .infinity
        let badCustom = Escapes(custom: ["isDeactivated": "yes"])
        for (object, code) in [(emptyID, EventError.Code.invalidObject), (notFinite, .unencodableObject)] as [(any CoatyObject, EventError.Code)]
            + [(Escapes.withoutDeactivated(custom: badCustom.custom), .invalidObject)]
        {
            for (eventName, event) in Self.events(of: object) where eventName != "Retrieve, empty" {
                let treeError = #expect(throws: EventError.self, "\(eventName)") { try event.json() }
                let streamError = #expect(throws: EventError.self, "\(eventName)") { try event.payload() }
                #expect(treeError?.code == code && streamError?.code == code, "\(eventName)")
                #expect(treeError?.field == streamError?.field, "\(eventName)")
                #expect(treeError?.detail == streamError?.detail, "\(eventName)")
            }
        }
    }
}

extension Escapes {
    static func withoutLocation(custom: JSONObject) -> Escapes {
        var object = Escapes(custom: custom)
        object.locationID = nil
        return object
    }

    static func withoutDeactivated(custom: JSONObject) -> Escapes {
        var object = Escapes(custom: custom)
        object.isDeactivated = nil
        return object
    }
}

private enum StreamFixtures {
    static func plainObject() -> any CoatyObject {
        BaseObject(objectID: "b1", objectType: "com.example.Plain", name: "plain", custom: ["free": ["form": true]])
    }
}
