/// The byte-level reader behind ``JSONParser``. Works on one contiguous buffer.
struct JSONReader {
    // Read by the extensions in JSONReader+Numbers.swift.
    let bytes: UnsafeRawBufferPointer
    var position = 0
    private let maximumDepth: Int
    var depth = 0

    init(buffer: UnsafeRawBufferPointer, maximumDepth: Int) {
        self.bytes = buffer
        self.maximumDepth = maximumDepth
    }

    mutating func readDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try readValue()
        skipWhitespace()
        guard position == bytes.count else {
            throw error(.trailingContent, "unexpected \(describeByte()) after the value")
        }
        return value
    }

    // MARK: - Values

    mutating func readValue() throws(JSONParseError) -> JSONValue {
        guard position < bytes.count else { throw error(.unexpectedEnd, "expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "{"): return try readObject()
        case UInt8(ascii: "["): return try readArray()
        case UInt8(ascii: "t"): try readLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try readLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try readLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
        default: throw error(.unexpectedByte, "expected a value, found \(describeByte())")
        }
    }

    mutating func readLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw error(.unexpectedEnd, "expected '\(literal)'") }
        let base = literal.utf8Start
        for i in 0..<count where bytes[position + i] != base[i] {
            throw error(.unexpectedByte, "expected '\(literal)'")
        }
        position += count
    }

    private mutating func readArray() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        position += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try readValue())
            skipWhitespace()
            guard position < bytes.count else { throw error(.unexpectedEnd, "unterminated array") }
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: ",") { continue }
            if byte == UInt8(ascii: "]") { break }
            position -= 1
            throw error(.unexpectedByte, "expected ',' or ']' in array, found \(describeByte())")
        }
        depth -= 1
        return .array(elements)
    }

    private mutating func readObject() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        position += 1  // {
        var elements: [JSONObject.Member] = []
        // An event payload (depth 1) carries its Coaty objects at depth 2, or at depth 3 in an
        // array (Retrieve's `objects`), and a Coaty object has at least four members (objectId,
        // objectType, coreType, name), usually a dozen: room for sixteen saves growing through 1,
        // 2, 4 and 8, each a new allocation and a move of the members, without reserving room in
        // the smaller values nested deeper.
        if depth <= 3 { elements.reserveCapacity(16) }
        var signatures = KeySignatures()
        var seen: [ExactKey: Int]? = nil
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(JSONObject(uniqueElements: elements))
        }
        while true {
            skipWhitespace()
            guard position < bytes.count else { throw error(.unexpectedEnd, "unterminated object") }
            guard bytes[position] == UInt8(ascii: "\"") else {
                throw error(.unexpectedByte, "expected a string key in object, found \(describeByte())")
            }
            let keyStart = position + 1
            let key = try readString()
            // Without escapes the key's text in the input is its UTF-8 (an escape is always longer
            // than what it stands for).
            let raw = UnsafeRawBufferPointer(rebasing: bytes[keyStart..<(position - 1)])
            let signature = raw.count == key.utf8.count ? KeySignatures.signature(of: raw) : KeySignatures.signature(of: key)
            skipWhitespace()
            guard position < bytes.count else { throw error(.unexpectedEnd, "unterminated object") }
            guard bytes[position] == UInt8(ascii: ":") else {
                throw error(.unexpectedByte, "expected ':' after object key, found \(describeByte())")
            }
            position += 1
            skipWhitespace()
            let value = try readValue()
            Self.insert(key, signature, value, into: &elements, signatures: &signatures, seen: &seen)
            skipWhitespace()
            guard position < bytes.count else { throw error(.unexpectedEnd, "unterminated object") }
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: ",") { continue }
            if byte == UInt8(ascii: "}") { break }
            position -= 1
            throw error(.unexpectedByte, "expected ',' or '}' in object, found \(describeByte())")
        }
        depth -= 1
        return .object(JSONObject(uniqueElements: elements))
    }

    /// Appends a member; a duplicate key (the same bytes) keeps the last value at the first position
    /// (as JavaScript). Small objects compare the keys' signatures first and the keys themselves
    /// only when the signatures are equal.
    private static func insert(
        _ key: String, _ signature: UInt64, _ value: JSONValue, into elements: inout [JSONObject.Member],
        signatures: inout KeySignatures, seen: inout [ExactKey: Int]?
    ) {
        if let seen {
            if let i = seen[ExactKey(key)] {
                elements[i].value = value
                return
            }
        } else if elements.count < JSONObject.indexThreshold {
            var from = 0
            while let i = signatures.firstIndex(of: signature, from: from) {
                if elements[i].key.hasSameUTF8(as: key) {
                    elements[i].value = value
                    return
                }
                from = i + 1
            }
            signatures.append(signature)
        } else {
            var built = [ExactKey: Int](minimumCapacity: elements.count * 2)
            for (i, element) in elements.enumerated() { built[ExactKey(element.key)] = i }
            if let i = built[ExactKey(key)] {
                elements[i].value = value
                seen = built
                return
            }
            seen = built
        }
        seen?[ExactKey(key)] = elements.count
        elements.append(JSONObject.Member(key: key, value: value))
    }

    mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        guard depth <= maximumDepth else {
            throw error(.tooDeep, "arrays and objects are nested deeper than \(maximumDepth) levels")
        }
    }

    // MARK: - Strings

    mutating func readString() throws(JSONParseError) -> String {
        position += 1  // opening quote
        let start = position
        var highBits: UInt8 = 0
        var wordHighBits: UInt64 = 0
        // Eight bytes at a time while none of them ends the string or needs attention; then on to
        // the first byte that may (the loop below looks at it first).
        while position + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self)
            let special = JSONBytes.specialBytes(word)
            if special != 0 {
                let skipped = special.trailingZeroBitCount / 8
                wordHighBits |= JSONBytes.nonASCIIBits(word) & JSONBytes.lowBytes(skipped)
                position += skipped
                break
            }
            wordHighBits |= JSONBytes.nonASCIIBits(word)
            position += 8
        }
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let string = try makeString(start..<position, ascii: highBits & 0x80 == 0 && wordHighBits == 0)
                position += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { return try readEscapedString(from: start) }
            if byte < 0x20 { throw error(.invalidString, "raw control character in string (escape it)") }
            highBits |= byte
            position += 1
        }
        throw error(.unexpectedEnd, "unterminated string")
    }

    private func makeString(_ range: Range<Int>, ascii: Bool) throws(JSONParseError) -> String {
        let slice = UnsafeRawBufferPointer(rebasing: bytes[range])
        if ascii {
            // Up to 15 bytes, a string is built in place and the standard library checks that it
            // is ASCII with two masks; `String(decoding:)` scans the bytes again first.
            guard slice.count <= 15 else { return String(decoding: slice, as: UTF8.self) }
            return String(unsafeUninitializedCapacity: slice.count) { buffer in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: slice)
                return slice.count
            }
        }
        guard let string = String(validating: slice, as: UTF8.self) else {
            throw JSONParseError(code: .invalidUTF8, offset: range.lowerBound, detail: "string is not valid UTF-8")
        }
        return string
    }

    private mutating func readEscapedString(from start: Int) throws(JSONParseError) -> String {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(position - start + 16)
        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                guard let string = String(validating: buffer, as: UTF8.self) else {
                    throw JSONParseError(code: .invalidUTF8, offset: start, detail: "string is not valid UTF-8")
                }
                return string
            }
            if byte < 0x20 { throw error(.invalidString, "raw control character in string (escape it)") }
            if byte != UInt8(ascii: "\\") {
                buffer.append(byte)
                position += 1
                continue
            }
            position += 1
            guard position < bytes.count else { throw error(.unexpectedEnd, "unterminated escape") }
            let escaped = bytes[position]
            position += 1
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escaped)
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"): appendScalar(try readUnicodeEscape(), to: &buffer)
            default:
                position -= 1
                throw error(.invalidEscape, "'\\\(describeByte())' is not a JSON escape")
            }
        }
        throw error(.unexpectedEnd, "unterminated string")
    }

    /// Reads the hex digits after `\u` (and a following low surrogate escape, if any).
    private mutating func readUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
        let unit = try readHex4()
        let replacement: Unicode.Scalar = "\u{FFFD}"
        if unit >= 0xD800 && unit < 0xDC00 {
            // A high surrogate: it forms a character only with a following `\uDC00`-`\uDFFF`.
            if position + 6 <= bytes.count, bytes[position] == UInt8(ascii: "\\"),
                bytes[position + 1] == UInt8(ascii: "u")
            {
                let saved = position
                position += 2
                let low = try readHex4()
                if low >= 0xDC00 && low < 0xE000 {
                    let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                    return Unicode.Scalar(value) ?? replacement
                }
                position = saved
            }
            return replacement
        }
        return Unicode.Scalar(UInt32(unit)) ?? replacement
    }

    private mutating func readHex4() throws(JSONParseError) -> UInt16 {
        guard position + 4 <= bytes.count else { throw error(.unexpectedEnd, "unterminated \\u escape") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
            default: throw error(.invalidEscape, "\\u must be followed by four hex digits")
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }

    private func appendScalar(_ scalar: Unicode.Scalar, to buffer: inout [UInt8]) {
        UTF8.encode(scalar) { buffer.append($0) }
    }

    // MARK: - Helpers

    @inline(__always) mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    func describeByte() -> String {
        guard position < bytes.count else { return "end of input" }
        let byte = bytes[position]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16)
    }

    func error(_ code: JSONParseError.Code, _ detail: String) -> JSONParseError {
        JSONParseError(code: code, offset: position, detail: detail)
    }
}
