import CoreTypes
import Testing

/// Every JSON type in every field of every core type: the decode chain accepts or rejects each
/// substitution exactly as the type's rules say (coaty-js `CoreTypes.isObject`), and never crashes.
///
/// Each case starts from a minimal valid object of the core type and replaces one field (a base
/// field, or a field of the core type) with a value of one JSON kind; a rejection must name that
/// field.
@Suite struct EveryTypeInEveryFieldTests {
    static let baseRules: [FieldRule] = [
        .nonEmptyString("objectId", "8d2f4b6a-1c3e-4f5a-b7d9-e1f3a5c7b9d2"),
        .nonEmptyString("objectType", "com.example.Thing"),
        .string("name"),
        .nonEmptyString("externalId"),
        .nonEmptyString("parentObjectId"),
        .nonEmptyString("locationId"),
        .bool("isDeactivated"),
    ]

    static let validObject: JSONObject = [
        "objectId": "b7c9e1f3-0a2b-4c6d-8e0f-1a3b5c7d9e1f", "objectType": "com.example.Thing",
        "coreType": "CoatyObject", "name": "Thing",
    ]

    /// A minimal valid object of each core type and the rules of its own fields.
    static let coreTypes: [(CoreType, JSONObject, [FieldRule])] = [
        (.coatyObject, [:], []),
        (
            .user, ["names": ["formatted": "Ada Lovelace"]],
            [
                .object("names", ["familyName": "Lovelace", "givenName": "Ada"]), .string("displayName"),
                .string("nickName"), .string("title"), .string("userType"), .string("preferredLanguage"),
                .string("locale"), .string("timezone"), .bool("active"), .string("password"),
                .array("emails", [["type": "work", "value": "ada@example.com"]]),
                .array("phoneNumbers", [["type": "work", "value": "+1"]]), .array("ims", []),
                .array("photos", [["type": "thumbnail", "value": "https://example.com/a.png", "primary": true]]),
                .array("addresses", [["type": "home", "value": "x", "locality": "London"]]),
                .array("groups", []), .array("entitlements", [1, "a"]), .array("roles"),
                .array("x509Certificates"),
            ]
        ),
        (
            .annotation, ["type": 1, "creatorId": "u1", "creationTimestamp": 1, "status": 2],
            [
                .enumeration("type", 3), .nonEmptyString("creatorId"), .number("creationTimestamp"),
                .enumeration("status", 0), .array("variants", [["variant": "hd", "downloadUrl": ""]]),
            ]
        ),
        (
            .task, ["status": 0, "creatorId": "u1", "creationTimestamp": 1_600_000_000_000],
            [
                .enumeration("status", 4), .nonEmptyString("creatorId"), .number("creationTimestamp"),
                // coaty-js does not check these three; a non-number is kept as a custom member.
                .anyValue("lastModificationTimestamp"), .anyValue("dueTimestamp"), .anyValue("doneTimestamp"),
                .number("startTimestamp"), .number("duration"), .object("requirements"), .string("description"),
                .nonEmptyString("assigneeObjectId"),
            ]
        ),
        (.ioContext, [:], []),
        (
            .ioNode, [:],
            [
                .array(
                    "ioSources",
                    [
                        [
                            "objectId": "s1", "objectType": "coaty.IoSource", "coreType": "IoSource", "name": "S",
                            "valueType": "x",
                        ]
                    ]),
                .array("ioActors", []), .object("characteristics"),
            ]
        ),
        (
            .ioSource, ["valueType": "coaty.test.Temperature"],
            [
                .nonEmptyString("valueType"), .enumeration("updateStrategy", 3), .number("updateRate"),
                .bool("useRawIoValues"), .string("externalRoute"),
            ]
        ),
        (
            .ioActor, ["valueType": "coaty.test.Temperature"],
            [.nonEmptyString("valueType"), .number("updateRate"), .bool("useRawIoValues"), .string("externalRoute")]
        ),
        (.identity, [:], []),
        (
            .log, ["logLevel": 20, "logMessage": "started", "logDate": "2020-01-01T00:00:00.000Z"],
            [
                .enumeration("logLevel", 40), .string("logMessage"), .string("logDate"), .array("logTags"),
                .object("logLabels"), .object("logHost", ["pid": 1, "hostname": "h"]),
            ]
        ),
        (
            .location,
            ["geoLocation": ["coords": ["latitude": 48.1, "longitude": 11.6, "accuracy": 5], "timestamp": 1]],
            [.object("geoLocation", ["coords": ["latitude": 0, "longitude": 0, "accuracy": 0], "timestamp": 0])]
        ),
        (
            .snapshot,
            [
                "parentObjectId": "b7c9e1f3-0a2b-4c6d-8e0f-1a3b5c7d9e1f", "creationTimestamp": 1, "creatorId": "u1",
                "object": .object(validObject),
            ],
            [
                .number("creationTimestamp"), .nonEmptyString("creatorId"), .array("tags"),
                .object("object", .object(validObject)),
            ]
        ),
    ]

    /// The minimal valid object of `coreType`.
    static func base(_ coreType: CoreType, _ own: JSONObject) -> JSONObject {
        var object: JSONObject = [
            "objectId": "3e5a7c9e-1b3d-4f5a-8c7e-9a1b3c5d7e9f", "objectType": .string(coreType.canonicalObjectType),
            "coreType": .string(coreType.rawValue), "name": "Object",
        ]
        object.merge(own)
        return object
    }

    static let cases: [Substitution] = coreTypes.flatMap { coreType, own, rules in
        let object = base(coreType, own)
        let coreTypeRule = FieldRule("coreType", [.string: .string(coreType.rawValue)])
        return (baseRules + [coreTypeRule] + rules).flatMap { Substitution.all(coreType.rawValue, object, $0) }
    }

    @Test(arguments: coreTypes.map { ($0.0, $0.1) })
    func minimalObjectIsValid(coreType: CoreType, own: JSONObject) throws {
        let object = try ObjectTypeRegistry().decodeObject(Self.base(coreType, own))
        #expect(object.coreType == coreType)
    }

    @Test(arguments: cases)
    func substitutionIsAcceptedOrRejectedByTheRules(_ substitution: Substitution) throws {
        let json = try substitution.json
        let decoded: any CoatyObject
        do throws(ObjectDecodingError) {
            decoded = try ObjectTypeRegistry().decodeObject(json)
        } catch {
            #expect(!substitution.isAccepted, "rejected: \(error)")
            #expect(
                error.field?.hasPrefix(substitution.field) == true,
                "the error names \(error.field ?? "no field") instead of \(substitution.field): \(error)")
            return
        }
        #expect(substitution.isAccepted, "accepted \(substitution.value) in \(substitution.field)")
        // An accepted object encodes back to what it was decoded from.
        #expect(try JSONValue.object(decoded.jsonObject()).serialized() == json.serialized())
    }
}
