extension CoatyTopic {
    /// Reads an inbound MQTT topic name: `nil` if it is not a Coaty topic, an error if it is a broken one.
    ///
    /// Called for every inbound message, so it works on the UTF-8 bytes and allocates only the
    /// strings it returns. It reads the topic as coaty-js `MqttTopic.createByName` does:
    ///
    /// - A topic that does not start with `coaty/` is Raw (or an external IO route): the result is `nil`.
    /// - The topic is split at every `/`; levels after the correlation level are ignored.
    /// - The version level is read like JavaScript `parseInt(level, 10)`: leading white space, a sign and
    ///   the leading digits count, so `3x` reads as 3. The version is not checked against 3.
    /// - The event level is split at its **first** `:`; the rest (maybe empty, maybe with more `:`) is the
    ///   ``eventTypeFilter``. Event names are case-sensitive.
    /// - Any source level is accepted, including an empty one. An empty correlation level reads as `nil`.
    ///   One-way events may carry a correlation level; it is kept.
    ///
    /// ```swift
    /// let topic = try CoatyTopic(parsing: "coaty/3/-/CLL:a.b:c/5c3e…/0f9e…")
    /// topic?.eventType        // .call
    /// topic?.eventTypeFilter  // "a.b:c"
    /// try CoatyTopic(parsing: "sensors/1/temp")  // nil: a Raw topic
    /// try CoatyTopic(parsing: "coaty/3/-/adv/x") // throws TopicParseError, code .unknownEventType
    /// ```
    ///
    /// - Parameter topic: The topic name of an inbound MQTT message.
    /// - Returns: `nil` when the topic does not start with `coaty/`.
    /// - Throws: ``TopicParseError`` when the topic starts with `coaty/` but has no event level, a
    ///   version level that does not start with an integer, an unknown event name, or no source level.
    public init?(parsing topic: String) throws(TopicParseError) {
        var levels = TopicLevelCache(capacity: 0)
        try self.init(parsing: topic, levels: &levels)
    }

    /// Reads an inbound MQTT topic name as ``init(parsing:)`` does, taking its longer levels from
    /// `levels` when they repeat one read before (a peer's identity id, an object-type filter),
    /// so that a stream of messages from the same peers allocates no strings for them.
    package init?(parsing topic: String, levels: inout TopicLevelCache) throws(TopicParseError) {
        var contiguous = topic
        let outcome = contiguous.withUTF8 { CoatyTopic.parse($0, levels: &levels) }
        switch outcome {
        case .notCoaty:
            return nil
        case .parsed(let parsed):
            self = parsed
        case .malformed(let code):
            throw TopicParseError(code: code, topic: topic)
        }
    }

    private enum ParseOutcome {
        case notCoaty
        case parsed(CoatyTopic)
        case malformed(TopicParseError.Code)
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, levels cache: inout TopicLevelCache) -> ParseOutcome {
        guard hasProtocolPrefix(bytes) else { return .notCoaty }
        var levels = LevelScanner(bytes: bytes, start: protocolPrefix.utf8.count)
        // Every Coaty topic has a version level: "coaty/" itself has an empty one.
        let versionLevel = levels.next()
        guard let namespaceLevel = levels.next(), let eventLevel = levels.next() else {
            return .malformed(.missingEventLevel)
        }
        let sourceLevel = levels.next()
        let correlationLevel = levels.next()

        guard let versionLevel, let version = parseVersion(bytes.extracting(versionLevel)) else {
            return .malformed(.invalidVersion)
        }
        let colon = bytes[eventLevel].firstIndex(of: UInt8(ascii: ":"))
        guard let eventType = eventType(ofLevel: eventLevel, colon: colon, in: bytes) else {
            return .malformed(.unknownEventType)
        }
        guard let sourceLevel else {
            return .malformed(.missingSourceID)
        }
        // The levels end at '/', ':' or the end of the topic, so they are valid UTF-8 on their own.
        let namespace = cache.string(bytes.extracting(namespaceLevel))
        let eventTypeFilter = colon.map { cache.string(bytes.extracting(($0 + 1)..<eventLevel.upperBound)) }
        let sourceID = cache.string(bytes.extracting(sourceLevel))
        // A correlation id is new with every request: not worth remembering.
        let correlationID = correlationLevel.flatMap { $0.isEmpty ? nil : String(decoding: bytes.extracting($0), as: UTF8.self) }
        return .parsed(
            CoatyTopic(
                version: version, namespace: namespace, eventType: eventType, eventTypeFilter: eventTypeFilter,
                sourceID: sourceID, correlationID: correlationID))
    }

    /// Whether `bytes` starts with `coaty/`.
    static func hasProtocolPrefix(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let prefix: StaticString = "coaty/"
        guard bytes.count >= prefix.utf8CodeUnitCount else { return false }
        return prefix.withUTF8Buffer { prefix in
            for index in prefix.indices where bytes[index] != prefix[index] {
                return false
            }
            return true
        }
    }

    /// The event type of a topic name, read as ``init(parsing:)`` reads it but without building the
    /// topic: `nil` for a topic that is not Coaty's (Raw, an external IO route) or has no known event.
    package static func eventType(ofName topic: String) -> EventType? {
        var contiguous = topic
        return contiguous.withUTF8 { bytes -> EventType? in
            guard hasProtocolPrefix(bytes) else { return nil }
            var levels = LevelScanner(bytes: bytes, start: protocolPrefix.utf8.count)
            _ = levels.next()  // the version
            guard levels.next() != nil, let eventLevel = levels.next() else { return nil }
            return eventType(ofLevel: eventLevel, colon: bytes[eventLevel].firstIndex(of: UInt8(ascii: ":")), in: bytes)
        }
    }

    /// The event type named by the event level `level` of `bytes`, up to its first `colon` if any.
    private static func eventType(ofLevel level: Range<Int>, colon: Int?, in bytes: UnsafeBufferPointer<UInt8>) -> EventType? {
        eventType(named: bytes.extracting(level.lowerBound..<(colon ?? level.upperBound)))
    }

    /// The event type whose three-letter name is exactly `name`.
    private static func eventType(named name: UnsafeBufferPointer<UInt8>) -> EventType? {
        guard name.count == 3 else { return nil }
        let key = UInt32(name[0]) << 16 | UInt32(name[1]) << 8 | UInt32(name[2])
        // The keys are the ASCII codes of the three letters, e.g. 0x41_44_56 is "ADV".
        switch key {
        case 0x41_44_56: return .advertise
        case 0x44_41_44: return .deadvertise
        case 0x43_48_4E: return .channel
        case 0x41_53_43: return .associate
        case 0x49_4F_56: return .ioValue
        case 0x44_53_43: return .discover
        case 0x52_53_56: return .resolve
        case 0x51_52_59: return .query
        case 0x52_54_56: return .retrieve
        case 0x55_50_44: return .update
        case 0x43_50_4C: return .complete
        case 0x43_4C_4C: return .call
        case 0x52_54_4E: return .return
        default: return nil
        }
    }

    /// Reads a version level like JavaScript `parseInt(level, 10)`, with `nil` for `NaN`.
    ///
    /// Integers that do not fit in `Int` are `nil` too, where JavaScript would give a rounded double.
    static func parseVersion(_ level: UnsafeBufferPointer<UInt8>) -> Int? {
        if let first = level.first, isDigit(UInt32(first)) {
            return parseDigits(level.lazy.map(UInt32.init), negative: false)
        }
        // Rare: white space (maybe non-ASCII), a sign, or no number at all.
        var scalars = Substring(string(level)).unicodeScalars
        while let first = scalars.first, isJavaScriptWhiteSpace(first) {
            scalars.removeFirst()
        }
        var negative = false
        if let sign = scalars.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            scalars.removeFirst()
        }
        return parseDigits(scalars.lazy.map(\.value), negative: negative)
    }

    /// The value of the leading decimal digits of `values`, or `nil` if there are none or it overflows.
    private static func parseDigits(_ values: some Sequence<UInt32>, negative: Bool) -> Int? {
        var result = 0
        var sawDigit = false
        for value in values {
            guard isDigit(value) else { break }
            let digit = Int(value) - 0x30
            let (shifted, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) =
                negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            result = sum
            sawDigit = true
        }
        return sawDigit ? result : nil
    }

    private static func isDigit(_ value: UInt32) -> Bool {
        value >= 0x30 && value <= 0x39
    }

    /// JavaScript's StrWhiteSpaceChar: WhiteSpace (including category Zs) and LineTerminator.
    private static func isJavaScriptWhiteSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
            true
        default:
            false
        }
    }

    private static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}

/// Walks the `/`-separated levels of a topic, as JavaScript `split("/")` would list them.
struct LevelScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    private var start: Int?

    /// Starts at the level beginning at `start`; a topic always has at least one level.
    init(bytes: UnsafeBufferPointer<UInt8>, start: Int = 0) {
        self.bytes = bytes
        self.start = start
    }

    /// The byte range of the next level, or `nil` after the last one.
    mutating func next() -> Range<Int>? {
        guard let levelStart = start else { return nil }
        let levelEnd = LevelScanner.firstSlash(in: bytes, from: levelStart)
        start = levelEnd < bytes.count ? levelEnd + 1 : nil
        return levelStart..<levelEnd
    }

    /// The offset of the first `/` at or after `offset`, or `bytes.count` if there is none.
    ///
    /// Looks at eight bytes at a time: a topic is mostly long ids without `/`.
    static func firstSlash(in bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int {
        var index = offset
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= bytes.count {
                // Bytes equal to '/' become zero; the lowest flagged byte is the first zero byte.
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let difference = word ^ 0x2F2F_2F2F_2F2F_2F2F
                let zeroBytes = (difference &- 0x0101_0101_0101_0101) & ~difference & 0x8080_8080_8080_8080
                if zeroBytes != 0 {
                    return index + zeroBytes.trailingZeroBitCount / 8
                }
                index += 8
            }
        }
        while index < bytes.count, bytes[index] != UInt8(ascii: "/") {
            index += 1
        }
        return index
    }

    /// Whether ``next()`` has returned the last level.
    var isAtEnd: Bool { start == nil }
}
