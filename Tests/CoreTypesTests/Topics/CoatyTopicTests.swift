import CoreTypes
import Testing

@Suite struct CoatyTopicTests {
    static let agentA = "5c3e1a2b-7d4f-4e6a-9b8c-0d1e2f3a4b5c"
    static let correlation = "0f9e8d7c-6b5a-4c3d-a2e1-f0e9d8c7b6a5"

    /// One topic per event type, with the filters and correlation ids Coaty puts on them.
    static let wellFormedTopics: [CoatyTopic] = [
        CoatyTopic(namespace: "-", eventType: .advertise, eventTypeFilter: "Identity", sourceID: agentA),
        CoatyTopic(
            namespace: "plant7", eventType: .advertise, eventTypeFilter: CoatyTopic.objectTypeFilter("com.x.Pump"),
            sourceID: agentA),
        CoatyTopic(namespace: "-", eventType: .deadvertise, sourceID: agentA),
        CoatyTopic(namespace: "-", eventType: .channel, eventTypeFilter: "sensors.floor1", sourceID: agentA),
        CoatyTopic(namespace: "-", eventType: .associate, eventTypeFilter: "TemperatureContext", sourceID: agentA),
        CoatyTopic(namespace: "-", eventType: .ioValue, sourceID: "7f1e2d3c-4b5a-4c6d-9e8f-1a2b3c4d5e6f"),
        CoatyTopic(namespace: "-", eventType: .discover, sourceID: agentA, correlationID: correlation),
        CoatyTopic(namespace: "-", eventType: .resolve, sourceID: agentA, correlationID: correlation),
        CoatyTopic(namespace: "-", eventType: .query, sourceID: agentA, correlationID: correlation),
        CoatyTopic(namespace: "-", eventType: .retrieve, sourceID: agentA, correlationID: correlation),
        CoatyTopic(
            namespace: "-", eventType: .update, eventTypeFilter: ":com.example:v2", sourceID: agentA,
            correlationID: correlation),
        CoatyTopic(namespace: "-", eventType: .complete, sourceID: agentA, correlationID: correlation),
        CoatyTopic(
            namespace: "zone-Grüße", eventType: .call, eventTypeFilter: "a.b:c", sourceID: "agent-1",
            correlationID: "C0DE"),
        CoatyTopic(namespace: "-", eventType: .return, sourceID: agentA, correlationID: correlation),
    ]

    @Test(arguments: wellFormedTopics)
    func parsingTheNameGivesTheTopicBack(_ topic: CoatyTopic) throws {
        #expect(try CoatyTopic(parsing: topic.name) == topic)
        #expect(CoatyTopic.isCoatyTopicLike(topic.name))
    }

    @Test func formatsTheTableOfTheWireSpecification() {
        #expect(Self.wellFormedTopics[1].name == "coaty/3/plant7/ADV::com.x.Pump/\(Self.agentA)")
        #expect(
            Self.wellFormedTopics[12].name == "coaty/3/zone-Grüße/CLL:a.b:c/agent-1/C0DE")
        #expect(Self.wellFormedTopics[5].name == "coaty/3/-/IOV/7f1e2d3c-4b5a-4c6d-9e8f-1a2b3c4d5e6f")
    }

    @Test func oneWayTopicsDropTheCorrelationID() {
        let topic = CoatyTopic(namespace: "-", eventType: .deadvertise, sourceID: "a", correlationID: "c")
        #expect(topic.name == "coaty/3/-/DAD/a")
    }

    @Test func anEmptyFilterWritesNoSeparatorButParsesBackAsEmpty() throws {
        let topic = CoatyTopic(namespace: "-", eventType: .advertise, eventTypeFilter: "", sourceID: "a")
        #expect(topic.name == "coaty/3/-/ADV/a")
        let parsed = try #require(try CoatyTopic(parsing: "coaty/3/-/ADV:/a"))
        #expect(parsed.eventTypeFilter == "")
    }

    @Test func aTwoWayTopicWithoutCorrelationIDEndsInUndefinedLikeCoatyJS() {
        let topic = CoatyTopic(namespace: "-", eventType: .resolve, sourceID: "b")
        #expect(topic.name == "coaty/3/-/RSV/b/undefined")
    }

    @Test func describesItselfByItsName() {
        let topic = Self.wellFormedTopics[0]
        #expect(topic.description == topic.name)
    }

    @Test func readsTheObjectTypeAndCoreTypeOfFilters() {
        let objectType = CoatyTopic(
            namespace: "-", eventType: .update, eventTypeFilter: "::odd", sourceID: "a", correlationID: "c")
        #expect(objectType.filteredObjectType == ":odd")
        #expect(objectType.filteredCoreType == nil)
        let coreType = CoatyTopic(namespace: "-", eventType: .advertise, eventTypeFilter: "Task", sourceID: "a")
        #expect(coreType.filteredCoreType == .task)
        #expect(coreType.filteredObjectType == nil)
        let channel = CoatyTopic(namespace: "-", eventType: .channel, eventTypeFilter: ":Task", sourceID: "a")
        #expect(channel.filteredObjectType == nil)
        #expect(channel.filteredCoreType == nil)
    }

    @Test func validEventFiltersExcludeWildcardsSlashAndNUL() {
        #expect(CoatyTopic.isValidEventFilter("com.x.Light"))
        #expect(CoatyTopic.isValidEventFilter(":"))
        #expect(!CoatyTopic.isValidEventFilter("a+b"))
        #expect(!CoatyTopic.isValidEventFilter("x/"))
    }

    @Test func clientIDCountsUTF16CodeUnitsLikeJavaScript() {
        // 17 ASCII characters and an emoji (two UTF-16 code units): the emoji is cut in half, and a
        // lone surrogate is sent as U+FFFD, as Node's UTF-8 encoder does.
        let identity = "aaaaaaaa-aaaa-aaaaa😀z"
        #expect(CoatyProtocol.mqttClientID(forIdentityID: identity) == "Coatyaaaaaaaaaaaaaaaaa\u{FFFD}")
        #expect(CoatyProtocol.mqttClientID(forIdentityID: "") == "Coaty")
        #expect(
            CoatyProtocol.mqttClientID(forIdentityID: "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d")
                == "Coatya1b2c3d4e5f64a7b8c")
    }

    @Test func objectsOfTheirCanonicalObjectTypeArePublishedOnTheCoreTypeTopicOnly() {
        for coreType in CoreType.allCases {
            for eventType in [EventType.advertise, .update] {
                let filters = CoatyTopic.eventTypeFilters(
                    publishing: eventType, coreType: coreType, objectType: coreType.canonicalObjectType)
                #expect(filters == [coreType.rawValue])
            }
        }
    }

    @Test func otherObjectsArePublishedTwiceInCoatyJSOrder() {
        // Order as in the managerPublication vectors pub-Advertise-custom-ns and pub-Update-custom.
        #expect(
            CoatyTopic.eventTypeFilters(publishing: .advertise, coreType: .task, objectType: "com.x.MyTask")
                == ["Task", ":com.x.MyTask"])
        #expect(
            CoatyTopic.eventTypeFilters(publishing: .update, coreType: .coatyObject, objectType: "com.x.Light")
                == [":com.x.Light", "CoatyObject"])
    }
}
