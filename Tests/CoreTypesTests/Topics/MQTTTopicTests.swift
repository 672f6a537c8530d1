import CoreTypes
import Testing

@Suite struct MQTTTopicTests {
    @Test(arguments: ["#", "+", "a/+/#", "/", "a//b", "+/+", "$SYS/#", "a/b/", "Grüße/+/😀"])
    func wellPlacedWildcardsMakeValidFilters(_ filter: String) {
        #expect(MQTTTopic.isValidTopicFilter(filter))
    }

    @Test(arguments: ["", "a#/b", "a/#/b", "#/", "a+/b", "+a", "++", "a/b#", "##", "a\u{0}b"])
    func misplacedWildcardsEmptyAndNULMakeInvalidFilters(_ filter: String) {
        #expect(!MQTTTopic.isValidTopicFilter(filter))
    }

    @Test func filtersAreLimitedToRealUTF8Bytes() {
        // 8192 emoji are 32768 UTF-8 bytes: fine for MQTT, although coaty-js counts them as 65536.
        let emoji = String(repeating: "😀", count: 8192)
        #expect(MQTTTopic.isValidTopicFilter(emoji))
        #expect(!MQTTTopic.isValidTopic(emoji, forSubscription: true))
        #expect(MQTTTopic.isValidTopicFilter(String(repeating: "a", count: 65535)))
        #expect(!MQTTTopic.isValidTopicFilter(String(repeating: "a", count: 65536)))
    }

    @Test func topicsOfExactlyTheLimitAreValid() {
        #expect(MQTTTopic.isValidTopic(String(repeating: "a", count: 65535)))
        // 8191 emoji and one ASCII byte count as 8191 * 8 + 1 = 65529 bytes in coaty-js.
        #expect(MQTTTopic.isValidTopic(String(repeating: "😀", count: 8191) + "a"))
    }

    @Test func rawPublicationsMustNotLookLikeCoatyTopics() {
        #expect(MQTTTopic.isValidRawPublicationTopic("sensors/1/temp"))
        #expect(MQTTTopic.isValidRawPublicationTopic("coatyx/1"))
        #expect(!MQTTTopic.isValidRawPublicationTopic("coaty/custom"))
        #expect(!MQTTTopic.isValidRawPublicationTopic("sensors/+"))
        #expect(!MQTTTopic.isValidRawPublicationTopic(""))
    }

    @Test func rawSubscriptionsMustNotLookLikeCoatyTopics() {
        #expect(MQTTTopic.isValidRawSubscriptionFilter("#"))
        #expect(MQTTTopic.isValidRawSubscriptionFilter("sensors/+/temp"))
        #expect(!MQTTTopic.isValidRawSubscriptionFilter("coaty/#"))
        #expect(!MQTTTopic.isValidRawSubscriptionFilter("a\u{0}"))
    }

    @Test func ioRoutesHaveNoWildcardsAndExternalOnesAreNotCoatyTopics() {
        let coatyRoute = "coaty/3/-/IOV/7f1e2d3c-4b5a-4c6d-9e8f-1a2b3c4d5e6f"
        #expect(MQTTTopic.isValidIoRoute(coatyRoute, isExternal: false))
        #expect(!MQTTTopic.isValidIoRoute(coatyRoute, isExternal: true))
        #expect(MQTTTopic.isValidIoRoute("plant/line1/temp", isExternal: true))
        #expect(!MQTTTopic.isValidIoRoute("plant/+/temp", isExternal: true))
    }

    @Test func dollarTopicsAreNotSpecialInMatching() {
        #expect(MQTTTopic.matches(topic: "$SYS/x", filter: "#"))
        #expect(MQTTTopic.matches(topic: "$SYS/x", filter: "+/x"))
    }

    // "a" matches "a/+/#" in coaty-js (a broker would say no): a missing level passes "+" when "#" follows.
    @Test(arguments: [
        ("a/b", "a/b/#/#", false), ("a", "a/+/#", true), ("a/b", "+/+/#", true), ("a//", "a/+/+", true),
        ("a", "a//", false), ("a/", "a//", false), ("a//", "a//", true), ("", "", false),
    ])
    func matchingFollowsCoatyJSOnEdgeCases(_ topic: String, _ filter: String, _ expected: Bool) {
        #expect(MQTTTopic.matches(topic: topic, filter: filter) == expected)
    }
}
