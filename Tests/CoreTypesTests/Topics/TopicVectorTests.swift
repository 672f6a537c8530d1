import CoreTypes
import Testing

/// The coaty-js 2.4.1 conformance vectors of `topics.json`, one test argument per case.
///
/// Not covered here: the groups `managerPublication`, `managerSubscription` and all of `join` but
/// its `clientId`, which need event payloads and belong to the event and agent tests.
@Suite struct TopicVectorTests {
    /// The event type that coaty-js calls `name` (`"Advertise"`), if Swift has one.
    static func eventType(named name: String) -> EventType? {
        EventType.allCases.first { $0.description == name }
    }

    @Test(arguments: try TopicVectors.cases(TopicNameCase.self))
    func topicName(_ vector: TopicNameCase) throws {
        let input = vector.input
        guard let eventType = Self.eventType(named: input.eventType) else {
            // Not applicable: Raw has no event level, so it is not an `EventType`. coaty-js writes the
            // text "undefined" in its place; its binding never formats Raw topics this way.
            #expect(input.eventType == "Raw")
            #expect(vector.expected.topic.contains("undefined"))
            return
        }
        guard let namespace = input.namespace else {
            // Not applicable: `CoatyTopic.namespace` is not optional. coaty-js writes the text
            // "undefined" for a missing namespace; its binding always passes one ("-" by default).
            #expect(vector.expected.topic.hasPrefix("coaty/\(input.version)/undefined/"))
            return
        }
        let topic = CoatyTopic(
            version: input.version,
            namespace: namespace,
            eventType: eventType,
            eventTypeFilter: input.eventTypeFilter,
            sourceID: input.sourceId,
            correlationID: input.correlationId)
        #expect(topic.name == vector.expected.topic)
    }

    @Test(arguments: try TopicVectors.cases(TopicFilterCase.self))
    func topicFilter(_ vector: TopicFilterCase) throws {
        let input = vector.input
        let eventType = try #require(Self.eventType(named: input.eventType))
        let filter = TopicFilter(
            eventType: eventType,
            eventTypeFilter: input.eventTypeFilter,
            correlationID: input.correlationId,
            in: input.namespace.map { .namespace($0) } ?? .allNamespaces,
            version: input.version)
        #expect(filter.rawValue == vector.expected.topicFilter)
    }

    @Test(arguments: try TopicVectors.cases(ParseCase.self))
    func parse(_ vector: ParseCase) throws {
        let name = vector.input.topic
        switch vector.expected {
        case .notCoaty:
            #expect(try CoatyTopic(parsing: name) == nil)
            #expect(!CoatyTopic.isCoatyTopicLike(name))
            #expect(CoatyTopic.eventType(ofName: name) == nil)
        case .throwsError:
            let error = #expect(throws: TopicParseError.self) { try CoatyTopic(parsing: name) }
            #expect(error?.code == .missingEventLevel)
        case .topic(let fields):
            if let code = Self.malformedCode(for: fields) {
                // coaty-js returns a topic with an undefined or NaN field here; `CoatyTopic` has no
                // such fields, so Swift reports the topic as malformed with the matching code.
                let error = #expect(throws: TopicParseError.self) { try CoatyTopic(parsing: name) }
                #expect(error?.code == code)
                return
            }
            let topic = try #require(try CoatyTopic(parsing: name))
            #expect(topic.version == fields.version.integer)
            #expect(topic.namespace == fields.namespace.string)
            #expect(topic.eventType.description == fields.eventType.string)
            #expect(CoatyTopic.eventType(ofName: name) == topic.eventType)
            #expect(topic.eventTypeFilter == fields.eventTypeFilter.string)
            #expect(topic.sourceID == fields.sourceId.string)
            #expect(topic.correlationID == fields.correlationId.string)
        }
    }

    /// The error Swift reports for a topic that coaty-js reads with these fields, checked in the
    /// order the parser checks them, or `nil` if every required field is defined.
    static func malformedCode(for fields: ParseCase.Fields) -> TopicParseError.Code? {
        if fields.version.integer == nil { return .invalidVersion }
        if fields.eventType == .undefined { return .unknownEventType }
        if fields.sourceId == .undefined { return .missingSourceID }
        return nil
    }

    @Test(arguments: try TopicVectors.cases(IsValidTopicCase.self))
    func isValidTopic(_ vector: IsValidTopicCase) throws {
        let topic = try #require(vector.topic, "case has neither topic nor topicRepeat")
        let forSubscription = vector.input.forSubscription
        #expect(MQTTTopic.isValidTopic(topic, forSubscription: forSubscription) == vector.expected.valid)
    }

    @Test(arguments: try TopicVectors.cases(MatchesCase.self))
    func matches(_ vector: MatchesCase) {
        let input = vector.input
        #expect(MQTTTopic.matches(topic: input.topic, filter: input.filter) == vector.expected.matches)
        #expect(TopicFilter(rawValue: input.filter).matches(input.topic) == vector.expected.matches)
    }

    @Test(arguments: try TopicVectors.cases(EventFilterCase.self))
    func eventFilter(_ vector: EventFilterCase) {
        guard let value = vector.input.value.string else {
            // Not applicable: `isValidEventFilter` takes a `String`, so `null` and `undefined` cannot
            // be passed. coaty-js rejects them, and Swift rules them out by type.
            #expect(vector.expected.valid == false)
            return
        }
        #expect(CoatyTopic.isValidEventFilter(value) == vector.expected.valid)
    }

    @Test(arguments: try TopicVectors.cases(JoinClientIDCase.self))
    func joinClientID(_ vector: JoinClientIDCase) {
        #expect(CoatyProtocol.mqttClientID(forIdentityID: vector.input.identityId) == vector.expected.clientId)
    }

    @Test func everyGroupOfThisSuiteHasCases() throws {
        #expect(try !TopicVectors.cases(TopicNameCase.self).isEmpty)
        #expect(try !TopicVectors.cases(TopicFilterCase.self).isEmpty)
        #expect(try !TopicVectors.cases(ParseCase.self).isEmpty)
        #expect(try !TopicVectors.cases(IsValidTopicCase.self).isEmpty)
        #expect(try !TopicVectors.cases(MatchesCase.self).isEmpty)
        #expect(try !TopicVectors.cases(EventFilterCase.self).isEmpty)
        #expect(try !TopicVectors.cases(JoinClientIDCase.self).isEmpty)
    }
}
