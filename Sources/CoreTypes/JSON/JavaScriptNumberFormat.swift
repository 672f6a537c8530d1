/// Formats doubles as ECMAScript's `Number::toString` does (ECMA-262, 6.1.6.1.20).
///
/// Swift's `description` already yields the shortest digits that read back to the same double;
/// only the layout differs (`1e-07` vs `1e-7`, `100.0` vs `100`, exponent thresholds).
enum JavaScriptNumberFormat {
    static func write(_ value: Double, to buffer: inout JSONOutput) {
        var text = value.magnitude.description
        // Swift writes without an exponent only from 1e-4 to below 2^53, inside ECMAScript's range
        // (1e-6 to below 1e21); there the layouts agree unless Swift ends on `.0` (an integral value).
        let isPlain = text.withUTF8 { utf8 in
            guard !utf8.contains(UInt8(ascii: "e")),
                utf8.count < 2 || utf8[utf8.count - 2] != UInt8(ascii: ".") || utf8[utf8.count - 1] != UInt8(ascii: "0")
            else { return false }
            if value < 0 { buffer.append(UInt8(ascii: "-")) }
            buffer.append(UnsafeRawBufferPointer(utf8))
            return true
        }
        if isPlain { return }
        var digits: [UInt8] = []
        digits.reserveCapacity(20)
        var pointPosition: Int? = nil
        var exponent = 0
        text.withUTF8 { utf8 in
            var i = 0
            while i < utf8.count {
                let byte = utf8[i]
                if byte == UInt8(ascii: ".") {
                    pointPosition = digits.count
                } else if byte == UInt8(ascii: "e") {
                    exponent = parseExponent(UnsafeBufferPointer(rebasing: utf8[(i + 1)...]))
                    break
                } else {
                    digits.append(byte)
                }
                i += 1
            }
        }
        // value = 0.d1d2d3... × 10^n
        var n = (pointPosition ?? digits.count) + exponent
        var leading = 0
        while leading < digits.count - 1, digits[leading] == UInt8(ascii: "0") {
            leading += 1
            n -= 1
        }
        var trailing = digits.count
        while trailing > leading + 1, digits[trailing - 1] == UInt8(ascii: "0") { trailing -= 1 }
        let significant = digits[leading..<trailing]
        let k = significant.count

        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        if k <= n && n <= 21 {
            buffer.append(contentsOf: significant)
            buffer.append(UInt8(ascii: "0"), count: n - k)
        } else if 0 < n && n <= 21 {
            buffer.append(contentsOf: significant.prefix(n))
            buffer.append(UInt8(ascii: "."))
            buffer.append(contentsOf: significant.dropFirst(n))
        } else if -6 < n && n <= 0 {
            buffer.append(UInt8(ascii: "0"))
            buffer.append(UInt8(ascii: "."))
            buffer.append(UInt8(ascii: "0"), count: -n)
            buffer.append(contentsOf: significant)
        } else {
            buffer.append(significant[significant.startIndex])
            if k > 1 {
                buffer.append(UInt8(ascii: "."))
                buffer.append(contentsOf: significant.dropFirst())
            }
            buffer.append(UInt8(ascii: "e"))
            buffer.append(n - 1 < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            JSONWriter.writeInteger(abs(n - 1), to: &buffer)
        }
    }

    private static func parseExponent(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        var sign = 1
        var result = 0
        for byte in utf8 {
            if byte == UInt8(ascii: "-") {
                sign = -1
            } else if byte != UInt8(ascii: "+") {
                result = result * 10 + Int(byte &- UInt8(ascii: "0"))
            }
        }
        return sign * result
    }
}
