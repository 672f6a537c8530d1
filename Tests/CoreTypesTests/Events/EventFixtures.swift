import CoreTypes
import Testing

/// The objects, ids and helpers the event vectors refer to by name (`light`, `task`, `obj1`, …).
///
/// The vectors give the JavaScript call text (`AdvertiseEvent.withObject(light)`) but not the
/// objects; their wire form is taken from the payloads coaty-js published for them.
enum EventFixtures {
    static let agentA = "5c3e1a2b-7d4f-4e6a-9b8c-0d1e2f3a4b5c"
    static let agentB = "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d"
    static let obj1 = "8d2f4b6a-1c3e-4f5a-b7d9-e1f3a5c7b9d2"
    static let obj2 = "3e5a7c9e-2b4d-4f6a-8c1e-3a5c7e9b1d3f"
    static let ioSource = "7f1e2d3c-4b5a-4c6d-9e8f-1a2b3c4d5e6f"
    static let ioActor = "2a4c6e8a-0b1d-4e3f-a5b7-c9d1e3f5a7b9"
    static let rawIoSource = "3e5a7c9e-2b4d-4f6a-8c1e-3a5c7e9b1d3f"

    static let lightJSON: JSONObject = [
        "objectId": .string(obj1), "objectType": "com.example.Light", "coreType": "CoatyObject",
        "name": "Light 1", "isOn": true, "luminosity": 0.5,
    ]
    static let taskJSON: JSONObject = [
        "objectId": "b7c9e1f3-a5b7-4c9d-8e1f-3a5b7c9d1e3f", "objectType": "coaty.Task", "coreType": "Task",
        "name": "T", "creatorId": .string(agentA), "creationTimestamp": 1_600_000_000_000, "status": 0,
    ]
    static let coreObjJSON: JSONObject = [
        "objectId": "b7c9e1f3-a5b7-4c9d-8e1f-3a5b7c9d1e3f", "objectType": "coaty.CoatyObject",
        "coreType": "CoatyObject", "name": "Plain",
    ]
    static let otherJSON: JSONObject = [
        "objectId": .string(obj2), "objectType": "com.example.Other", "coreType": "CoatyObject", "name": "Other",
    ]

    static var registry: ObjectTypeRegistry { ObjectTypeRegistry() }

    /// Decodes a wire object with a core-types-only registry.
    static func object(_ json: JSONObject) throws -> any CoatyObject {
        try registry.decodeObject(json)
    }

    /// `json` with some members changed (a JavaScript `{...json, key: value}`).
    static func object(_ json: JSONObject, with changes: JSONObject) throws -> any CoatyObject {
        var json = json
        json.merge(changes)
        return try object(json)
    }

    static func light() throws -> any CoatyObject { try object(lightJSON) }
    static func task() throws -> any CoatyObject { try object(taskJSON) }
    static func coreObj() throws -> any CoatyObject { try object(coreObjJSON) }
    static func other() throws -> any CoatyObject { try object(otherJSON) }

    /// The identity of a vector agent, created in Swift.
    static func identity(_ id: String, name: String = "Vector Agent") -> Identity {
        Identity(objectID: id, name: name)
    }
}

/// Makes correlation ids the way the vector harness does: `c0de0000-0000-4000-8000-00000000000N`.
struct CorrelationCounter {
    private(set) var count = 0

    mutating func next() -> String {
        count += 1
        let digits = String(count)
        return "c0de0000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits
    }
}

enum Hex {
    static func bytes(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var iterator = hex.utf8.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            bytes.append(nibble(high) << 4 | nibble(low))
        }
        return bytes
    }

    private static func nibble(_ c: UInt8) -> UInt8 {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        default: return c - UInt8(ascii: "A") + 10
        }
    }
}

extension VectorCase {
    /// The agent scope of a case: `input.namespace` (default `-`), `input.crossNamespace`, and the
    /// identity `input.sourceId` or `input.identityId`.
    var scope: AgentScope {
        AgentScope(
            identityID: input["sourceId"]?.stringValue ?? input["identityId"]?.stringValue ?? EventFixtures.agentA,
            namespace: input["namespace"]?.stringValue ?? "-",
            isCrossNamespacing: input["crossNamespace"]?.boolValue ?? false)
    }

    /// The payload bytes of an inbound case (`payload` text or `payloadHex`).
    var inboundPayload: [UInt8] {
        if let hex = input["payloadHex"]?.stringValue { return Hex.bytes(hex) }
        return Array((input["payload"]?.stringValue ?? "").utf8)
    }
}

/// The correlation level of a Coaty topic name, `nil` when it has none.
func correlationLevel(of topic: String) throws -> String? {
    try CoatyTopic(parsing: topic)?.correlationID
}

/// The event filter of a Coaty topic name (`CHN:lights` → `lights`), `nil` when it has none.
func eventFilterLevel(of topic: String) throws -> String? {
    try CoatyTopic(parsing: topic)?.eventTypeFilter
}

/// Compares planned publications with a vector's `{topic, payload | payloadHex, retain?}` list.
func expectPublications(
    _ actual: [Publication], equal expected: [JSONValue], sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(actual.count == expected.count, "publication count", sourceLocation: sourceLocation)
    for (publication, want) in zip(actual, expected) {
        #expect(publication.topic == want["topic"]?.stringValue, sourceLocation: sourceLocation)
        if let payloadHex = want["payloadHex"]?.stringValue {
            #expect(publication.payload == Hex.bytes(payloadHex), sourceLocation: sourceLocation)
        } else {
            // Payload text compared as text gives a readable difference; JSON text is UTF-8.
            #expect(
                String(decoding: publication.payload, as: UTF8.self) == want["payload"]?.stringValue,
                sourceLocation: sourceLocation)
        }
        #expect(publication.retain == (want["retain"]?.boolValue ?? false), sourceLocation: sourceLocation)
        #expect(publication.qos == .atMostOnce, sourceLocation: sourceLocation)
    }
}
