/// The few topic rules the event layer needs, in one place.
///
/// TEMPORARY local bodies until branch `topics` lands; then each forwards to the topic grammar.
enum TopicRules {
    static func isValidEventFilter(_ name: String) -> Bool {
        !name.isEmpty && !name.unicodeScalars.contains { $0 == "\u{0}" || $0 == "#" || $0 == "+" || $0 == "/" }
    }

    static func isOneWay(_ eventType: EventType) -> Bool {
        switch eventType {
        case .advertise, .deadvertise, .channel, .associate, .ioValue: return true
        default: return false
        }
    }

    static func topicName(
        namespace: String, eventType: EventType, filter: String?, sourceID: String, correlationID: String?
    ) -> String {
        var level = eventType.rawValue
        if let filter, !filter.isEmpty { level += ":" + filter }
        var topic = "coaty/3/\(namespace)/\(level)/\(sourceID)"
        if !isOneWay(eventType) { topic += "/" + (correlationID ?? "undefined") }
        return topic
    }

    static func topicFilter(namespace: String?, eventType: EventType, filter: String?, correlationID: String?) -> String {
        var level = eventType.rawValue
        if let filter, !filter.isEmpty { level += ":" + filter }
        let ns = namespace.flatMap { $0.isEmpty ? nil : $0 } ?? "+"
        var topic = "coaty/3/\(ns)/\(level)/+"
        if !isOneWay(eventType) { topic += "/" + (correlationID ?? "+") }
        return topic
    }

    static func isCoatyTopicLike(_ topic: String) -> Bool { topic.hasPrefix("coaty/") }

    static func isValidTopic(_ topic: String, forSubscription: Bool) -> Bool {
        guard !topic.isEmpty else { return false }
        var bytes = 0
        for unit in topic.utf16 {
            if unit <= 0x7F { bytes += 1 } else if unit <= 0x7FF { bytes += 2 } else if (0xD800...0xDFFF).contains(unit) { bytes += 4 } else { bytes += 3 }
        }
        guard bytes <= 65535 else { return false }
        if forSubscription { return !topic.unicodeScalars.contains("\u{0}") }
        return !topic.unicodeScalars.contains { $0 == "\u{0}" || $0 == "#" || $0 == "+" }
    }

    static func clientID(identityID: String) -> String {
        "Coaty" + String(identityID.filter { $0 != "-" }.prefix(18))
    }
}
