/// Stepping over JSON values without building them, and finding the members of an object: how an
/// incoming payload is read without a ``JSONValue`` tree (``ObjectScan``, ``WireSource``).
///
/// Every step accepts at most what ``JSONParser`` accepts: a string with an escape or a byte
/// beyond ASCII is read (and checked) as the parser reads it, a number or a literal too. A scan
/// that gives up (returns `nil` or `false`) or throws leaves the payload to the parser, which decides.
extension JSONReader {
    /// Checks one value and steps over it.
    mutating func skipValue() throws(JSONParseError) {
        guard position < bytes.count else { throw error(.unexpectedEnd, "expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "{"): try skipContainer(closing: UInt8(ascii: "}"), keyed: true)
        case UInt8(ascii: "["): try skipContainer(closing: UInt8(ascii: "]"), keyed: false)
        case UInt8(ascii: "t"): try readLiteral("true")
        case UInt8(ascii: "f"): try readLiteral("false")
        case UInt8(ascii: "n"): try readLiteral("null")
        default: _ = try readNumber()  // checks the first byte too; nothing to allocate
        }
    }

    /// Steps over a string; one with an escape, a byte beyond ASCII or a control character is read
    /// as the parser reads it, which checks it.
    @inline(__always)
    mutating func skipString() throws(JSONParseError) {
        let start = position
        if try skipPlainString() { return }
        position = start
        _ = try readString()
    }

    /// Steps over a string of printable ASCII without escapes, from its opening quote; `false`
    /// (the position anywhere inside) for any other string.
    @inline(__always)
    mutating func skipPlainString() throws(JSONParseError) -> Bool {
        position += 1  // opening quote
        while position + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self)
            let special = JSONBytes.specialBytes(word) | JSONBytes.nonASCIIBits(word)
            if special != 0 {
                position += special.trailingZeroBitCount / 8
                break
            }
            position += 8
        }
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return true
            }
            if byte == UInt8(ascii: "\\") || byte >= 0x80 || byte < 0x20 { return false }
            position += 1
        }
        throw error(.unexpectedEnd, "unterminated string")
    }

    private mutating func skipContainer(closing: UInt8, keyed: Bool) throws(JSONParseError) {
        guard try enterContainer(closing: closing) else { return }
        while true {
            skipWhitespace()
            if keyed {
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                    throw error(.unexpectedByte, "expected a string key in object")
                }
                try skipString()
                try skipColon()
            }
            try skipValue()
            try skipSeparator(closing: closing)
            if bytes[position - 1] == closing { break }
        }
        depth -= 1
    }

    /// Steps over the colon after a key and the whitespace around it.
    @inline(__always)
    mutating func skipColon() throws(JSONParseError) {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
            throw error(.unexpectedByte, "expected ':' after object key")
        }
        position += 1
        skipWhitespace()
    }

    /// Steps over the whitespace after a member or an element and the `,` or `closing` after it
    /// (the byte before the new position tells which).
    @inline(__always)
    mutating func skipSeparator(closing: UInt8) throws(JSONParseError) {
        skipWhitespace()
        guard position < bytes.count else { throw error(.unexpectedEnd, "unterminated container") }
        let byte = bytes[position]
        guard byte == UInt8(ascii: ",") || byte == closing else {
            throw error(.unexpectedByte, "expected ',' or the end of the container")
        }
        position += 1
    }

    /// Reads the key of a member at the position (after whitespace) and the colon after it: the
    /// key's range, or `nil` for a key with an escape or a byte beyond ASCII.
    @inline(__always)
    mutating func scanKey() throws(JSONParseError) -> Range<Int>? {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
            throw error(.unexpectedByte, "expected a string key in object")
        }
        let start = position + 1
        guard try skipPlainString() else { return nil }
        let key = start..<(position - 1)
        try skipColon()
        return key
    }

    /// Enters the object or array at the position (its opening byte), up to its first member or
    /// element: `false` when it is empty (and already left, past `closing`).
    @inline(__always)
    mutating func enterContainer(closing: UInt8) throws(JSONParseError) -> Bool {
        try enterContainer()
        position += 1
        skipWhitespace()
        if position < bytes.count, bytes[position] == closing {
            position += 1
            depth -= 1
            return false
        }
        return true
    }

    /// Finds the members of the object at `position` and steps over it, checking every value and
    /// asking `check` about each member as soon as its value is checked.
    ///
    /// - Returns: `nil` when the object is not one a scan reads: a key with an escape or a byte
    ///   beyond ASCII, more than ``KeySignatures/capacity`` members, two keys of one signature, or
    ///   a member `check` does not accept (the scan stops there).
    /// - Throws: `JSONParseError` when the object is not valid JSON.
    mutating func scanObject(checking check: inout some ScanMemberCheck) throws(JSONParseError) -> ObjectScan? {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "{") else { return nil }
        let start = position
        var scan = ObjectScan()
        if try enterContainer(closing: UInt8(ascii: "}")) {
            var signatures = KeySignatures()
            while true {
                guard let key = try scanKey(), signatures.appendIfNew(UnsafeRawBufferPointer(rebasing: bytes[key])) else {
                    return nil
                }
                let valueStart = position
                try skipValue()
                let value = valueStart..<position
                guard check.accept(key: key, value: value, in: bytes) else { return nil }
                scan.members.append(ObjectScan.Member(key: key, value: value))
                try skipSeparator(closing: UInt8(ascii: "}"))
                if bytes[position - 1] == UInt8(ascii: "}") { break }
            }
            depth -= 1
        }
        scan.range = start..<position
        return scan
    }
}

/// What ``JSONReader/scanObject(checking:)`` asks about each member of the object it scans.
protocol ScanMemberCheck {
    /// Whether the scan goes on after the member whose key's bytes are at `key` and whose value's
    /// text is at `value`; `false` ends it (the object is not one the scan reads).
    mutating func accept(key: Range<Int>, value: Range<Int>, in bytes: UnsafeRawBufferPointer) -> Bool
}

extension JSONReader {
    /// Reads an array of strings at the position; `nil` (the position anywhere inside) when the
    /// value is not an array or an element is not a string.
    mutating func readStrings() throws(JSONParseError) -> [String]? {
        guard bytes[position] == UInt8(ascii: "[") else { return nil }
        position += 1
        var strings: [String] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return strings
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
            strings.append(try readString())
            try skipSeparator(closing: UInt8(ascii: "]"))
            if bytes[position - 1] == UInt8(ascii: "]") { return strings }
        }
    }
}

/// Where the members of one JSON object are in a buffer: each key's bytes (inside its quotes,
/// without escapes) and each value's text. Keys are distinct.
struct ObjectScan: Sendable {
    struct Member: Sendable {
        let key: Range<Int>
        let value: Range<Int>
    }

    var members: [Member] = []
    /// The object's text, braces included.
    var range: Range<Int> = 0..<0

    init() {
        members.reserveCapacity(KeySignatures.capacity)
    }

    /// The position of the member named `key` (the bytes of its UTF-8), looked for first at `hint`.
    @inline(__always)
    func position(of key: UnsafeRawBufferPointer, hint: Int, in bytes: UnsafeRawBufferPointer) -> Int? {
        if hint < members.count, Self.equal(members[hint].key, key, in: bytes) { return hint }
        var i = 0
        while i < members.count {
            if Self.equal(members[i].key, key, in: bytes) { return i }
            i += 1
        }
        return nil
    }

    /// Whether the bytes at `range` are `key`'s.
    @inline(__always)
    static func equal(_ range: Range<Int>, _ key: UnsafeRawBufferPointer, in bytes: UnsafeRawBufferPointer) -> Bool {
        guard range.count == key.count else { return false }
        var i = 0
        while i + 8 <= key.count {
            guard bytes.loadUnaligned(fromByteOffset: range.lowerBound + i, as: UInt64.self)
                == key.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            else { return false }
            i += 8
        }
        while i < key.count {
            guard bytes[range.lowerBound + i] == key[i] else { return false }
            i += 1
        }
        return true
    }

    /// Whether the bytes at `range` are `text`'s.
    @inline(__always)
    static func equal(_ range: Range<Int>, _ text: StaticString, in bytes: UnsafeRawBufferPointer) -> Bool {
        equal(range, UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount), in: bytes)
    }
}
