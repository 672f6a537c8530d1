/// Numbers: JSON's grammar, integers kept apart from doubles, doubles read as Swift's correctly
/// rounded parser reads them.
extension JSONReader {
    mutating func readNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        var negative = false
        if bytes[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        guard position < bytes.count, isDigit(bytes[position]) else {
            throw error(.invalidNumber, "a '-' must be followed by digits")
        }
        // Integer part: accumulate while it fits.
        var magnitude: UInt64 = 0
        var overflow = false
        var integerDigits = 0
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            integerDigits = 1
            if position < bytes.count, isDigit(bytes[position]) {
                throw error(.invalidNumber, "numbers must not have leading zeros")
            }
        } else {
            while position < bytes.count, isDigit(bytes[position]) {
                let digit = UInt64(bytes[position] &- UInt8(ascii: "0"))
                let (m1, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (m2, o2) = m1.addingReportingOverflow(digit)
                if o1 || o2 { overflow = true } else { magnitude = m2 }
                integerDigits += 1
                position += 1
            }
        }
        var fractionDigits = 0
        var fraction: UInt64 = magnitude
        var isInteger = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw error(.invalidNumber, "a '.' must be followed by digits")
            }
            while position < bytes.count, isDigit(bytes[position]) {
                if fraction < 1_000_000_000_000_000 {
                    fraction = fraction * 10 + UInt64(bytes[position] &- UInt8(ascii: "0"))
                    fractionDigits += 1
                } else {
                    overflow = true
                }
                position += 1
            }
        }
        var exponent = 0
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            position += 1
            var exponentNegative = false
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                exponentNegative = bytes[position] == UInt8(ascii: "-")
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw error(.invalidNumber, "an exponent must have digits")
            }
            while position < bytes.count, isDigit(bytes[position]) {
                if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[position] &- UInt8(ascii: "0")) }
                position += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        if isInteger && !overflow {
            if negative {
                if magnitude <= UInt64(Int.max) { return .int(-Int(magnitude)) }
                if magnitude == UInt64(Int.max) + 1 { return .int(Int.min) }
            } else if magnitude <= UInt64(Int.max) {
                return .int(Int(magnitude))
            }
        }
        // Exact fast path (Clinger): up to 2^53 significand and a power of ten up to 10^22.
        if !overflow {
            let decimalExponent = exponent - fractionDigits
            if fraction <= 1 << 53, decimalExponent >= -22, decimalExponent <= 22 {
                var value = Double(fraction)
                if decimalExponent < 0 {
                    value /= Self.powersOfTen[-decimalExponent]
                } else {
                    value *= Self.powersOfTen[decimalExponent]
                }
                return .double(negative ? -value : value)
            }
        }
        return try slowDouble(start..<position)
    }

    private func slowDouble(_ range: Range<Int>) throws(JSONParseError) -> JSONValue {
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        guard let value = Double(text) else {
            throw JSONParseError(code: .invalidNumber, offset: range.lowerBound, detail: "'\(text.prefix(40))' is not a number")
        }
        guard value.isFinite else {
            throw JSONParseError(
                code: .numberOutOfRange, offset: range.lowerBound,
                detail: "number with \(range.count) characters is beyond the range of a 64-bit double")
        }
        return .double(value)
    }

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    @inline(__always) private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }
}
