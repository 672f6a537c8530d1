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
}
