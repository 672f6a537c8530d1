/// A JavaScript primitive value, the result of `ToPrimitive`.
enum JavaScriptPrimitive {
    case undefined
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
}

/// JavaScript's type conversions and relational comparison (ECMA-262 §7.1, §7.2.13), for the values
/// a filter meets: coaty-js compares with `<`/`>` whenever the two sides are not both strings, so
/// `null` acts as `0`, `true` as `1`, `"43"` as `43` and `[1, 2]` as the string `"1,2"`.
enum JavaScriptCoercion {
    /// `ToPrimitive(value, number)`; `nil` is `undefined`.
    ///
    /// - Throws: ``FilterError`` when an object has its own `toString` member, which JavaScript
    ///   cannot call ("Cannot convert object to primitive value").
    static func toPrimitive(_ value: JavaScriptProperty?) throws -> JavaScriptPrimitive {
        guard let value else { return .undefined }
        switch value {
        case .json(let json): return try toPrimitive(json)
        case .function(let name): return .string("function \(name)() { [native code] }")
        case .objectPrototype: return .string("[object Object]")
        case .arrayPrototype: return .string("")
        }
    }

    /// `ToPrimitive` of a JSON value.
    static func toPrimitive(_ value: JSONValue) throws -> JavaScriptPrimitive {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .number(Double(i))
        case .double(let d): return .number(d)
        case .string(let s): return .string(s)
        case .array, .object: return .string(try toString(value))
        }
    }

    /// `ToString` of a JSON value: arrays join their elements with `,` (`null` as empty),
    /// objects are `"[object Object]"`, numbers are written as JavaScript writes them.
    static func toString(_ value: JSONValue) throws -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return numberToString(Double(i))
        case .double(let d): return numberToString(d)
        case .string(let s): return s
        case .array(let elements):
            var text = ""
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                if !element.isNull { text += try toString(element) }
            }
            return text
        case .object(let object):
            if object.hasOwnJavaScriptKey("toString") {
                throw FilterError.evaluation(
                    "an object with its own \"toString\" member cannot be converted to a primitive")
            }
            return "[object Object]"
        }
    }

    /// `Number::toString`.
    static func numberToString(_ number: Double) -> String {
        var output = JSONOutput(capacity: 32)
        JavaScriptNumberFormat.write(number, to: &output)
        return String(decoding: output.takeArray(), as: UTF8.self)
    }

    /// `ToNumber` of a primitive; NaN where JavaScript gives NaN.
    static func toNumber(_ primitive: JavaScriptPrimitive) -> Double {
        switch primitive {
        case .undefined: return .nan
        case .null: return 0
        case .bool(let b): return b ? 1 : 0
        case .number(let n): return n
        case .string(let s): return stringToNumber(s)
        }
    }

    /// JavaScript's `a < b` on primitives: `nil` when the answer is `undefined` (a NaN was involved),
    /// which makes every comparison false.
    static func lessThan(_ a: JavaScriptPrimitive, _ b: JavaScriptPrimitive) -> Bool? {
        if case .string(let x) = a, case .string(let y) = b {
            return x.utf16.lexicographicallyPrecedes(y.utf16)
        }
        let x = toNumber(a)
        let y = toNumber(b)
        if x.isNaN || y.isNaN { return nil }
        return x < y
    }

    // MARK: - StringToNumber

    /// `StringToNumber` (ECMA-262 §7.1.4.1.1): trimmed, empty is 0, decimal with optional sign and
    /// exponent, `Infinity`, or an unsigned `0x`/`0o`/`0b` integer; anything else is NaN.
    static func stringToNumber(_ string: String) -> Double {
        var scalars = Substring(string).unicodeScalars
        while let first = scalars.first, isStringWhiteSpace(first) { scalars.removeFirst() }
        while let last = scalars.last, isStringWhiteSpace(last) { scalars.removeLast() }
        let text = Substring(scalars)
        if text.isEmpty { return 0 }
        if text.count > 2, text.first == "0", let radix = radix(text[text.index(after: text.startIndex)]) {
            return integer(text.dropFirst(2), radix: radix)
        }
        var body = text
        var sign = 1.0
        if let first = body.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            body = body.dropFirst()
        }
        if body == "Infinity" { return sign * .infinity }
        guard isDecimalLiteral(body), let value = Double(String(body)) else { return .nan }
        return sign * value
    }

    private static func radix(_ character: Character) -> Double? {
        switch character {
        case "x", "X": return 16
        case "o", "O": return 8
        case "b", "B": return 2
        default: return nil
        }
    }

    private static func integer(_ digits: Substring, radix: Double) -> Double {
        var value = 0.0
        for character in digits {
            guard let digit = character.hexDigitValue, Double(digit) < radix else { return .nan }
            value = value * radix + Double(digit)
        }
        return value
    }

    /// `StrUnsignedDecimalLiteral` without `Infinity`: digits with an optional fraction (at least one
    /// digit overall) and an optional exponent.
    private static func isDecimalLiteral(_ text: Substring) -> Bool {
        var utf8 = text.utf8[...]
        func digits() -> Int {
            var count = 0
            while let byte = utf8.first, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                utf8 = utf8.dropFirst()
                count += 1
            }
            return count
        }
        var mantissaDigits = digits()
        if utf8.first == UInt8(ascii: ".") {
            utf8 = utf8.dropFirst()
            mantissaDigits += digits()
        }
        guard mantissaDigits > 0 else { return false }
        if let byte = utf8.first, byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            utf8 = utf8.dropFirst()
            if let sign = utf8.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                utf8 = utf8.dropFirst()
            }
            guard digits() > 0 else { return false }
        }
        return utf8.isEmpty
    }

    /// `StrWhiteSpaceChar`: JavaScript's white space and line terminators.
    private static func isStringWhiteSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0xFEFF, 0x2028, 0x2029: return true
        default: return scalar.properties.generalCategory == .spaceSeparator
        }
    }
}
