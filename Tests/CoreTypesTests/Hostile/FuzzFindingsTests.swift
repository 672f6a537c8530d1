import CoreTypes
import Testing

/// Inputs the fuzz targets (Fuzz/, `scripts/fuzz.sh`) turned up, kept as regression tests.
///
/// None of them was a crash: each showed where a fuzz property had to follow the project's
/// documented behaviour more closely, and the behaviour is pinned here so that a change to it is
/// a deliberate one.
@Suite struct FuzzFindingsTests {
    /// coaty-js `MqttTopic.matches` reads a level the topic does not have as an empty level, which
    /// an empty filter level or `+` accepts, so `a` matches `a//#` and `a/+/#` (MQTT 3.1.1 says no).
    /// Found by FuzzTopics (crash-bd38c45a): topic `a`, filter `a//#`.
    @Test(arguments: [
        ("a", "a//#", true), ("a", "a/+/#", true), ("a", "a/+", false), ("a", "a//", false), ("a", "a/#", true),
        ("a/", "a//#", true), ("a", "a/+/+/#", true), ("a", "a/b/#", false),
    ])
    func missingTopicLevelsReadAsEmptyLevels(topic: String, filter: String, matches: Bool) {
        #expect(MQTTTopic.isValidTopicFilter(filter))
        #expect(MQTTTopic.matches(topic: topic, filter: filter) == matches)
    }

    /// The depth limit counts the text's nesting, also inside a member that a later duplicate key
    /// replaces: the parser rejects deep input before it knows which members survive. Found by
    /// FuzzJSON (crash-60e23404): a vector whose `"object"` member, 4 levels deep, was repeated as a string.
    @Test func theDepthLimitCountsNestingThatADuplicateKeyReplaces() throws {
        let text = Array(#"{"a":[[1]],"a":1}"#.utf8)
        let value = try JSONParser(maximumDepth: 3).parse(text)
        #expect(value == ["a": 1])
        #expect(throws: JSONParseError.self) { try JSONParser(maximumDepth: 2).parse(text) }
    }

    /// Topic levels and wildcards are bytes, not characters: a `+` or `/` followed by a combining
    /// mark forms one Swift `Character` with it, but is still a `+` or `/` byte. Found by FuzzTopics
    /// (crash-36f67607): a filter level `+\u{031C}` is not a wildcard level.
    @Test func wildcardsAndSeparatorsAreBytesNotCharacters() {
        #expect(!MQTTTopic.isValidTopicFilter("a/+\u{031C}"))
        #expect(!MQTTTopic.matches(topic: "a/b", filter: "a/+\u{031C}"))
        #expect(MQTTTopic.matches(topic: "a/+\u{031C}", filter: "a/+\u{031C}"))
        #expect(MQTTTopic.matches(topic: "a/\u{0301}", filter: "a/+"))
        #expect(MQTTTopic.matches(topic: "a/\u{0301}b", filter: "+/+"))
        #expect(!MQTTTopic.isValidTopic("x/+\u{031C}"))
        #expect(MQTTTopic.isValidTopic("x/+\u{031C}", forSubscription: true))
        #expect(!CoatyTopic.isValidEventFilter("a/\u{0301}"))
    }

    /// JSON text writes the double `3.0` as `3`, which reads back as an integer: a filter operand
    /// changes from `.double(3)` to `.int(3)` on the way through text, so the decoded filters are
    /// not equal, but they match the same objects and their text is a fixed point. Found by
    /// FuzzFilters (crash-b9e16794): `{"conditions":["f",[4,3.5,3.0]]}`.
    @Test func integralDoubleOperandMatchesTheSameAfterATripThroughText() throws {
        let original = try ObjectFilter(json: JSONValue(parsing: #"{"conditions":["f",[4,3.5,3.0]]}"#))
        let text = original.json.serializedString()
        #expect(text == #"{"conditions":["f",[4,3.5,3]]}"#)
        let reread = try ObjectFilter(json: JSONValue(parsing: text))
        #expect(reread != original)
        #expect(reread.json.serializedString() == text)
        for value: JSONValue in [3, 3.0, 3.25, 3.5, 4, "3.1", nil] {
            let object: JSONValue = ["f": value]
            #expect(
                try ObjectMatcher.matches(object, filter: reread) == ObjectMatcher.matches(object, filter: original))
        }
    }

    // MARK: - Bugs fixed in Sources

    /// JSON keys are told apart by their bytes, as in JavaScript: `é` written as one scalar and as `e`
    /// with a combining accent are two members. The parser and `JSONObject` used Swift's `==`, which
    /// calls canonically equivalent strings equal, so one member silently replaced the other. Found by
    /// FuzzJSON's `JSONObject` model (crash-564b243d: `removeValue` of one spelling removed the other).
    @Test func canonicallyEquivalentKeysAreDistinctMembers() throws {
        let text = "{\"\u{E9}\":1,\"e\u{301}\":2,\"\u{212B}\":3,\"\u{C5}\":4}"
        let value = try JSONValue(parsing: text)
        let object = try #require(value.objectValue)
        #expect(object.count == 4)
        #expect(object["e\u{301}"] == 2 && object["\u{E9}"] == 1 && object["\u{212B}"] == 3 && object["\u{C5}"] == 4)
        #expect(value.serializedString() == text)

        var edited = object
        #expect(edited.removeValue(forKey: "e\u{301}") == 2)
        #expect(edited.keys == ["\u{E9}", "\u{212B}", "\u{C5}"] && edited["e\u{301}"] == nil)
        #expect(edited != object)
    }

    @Test func canonicallyEquivalentKeysStayApartInLargeObjects() throws {
        var object = JSONObject((0..<20).map { ("k\($0)", JSONValue.int($0)) })
        object["\u{E9}"] = 1
        object["e\u{301}"] = 2
        #expect(object.count == 22)
        #expect(object.position(of: "e\u{301}") == 21)
        let members = (0..<20).map { #""k\#($0)":0"# }.joined(separator: ",")
        let parsed = try JSONValue(parsing: "{" + members + ",\"\u{E9}\":1,\"e\u{301}\":2,\"\u{E9}\":3}")
        #expect(parsed.objectValue?.count == 22)
        #expect(parsed["\u{E9}"] == 3 && parsed["e\u{301}"] == 2)
    }

    @Test func customMembersWithCanonicallyEquivalentKeysSurviveTheDecodeChain() throws {
        let text =
            "{\"objectId\":\"o\",\"objectType\":\"com.example.Light\",\"coreType\":\"CoatyObject\",\"name\":\"L\","
            + "\"caf\u{E9}\":1,\"cafe\u{301}\":2}"
        let object = try ObjectTypeRegistry().decodeObject(JSONValue(parsing: text))
        #expect(object.custom.count == 2)
        #expect(JSONValue.object(try object.jsonObject()).serializedString() == text)
    }

    /// A dotted property path splits at every `.` byte, as JavaScript's `split(".")` does: a `.`
    /// followed by a combining mark is one Swift `Character`, and `String.split` did not split there,
    /// so a filter on `a.\u{301}b` looked for a top-level member where coaty-js looks into `a`.
    /// Found by FuzzFilters' path property (its seed `a.\u{301}b`).
    @Test func propertyPathsSplitAtEveryDotByte() throws {
        let path = PropertyPath("a.\u{301}b..c")
        #expect(path.components == ["a", "\u{301}b", "", "c"])
        #expect(path.json == "a.\u{301}b..c")
        let filter = ObjectFilter(conditions: .condition(ObjectFilterCondition(PropertyPath("a.\u{301}b"), .equals(1))))
        let object: JSONValue = ["a": ["\u{301}b": 1], "a.\u{301}b": 2]
        #expect(try ObjectMatcher.matches(object, filter: filter))
        #expect(try ObjectMatcher.matches(object, filterJSON: filter.json))
    }

    /// Dotted paths and JSON pointers on `JSONObject` split at every `.` or `/` byte, and pointer
    /// tokens undo `~1` and `~0` byte by byte; both used `Character`-based `split` and `replacing`,
    /// which skip a separator or escape that a combining mark follows. Found by FuzzJSON's path
    /// property (seed `/x~1\u{301}/y~01`).
    @Test func jsonPathsAndPointersSplitAtEveryByte() {
        var object = JSONObject()
        object[path: "a.\u{301}"] = 1
        #expect(object["a"]?["\u{301}"] == 1)
        object[pointer: "/b/\u{301}c"] = 2
        #expect(object["b"]?["\u{301}c"] == 2)
        object[pointer: "/x~1\u{301}/y~01/~~1/~"] = 3
        #expect(object[pathComponents: ["x/\u{301}", "y~1", "~/", "~"]] == 3)
        #expect(object[pointer: "/x~1\u{301}/y~01/~~1/~"] == 3)
        #expect(object[path: "a.\u{301}"] == 1)
    }

    /// Requesters and responders compare object ids and object types byte for byte, as coaty-js's
    /// `===` does; Swift's `==` let a response whose id is only canonically equivalent to the
    /// requested one (`café` spelt with U+00E9 and with `e` + U+0301) pass the checks. Found while
    /// adding FuzzEvents' byte-exact check property, after the key finding above.
    @Test func responseChecksCompareIdsAndTypesByteForByte() {
        let (composed, decomposed) = ("caf\u{E9}", "cafe\u{301}")
        let object = BaseObject(
            objectID: decomposed, objectType: "com.example." + decomposed, name: "x", externalID: decomposed)
        #expect(Discover(objectID: decomposed).accepts(Resolve(object: object)))
        #expect(!Discover(objectID: composed).accepts(Resolve(object: object)))
        #expect(!Discover(externalID: composed).accepts(Resolve(object: object)))
        #expect(!Discover(objectTypes: ["com.example." + composed]).accepts(Resolve(object: object)))
        #expect(!Discover(objectID: composed).matches(object))
        #expect(!Discover(externalID: composed, objectTypes: ["com.example." + decomposed]).matches(object))
        let updated = BaseObject(objectID: composed, objectType: "com.example.Light", name: "x")
        #expect(!Update(object: updated).accepts(Complete(object: object)))
        let query = Query(types: .objectTypes(["com.example." + composed]))
        #expect(!query.accepts(Retrieve(objects: [object])))
        let plan = ObservationPlan(
            topicFilter: TopicFilter(rawValue: "x"), requiredObjectType: "com.example." + composed)
        #expect(!plan.admits(object))
    }

    /// A `UInt64` above `Int.max` that JSON carries as an exact double decodes, and must encode
    /// again: the encoder refused every such value, so an application object read from the wire
    /// could not be re-published. Found by FuzzObjects (crash-8a572ec6: a `Gadget` with
    /// `"serial_number":18446704473709551616`).
    @Test func largeUnsignedIntegersDecodedFromJSONEncodeAgain() throws {
        struct Counter: Codable, Equatable { var total: UInt64 }
        let json: JSONValue = ["total": .double(18_446_704_473_709_551_616)]
        let counter = try JSONValueDecoder().decode(Counter.self, from: json)
        #expect(counter.total == 18_446_704_473_709_551_616)
        let encoded = try JSONValueEncoder().encode(counter)
        #expect(encoded == json)
        #expect(try JSONValueDecoder().decode(Counter.self, from: JSONValue(parsing: encoded.serialized())) == counter)
        #expect(try JSONValueEncoder().encode(UInt64(1) << 63) == .double(9_223_372_036_854_775_808))
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(UInt64.max) }
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(UInt64(Int.max) + 1 + 1) }
    }
}
