import CoreTypes
import Testing

/// Hostile JSON texts: each is rejected with a ``JSONParseError`` (or accepted where it is valid
/// JSON), and none crashes or hangs.
@Suite struct HostileJSONTests {
    static let levels = 100_000

    // MARK: - Nesting

    @Test(arguments: ["[", "{\"a\":"])
    func nestingOneHundredThousandLevelsIsRejectedAsTooDeep(opening: String) {
        let closing = opening == "[" ? "]" : "}"
        let text = String(repeating: opening, count: Self.levels) + "1" + String(repeating: closing, count: Self.levels)
        let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
        #expect(error?.code == .tooDeep)
        #expect(error?.offset == 512 * opening.utf8.count)
    }

    @Test func unclosedNestingIsRejectedAsTooDeepBeforeTheEnd() {
        let error = #expect(throws: JSONParseError.self) {
            try JSONValue(parsing: String(repeating: "[{\"a\":", count: Self.levels))
        }
        #expect(error?.code == .tooDeep)
    }

    @Test func nestingAtTheLimitIsAcceptedAndRoundTrips() throws {
        let text = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        let value = try JSONValue(parsing: text)
        #expect(value.serializedString() == text)
        #expect(throws: JSONParseError.self) { try JSONParser(maximumDepth: 511).parse(text) }
    }

    @Test func deeplyNestedEventPayloadIsRejectedAsNotJSON() {
        let payload = Array((#"{"object":"# + String(repeating: #"{"a":"#, count: Self.levels) + "1").utf8)
        let error = #expect(throws: EventError.self) { try Advertise.parsePayload(payload) }
        #expect(error?.code == .notJSON)
        #expect(error?.eventType == .advertise)
    }

    // MARK: - Numbers

    @Test(arguments: [
        ("1", JSONParseError.Code.numberOutOfRange), ("-9", .numberOutOfRange), ("1e9", .numberOutOfRange),
    ])
    func tenThousandDigitIntegersBeyondDoubleAreRejected(prefix: String, code: JSONParseError.Code) {
        let text = prefix + String(repeating: "9", count: 10_000)
        let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
        #expect(error?.code == code)
        #expect(error?.offset == 0)
    }

    @Test func tenThousandDigitFractionReadsAsTheNearestDouble() throws {
        let text = "0." + String(repeating: "3", count: 10_000)
        #expect(try JSONValue(parsing: text) == .double(0.3333333333333333))
        let negativeExponent = "1e-" + String(repeating: "9", count: 10_000)
        #expect(try JSONValue(parsing: negativeExponent) == .double(0))
        let longInteger = "123456789" + String(repeating: "0", count: 291)
        #expect(try JSONValue(parsing: longInteger) == .double(1.23456789e299))
    }

    @Test func tenThousandDigitNumberInsideAnObjectIsRejected() {
        let text = #"{"objectId":"o","creationTimestamp":"# + String(repeating: "7", count: 10_000) + "}"
        let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
        #expect(error?.code == .numberOutOfRange)
        #expect(error?.offset == 36)
    }

    @Test(arguments: ["01", "-", "1.", ".5", "1e", "1e+", "+1", "0x10", "NaN", "Infinity", "-Infinity", "1_000"])
    func malformedNumbersAreRejected(text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
    }

    // MARK: - Invalid UTF-8

    /// Byte sequences that are not UTF-8: a stray continuation byte, a truncated sequence, an
    /// overlong encoding, an encoded surrogate, a code point above U+10FFFF, and bytes never used.
    static let invalidUTF8: [[UInt8]] = [
        [0x80], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80],
        [0xF4, 0x90, 0x80, 0x80], [0xFE], [0xFF],
    ]

    @Test(arguments: invalidUTF8)
    func invalidUTF8InAKeyIsRejected(bytes: [UInt8]) {
        let text = Array(#"{"ok":1,""#.utf8) + bytes + Array(#"":2}"#.utf8)
        let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
        #expect(error?.code == .invalidUTF8)
        #expect(error?.offset == 9)
    }

    @Test(arguments: invalidUTF8)
    func invalidUTF8InAValueIsRejected(bytes: [UInt8]) {
        for prefix in [#"{"name":"a"#, #"{"name":"a\n"#] {
            let text = Array(prefix.utf8) + bytes + Array(#"b"}"#.utf8)
            let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
            #expect(error?.code == .invalidUTF8, "after \(prefix)")
        }
    }

    @Test(arguments: invalidUTF8)
    func invalidUTF8AtTheEndIsRejected(bytes: [UInt8]) {
        let unterminated = #expect(throws: JSONParseError.self) {
            try JSONValue(parsing: Array(#"{"name":""#.utf8) + bytes)
        }
        #expect(unterminated?.code == .unexpectedEnd)
        let trailing = #expect(throws: JSONParseError.self) { try JSONValue(parsing: Array(#"{"a":1}"#.utf8) + bytes) }
        #expect(trailing?.code == .trailingContent)
        #expect(trailing?.offset == 7)
    }

    @Test(arguments: invalidUTF8)
    func invalidUTF8InAnEventPayloadIsRejectedAsNotJSON(bytes: [UInt8]) {
        let payload = Array(#"{"objectIds":[""#.utf8) + bytes + Array(#""]}"#.utf8)
        let error = #expect(throws: EventError.self) { try Deadvertise.parsePayload(payload) }
        #expect(error?.code == .notJSON)
        #expect(error?.eventType == .deadvertise)
    }

    @Test func byteOrderMarkIsRejected() {
        let error = #expect(throws: JSONParseError.self) {
            try JSONValue(parsing: [0xEF, 0xBB, 0xBF] + Array("{}".utf8))
        }
        #expect(error?.code == .unexpectedByte)
    }

    @Test func loneSurrogateEscapesBecomeReplacementCharacters() throws {
        let value = try JSONValue(parsing: #"["\ud800","\udc00x","\ud83d\ude00","\ud800\u0041"]"#)
        #expect(value == ["\u{FFFD}", "\u{FFFD}x", "😀", "\u{FFFD}A"])
    }

    // MARK: - Duplicate keys

    @Test func duplicateKeyKeepsTheLastValueAtTheFirstPosition() throws {
        let value = try JSONValue(parsing: #"{"a":1,"b":2,"a":3}"#)
        #expect(value.serializedString() == #"{"a":3,"b":2}"#)
    }

    @Test func duplicateKeysBeyondTheIndexThresholdAreMerged() throws {
        let members = (0..<40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        let value = try JSONValue(parsing: "{" + members + #","k3":"last","k39":null}"#)
        let object = try #require(value.objectValue)
        #expect(object.count == 40)
        #expect(object.keys[3] == "k3" && object["k3"] == "last" && object["k39"] == .null)
    }

    @Test func oneHundredThousandDuplicatesOfOneKeyCollapseToOneMember() throws {
        let text = "{" + (0..<Self.levels).map { #""a":\#($0)"# }.joined(separator: ",") + "}"
        let value = try JSONValue(parsing: text)
        #expect(value == ["a": .int(Self.levels - 1)])
    }

    @Test func duplicateCoreTypeKeyIsDecidedByTheLastValue() throws {
        let valid = try JSONValue(
            parsing: #"{"objectId":"o","objectType":"t","coreType":"Nope","name":"n","coreType":"Identity"}"#)
        #expect(try ObjectTypeRegistry().decodeObject(valid) is Identity)
        let invalid = try JSONValue(
            parsing: #"{"objectId":"o","objectType":"t","coreType":"Identity","name":"n","coreType":"Nope"}"#)
        let error = #expect(throws: ObjectDecodingError.self) { try ObjectTypeRegistry().decodeObject(invalid) }
        #expect(error?.field == "coreType")
    }

    // MARK: - Large texts

    @Test func sixteenMegabyteStringRoundTrips() throws {
        let content = String(repeating: "ab\\\"\u{e9}", count: 16 << 20 / 6)
        let text = #"{"blob":""# + content + #""}"#
        #expect(text.utf8.count > 16 << 20 - 64)
        let value = try JSONValue(parsing: text)
        #expect(value["blob"]?.stringValue?.utf8.count == content.utf8.count - content.utf8.count / 6)
        #expect(try JSONValue(parsing: value.serialized()) == value)
    }

    @Test func sixteenMegabyteArrayOfNumbersRoundTrips() throws {
        let count = 16 << 20 / 8
        let text = "[" + String(repeating: "-1.5e-7,", count: count - 1) + "-1.5e-7]"
        let value = try JSONValue(parsing: text)
        #expect(value.arrayValue?.count == count)
        #expect(value.arrayValue?.allSatisfy { $0 == .double(-1.5e-7) } == true)
        #expect(try JSONValue(parsing: value.serialized()) == value)
    }

    @Test(arguments: [
        (UInt8(ascii: "["), JSONParseError.Code.tooDeep), (UInt8(ascii: " "), .unexpectedEnd),
        (UInt8(ascii: "\""), .trailingContent), (UInt8(ascii: "1"), .numberOutOfRange), (0x00, .unexpectedByte),
        (0xFF, .unexpectedByte),
    ])
    func sixteenMegabytesOfOneByteAreRejected(byte: UInt8, code: JSONParseError.Code) {
        let bytes = [UInt8](repeating: byte, count: 16 << 20)
        let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: bytes) }
        #expect(error?.code == code)
    }
}
