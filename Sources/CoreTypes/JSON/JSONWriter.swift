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
        switch value {
        case .null: append("null", to: &buffer)
        case .bool(let b): append(b ? "true" : "false", to: &buffer)
        case .int(let i): writeInteger(i, into: &buffer)
        case .double(let d): writeDouble(d, into: &buffer)
        case .string(let s): writeString(s, into: &buffer)
        case .array(let elements):
            buffer.append(UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first { buffer.append(UInt8(ascii: ",")) }
                first = false
                write(element, into: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let object): writeObject(object, into: &buffer)
        }
    }

    /// Appends the JSON text of `object` to `buffer`.
    public static func writeObject(_ object: JSONObject, into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "{"))
        var first = true
        for (key, value) in object.storage {
            if !first { buffer.append(UInt8(ascii: ",")) }
            first = false
            writeString(key, into: &buffer)
            buffer.append(UInt8(ascii: ":"))
            write(value, into: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
    }

    /// Appends `string` as a quoted, escaped JSON string.
    public static func writeString(_ string: String, into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for i in 0..<utf8.count {
                let byte = utf8[i]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if runStart < i { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
                runStart = i + 1
                buffer.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): buffer.append(byte)
                case 0x08: buffer.append(UInt8(ascii: "b"))
                case 0x0C: buffer.append(UInt8(ascii: "f"))
                case 0x0A: buffer.append(UInt8(ascii: "n"))
                case 0x0D: buffer.append(UInt8(ascii: "r"))
                case 0x09: buffer.append(UInt8(ascii: "t"))
                default:
                    buffer.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                    buffer.append(hexDigit(byte >> 4))
                    buffer.append(hexDigit(byte & 0xF))
                }
            }
            if runStart < utf8.count { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    /// Appends an integer in decimal.
    public static func writeInteger(_ value: Int, into buffer: inout [UInt8]) {
        if value == 0 {
            buffer.append(UInt8(ascii: "0"))
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
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[(24 - n)...]))
        }
    }

    /// Appends a double the way JavaScript's `Number.prototype.toString` writes it.
    public static func writeDouble(_ value: Double, into buffer: inout [UInt8]) {
        guard value.isFinite else {
            append("null", to: &buffer)
            return
        }
        if value == 0 {
            buffer.append(UInt8(ascii: "0"))
            return
        }
        if value.magnitude < 1e15, let integer = Int(exactly: value) {
            writeInteger(integer, into: &buffer)
            return
        }
        JavaScriptNumberFormat.write(value, into: &buffer)
    }

    @inline(__always) static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &+ nibble &- 10
    }

    @inline(__always) static func append(_ text: StaticString, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}

extension JSONValue {
    /// The compact JSON text of this value as UTF-8 bytes (see ``JSONWriter``).
    public func serialized() -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(128)
        JSONWriter.write(self, into: &buffer)
        return buffer
    }

    /// The compact JSON text of this value.
    public func serializedString() -> String {
        String(decoding: serialized(), as: UTF8.self)
    }
}
