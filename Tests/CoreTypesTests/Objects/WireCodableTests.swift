import CoreTypes
import Foundation
import Testing

/// A lamp read and written through `Codable`.
struct CodableLamp: CoatyObject, Hashable {
    static let coreType = CoreType.coatyObject
    static let objectType = "com.example.CodableLamp"
    var objectID = ObjectID.make()
    var name: String
    var externalID: String?
    var isOn: Bool
    var luminosity: Double?
    var floor: Int
    var tags: [String]
    var battery: Battery?
    @CustomFields var custom: JSONObject

    struct Battery: Codable, Hashable, Sendable {
        var level: Double
        var charging: Bool
    }
}

/// The same lamp as a ``WireCodable`` type.
struct WireLamp: CoatyObject, Hashable {
    static let coreType = CoreType.coatyObject
    static let objectType = "com.example.WireLamp"
    var objectID = ObjectID.make()
    var name: String
    var externalID: String?
    var isOn: Bool
    var luminosity: Double?
    var floor: Int
    var tags: [String]
    var battery: CodableLamp.Battery?
    @CustomFields var custom: JSONObject
}

extension WireLamp: WireCodable {
    init(wire reader: inout WireReader) throws(ObjectDecodingError) {
        objectID = try reader.decode(String.self, forKey: "objectId")
        name = try reader.decode(String.self, forKey: "name")
        externalID = try reader.decodeIfPresent(String.self, forKey: "externalId")
        isOn = try reader.decode(Bool.self, forKey: "isOn")
        luminosity = try reader.decodeIfPresent(Double.self, forKey: "luminosity")
        floor = try reader.decode(Int.self, forKey: "floor")
        tags = try reader.decode([String].self, forKey: "tags")
        battery = try reader.decodeIfPresent(CodableLamp.Battery.self, forKey: "battery")
    }

    func write(to writer: inout WireWriter) throws {
        writer.encode(isOn, forKey: "isOn")
        try writer.encodeIfPresent(luminosity, forKey: "luminosity")
        writer.encode(floor, forKey: "floor")
        writer.encode(tags, forKey: "tags")
        try writer.encodeIfPresent(battery, forKey: "battery")
    }
}

/// A ``WireCodable`` type of another core type, with members of every kind the reader has.
struct WireJob: CoatyObject {
    static let coreType = CoreType.task
    static let objectType = "com.example.WireJob"
    var objectID: String
    var name: String
    var status: Int
    var creatorID: String
    var creationTimestamp: Double
    var payload: JSONValue
    var settings: JSONObject?
    var steps: [Int]
    var owner: String?
    var urgent: Bool?
    var attempts: Int?
    var labels: [String]?
    var limits: JSONObject?
    @CustomFields var custom: JSONObject
}

extension WireJob: WireCodable {
    init(wire reader: inout WireReader) throws(ObjectDecodingError) {
        objectID = try reader.decode(String.self, forKey: "objectId")
        name = try reader.decode(String.self, forKey: "name")
        status = try reader.decode(Int.self, forKey: "status")
        creatorID = try reader.decode(String.self, forKey: "creatorId")
        creationTimestamp = try reader.decode(Double.self, forKey: "creationTimestamp")
        payload = try reader.decode(JSONValue.self, forKey: "payload")
        settings = try reader.decodeIfPresent(JSONObject.self, forKey: "settings")
        steps = try reader.decode([Int].self, forKey: "steps")
        owner = try reader.decodeIfPresent(String.self, forKey: "owner")
        urgent = try reader.decodeIfPresent(Bool.self, forKey: "urgent")
        attempts = try reader.decodeIfPresent(Int.self, forKey: "attempts")
        labels = try reader.decodeIfPresent([String].self, forKey: "labels")
        limits = try reader.decodeIfPresent(JSONObject.self, forKey: "limits")
    }

    func write(to writer: inout WireWriter) throws {
        writer.encode(status, forKey: "status")
        writer.encode(creatorID, forKey: "creatorId")
        try writer.encode(creationTimestamp, forKey: "creationTimestamp")
        writer.encode(payload, forKey: "payload")
        writer.encodeIfPresent(settings, forKey: "settings")
        try writer.encode(steps, forKey: "steps")
        writer.encodeIfPresent(owner, forKey: "owner")
        writer.encodeIfPresent(urgent, forKey: "urgent")
        writer.encodeIfPresent(attempts, forKey: "attempts")
        writer.encodeIfPresent(labels, forKey: "labels")
        writer.encodeIfPresent(limits, forKey: "limits")
    }
}

/// Writes a base field and one of its own keys twice.
struct Twice: CoatyObject, WireCodable {
    static let coreType = CoreType.coatyObject
    static let objectType = "com.example.Twice"
    var objectID = "t1"
    var name = "first"
    init() {}
    init(wire reader: inout WireReader) throws(ObjectDecodingError) {}
    func write(to writer: inout WireWriter) throws {
        writer.encode("second", forKey: "name")
        writer.encode(1, forKey: "count")
        writer.encode(2, forKey: "count")
        writer.encodeIfPresent(nil as String?, forKey: "absent")
    }
    var custom: JSONObject = ["count": 3, "extra": true]
}

/// Looks at the reader's object without reading everything.
struct Probe: CoatyObject, WireCodable {
    static let coreType = CoreType.coatyObject
    static let objectType = "com.example.Probe"
    var objectID: String
    var name: String
    var sawSecret: Bool
    var memberCount: Int
    init(wire reader: inout WireReader) throws(ObjectDecodingError) {
        objectID = try reader.decode(String.self, forKey: "objectId")
        name = try reader.decode(String.self, forKey: "name")
        sawSecret = reader.contains("secret")
        memberCount = reader.object.count
    }
    func write(to writer: inout WireWriter) throws {}
    @CustomFields var custom: JSONObject
}

@Suite struct WireCodableTests {
    static let lampMembers =
        #""objectId":"9a1c6e52-3f0b-4d8e-a7c4-2b5d8f1e6a90","coreType":"CoatyObject","name":"Hall lamp","externalId":"LX-7","isOn":true,"luminosity":0.75,"floor":2,"tags":["hall","dimmable"],"battery":{"level":0.5,"charging":false},"installedAt":1600000000000,"room":{"id":"r7"}"#

    let registry: ObjectTypeRegistry = {
        var registry = ObjectTypeRegistry()
        do {
            try registry.register(CodableLamp.self)
            try registry.register(WireLamp.self)
            try registry.register(WireJob.self)
        } catch {
            Issue.record("cannot register: \(error)")
        }
        registry.freeze()
        return registry
    }()

    private func object(_ text: String) throws -> JSONObject {
        try #require(try JSONValue(parsing: text).objectValue)
    }

    private func lampText(_ objectType: String, members: String = lampMembers) -> String {
        #"{"objectType":"\#(objectType)",\#(members)}"#
    }

    /// The same members as `members` for the two lamp types, decoded by each.
    private func bothLamps(_ members: String = lampMembers) throws -> (CodableLamp, WireLamp) {
        let codable = try registry.decodeObject(object(lampText(CodableLamp.objectType, members: members)))
        let wire = try registry.decodeObject(object(lampText(WireLamp.objectType, members: members)))
        return (try #require(codable as? CodableLamp), try #require(wire as? WireLamp))
    }

    /// The error each lamp type throws for the same members.
    private func bothErrors(_ members: String) throws -> (ObjectDecodingError?, ObjectDecodingError?) {
        let codable = #expect(throws: ObjectDecodingError.self) {
            try registry.decodeObject(object(lampText(CodableLamp.objectType, members: members)))
        }
        let wire = #expect(throws: ObjectDecodingError.self) {
            try registry.decodeObject(object(lampText(WireLamp.objectType, members: members)))
        }
        return (codable, wire)
    }

    @Test func decodesTheSameValuesAsCodableAndKeepsUnreadMembers() throws {
        let (codable, wire) = try bothLamps()
        #expect(wire.objectID == codable.objectID && wire.name == codable.name && wire.externalID == "LX-7")
        #expect(wire.isOn && wire.luminosity == 0.75 && wire.floor == 2 && wire.tags == ["hall", "dimmable"])
        #expect(wire.battery == CodableLamp.Battery(level: 0.5, charging: false))
        #expect(wire.custom == codable.custom)
        #expect(wire.custom.keys == ["installedAt", "room"])
    }

    @Test func encodesTheSameMembersAsCodable() throws {
        let (codable, wire) = try bothLamps()
        var fromCodable = try codable.jsonObject()
        var fromWire = try wire.jsonObject()
        fromCodable["objectType"] = nil
        fromWire["objectType"] = nil
        #expect(fromWire == fromCodable)
        #expect(fromWire.keys == fromCodable.keys)
    }

    @Test func roundTripsThroughTheWireUnchanged() throws {
        let text = lampText(WireLamp.objectType)
        let decoded = try registry.decodeObject(object(text))
        let encoded = try decoded.jsonObject()
        #expect(encoded == (try object(text)))
        let again = try #require(try registry.decodeObject(encoded) as? WireLamp)
        #expect(again == decoded as? WireLamp)
    }

    @Test func anAdvertiseCarriesItThroughItsPayload() throws {
        var lamp = WireLamp(name: "Desk", isOn: false, floor: 1, tags: [])
        lamp.custom = ["since": 3]
        let payload = try Advertise(object: lamp).payload()
        let event = try Advertise(json: Advertise.parsePayload(payload), registry: registry)
        #expect(event.object as? WireLamp == lamp)
    }

    @Test func decodeObjectAsTheTypeUsesItsConformance() throws {
        let lamp = try registry.decodeObject(object(lampText(WireLamp.objectType)), as: WireLamp.self)
        #expect(lamp.floor == 2)
        let error = #expect(throws: ObjectDecodingError.self) {
            try registry.decodeObject(object(lampText(CodableLamp.objectType)), as: WireLamp.self)
        }
        #expect(error?.field == "objectType")
    }

    @Test func theCoreTypeRulesComeFirst() throws {
        let members = Self.lampMembers.replacingOccurrences(of: #""externalId":"LX-7""#, with: #""externalId":"""#)
        let (codable, wire) = try bothErrors(members)
        #expect(wire?.field == "externalId" && codable?.field == "externalId")
        #expect(wire?.reason == codable?.reason)
        #expect(wire?.objectType == WireLamp.objectType)
    }

    @Test func missingAndNullRequiredMembersAreNamed() throws {
        let missing = Self.lampMembers.replacingOccurrences(of: #""isOn":true,"#, with: "")
        let (_, wire) = try bothErrors(missing)
        #expect(wire?.field == "isOn")
        #expect(wire?.reason == "is required but missing")
        #expect(wire?.description.contains(WireLamp.objectType) == true)

        let null = Self.lampMembers.replacingOccurrences(of: #""isOn":true"#, with: #""isOn":null"#)
        let (_, nullError) = try bothErrors(null)
        #expect(nullError?.field == "isOn")
        #expect(nullError?.reason.contains("found null") == true)
    }

    @Test func wrongTypesAreNamedWithWhatWasFound() throws {
        let cases: [(from: String, to: String, field: String, found: String)] = [
            (#""isOn":true"#, #""isOn":"yes""#, "isOn", "a string"),
            (#""floor":2"#, #""floor":2.5"#, "floor", "2.5"),
            (#""floor":2"#, #""floor":"2""#, "floor", "a string"),
            (#""luminosity":0.75"#, #""luminosity":"bright""#, "luminosity", "a string"),
            (#""tags":["hall","dimmable"]"#, #""tags":["hall",7]"#, "tags.1", "found an integer"),
            (#""tags":["hall","dimmable"]"#, #""tags":"hall""#, "tags", "a string"),
            (#""battery":{"level":0.5,"charging":false}"#, #""battery":{"level":"full","charging":false}"#,
             "battery.level", "string"),
        ]
        for test in cases {
            let (_, wire) = try bothErrors(Self.lampMembers.replacingOccurrences(of: test.from, with: test.to))
            #expect(wire?.field == test.field, "\(test.to)")
            #expect(wire?.reason.contains(test.found) == true, "\(test.to): \(wire?.reason ?? "")")
        }
    }

    @Test func absentAndNullOptionalsReadAsNil() throws {
        let members = Self.lampMembers
            .replacingOccurrences(of: #""luminosity":0.75,"#, with: "")
            .replacingOccurrences(of: #""battery":{"level":0.5,"charging":false}"#, with: #""battery":null"#)
        let (codable, wire) = try bothLamps(members)
        #expect(wire.luminosity == nil && wire.battery == nil)
        #expect(codable.luminosity == nil && codable.battery == nil)
    }

    @Test func integralDoublesReadAsIntegers() throws {
        let (_, wire) = try bothLamps(Self.lampMembers.replacingOccurrences(of: #""floor":2"#, with: #""floor":2.0"#))
        #expect(wire.floor == 2)
    }

    @Test func everyKindOfMemberOfAnotherCoreType() throws {
        let text =
            #"{"objectId":"j1","objectType":"com.example.WireJob","coreType":"Task","name":"Job","status":1,"creatorId":"u1","creationTimestamp":1600000000000,"payload":[1,"two",null],"settings":{"retry":true},"steps":[3,1.0,2],"owner":"ops","urgent":false,"attempts":4,"labels":["a"],"limits":null,"note":"kept"}"#
        let job = try #require(try registry.decodeObject(object(text)) as? WireJob)
        #expect(job.status == 1 && job.creatorID == "u1" && job.creationTimestamp == 1_600_000_000_000)
        #expect(job.payload == [1, "two", nil])
        #expect(job.settings == ["retry": true])
        #expect(job.steps == [3, 1, 2])
        #expect(job.owner == "ops" && job.urgent == false && job.attempts == 4 && job.labels == ["a"])
        #expect(job.limits == nil)
        let encoded = try job.jsonObject()
        #expect(encoded["note"] == "kept")
        #expect(encoded["limits"] == nil, "nil optionals are left out, not written as null")
        #expect(encoded["steps"] == [3, 1, 2])

        let broken = text.replacingOccurrences(of: #""creatorId":"u1","#, with: "")
        let error = #expect(throws: ObjectDecodingError.self) { try registry.decodeObject(object(broken)) }
        #expect(error?.field == "creatorId")
        #expect(error?.coreType == "Task")

        let badSteps = text.replacingOccurrences(of: #""steps":[3,1.0,2]"#, with: #""steps":[3,1.5]"#)
        let stepsError = #expect(throws: ObjectDecodingError.self) { try registry.decodeObject(object(badSteps)) }
        #expect(stepsError?.field == "steps.1")
    }

    @Test func aBaseFieldOrAKeyWrittenTwiceIsReplacedNotRepeated() throws {
        let encoded = try Twice().jsonObject()
        #expect(encoded.keys == ["objectId", "objectType", "coreType", "name", "count", "extra"])
        #expect(encoded["name"] == "second")
        #expect(encoded["count"] == 2, "a written member wins over a custom one")
    }

    @Test func aNumberThatIsNotFiniteIsAnEncodingError() throws {
        var lamp = WireLamp(name: "Bad", isOn: true, floor: 0, tags: [])
        lamp.luminosity = .nan
        #expect(throws: EncodingError.self) { try lamp.jsonObject() }
        #expect(throws: EventError.self) { try Advertise(object: lamp).payload() }
    }

    @Test func theReaderSaysWhatTheObjectContains() throws {
        var registry = ObjectTypeRegistry()
        try registry.register(Probe.self)
        let text = #"{"objectId":"p1","objectType":"com.example.Probe","coreType":"CoatyObject","name":"P","secret":1}"#
        let probe = try #require(try registry.decodeObject(object(text)) as? Probe)
        #expect(probe.sawSecret && probe.memberCount == 5)
        #expect(probe.custom.keys == ["secret"], "contains(_:) does not count as reading")
    }
}
