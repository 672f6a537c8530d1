/// Checks and wildcard matching for plain MQTT topic names and topic filters.
///
/// ``isValidTopic(_:forSubscription:)`` and ``matches(topic:filter:)`` give exactly the answers of
/// coaty-js `MqttTopic`, quirks included; ``isValidTopicFilter(_:)`` applies the stricter MQTT 3.1.1
/// rules that a broker (and libmosquitto) enforces.
///
/// ```swift
/// MQTTTopic.matches(topic: "sensors/1/temp", filter: "sensors/+/temp")  // true
/// MQTTTopic.isValidRawPublicationTopic("coaty/custom")                   // false
/// MQTTTopic.isValidTopicFilter("a/#/b")                                  // false
/// ```
package enum MQTTTopic {
    /// The longest topic name or filter MQTT can carry, in UTF-8 bytes.
    package static let maximumLength = 65535

    /// Whether coaty-js `MqttTopic.isValidTopic` accepts `topic` for publication or subscription.
    ///
    /// The topic must not be empty and must not be longer than 65535 bytes, where coaty-js counts
    /// **4 bytes for each UTF-16 surrogate**, so 8 for an emoji. It must not contain U+0000; a
    /// publication topic must not contain `+` or `#` either. Wildcard placement is not checked
    /// (`a#/b` passes for subscription); see ``isValidTopicFilter(_:)`` for that.
    ///
    /// - Parameters:
    ///   - topic: A topic name or topic filter.
    ///   - forSubscription: `true` to check a subscription filter, `false` for a publication topic.
    package static func isValidTopic(_ topic: String, forSubscription: Bool = false) -> Bool {
        let utf8 = topic.utf8
        guard !utf8.isEmpty, javaScriptByteCount(utf8) <= maximumLength else { return false }
        if forSubscription {
            return !utf8.contains(0)
        }
        return !utf8.contains { $0 == 0 || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "#") }
    }

    /// Whether the MQTT binding of coaty-js publishes a Raw message on `topic`.
    ///
    /// A valid publication topic (``isValidTopic(_:forSubscription:)``) that does not start with
    /// `coaty/`; coaty-js logs and drops anything else.
    package static func isValidRawPublicationTopic(_ topic: String) -> Bool {
        !CoatyTopic.isCoatyTopicLike(topic) && isValidTopic(topic, forSubscription: false)
    }

    /// Whether the MQTT binding of coaty-js subscribes to the Raw subscription `filter`.
    ///
    /// A valid subscription filter (``isValidTopic(_:forSubscription:)``) that does not start with
    /// `coaty/`; coaty-js logs and ignores anything else. `coaty/#` is refused, `#` is allowed.
    package static func isValidRawSubscriptionFilter(_ filter: String) -> Bool {
        !CoatyTopic.isCoatyTopicLike(filter) && isValidTopic(filter, forSubscription: true)
    }

    /// Whether the MQTT binding of coaty-js subscribes to the IO route `route`.
    ///
    /// An IO route is used both to publish and to subscribe, so it must be a valid publication
    /// topic, without wildcards. An external route must also not start with `coaty/`.
    package static func isValidIoRoute(_ route: String, isExternal: Bool) -> Bool {
        !(isExternal && CoatyTopic.isCoatyTopicLike(route)) && isValidTopic(route, forSubscription: false)
    }

    /// Whether `filter` is a topic filter an MQTT 3.1.1 broker accepts.
    ///
    /// Stricter than ``isValidTopic(_:forSubscription:)``: not empty, at most 65535 UTF-8 bytes, no
    /// U+0000, `#` only as the whole last level, and `+` only as a whole level.
    ///
    /// ```swift
    /// MQTTTopic.isValidTopicFilter("a/+/#")  // true
    /// MQTTTopic.isValidTopicFilter("a+/b")   // false
    /// ```
    package static func isValidTopicFilter(_ filter: String) -> Bool {
        let utf8 = filter.utf8
        guard !utf8.isEmpty, utf8.count <= maximumLength else { return false }
        var levelLength = 0
        var levelHasWildcard = false
        var afterMultiLevel = false
        for byte in utf8 {
            if afterMultiLevel { return false }
            switch byte {
            case 0:
                return false
            case UInt8(ascii: "/"):
                levelLength = 0
                levelHasWildcard = false
                continue
            case UInt8(ascii: "+"), UInt8(ascii: "#"):
                guard levelLength == 0 else { return false }
                levelHasWildcard = true
                afterMultiLevel = byte == UInt8(ascii: "#")
            default:
                guard !levelHasWildcard else { return false }
            }
            levelLength += 1
        }
        return true
    }

    /// Whether a message on `topic` matches the subscription `filter`, exactly as coaty-js
    /// `MqttTopic.matches` decides.
    ///
    /// `+` matches one level, including an empty one; `#` as the last filter level matches any
    /// remaining levels, including none (`a` matches `a/#`). A `#` that is not last never matches.
    /// An empty topic or filter never matches. Unlike MQTT brokers, topics starting with `$` are
    /// not special: `$SYS/x` matches `#` and `+/x`.
    ///
    /// ```swift
    /// MQTTTopic.matches(topic: "a/b/c", filter: "a/#")    // true
    /// MQTTTopic.matches(topic: "a/b", filter: "a/b/+")    // false
    /// ```
    package static func matches(topic: String, filter: String) -> Bool {
        guard !topic.isEmpty, !filter.isEmpty else { return false }
        var topic = topic
        var filter = filter
        return topic.withUTF8 { topicBytes in
            filter.withUTF8 { filterBytes in matches(topicBytes, filterBytes) }
        }
    }

    private static func matches(_ topic: UnsafeBufferPointer<UInt8>, _ filter: UnsafeBufferPointer<UInt8>) -> Bool {
        var filterLevels = LevelScanner(bytes: filter)
        var topicLevels = LevelScanner(bytes: topic)
        var topicIsShorter = false
        while let filterRange = filterLevels.next() {
            let pattern = filter.extracting(filterRange)
            let isLastPattern = filterLevels.isAtEnd
            let topicRange = topicLevels.next()
            guard let topicRange, !topicRange.isEmpty else {
                // A missing or empty topic level.
                if topicRange == nil { topicIsShorter = true }
                if pattern.isEmpty || isLevel(pattern, UInt8(ascii: "+")) { continue }
                return isLevel(pattern, UInt8(ascii: "#")) && isLastPattern
            }
            if isLevel(pattern, UInt8(ascii: "#")) { return isLastPattern }
            if !isLevel(pattern, UInt8(ascii: "+")) && !equal(pattern, topic.extracting(topicRange)) {
                return false
            }
        }
        return !topicIsShorter && topicLevels.isAtEnd
    }

    private static func equal(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for index in 0..<lhs.count where lhs[index] != rhs[index] {
            return false
        }
        return true
    }

    private static func isLevel(_ level: UnsafeBufferPointer<UInt8>, _ wildcard: UInt8) -> Bool {
        level.count == 1 && level[0] == wildcard
    }

    /// The UTF-8 length as coaty-js computes it: 4 bytes per UTF-16 surrogate, so 8 per 4-byte sequence.
    private static func javaScriptByteCount(_ utf8: String.UTF8View) -> Int {
        let count = utf8.count
        // At most every byte counts twice; skip the scan when even that fits.
        guard count * 2 > maximumLength else { return count }
        return utf8.reduce(into: count) { total, byte in
            if byte >= 0xF0 { total += 4 }
        }
    }
}
