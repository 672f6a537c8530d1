@testable import CoreTypes
import Testing

/// Events and responses read from their bytes without a tree (`init(payload:registry:)`,
/// `decodeResponse(payload:registry:)`) decode to what the tree decodes, and fail as the tree fails.
@Suite struct ScannedPayloadTests {
    static let registry: ObjectTypeRegistry = {
        var registry = ObjectTypeRegistry()
        do {
            try registry.register(WireLamp.self)
            try registry.register(Probe.self)
            try registry.register(WireJob.self)
        } catch {
            Issue.record("cannot register the test types: \(error)")
        }
        registry.freeze()
        return registry
    }()

    static let lamp =
        #"{"objectId":"9a1c6e52-3f0b-4d8e-a7c4-2b5d8f1e6a90","objectType":"com.example.WireLamp","coreType":"CoatyObject","name":"Hall lamp","externalId":"LX-7","isOn":true,"luminosity":0.75,"floor":2,"tags":["hall","dimmable"],"battery":{"level":0.5,"charging":false},"installedAt":1600000000000,"room":{"id":"r7"}}"#
    static let otherLamp =
        #"{ "objectType" : "com.example.WireLamp" , "objectId":"l2", "coreType":"CoatyObject","name":"Hall\u00e9 \"quoted\" é","isOn":false,"floor":-1,"tags":[],"isDeactivated":true,"parentObjectId":"p","locationId":"l","note":"ü\n","deep":[[[{"a":[]}]]]}"#
    static let probe = #"{"objectId":"p1","objectType":"com.example.Probe","coreType":"CoatyObject","name":"P","secret":1}"#
    static let plain = #"{"objectId":"b1","objectType":"com.example.Plain","coreType":"CoatyObject","name":"plain"}"#

    /// Payloads the scan reads itself: `(what, payload)`.
    static let scanned: [(String, String)] = [
        ("a lamp", #"{"object":\#(lamp)}"#),
        ("private data and an unknown member", #"{"x":[1,{"y":null}],"object":\#(lamp),"privateData":{"a":[1,"b"]}}"#),
        ("white space, escapes, a byte beyond ASCII, every optional base field", " {\n\"object\" :\t\(otherLamp) } "),
        ("a type that looks at the whole object", #"{"object":\#(probe)}"#),
    ]

    /// Payloads the scan leaves to the tree (which accepts some and rejects others).
    static let leftToTheTree: [(String, String)] = [
        ("related objects", #"{"object":\#(lamp),"relatedObjects":[\#(lamp)]}"#),
        ("an unregistered object type", #"{"object":\#(plain)}"#),
        ("another core type", #"{"object":{"objectId":"j","objectType":"com.example.WireJob","coreType":"Task","name":"J","status":1,"creatorId":"u","creationTimestamp":1,"payload":null,"steps":[]}}"#),
        ("a key with an escape", #"{"obj\u0065ct":\#(lamp)}"#),
        ("a repeated key in the payload", #"{"object":\#(plain),"object":\#(lamp)}"#),
        ("a repeated key in the object", #"{"object":\#(lamp.dropLast()),"name":"again"}}"#),
        ("more members than a scan keeps", #"{"object":\#(lamp.dropLast()),\#((0..<8).map { "\"m\($0)\":\($0)" }.joined(separator: ","))}}"#),
        ("private data that is not an object", #"{"object":\#(lamp),"privateData":5}"#),
        ("a null object", #"{"object":null}"#),
        ("no object", #"{"privateData":{}}"#),
        ("content after the payload", #"{"object":\#(lamp)} x"#),
        ("a bad escape", #"{"object":\#(lamp.dropLast()),"bad":"\q"}}"#),
        ("a missing member of the type", #"{"object":\#(lamp.replacing(#""isOn":true,"#, with: ""))}"#),
        ("a wrong type of member", #"{"object":\#(lamp.replacing(#""floor":2"#, with: #""floor":"2""#))}"#),
        ("a core type that is not the type's", #"{"object":\#(lamp.replacing(#""coreType":"CoatyObject""#, with: #""coreType":"Task""#))}"#),
        ("an empty object id", #"{"object":\#(lamp.replacing(#""objectId":"9a1c6e52-3f0b-4d8e-a7c4-2b5d8f1e6a90""#, with: #""objectId":"""#))}"#),
        ("a base field of the wrong type", #"{"object":\#(lamp.dropLast()),"isDeactivated":"yes"}}"#),
        ("an escaped core type", #"{"object":\#(lamp.replacing(#""coreType":"CoatyObject""#, with: #""coreType":"Coaty\u004fbject""#))}"#),
        ("no object type", #"{"object":\#(lamp.replacing(#""objectType":"com.example.WireLamp","#, with: ""))}"#),
        ("an array", "[]"), ("not JSON", "{"), ("null", "null"),
    ]

    static let allCases = (scanned + leftToTheTree).map(\.0)

    static func payload(_ name: String) -> [UInt8] {
        Array(((scanned + leftToTheTree).first { $0.0 == name }?.1 ?? "").utf8)
    }

    @Test(arguments: scanned.map(\.0))
    func theScanReadsThesePayloads(_ name: String) {
        #expect(Resolve(scanning: Self.payload(name), registry: Self.registry) != nil)
        #expect(Complete(scanning: Self.payload(name), registry: Self.registry) != nil)
        #expect(Advertise(scanning: Self.payload(name), registry: Self.registry) != nil)
        #expect(Update(scanning: Self.payload(name), registry: Self.registry) != nil)
    }

    @Test(arguments: leftToTheTree.map(\.0))
    func theScanLeavesThese(_ name: String) {
        #expect(Resolve(scanning: Self.payload(name), registry: Self.registry) == nil)
    }

    @Test(arguments: allCases)
    func aResolveIsWhatTheTreeDecodes(_ name: String) throws {
        try expectSameOutcome(Discover(objectID: "9a1c6e52-3f0b-4d8e-a7c4-2b5d8f1e6a90"), Self.payload(name))
    }

    @Test(arguments: allCases)
    func aCompleteIsWhatTheTreeDecodes(_ name: String) throws {
        try expectSameOutcome(Update(object: WireLamp(name: "x", isOn: true, floor: 0, tags: [])), Self.payload(name))
    }

    @Test(arguments: allCases)
    func anAdvertiseIsWhatTheTreeDecodes(_ name: String) throws {
        let payload = Self.payload(name)
        try expectSame(
            Result { () throws(EventError) in try Advertise(payload: payload, registry: Self.registry) },
            Result { () throws(EventError) in try Advertise(json: Advertise.parsePayload(payload), registry: Self.registry) })
    }

    @Test(arguments: allCases)
    func anUpdateIsWhatTheTreeDecodes(_ name: String) throws {
        let payload = Self.payload(name)
        try expectSame(
            Result { () throws(EventError) in try Update(payload: payload, registry: Self.registry) },
            Result { () throws(EventError) in try Update(json: Update.parsePayload(payload), registry: Self.registry) })
    }

    @Test func membersReadFromBytesAreTheTreesMembers() throws {
        let payload = Array(#"{"object":\#(Self.lamp)}"#.utf8)
        let scanned = try #require(Advertise(scanning: payload, registry: Self.registry)?.object as? WireLamp)
        let tree = try #require(Advertise(json: Advertise.parsePayload(payload), registry: Self.registry).object as? WireLamp)
        #expect(scanned == tree)
        #expect(scanned.tags == ["hall", "dimmable"] && scanned.externalID == "LX-7")
        #expect(scanned.custom == tree.custom && scanned.custom["installedAt"] == 1_600_000_000_000)
    }

    @Test(arguments: [
        #"{"objects":[]}"#, #"{"objects":[\#(lamp),\#(otherLamp)],"privateData":{}}"#, #"{"objects":[\#(lamp),\#(plain)]}"#,
        #"{"objects":{}}"#, #"{"objects":[\#(lamp),]}"#, #"{"objects":[1]}"#, #"{"object":\#(lamp)}"#,
    ])
    func aRetrieveIsWhatTheTreeDecodes(_ text: String) throws {
        try expectSameOutcome(Query(objectTypes: [WireLamp.objectType]), Array(text.utf8))
    }

    @Test func scannedObjectsAreTheTreesObjects() throws {
        let payload = Array(#"{"objects":[\#(Self.lamp),\#(Self.otherLamp),\#(Self.probe)]}"#.utf8)
        let scanned = try #require(Retrieve(scanning: payload, registry: Self.registry))
        let tree = try Retrieve(json: Retrieve.parsePayload(payload), registry: Self.registry)
        #expect(scanned.objects[0] as? WireLamp == tree.objects[0] as? WireLamp)
        #expect(scanned.objects[1] as? WireLamp == tree.objects[1] as? WireLamp)
        let probe = try #require(scanned.objects[2] as? Probe)
        #expect(probe.memberCount == 5 && probe.sawSecret, "the reader's object and contains(_:) work on bytes")
        #expect(probe.custom == ["secret": 1])
        #expect(
            (scanned.objects[1] as? WireLamp)?.custom
                == ["isDeactivated": true, "parentObjectId": "p", "locationId": "l", "note": "ü\n", "deep": [[[["a": []]]]]],
            "base fields the type does not declare are custom members, as in the tree")
    }

    /// Decodes `payload` as a response to `request` from bytes and from the tree: the same
    /// response, or the same error.
    private func expectSameOutcome<Request: RequestEvent>(_ request: Request, _ payload: [UInt8]) throws {
        try expectSame(
            Result { () throws(EventError) in try request.decodeResponse(payload: payload, registry: Self.registry) },
            Result { () throws(EventError) in
                try request.decodeResponse(Request.Response.parsePayload(payload), registry: Self.registry)
            })
    }

    /// The same event, or the same error.
    private func expectSame<E: CoatyEvent>(_ fromBytes: Result<E, EventError>, _ fromTree: Result<E, EventError>) throws {
        switch (fromBytes, fromTree) {
        case (.success(let bytes), .success(let tree)):
            #expect(try bytes.json() == tree.json())
        case (.failure(let bytes), .failure(let tree)):
            #expect(bytes.code == tree.code && bytes.field == tree.field && bytes.detail == tree.detail)
        default:
            Issue.record("from bytes: \(fromBytes); from the tree: \(fromTree)")
        }
    }
}
