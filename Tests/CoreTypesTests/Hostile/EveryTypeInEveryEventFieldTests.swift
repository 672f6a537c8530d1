import CoreTypes
import Testing

/// Every JSON type in every payload field of every event: each event decoder accepts or rejects the
/// substitution exactly as coaty-js's `XxxEventData.createFrom` rules say, and never crashes.
///
/// Each case starts from a valid payload of the event (chosen so that only the substituted field's
/// type decides, not the combination of members) and replaces one member with a value of one JSON
/// kind; a rejection must be an ``EventError`` of that event naming that member.
@Suite struct EveryTypeInEveryEventFieldTests {
    static let object: JSONValue = [
        "objectId": "8d2f4b6a-1c3e-4f5a-b7d9-e1f3a5c7b9d2", "objectType": "com.example.Light",
        "coreType": "CoatyObject", "name": "Light 1",
    ]

    /// A decoder for each event; the names on the topic level are valid.
    static let decoders: [String: @Sendable (JSONValue) throws(EventError) -> Void] = [
        "Advertise": { json throws(EventError) in _ = try Advertise(json: json, registry: ObjectTypeRegistry()) },
        "Deadvertise": { json throws(EventError) in _ = try Deadvertise(json: json) },
        "Channel": { json throws(EventError) in _ = try Channel(id: "ch1", json: json, registry: ObjectTypeRegistry())
        },
        "Associate": { json throws(EventError) in _ = try Associate(ioContextName: "ctx", json: json) },
        "Discover": { json throws(EventError) in _ = try Discover(json: json) },
        "Resolve": { json throws(EventError) in _ = try Resolve(json: json, registry: ObjectTypeRegistry()) },
        "Query": { json throws(EventError) in _ = try Query(json: json) },
        "Retrieve": { json throws(EventError) in _ = try Retrieve(json: json, registry: ObjectTypeRegistry()) },
        "Update": { json throws(EventError) in _ = try Update(json: json, registry: ObjectTypeRegistry()) },
        "Complete": { json throws(EventError) in _ = try Complete(json: json, registry: ObjectTypeRegistry()) },
        "Call": { json throws(EventError) in _ = try Call(operation: "switch", json: json) },
        "Return": { json throws(EventError) in _ = try Return(json: json) },
    ]

    /// For each event: the payload a field is substituted into, and the field's rule.
    static let rules: [(String, JSONObject, FieldRule)] = [
        ("Advertise", ["privateData": [:]], .object("object", object)),
        ("Advertise", ["object": object], .object("privateData")),
        ("Deadvertise", [:], .array("objectIds", ["a", "b"])),
        ("Channel", ["privateData": [:]], .object("object", object)),
        ("Channel", [:], .array("objects", [object])),
        ("Channel", ["object": object], .object("privateData")),
        ("Associate", ["ioActorId": "a"], .nonEmptyString("ioSourceId")),
        ("Associate", ["ioSourceId": "s"], .nonEmptyString("ioActorId")),
        ("Associate", ["ioSourceId": "s", "ioActorId": "a"], .nonEmptyString("associatingRoute")),
        ("Associate", ["ioSourceId": "s", "ioActorId": "a"], .number("updateRate")),
        // The empty string is a valid Discover objectId and externalId (coaty-js quirk 9).
        ("Discover", ["externalId": "e"], .string("objectId")),
        ("Discover", ["objectId": "o"], .string("externalId")),
        ("Discover", ["externalId": "e"], .array("objectTypes", ["com.example.Light"])),
        ("Discover", ["externalId": "e"], .array("coreTypes", ["Task", "User"])),
        ("Resolve", ["relatedObjects": []], .object("object", object)),
        ("Resolve", ["object": object], .array("relatedObjects", [object])),
        ("Resolve", ["object": object], .object("privateData")),
        (
            "Query", ["objectTypes": ["com.example.Light"]],
            .object("objectFilter", ["conditions": ["name", [6, "L%"]]])
        ),
        ("Query", ["objectFilter": [:]], .array("objectTypes", ["com.example.Light"])),
        ("Query", ["objectFilter": [:]], .array("coreTypes", ["CoatyObject"])),
        (
            "Query", ["objectFilter": [:], "coreTypes": ["CoatyObject"]],
            FieldRule("objectJoinConditions", [.object: ["localProperty": "a", "asProperty": "b"], .array: []])
        ),
        ("Retrieve", [:], .array("objects", [object])),
        ("Retrieve", ["objects": []], .object("privateData")),
        ("Update", [:], .object("object", object)),
        ("Complete", ["privateData": [:]], .object("object", object)),
        ("Complete", ["object": object], .object("privateData")),
        ("Call", [:], FieldRule("parameters", [.array: [1, "a"], .object: ["state": "on"]])),
        ("Call", [:], .object("filter", ["conditions": ["floor", [5, 1]]])),
        // A Return carries `result` (any value, null included) or `error`; `executionInfo` is free.
        ("Return", [:], .anyValue("result")),
        ("Return", [:], .object("error", ["code": 1, "message": "failed"])),
        ("Return", ["result": 1], .anyValue("executionInfo")),
    ]

    static let cases: [Substitution] = rules.flatMap { event, base, rule in Substitution.all(event, base, rule) }

    @Test(arguments: rules.map { ($0.0, $0.1, $0.2.field) })
    func basePayloadIsValidWithTheField(event: String, base: JSONObject, field: String) throws {
        let rule = try #require(Self.rules.first { $0.0 == event && $0.2.field == field }?.2)
        let value: JSONValue = try #require(rule.accepted.values.first)
        var payload = base
        payload[field] = value
        let decode = try #require(Self.decoders[event])
        try decode(.object(payload))
    }

    @Test(arguments: cases)
    func substitutionIsAcceptedOrRejectedByTheRules(_ substitution: Substitution) throws {
        let decode = try #require(Self.decoders[substitution.subject])
        let json = try substitution.json
        do throws(EventError) {
            try decode(json)
            #expect(substitution.isAccepted, "accepted \(substitution.value) in \(substitution.field)")
        } catch {
            #expect(!substitution.isAccepted, "rejected: \(error)")
            #expect(error.eventType?.description == substitution.subject)
            #expect(
                error.field?.hasPrefix(substitution.field) == true,
                "the error names \(error.field ?? "no field") instead of \(substitution.field): \(error)")
        }
    }
}
