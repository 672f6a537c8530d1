@testable import CoreTypes
import FuzzSupport

/// The properties of topic parsing, formatting and matching for every input.
///
/// The input is a topic name and, after the first line feed, a topic filter (the topic itself when
/// there is no line feed).
///
/// - `CoatyTopic(parsing:)` is `nil` exactly for topics without the `coaty/` prefix; a parsed topic
///   has no `/` inside a level; formatting it and parsing that again gives the same topic (after
///   the documented normalisations: an empty event filter is dropped, a one-way event loses its
///   correlation id, a two-way event without one gets `undefined`), and formatting is a fixed point.
/// - The subscription filter for a parsed topic's event (any namespace, or its own namespace) matches
///   the formatted topic.
/// - `MQTTTopic.matches` gives the answer of a plain, split-based model of the coaty-js algorithm for
///   any pair; for a valid MQTT filter and a valid publication topic it gives the MQTT 3.1.1 answer,
///   unless the topic runs out of levels before a last `#` (a coaty-js quirk: `a` matches `a//#`);
///   a filter without wildcards matches exactly the topic equal to it.
/// - `isValidTopicFilter`, `isValidTopic` and `isValidEventFilter` agree with models written from
///   their documented rules.
enum TopicProperties {
    static func check(_ input: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: input, as: UTF8.self)
        let topic: String
        let filter: String
        // Split the bytes, not the characters: "\r\n" is one Character, and String would round the
        // index down to its start.
        if let newline = text.utf8.firstIndex(of: UInt8(ascii: "\n")) {
            topic = String(Substring(text.utf8[..<newline]))
            filter = String(Substring(text.utf8[text.utf8.index(after: newline)...]))
        } else {
            topic = text
            filter = text
        }
        checkParsing(topic)
        checkParsing(filter)
        checkMatching(topic: topic, filter: filter)
        checkMatching(topic: filter, filter: topic)
        checkValidity(topic)
        checkValidity(filter)
    }

    // MARK: - Coaty topics

    private static func checkParsing(_ topic: String) {
        let parsed: CoatyTopic?
        do {
            parsed = try CoatyTopic(parsing: topic)
        } catch {
            require(topic.utf8.starts(with: "coaty/".utf8), "'\(topic)' is not a Coaty topic but threw \(error)")
            require(error.topic == topic, "the error names '\(error.topic)' instead of '\(topic)'")
            return
        }
        guard let parsed else {
            require(!topic.utf8.starts(with: "coaty/".utf8), "'\(topic)' starts with coaty/ but parsed as nil")
            return
        }
        require(topic.utf8.starts(with: "coaty/".utf8), "'\(topic)' parsed as a Coaty topic without the prefix")
        for level in [parsed.namespace, parsed.sourceID, parsed.eventTypeFilter ?? "", parsed.correlationID ?? ""] {
            require(!level.utf8.contains(UInt8(ascii: "/")), "a level of '\(topic)' holds a '/': '\(level)'")
        }
        require(parsed.correlationID != "", "an empty correlation level must read as nil in '\(topic)'")
        let name = parsed.name
        require(
            topic.utf8.starts(with: name.utf8) || !isCanonical(parsed, topic),
            "canonical topic '\(topic)' formats as '\(name)'")
        let reparsed: CoatyTopic?
        do {
            reparsed = try CoatyTopic(parsing: name)
        } catch {
            violated("formatted topic '\(name)' (from '\(topic)') does not parse: \(error)")
        }
        var expected = parsed
        if expected.eventTypeFilter == "" { expected.eventTypeFilter = nil }
        expected.correlationID = parsed.eventType.isTwoWay ? (parsed.correlationID ?? "undefined") : nil
        require(reparsed == expected, "'\(topic)' → '\(name)' → \(String(describing: reparsed)), expected \(expected)")
        require(reparsed?.name == name, "formatting '\(name)' again gives '\(reparsed?.name ?? "nil")'")
        checkSubscriptions(for: parsed, name: name)
    }

    /// Whether `topic` is exactly what formatting `parsed` writes, apart from levels after the last one.
    private static func isCanonical(_ parsed: CoatyTopic, _ topic: String) -> Bool {
        let levels = CoatyMatchModel.levels(topic)
        guard levels.count >= 5, levels[1].elementsEqual(String(parsed.version).utf8) else { return false }
        if parsed.eventTypeFilter == "" { return false }
        if parsed.eventType.isOneWay { return levels.count == 5 }
        return levels.count == 6 && parsed.correlationID != nil
    }

    private static func checkSubscriptions(for parsed: CoatyTopic, name: String) {
        let correlationID = parsed.eventType.isTwoWay ? parsed.correlationID : nil
        let everywhere = TopicFilter(
            eventType: parsed.eventType, eventTypeFilter: parsed.eventTypeFilter, in: .allNamespaces,
            version: parsed.version)
        require(everywhere.matches(name), "'\(everywhere)' does not match '\(name)'")
        guard parsed.namespace != "#" else { return }
        let own = TopicFilter(
            eventType: parsed.eventType, eventTypeFilter: parsed.eventTypeFilter, correlationID: correlationID,
            in: .namespace(parsed.namespace), version: parsed.version)
        require(own.matches(name), "'\(own)' does not match '\(name)'")
    }

    // MARK: - Matching

    private static func checkMatching(topic: String, filter: String) {
        let result = MQTTTopic.matches(topic: topic, filter: filter)
        let model = CoatyMatchModel.matches(topic: topic, filter: filter)
        require(
            result == model, "matches(topic: '\(topic)', filter: '\(filter)') is \(result), the model says \(model)")
        require(TopicFilter(rawValue: filter).matches(topic) == result, "TopicFilter.matches differs from MQTTTopic")
        // coaty-js reads a level the topic lacks as an empty level, so `a` matches `a//#` and `a/+/#`
        // where MQTT says no; the MQTT answer applies while the topic has a level for each filter
        // level before a last `#`.
        if MQTTTopic.isValidTopicFilter(filter), MQTTTopic.isValidTopic(topic, forSubscription: false),
            levelCount(topic) + 1 >= levelCount(filter)
        {
            let mqtt = CoatyMatchModel.mqttMatches(topic: topic, filter: filter)
            require(result == mqtt, "valid '\(filter)' on '\(topic)': \(result), MQTT 3.1.1 says \(mqtt)")
        }
        if !filter.isEmpty, !topic.isEmpty, !filter.utf8.contains(where: { $0 == 0x2B || $0 == 0x23 }) {
            require(result == (topic == filter), "wildcard-free '\(filter)' on '\(topic)' gives \(result)")
        }
        if !topic.isEmpty {
            require(MQTTTopic.matches(topic: topic, filter: "#"), "'#' does not match '\(topic)'")
        }
    }

    private static func levelCount(_ text: String) -> Int {
        text.utf8.count { $0 == UInt8(ascii: "/") } + 1
    }

    // MARK: - Validity

    private static func checkValidity(_ text: String) {
        let filterValid = MQTTTopic.isValidTopicFilter(text)
        let filterModel = CoatyMatchModel.isValidMQTTFilter(text)
        require(
            filterValid == filterModel, "isValidTopicFilter('\(text)') is \(filterValid), the model says \(filterModel)"
        )
        let eventFilter = CoatyTopic.isValidEventFilter(text)
        let eventModel = !text.isEmpty && !text.unicodeScalars.contains { "\u{0}+#/".unicodeScalars.contains($0) }
        require(eventFilter == eventModel, "isValidEventFilter('\(text)') is \(eventFilter)")
        for subscription in [false, true] {
            let valid = MQTTTopic.isValidTopic(text, forSubscription: subscription)
            let model = CoatyMatchModel.isValidTopic(text, forSubscription: subscription)
            require(valid == model, "isValidTopic('\(text)', forSubscription: \(subscription)) is \(valid)")
        }
        require(
            MQTTTopic.isValidRawPublicationTopic(text)
                == (!text.utf8.starts(with: "coaty/".utf8) && MQTTTopic.isValidTopic(text)),
            "isValidRawPublicationTopic('\(text)')")
    }
}
