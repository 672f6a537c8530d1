// Collation elements of the characters that need more than a table entry: letters that ICU sorts
// as a letter with an accent or as two letters, and a few other expansions.

extension JavaScriptCollator {
    // Mark ranks (see combiningMarkRanks) used by letters that do not decompose.
    static let strokeRank: UInt16 = 23  // U+0335, the stroke of đ, ħ, ł
    static let slashRank: UInt16 = 16  // U+0338, the slash of ø
    static let acuteRank: UInt16 = 4  // U+0301
    static let caronRank: UInt16 = 8  // U+030C
    static let macronRank: UInt16 = 19  // U+0304

    /// Letters without a canonical decomposition that ICU sorts as a letter with an accent or as
    /// several letters (`ø`, `æ`, `ß`), and a few other expansions (`…`, `½`, `™`).
    static func appendSpecial(_ value: UInt32, to sink: inout ElementIterator) -> Bool {
        let a: UInt32 = 0
        let d: UInt32 = 3
        let e: UInt32 = 4
        let h: UInt32 = 7
        let i: UInt32 = 8
        let l: UInt32 = 11
        let o: UInt32 = 14
        let s: UInt32 = 18
        switch value {
        case 0xE6, 0xC6:  // æ Æ: "ae" with a secondary difference
            expansion(a, .secondaryAfter(rank: 48), e, upper: value == 0xC6, to: &sink)
        case 0x1E2, 0x1E3, 0x1FC, 0x1FD:  // Ǣ ǣ Ǽ ǽ: æ with a macron or an acute
            expansion(a, .secondaryAfter(rank: 48), e, upper: value & 1 == 0, to: &sink)
            sink.append(.mark(rank: value < 0x1FC ? macronRank : acuteRank))
        case 0x2122:  // ™: "TM"
            var first = CollationElement.latin(19, upper: true)
            var second = CollationElement.latin(12, upper: true)
            first.tertiary = CollationElement.upperVariant
            second.tertiary = CollationElement.upperVariant
            sink.append(first)
            sink.append(second)
        case 0x153, 0x152:  // œ Œ
            expansion(o, .secondaryAfter(rank: 48), e, upper: value == 0x152, to: &sink)
        case 0xDF, 0x1E9E:  // ß ẞ: "ss" with a secondary difference
            expansion(s, .secondaryAfter(rank: 54), s, upper: value == 0x1E9E, to: &sink)
        case 0xF8, 0xD8:  // ø Ø
            sink.append(.latin(o, upper: value == 0xD8))
            sink.append(.mark(rank: slashRank))
        case 0x1FF, 0x1FE:  // ǿ Ǿ
            sink.append(.latin(o, upper: value == 0x1FE))
            sink.append(.mark(rank: slashRank))
            sink.append(.mark(rank: acuteRank))
        case 0x111, 0x110:  // đ Đ
            sink.append(.latin(d, upper: value == 0x110))
            sink.append(.mark(rank: strokeRank))
        case 0xF0, 0xD0:  // ð Ð
            sink.append(.latin(d, upper: value == 0xD0))
            sink.append(.secondaryAfter(rank: 45))
        case 0x127, 0x126:  // ħ Ħ
            sink.append(.latin(h, upper: value == 0x126))
            sink.append(.mark(rank: strokeRank))
        case 0x142, 0x141:  // ł Ł
            sink.append(.latin(l, upper: value == 0x141))
            sink.append(.mark(rank: strokeRank))
        case 0x17F:  // ſ
            sink.append(.latin(s, upper: false))
            sink.append(.secondaryAfter(rank: 45))
        case 0x133, 0x132:  // ĳ Ĳ: "ij" with a tertiary difference
            var first = CollationElement.latin(i, upper: false)
            var second = CollationElement.latin(UInt32(9), upper: false)
            first.tertiary = value == 0x132 ? CollationElement.upperVariant : CollationElement.lowerVariant
            second.tertiary = first.tertiary
            sink.append(first)
            sink.append(second)
        case 0x140, 0x13F:  // ŀ Ŀ: "l·"
            sink.append(.latin(l, upper: value == 0x13F))
            appendElements(of: "\u{B7}", to: &sink)
        case 0xAA, 0xBA:  // ª º
            var element = CollationElement.latin(value == 0xAA ? a : o, upper: false)
            element.tertiary = CollationElement.upperVariant
            sink.append(element)
        case 0x2025, 0x2026:  // ‥ …: two or three full stops
            let stop = CollationElement(
                primary: CollationElement.groupPrimary(2, rank: 23), secondary: CollationElement.commonSecondary,
                tertiary: CollationElement.lowerVariant)  // "." is rank 23 of the punctuation group
            for _ in 0..<(value == 0x2025 ? 2 : 3) { sink.append(stop) }
        case 0x149:  // ŉ: "ʼn"
            appendElements(of: "\u{2BC}", to: &sink)
            var element = CollationElement.latin(13, upper: false)
            element.tertiary = CollationElement.upperVariant
            sink.append(element)
        case 0x1C4...0x1CC, 0x1F1...0x1F3:  // Ǆ ǅ ǆ Ǉ ǈ ǉ Ǌ ǋ ǌ Ǳ ǲ ǳ: two letters, tertiary variants
            appendDigraph(value, to: &sink)
        case 0xBC, 0xBD, 0xBE:  // ¼ ½ ¾: digit, fraction slash, digit
            let (numerator, denominator): (UInt32, UInt32) = value == 0xBE ? (3, 4) : (1, value == 0xBC ? 4 : 2)
            sink.append(digit(numerator, tertiary: CollationElement.upperVariant))
            appendElements(of: "\u{2044}", to: &sink)
            sink.append(digit(denominator, tertiary: CollationElement.upperVariant))
        default:
            return false
        }
        return true
    }

    /// `dž`, `lj`, `nj`, `dz` in their lower, title and upper case forms.
    private static func appendDigraph(_ value: UInt32, to sink: inout ElementIterator) {
        let isDZ = value >= 0x1F1
        let offset = isDZ ? value - 0x1F1 : (value - 0x1C4) % 3  // 0 upper, 1 title, 2 lower
        let pair: (UInt32, UInt32)
        switch isDZ ? 0 : (value - 0x1C4) / 3 {
        case 0: pair = (3, 25)  // d, z
        case 1: pair = (11, 9)  // l, j
        default: pair = (13, 9)  // n, j
        }
        var first = CollationElement.latin(pair.0, upper: false)
        var second = CollationElement.latin(pair.1, upper: false)
        first.tertiary = offset == 2 ? CollationElement.lowerVariant : CollationElement.upperVariant
        second.tertiary = offset == 0 ? CollationElement.upperVariant : CollationElement.lowerVariant
        sink.append(first)
        sink.append(second)
        if !isDZ && value <= 0x1C6 { sink.append(.mark(rank: caronRank)) }  // dž has a caron
    }

    private static func expansion(
        _ first: UInt32, _ middle: CollationElement, _ last: UInt32, upper: Bool, to sink: inout ElementIterator
    ) {
        sink.append(.latin(first, upper: upper))
        sink.append(middle)
        sink.append(.latin(last, upper: upper))
    }
}
