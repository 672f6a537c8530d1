import CoreTypes
import Testing

@Suite struct CoatyTopicParsingTests {
    @Test(arguments: ["", "coaty", "coatyx/3/-/DAD/a", "COATY/3/-/DAD/a", "/coaty/3/-/DAD/a", "sensors/1/temp"])
    func topicsThatDoNotStartWithCoatySlashAreNotCoatyTopics(_ name: String) throws {
        #expect(try CoatyTopic(parsing: name) == nil)
    }

    @Test(arguments: [
        ("coaty/", TopicParseError.Code.missingEventLevel),
        ("coaty/3/-", .missingEventLevel),
        ("coaty/3", .missingEventLevel),
        ("coaty/abc/-/DAD/a", .invalidVersion),
        ("coaty//-/DAD/a", .invalidVersion),
        ("coaty/-/-/DAD/a", .invalidVersion),
        ("coaty/99999999999999999999/-/DAD/a", .invalidVersion),
        ("coaty/x/-/xyz", .invalidVersion),
        ("coaty/3/-/adv:Task/a", .unknownEventType),
        ("coaty/3/-/ADVX/a", .unknownEventType),
        ("coaty/3/-//a", .unknownEventType),
        ("coaty/3/-/:Task/a", .unknownEventType),
        ("coaty/3/-/DAD", .missingSourceID),
    ])
    func brokenCoatyTopicsThrowTheirCode(_ name: String, _ code: TopicParseError.Code) {
        let error = #expect(throws: TopicParseError.self) { try CoatyTopic(parsing: name) }
        #expect(error?.code == code)
        #expect(error?.topic == name)
        #expect(error?.description.contains(name) == true)
    }

    @Test(arguments: [
        ("coaty/3/-/ADV::com.x.Light/a", EventType?.some(.advertise)), ("coaty/3/ns/RSV/a/c0ffee", .resolve),
        ("coaty/3/-/CLL:a.b:c/a", .call), ("coaty/3/-/IOV/route", .ioValue), ("coaty/3/-/adv/a", nil),
        ("coaty/3/-//a", nil), ("coaty/3/-", nil), ("coaty/", nil), ("sensors/DSC/x", nil), ("", nil),
    ])
    func theEventTypeOfATopicNameIsReadWithoutParsingTheTopic(_ name: String, _ type: EventType?) {
        #expect(CoatyTopic.eventType(ofName: name) == type)
    }

    @Test(arguments: [
        ("3x", 3), (" 3", 3), ("\t\n3", 3), ("+3", 3), ("-2", -2), ("007", 7), ("3.9", 3), ("\u{3000}\u{FEFF}4", 4),
        ("-0", 0),
    ])
    func versionLevelsReadLikeParseInt(_ level: String, _ version: Int) throws {
        let topic = try #require(try CoatyTopic(parsing: "coaty/\(level)/-/DAD/a"))
        #expect(topic.version == version)
    }

    @Test func levelsAfterTheCorrelationLevelAreIgnored() throws {
        let topic = try #require(try CoatyTopic(parsing: "coaty/3/-/RTN/b/c/extra/levels"))
        #expect(topic.sourceID == "b")
        #expect(topic.correlationID == "c")
    }

    @Test func anEmptySourceLevelIsKept() throws {
        let topic = try #require(try CoatyTopic(parsing: "coaty/3/-/DAD/"))
        #expect(topic.sourceID == "")
        #expect(topic.correlationID == nil)
    }

    @Test func eventNamesMayBeFollowedByAnyFilterText() throws {
        let topic = try #require(try CoatyTopic(parsing: "coaty/3/ns/UPD::com.x:v2::/a/c"))
        #expect(topic.eventType == .update)
        #expect(topic.eventTypeFilter == ":com.x:v2::")
        #expect(topic.filteredObjectType == "com.x:v2::")
    }

    @Test func everyEventNameParsesToItsEventType() throws {
        for eventType in EventType.allCases {
            let topic = try #require(try CoatyTopic(parsing: "coaty/3/-/\(eventType.rawValue)/a/c"))
            #expect(topic.eventType == eventType)
        }
    }
}
