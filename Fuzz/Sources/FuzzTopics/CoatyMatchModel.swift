/// Plain models of the topic rules, written from their documentation with `split` and no byte
/// tricks, to compare the optimised implementations against.
enum CoatyMatchModel {
    /// coaty-js `MqttTopic.matches` as documented on ``MQTTTopic/matches(topic:filter:)``: `+` matches
    /// one level (an empty one too), a last `#` matches the rest (nothing too), any other `#` never
    /// matches, and a missing topic level is an empty level that only `+`, `#` or an empty filter level
    /// accepts, though the topic must not run out before the filter does.
    static func matches(topic: String, filter: String) -> Bool {
        guard !topic.isEmpty, !filter.isEmpty else { return false }
        let patterns = levels(filter)
        let levels = levels(topic)
        var topicRanOut = false
        for (index, pattern) in patterns.enumerated() {
            let isLast = index == patterns.count - 1
            if index >= levels.count { topicRanOut = true }
            guard index < levels.count, !levels[index].isEmpty else {
                if pattern.isEmpty || pattern.elementsEqual("+".utf8) { continue }
                return pattern.elementsEqual("#".utf8) && isLast
            }
            if pattern.elementsEqual("#".utf8) { return isLast }
            if !pattern.elementsEqual("+".utf8) && pattern != levels[index] { return false }
        }
        return !topicRanOut && levels.count <= patterns.count
    }

    /// MQTT 3.1.1 §4.7 matching, for a valid filter and a valid topic name (`$` topics not special).
    static func mqttMatches(topic: String, filter: String) -> Bool {
        let patterns = levels(filter)
        let levels = levels(topic)
        var index = 0
        for pattern in patterns {
            if pattern.elementsEqual("#".utf8) { return true }
            guard index < levels.count else { return false }
            if !pattern.elementsEqual("+".utf8) && pattern != levels[index] { return false }
            index += 1
        }
        return index == levels.count
    }

    /// MQTT 3.1.1 §4.7.1: not empty, at most 65535 bytes, no NUL, `#` only as the whole last level,
    /// `+` only as a whole level.
    static func isValidMQTTFilter(_ filter: String) -> Bool {
        guard !filter.isEmpty, filter.utf8.count <= 65535, !filter.utf8.contains(0) else { return false }
        let levels = levels(filter)
        for (index, level) in levels.enumerated() {
            if level.elementsEqual("#".utf8) {
                if index != levels.count - 1 { return false }
            } else if !level.elementsEqual("+".utf8)
                && level.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "#") })
            {
                return false
            }
        }
        return true
    }

    /// The levels of a topic: its UTF-8 bytes split at every `/` (not at grapheme clusters, which
    /// can swallow a `/` or `+` followed by a combining mark).
    static func levels(_ topic: String) -> [ArraySlice<UInt8>] {
        Array(topic.utf8).split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
    }

    /// coaty-js `MqttTopic.isValidTopic`: not empty, at most 65535 bytes counting a UTF-16 surrogate
    /// as 4, no NUL, and for publication no `+` or `#`.
    static func isValidTopic(_ topic: String, forSubscription: Bool) -> Bool {
        guard !topic.isEmpty else { return false }
        let length = topic.unicodeScalars.reduce(0) { total, scalar in
            total + (scalar.value > 0xFFFF ? 8 : String(scalar).utf8.count)
        }
        guard length <= 65535, !topic.unicodeScalars.contains("\u{0}") else { return false }
        return forSubscription || !topic.unicodeScalars.contains { $0 == "+" || $0 == "#" }
    }
}
