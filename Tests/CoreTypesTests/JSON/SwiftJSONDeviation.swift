import CoreTypes

/// The two documented ways in which Swift's JSON round trip differs from coaty-js's, as rules
/// about the input: they turn the text coaty-js wrote into the text Swift writes for the same input.
///
/// 1. **Exact integers.** An integer literal that fits `Int` but not exactly a `Double` (beyond
///    2^53, such as `9007199254740993`) stays exact in ``JSONValue``; JavaScript rounds it to the
///    nearest double and writes that (`9007199254740992`). Integers beyond `Int` are doubles in
///    both and need no rule.
/// 2. **Lone surrogates.** A Swift `String` cannot hold a lone UTF-16 surrogate, so the parser
///    replaces an unpaired `\ud800`–`\udfff` escape with U+FFFD; `JSON.stringify` writes it back
///    as the escape. Paired surrogates come out as raw UTF-8 in both.
///
/// Every other byte must be identical.
enum SwiftJSONDeviation {
    /// The text Swift writes where coaty-js wrote `coatyJSText` for the JSON text `input`.
    static func expectedText(coatyJS coatyJSText: String, input: String) throws -> String {
        var text = coatyJSText
        for integer in inexactIntegers(in: try JSONValue(parsing: input)) {
            let rounded = JSONValue.double(Double(integer)).serializedString()
            text = text.replacingAll(rounded, with: String(integer))
        }
        return replacingLoneSurrogateEscapes(in: text)
    }

    /// Every integer of `value` that a `Double` cannot hold exactly.
    static func inexactIntegers(in value: JSONValue) -> [Int] {
        switch value {
        case .int(let integer): return Int(exactly: Double(integer)) == integer ? [] : [integer]
        case .array(let elements): return elements.flatMap(inexactIntegers(in:))
        case .object(let members): return members.values.flatMap(inexactIntegers(in:))
        default: return []
        }
    }

    /// `text` with each `\udXXX` surrogate escape (JSON.stringify writes only lone ones so)
    /// replaced by U+FFFD; an escaped backslash (`\\`) is skipped.
    static func replacingLoneSurrogateEscapes(in text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == "\\", index + 1 < scalars.count {
                if scalars[index + 1] == "u", index + 5 < scalars.count,
                    let unit = UInt16(String(String.UnicodeScalarView(scalars[index + 2...index + 5])), radix: 16),
                    (0xD800...0xDFFF).contains(unit)
                {
                    result.append("\u{FFFD}")
                    index += 6
                    continue
                }
                result.append(contentsOf: scalars[index...index + 1])
                index += 2
                continue
            }
            result.append(scalars[index])
            index += 1
        }
        return String(result)
    }
}
