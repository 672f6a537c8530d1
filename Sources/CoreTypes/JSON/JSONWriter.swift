/// Writes ``JSONValue``s as compact JSON text, byte for byte as JavaScript's `JSON.stringify` does.
///
/// That means: no whitespace; keys in the object's order; `"` `\` and control characters escaped
/// (`\b \f \n \r \t`, others as lowercase `\u00xx`); `/` and non-ASCII characters written as they
/// are (UTF-8); integers in decimal; other numbers in the shortest form that reads back to the
/// same double, formatted like JavaScript's `Number.prototype.toString` (`1` for `1.0`, `0` for
/// `-0.0`, `1e+21`, `1e-7`, `0.000001`). Non-finite doubles, which JSON cannot carry, are written
/// as `null` as JavaScript does.
public enum JSONWriter {
    /// Appends the JSON text of `value` to `buffer`.
    public static func write(_ value: JSONValue, into buffer: inout [UInt8]) {
        append(to: &buffer, room: 512) { write(value, to: &$0) }
    }

    /// Appends the JSON text of `object` to `buffer`.
    public static func writeObject(_ object: JSONObject, into buffer: inout [UInt8]) {
        append(to: &buffer, room: 512) { writeObject(object, to: &$0) }
    }

    /// Appends `string` as a quoted, escaped JSON string.
    public static func writeString(_ string: String, into buffer: inout [UInt8]) {
        append(to: &buffer, room: string.utf8.count + 2) { writeString(string, to: &$0) }
    }

    /// Appends an integer in decimal.
    public static func writeInteger(_ value: Int, into buffer: inout [UInt8]) {
        append(to: &buffer, room: 20) { writeInteger(value, to: &$0) }
    }

    /// Appends a double the way JavaScript's `Number.prototype.toString` writes it.
    public static func writeDouble(_ value: Double, into buffer: inout [UInt8]) {
        append(to: &buffer, room: 32) { writeDouble(value, to: &$0) }
    }

    /// Writes with `body` into an output with `room` bytes to start with, then appends it to `buffer`.
    private static func append(to buffer: inout [UInt8], room: Int, _ body: (inout JSONOutput) -> Void) {
        var output = JSONOutput(capacity: room)
        body(&output)
        output.append(to: &buffer)
    }

    static func write(_ value: JSONValue, to output: inout JSONOutput) {
        switch value {
        case .null: output.append("null")
        case .bool(let b): output.append(b ? "true" : "false")
        case .int(let i): writeInteger(i, to: &output)
        case .double(let d): writeDouble(d, to: &output)
        case .string(let s): writeString(s, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                write(element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object): writeObject(object, to: &output)
        }
    }

    static func writeObject(_ object: JSONObject, to output: inout JSONOutput) {
        output.append(UInt8(ascii: "{"))
        var first = true
        for member in object.storage {
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            writeString(member.key, to: &output)
            output.append(UInt8(ascii: ":"))
            write(member.value, to: &output)
        }
        output.append(UInt8(ascii: "}"))
    }

    static func writeString(_ string: String, to output: inout JSONOutput) {
        output.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            let raw = UnsafeRawBufferPointer(utf8)
            var runStart = 0
            var i = 0
            // Runs of eight bytes that need no escape are skipped at once; after a run, the next
            // eight bytes (up to `checkedEnd`) go one at a time.
            var checkedEnd = 0
            while i < utf8.count {
                if i >= checkedEnd {
                    while i + 8 <= utf8.count, !JSONBytes.mayNeedEscape(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) {
                        i += 8
                    }
                    checkedEnd = i + 8  // the next eight bytes go one at a time
                    if i >= utf8.count { break }
                }
                let byte = utf8[i]
                i += 1
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if runStart < i - 1 { output.append(UnsafeRawBufferPointer(rebasing: raw[runStart..<(i - 1)])) }
                runStart = i
                output.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
                case 0x08: output.append(UInt8(ascii: "b"))
                case 0x0C: output.append(UInt8(ascii: "f"))
                case 0x0A: output.append(UInt8(ascii: "n"))
                case 0x0D: output.append(UInt8(ascii: "r"))
                case 0x09: output.append(UInt8(ascii: "t"))
                default:
                    output.append("u00")
                    output.append(hexDigit(byte >> 4))
                    output.append(hexDigit(byte & 0xF))
                }
            }
            if runStart < utf8.count { output.append(UnsafeRawBufferPointer(rebasing: raw[runStart...])) }
        }
        output.append(UInt8(ascii: "\""))
    }

    static func writeInteger(_ value: Int, to output: inout JSONOutput) {
        if value == 0 {
            output.append(UInt8(ascii: "0"))
            return
        }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch, enough for 20 digits
        withUnsafeMutableBytes(of: &digits) { scratch in
            var n = 0
            while magnitude > 0 {
                scratch[23 - n] = UInt8(ascii: "0") &+ UInt8(magnitude % 10)
                magnitude /= 10
                n += 1
            }
            if value < 0 {
                scratch[23 - n] = UInt8(ascii: "-")
                n += 1
            }
            output.append(UnsafeRawBufferPointer(rebasing: scratch[(24 - n)...]))
        }
    }

    static func writeDouble(_ value: Double, to output: inout JSONOutput) {
        guard value.isFinite else {
            output.append("null")
            return
        }
        if value == 0 {
            output.append(UInt8(ascii: "0"))
            return
        }
        if value.magnitude < 1e15, let integer = Int(exactly: value) {
            writeInteger(integer, to: &output)
            return
        }
        JavaScriptNumberFormat.write(value, to: &output)
    }

    @inline(__always) static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &+ nibble &- 10
    }
}

extension JSONValue {
    /// The compact JSON text of this value as UTF-8 bytes (see ``JSONWriter``).
    public func serialized() -> [UInt8] {
        // Room for a typical event payload (an Advertise of a dozen members is ~340 bytes), then
        // one copy into an array of the payload's own size: payloads that are kept (an agent's join
        // plan, publications queued while offline) keep no spare room.
        var output = JSONOutput(capacity: 512)
        JSONWriter.write(self, to: &output)
        return output.takeArray()
    }

    /// The compact JSON text of this value.
    public func serializedString() -> String {
        String(decoding: serialized(), as: UTF8.self)
    }
}

/// Tests on eight bytes of JSON text at once (SWAR), for the string loops of the reader and writer.
enum JSONBytes {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether one of the eight bytes of `word` may be a quote, a backslash or a control character
    /// (below 0x20). Never `false` when one is; sometimes `true` when none is (a borrow between
    /// bytes), which only sends the caller to its byte-by-byte path.
    @inline(__always)
    static func mayNeedEscape(_ word: UInt64) -> Bool {
        specialBytes(word) != 0
    }

    /// The high bit of each byte of `word` that may be a quote, a backslash or a control character.
    /// The lowest bit set marks exactly the first such byte (a borrow only reaches bytes above a
    /// byte that is one); bits above it may be false.
    @inline(__always)
    static func specialBytes(_ word: UInt64) -> UInt64 {
        let control = (word &- ones &* 0x20) & ~word & highBits
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        return control | ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash) & highBits
    }

    /// A mask of the `count` lowest bytes of a word (`count` in 0...7).
    @inline(__always)
    static func lowBytes(_ count: Int) -> UInt64 {
        (1 &<< UInt64(8 * count)) &- 1
    }

    /// The bits of `word`'s bytes above 0x7F (non-zero when one byte is not ASCII).
    @inline(__always)
    static func nonASCIIBits(_ word: UInt64) -> UInt64 { word & highBits }
}
