import CoreTypes
import FuzzSupport

/// The properties the JSON parser and writer must have for every input (an input that starts with
/// `#` drives ``JSONObjectModel`` instead).
///
/// - Rejected input: the error's offset lies inside the input, and every entry point of the parser
///   (bytes, a non-contiguous collection, a `String`) rejects it the same way.
/// - Accepted input: the same value from every entry point; the written text parses again to the same
///   JSON (numbers by value, keys in order) and is a fixed point (writing the re-parsed value gives the
///   same bytes); the text is UTF-8 without raw control characters; the depth limit is exact; a lone
///   number reads as Swift's correctly rounded `Int`/`Double` reading; `JSONValue`'s `Codable`
///   conformance passes the value through the project's coders unchanged; object equality and hashing
///   ignore key order; keys that differ byte for byte stay apart; strings split as dotted paths and
///   JSON pointers the way a byte-wise model splits them.
/// - Any double (the input's first four eight-byte groups read as bit patterns): written the way
///   JavaScript writes it (exponent form exactly outside [1e-6, 1e21), no trailing zeros, the
///   shortest digits), and read back to the same double; a NaN or infinity is written as `null`.
enum JSONProperties {
    static func check(_ input: UnsafeBufferPointer<UInt8>) {
        // An input starting with `#` (never JSON) is a program for the `JSONObject` model instead.
        if input.first == UInt8(ascii: "#") {
            JSONObjectModel.run(UnsafeBufferPointer(rebasing: input.dropFirst()))
            return
        }
        checkDoubleWriting(input)
        let outcome = Outcome { () throws(JSONParseError) in try JSONParser().parse(input) }
        checkEntryPoints(input, agree: outcome)
        switch outcome {
        case .failure(let error):
            require(
                error.offset >= 0 && error.offset <= input.count,
                "error offset \(error.offset) outside the \(input.count) input bytes: \(error)")
        case .success(let value):
            checkRoundTrip(value, input)
            checkDepthLimit(value, input)
            checkLoneNumber(value, input)
            checkCodable(value)
            checkKeyOrderIndependence(value)
            checkKeyIdentity(value)
            for text in strings(in: value).prefix(2) { JSONObjectModel.checkPaths(text) }
        }
    }

    private enum Outcome: Equatable {
        case success(JSONValue)
        case failure(JSONParseError)

        init(_ parse: () throws(JSONParseError) -> JSONValue) {
            do throws(JSONParseError) {
                self = .success(try parse())
            } catch {
                self = .failure(error)
            }
        }

        static func == (lhs: Outcome, rhs: Outcome) -> Bool {
            switch (lhs, rhs) {
            case (.success(let a), .success(let b)): return a == b && a.isSameJSON(as: b)
            case (.failure(let a), .failure(let b)): return a.code == b.code && a.offset == b.offset
            default: return false
            }
        }
    }

    private static func checkEntryPoints(_ input: UnsafeBufferPointer<UInt8>, agree outcome: Outcome) {
        let copied = Outcome { () throws(JSONParseError) in try JSONParser().parse(input.lazy.map { $0 }) }
        require(copied == outcome, "non-contiguous input parsed differently: \(copied) vs \(outcome)")
        if let text = String(validating: input, as: UTF8.self) {
            let fromString = Outcome { () throws(JSONParseError) in try JSONParser().parse(text) }
            require(fromString == outcome, "String input parsed differently: \(fromString) vs \(outcome)")
        }
    }

    private static func checkRoundTrip(_ value: JSONValue, _ input: UnsafeBufferPointer<UInt8>) {
        let text = value.serialized()
        require(!text.contains { $0 < 0x20 }, "written text has a raw control character: \(excerpt(text))")
        require(String(validating: text, as: UTF8.self) != nil, "written text is not UTF-8")
        require(value.description == String(decoding: text, as: UTF8.self), "description differs from serialized()")
        let reparsed: JSONValue
        do {
            reparsed = try JSONValue(parsing: text)
        } catch {
            violated("written text does not parse: \(error)\ninput \(excerpt(input))\nwritten \(excerpt(text))")
        }
        require(
            reparsed.isSameJSON(as: value),
            "round trip changed the value\ninput   \(excerpt(input))\nwritten \(excerpt(text))")
        let again = reparsed.serialized()
        require(again == text, "written text is not a fixed point\nfirst  \(excerpt(text))\nsecond \(excerpt(again))")
        let third = try? JSONValue(parsing: again)
        require(
            third == reparsed && third?.hashValue == reparsed.hashValue, "the fixed point parses to a different value")
    }

    /// The limit applies to the text's nesting: a member that a later duplicate key replaces counts
    /// too, so the value can be shallower than its text (`{"a":[[1]],"a":1}`).
    private static func checkDepthLimit(_ value: JSONValue, _ input: UnsafeBufferPointer<UInt8>) {
        let depth = textDepth(input)
        require(value.nestingDepth <= depth, "value depth \(value.nestingDepth) deeper than its text's \(depth)")
        guard depth > 0 else { return }
        require(
            (try? JSONParser(maximumDepth: depth).parse(input)) == value, "depth \(depth) rejected at limit \(depth)")
        do {
            _ = try JSONParser(maximumDepth: depth - 1).parse(input)
            violated("depth \(depth) accepted at limit \(depth - 1)")
        } catch {
            require(
                error.code == .tooDeep, "depth \(depth) at limit \(depth - 1) failed with \(error) instead of tooDeep")
        }
    }

    /// How deeply arrays and objects nest in a valid JSON text, counted on its bytes.
    private static func textDepth(_ input: UnsafeBufferPointer<UInt8>) -> Int {
        var depth = 0
        var deepest = 0
        var isInString = false
        var isEscaped = false
        for byte in input {
            if isInString {
                if isEscaped {
                    isEscaped = false
                } else if byte == UInt8(ascii: "\\") {
                    isEscaped = true
                } else if byte == UInt8(ascii: "\"") {
                    isInString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): isInString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    /// A text that is one number must read exactly as Swift's own (correctly rounded) parsers read it.
    private static func checkLoneNumber(_ value: JSONValue, _ input: UnsafeBufferPointer<UInt8>) {
        guard value.isNumber else { return }
        let text = String(decoding: input, as: UTF8.self).trimmingJSONWhitespace
        switch value {
        case .int(let parsed):
            require(Int(text) == parsed, "'\(text)' parsed as \(parsed), Int says \(String(describing: Int(text)))")
        case .double(let parsed):
            let isIntegerSyntax = !text.contains { $0 == "." || $0 == "e" || $0 == "E" }
            require(
                !isIntegerSyntax || Int(text) == nil, "'\(text)' fits Int but was parsed as the double \(parsed)")
            guard let reference = Double(text) else { violated("Double cannot read the number '\(text)'") }
            require(
                reference == parsed && reference.sign == parsed.sign,
                "'\(text)' parsed as \(parsed), correctly rounded it is \(reference)")
        default:
            break
        }
    }

    private static func checkCodable(_ value: JSONValue) {
        do {
            let encoded = try JSONValueEncoder().encode(value)
            require(encoded == value && encoded.isSameJSON(as: value), "JSONValueEncoder changed the value")
            let decoded = try JSONValueDecoder().decode(JSONValue.self, from: value)
            require(decoded == value && decoded.isSameJSON(as: value), "JSONValueDecoder changed the value")
        } catch {
            violated("JSONValue does not pass through the project's coders: \(error)")
        }
    }

    /// Every object keeps as many members as it has keys that differ byte for byte; JavaScript keeps
    /// canonically equivalent keys (`é` and `e` + combining accent) apart, and so must the parser.
    private static func checkKeyIdentity(_ value: JSONValue) {
        let texts = strings(in: value)
        var distinct: [String] = []
        for text in texts where !distinct.contains(where: { $0.utf8.elementsEqual(text.utf8) }) {
            distinct.append(text)
        }
        let object = JSONObject(distinct.map { ($0, JSONValue.null) })
        require(object.count == distinct.count, "keys \(distinct) that differ byte for byte collapse to \(object.keys)")
    }

    /// The keys and string values in `value`, depth first (at most 16).
    private static func strings(in value: JSONValue) -> [String] {
        var found: [String] = []
        func walk(_ value: JSONValue) {
            guard found.count < 16 else { return }
            switch value {
            case .string(let text): found.append(text)
            case .array(let elements): elements.forEach(walk)
            case .object(let object):
                for (key, member) in object {
                    found.append(key)
                    walk(member)
                }
            default: break
            }
        }
        walk(value)
        return found
    }

    private static func checkKeyOrderIndependence(_ value: JSONValue) {
        guard case .object(let object) = value, object.count > 1 else { return }
        let reversed = JSONObject(object.reversed().map { ($0.key, $0.value) })
        require(reversed == object, "reversing the keys changed equality")
        require(reversed.hashValue == object.hashValue, "reversing the keys changed the hash")
        require(Array(reversed.keys.reversed()) == object.keys, "JSONObject(_:) did not keep the given order")
    }
}

extension JSONProperties {
    static func checkDoubleWriting(_ input: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        while offset + 8 <= input.count, offset < 32 {
            var bits: UInt64 = 0
            for index in 0..<8 { bits |= UInt64(input[offset + index]) << (8 * UInt64(index)) }
            offset += 8
            checkWriting(Double(bitPattern: bits))
        }
    }

    private static func checkWriting(_ value: Double) {
        let text = JSONValue.double(value).serializedString()
        guard value.isFinite else {
            require(text == "null", "\(value) is written as '\(text)'")
            return
        }
        guard let back = Double(text) else { violated("\(value) is written as '\(text)', which is not a number") }
        require(back == value, "\(value.bitPattern) is written as '\(text)', which reads as \(back)")
        require((try? JSONValue(parsing: text))?.doubleValue == value, "'\(text)' does not parse back to \(value)")
        let magnitude = value.magnitude
        let isPlain = magnitude == 0 || (magnitude >= 1e-6 && magnitude < 1e21)
        let parts = text.split(separator: "e", maxSplits: 1)
        require(isPlain == (parts.count == 1), "\(value) is written as '\(text)'")
        if parts.count == 2 {
            require(parts[1].first == "+" || parts[1].first == "-", "exponent without a sign in '\(text)'")
            require(parts[1].dropFirst().first != "0", "exponent with a leading zero in '\(text)'")
        }
        let mantissa = parts[0]
        if mantissa.contains(".") {
            require(mantissa.last != "0" && mantissa.last != ".", "trailing zero in '\(text)'")
        }
        require(
            significantDigits(text) == significantDigits(value.description),
            "'\(text)' does not have the shortest digits of \(value.description)")
    }

    /// The significant digits of a number's text: no sign, point, exponent, leading or trailing zeros.
    private static func significantDigits(_ text: String) -> Substring {
        let mantissa = text.split(separator: "e", maxSplits: 1)[0].filter { $0 != "." && $0 != "-" }
        let digits = mantissa.drop { $0 == "0" }
        return Substring(digits.reversed().drop { $0 == "0" }.reversed())
    }
}

extension String {
    /// Without leading and trailing JSON white space (space, tab, line feed, carriage return).
    fileprivate var trimmingJSONWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
