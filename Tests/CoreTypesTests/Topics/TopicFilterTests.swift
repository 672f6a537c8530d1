import CoreTypes
import Testing

@Suite struct TopicFilterTests {
    static let correlation = "0f9e8d7c-6b5a-4c3d-a2e1-f0e9d8c7b6a5"

    @Test func namedFactoriesFormatTheSubscriptionTable() {
        let ns = TopicFilter.NamespaceScope.namespace("-")
        #expect(TopicFilter.advertise(.identity, in: ns).rawValue == "coaty/3/-/ADV:Identity/+")
        #expect(TopicFilter.deadvertise(in: ns).rawValue == "coaty/3/-/DAD/+")
        #expect(TopicFilter.channel("lights", in: ns).rawValue == "coaty/3/-/CHN:lights/+")
        #expect(TopicFilter.associate(ioContextName: "kitchen", in: ns).rawValue == "coaty/3/-/ASC:kitchen/+")
        #expect(TopicFilter.discover(in: ns).rawValue == "coaty/3/-/DSC/+/+")
        #expect(TopicFilter.query(in: ns).rawValue == "coaty/3/-/QRY/+/+")
        #expect(TopicFilter.update(.task, in: ns).rawValue == "coaty/3/-/UPD:Task/+/+")
        #expect(TopicFilter.call(operation: "a.b:c", in: ns).rawValue == "coaty/3/-/CLL:a.b:c/+/+")
        #expect(
            TopicFilter.responses(.retrieve, correlationID: Self.correlation, in: ns).rawValue
                == "coaty/3/-/RTV/+/\(Self.correlation)")
    }

    @Test func crossNamespacingPutsAPlusInTheNamespaceLevel() {
        #expect(TopicFilter.discover(in: .allNamespaces).rawValue == "coaty/3/+/DSC/+/+")
        #expect(
            TopicFilter.advertise(objectType: "com.x.Pump", in: .allNamespaces).topicFilter.rawValue
                == "coaty/3/+/ADV::com.x.Pump/+")
    }

    @Test func anEmptyNamespaceMeansAllNamespacesLikeCoatyJS() {
        #expect(TopicFilter.channel("c", in: .namespace("")) == TopicFilter.channel("c", in: .allNamespaces))
    }

    @Test(arguments: [EventType.advertise, .update])
    func canonicalObjectTypesAreObservedOnTheirCoreTypeFilter(_ eventType: EventType) {
        for coreType in CoreType.allCases {
            let subscription = ObjectTypeTopicFilter(
                eventType: eventType, objectType: coreType.canonicalObjectType, in: .namespace("-"))
            let expected = TopicFilter(eventType: eventType, eventTypeFilter: coreType.rawValue, in: .namespace("-"))
            #expect(subscription.topicFilter == expected)
            #expect(subscription.requiredObjectType == coreType.canonicalObjectType)
        }
    }

    @Test func otherObjectTypesAreObservedOnTheObjectTypeFilterWithoutLocalCheck() {
        let advertise = TopicFilter.advertise(objectType: "com.x.Light", in: .namespace("-"))
        #expect(advertise.topicFilter.rawValue == "coaty/3/-/ADV::com.x.Light/+")
        #expect(advertise.requiredObjectType == nil)
        let update = TopicFilter.update(objectType: "coaty.NotACoreType", in: .namespace("plant-7"))
        #expect(update.topicFilter.rawValue == "coaty/3/plant-7/UPD::coaty.NotACoreType/+/+")
        #expect(update.requiredObjectType == nil)
    }

    @Test(arguments: CoatyTopicTests.wellFormedTopics)
    func theRequestOrEventFilterOfATopicMatchesIt(_ topic: CoatyTopic) {
        let scope = TopicFilter.NamespaceScope.namespace(topic.namespace)
        let filter = TopicFilter(
            eventType: topic.eventType, eventTypeFilter: topic.eventTypeFilter,
            correlationID: topic.eventType.isResponse ? topic.correlationID : nil, in: scope)
        #expect(filter.matches(topic.name))
        #expect(
            TopicFilter(eventType: topic.eventType, eventTypeFilter: topic.eventTypeFilter, in: .allNamespaces)
                .matches(topic.name))
        #expect(!TopicFilter(eventType: topic.eventType, eventTypeFilter: "other", in: scope).matches(topic.name))
        #expect(MQTTTopic.isValidTopicFilter(filter.rawValue))
    }

    @Test func responsesOfAnotherRequestDoNotMatch() {
        let filter = TopicFilter.responses(.resolve, correlationID: Self.correlation, in: .namespace("-"))
        #expect(!filter.matches("coaty/3/-/RSV/b/6d5c4b3a-2f1e-4d0c-9b8a-7f6e5d4c3b2a"))
        #expect(filter.matches("coaty/3/-/RSV/b/\(Self.correlation)"))
    }

    @Test func rawFiltersAreKeptAsGiven() {
        let filter = TopicFilter(rawValue: "sensors/+/temp")
        #expect(filter.description == "sensors/+/temp")
        #expect(filter.matches("sensors/1/temp"))
    }
}
