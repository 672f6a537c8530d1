import CoreTypes
import Testing

/// Hostile payloads through the decode chain, the event decoders and the matcher: very large,
/// nested as deep as the parser allows, or built to make the work explode. Each is decoded (or
/// rejected with an error) and encodes back unchanged; none crashes or hangs.
@Suite struct HostilePayloadTests {
    static let object =
        #"{"objectId":"8d2f4b6a-1c3e-4f5a-b7d9-e1f3a5c7b9d2","objectType":"com.example.Light","coreType":"CoatyObject","name":"Light 1""#

    /// The deepest nesting the parser accepts (its default limit).
    static let depthLimit = 512

    // MARK: - Sixteen megabytes

    @Test func sixteenMegabyteAdvertiseDecodesAndEncodesUnchanged() throws {
        let blob = String(repeating: "0123456789abcdef", count: 1 << 20)
        let payload = Array((#"{"object":"# + Self.object + #","blob":""# + blob + #""}}"#).utf8)
        #expect(payload.count > 16 << 20)
        let event = try Advertise(json: JSONValue(parsing: payload), registry: ObjectTypeRegistry())
        #expect(event.object.custom["blob"]?.stringValue?.utf8.count == 16 << 20)
        #expect(try event.payload() == payload)
    }

    @Test func retrieveOfFiftyThousandObjectsDecodesAndEncodesUnchanged() throws {
        let objects = (0..<50_000).map { index in
            #"{"objectId":"id-\#(index)","objectType":"com.example.Light","coreType":"CoatyObject","name":"Light \#(index)","luminosity":\#(index).25,"tags":["a","b","c","d","e","f","g","h"],"on":true}"#
        }
        let payload = Array(#"{"objects":["#.utf8) + Array(objects.joined(separator: ",").utf8) + Array("]}".utf8)
        #expect(payload.count > 8 << 20)
        let event = try Retrieve(json: JSONValue(parsing: payload), registry: ObjectTypeRegistry())
        #expect(event.objects.count == 50_000)
        #expect(try event.payload() == payload)
    }

    @Test func retrieveWithOneInvalidObjectAmongThousandsIsRejectedNamingIt() throws {
        var objects = Array(repeating: Self.object + "}", count: 20_000)
        objects[12_345] = Self.object + #","externalId":""}"#
        let payload = #"{"objects":["# + objects.joined(separator: ",") + "]}"
        let error = #expect(throws: EventError.self) {
            try Retrieve(json: JSONValue(parsing: payload), registry: ObjectTypeRegistry())
        }
        #expect(error?.code == .invalidObject)
        #expect(error?.field == "objects[12345]")
    }

    @Test func deadvertiseOfFourHundredThousandIDsDecodes() throws {
        let ids = (0..<400_000).map { #""8d2f4b6a-1c3e-4f5a-b7d9-e1f3a5c7b9d2-\#(String($0, radix: 16))""# }
        let payload = Array((#"{"objectIds":["# + ids.joined(separator: ",") + "]}").utf8)
        #expect(payload.count > 16 << 20)
        let event = try Deadvertise(json: JSONValue(parsing: payload))
        #expect(event.objectIDs.count == 400_000)
        #expect(try event.payload() == payload)
    }

    @Test func sixteenMegabyteIoValueIsKeptAsItCame() throws {
        let bytes = (0..<(16 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        #expect(try IoValue(payload: bytes, actorUsesRawValues: true).payload == bytes)
        let error = #expect(throws: EventError.self) { try IoValue(payload: bytes, actorUsesRawValues: false) }
        #expect(error?.code == .notJSON)
    }

    // MARK: - Nesting at the parser's limit

    @Test func snapshotsNestedToTheDepthLimitDecodeAndEncode() throws {
        // Each Snapshot holds the next in `object`; the innermost holds a plain object.
        let count = Self.depthLimit - 2
        var text = Self.object + "}"
        for level in 0..<count {
            text =
                #"{"objectId":"s\#(level)","objectType":"coaty.Snapshot","coreType":"Snapshot","name":"S","#
                + #""parentObjectId":"p","creationTimestamp":1,"creatorId":"c","object":"# + text + "}"
        }
        let payload = Array((#"{"object":"# + text + "}").utf8)
        let event = try Advertise(json: JSONValue(parsing: payload), registry: ObjectTypeRegistry())
        var depth = 0
        var current: any CoatyObject = event.object
        while let snapshot = current as? Snapshot {
            depth += 1
            current = snapshot.object
        }
        #expect(depth == count)
        #expect(try event.payload() == payload)
    }

    @Test func customValueNestedToTheDepthLimitDecodesAndEncodes() throws {
        let nesting = Self.depthLimit - 3
        let deep = String(repeating: #"{"a":["#, count: nesting / 2) + "1" + String(repeating: "]}", count: nesting / 2)
        let payload = Array((#"{"object":"# + Self.object + #","deep":"# + deep + "}}").utf8)
        let json = try JSONValue(parsing: payload)
        let event = try Update(json: json, registry: ObjectTypeRegistry())
        #expect(event.object.custom["deep"] == json["object"]?["deep"])
        #expect(try event.payload() == payload)
    }

    @Test func callParametersNestedToTheDepthLimitAreKept() throws {
        let nesting = Self.depthLimit - 2
        let payload = Array(
            (#"{"parameters":"# + String(repeating: "[", count: nesting) + String(repeating: "]", count: nesting) + "}")
                .utf8)
        let call = try Call(operation: "op", json: JSONValue(parsing: payload))
        #expect(try call.payload() == payload)
    }

    @Test func filterOperandNestedToTheDepthLimitIsEvaluated() throws {
        let nesting = Self.depthLimit - 6
        let operand = String(repeating: "[", count: nesting) + "1" + String(repeating: "]", count: nesting)
        let filter = try JSONValue(parsing: #"{"conditions":["tags",[2,"# + operand + "]]}")
        let objectFilter = try ObjectFilter(json: filter)
        let object: JSONValue = ["tags": ["1"], "n": 1]
        // JavaScript compares an array with its comma-joined text: [[…[1]…]] > ["1"] is "1" > "1".
        #expect(try ObjectMatcher.matches(object, filter: objectFilter) == false)
        #expect(try ObjectMatcher.matches(object, filterJSON: filter) == false)
    }

    // MARK: - Work that could explode

    @Test func likePatternOfManyWildcardsOnALongValueFinishes() throws {
        let pattern = String(repeating: "%a", count: 2_000) + "%b"
        let filter = ObjectFilter(conditions: .condition(ObjectFilterCondition("s", .like(pattern))))
        let object: JSONValue = ["s": .string(String(repeating: "a", count: 20_000))]
        #expect(try ObjectMatcher.matches(object, filter: filter) == false)
        let matching: JSONValue = ["s": .string(String(repeating: "a", count: 20_000) + "b")]
        #expect(try ObjectMatcher.matches(matching, filter: filter))
    }

    @Test func objectWithOneHundredThousandMembersDecodes() throws {
        let members = (0..<100_000).map { #""m\#($0)":\#($0)"# }.joined(separator: ",")
        let payload = Array((#"{"object":"# + Self.object + "," + members + "}}").utf8)
        let event = try Advertise(json: JSONValue(parsing: payload), registry: ObjectTypeRegistry())
        #expect(event.object.custom.count == 100_000)
        #expect(event.object.custom["m99999"] == 99_999)
        #expect(try event.payload() == payload)
    }
}
