import CoreTypes
import Testing

@testable import Agent

/// `TopicCache`: a connection's inbound topic names and their parsed Coaty topics.
@Suite struct TopicCacheTests {
    static let advertise = "coaty/3/-/ADV::com.example.Light/5c3e1a2b-7d4f-4e6a-9b8c-0d1e2f3a4b5c"
    static let other = "coaty/3/-/ADV::com.example.Light/6d4f2b3c-8e5a-4f7b-8c9d-1e2f3a4b5c6d"

    static func topic(_ parsed: TopicCache.Parsed) -> CoatyTopic? {
        if case .coaty(let topic) = parsed { topic } else { nil }
    }

    @Test func aRepeatedNameIsTheSameStringAndTheSameTopic() {
        let cache = TopicCache()
        let first = Self.advertise.withCString { cache.name(of: $0) }
        let second = Self.advertise.withCString { cache.name(of: $0) }
        #expect(first == Self.advertise)
        #expect(second == first)
        let parsed = Self.topic(cache.coatyTopic(named: first))
        #expect(parsed?.eventType == .advertise)
        #expect(parsed?.sourceID == "5c3e1a2b-7d4f-4e6a-9b8c-0d1e2f3a4b5c")
        #expect(Self.topic(cache.coatyTopic(named: second)) == parsed)
    }

    @Test func namesThatAlternateAreEachParsedRight() {
        let cache = TopicCache()
        for name in [Self.advertise, Self.other, Self.advertise, Self.other] {
            let made = name.withCString { cache.name(of: $0) }
            #expect(made == name)
            #expect(Self.topic(cache.coatyTopic(named: made)) == (try? CoatyTopic(parsing: name)))
        }
    }

    @Test func rawAndMalformedTopicsAreToldApart() {
        let cache = TopicCache()
        guard case .notCoaty = cache.coatyTopic(named: "sensors/kitchen/temperature") else {
            Issue.record("a raw topic is not a Coaty topic")
            return
        }
        guard case .malformed = cache.coatyTopic(named: "coaty/3/-/NOPE/x") else {
            Issue.record("an unknown event type is malformed")
            return
        }
        #expect(Self.topic(cache.coatyTopic(named: Self.advertise)) != nil)
    }
}
