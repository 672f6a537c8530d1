/// Compares strings the way coaty-js's `Intl.Collator()` does on Node.js with the en-US locale.
///
/// That collator is ICU's root collation at tertiary strength with punctuation not ignored:
/// - first by letters, digits and punctuation alone (primary level): whitespace < punctuation <
///   symbols < currency signs < digits < letters, letters case-insensitively (`"Alpha" < "beta"`),
///   digits one by one (`"10" < "9"`), control characters ignored;
/// - then by accents (secondary level: `"resume" < "résumé"`);
/// - then by case and variants (tertiary level: lowercase before uppercase, `"alpha" < "Alpha"`).
///
/// The weights for ASCII, Latin-1, General Punctuation and the combining marks were read from ICU
/// 78.2; accented Latin letters use their canonical decomposition. Other scripts are approximated
/// (letters of other scripts after Latin, by code point), which is enough for the filters Coaty
/// agents exchange. Canonically equivalent strings whose marks are not in canonical order may
/// compare differently than in ICU.
enum JavaScriptCollator {
    /// Returns a negative number, zero or a positive number as `a` sorts before, equal to or
    /// after `b`.
    static func compare(_ a: String, _ b: String) -> Int {
        if a.hasSameCodeUnits(as: b) { return 0 }
        for level in Level.allCases {
            let result = compare(a, b, at: level)
            if result != 0 { return result }
        }
        return 0
    }

    enum Level: CaseIterable { case primary, secondary, tertiary }

    private static func compare(_ a: String, _ b: String, at level: Level) -> Int {
        var left = ElementIterator(a)
        var right = ElementIterator(b)
        while true {
            let l = left.nextWeight(at: level)
            let r = right.nextWeight(at: level)
            switch (l, r) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let l?, let r?):
                if l != r { return l < r ? -1 : 1 }
            }
        }
    }
}

/// One collation element: its weight at each of the three levels. All zero means ignorable.
struct CollationElement: Sendable {
    var primary: UInt32
    var secondary: UInt16
    var tertiary: UInt8

    static let ignorable = CollationElement(primary: 0, secondary: 0, tertiary: 0)
}

// MARK: - Weights

extension CollationElement {
    static let commonSecondary: UInt16 = 1
    static let lower: UInt8 = 1
    static let lowerVariant: UInt8 = 2
    static let upper: UInt8 = 3
    static let upperVariant: UInt8 = 4

    static let spaceBase: UInt32 = 0x0100_0000
    static let digitBase: UInt32 = 0x0500_0000
    static let latinBase: UInt32 = 0x0600_0000
    static let otherLetterBase: UInt32 = 0x0700_0000
    static let implicitBase: UInt32 = 0x0800_0000
    /// Scalars of a group that the table does not list sort after the listed ones.
    static let unlistedOffset: UInt32 = 0x0080_0000

    /// The primary weight of group `group` (1 space … 4 currency) at table rank `rank`.
    static func groupPrimary(_ group: UInt32, rank: UInt32) -> UInt32 {
        spaceBase * group + rank + 1
    }

    /// A Latin letter `a`…`z` (index 0…25), or with `extraRank` > 0 a letter of its own that sorts
    /// after it (`ƀ`, `þ`).
    static func latin(_ index: UInt32, upper isUpper: Bool, extraRank: UInt32 = 0) -> CollationElement {
        CollationElement(
            primary: latinBase + index * 64 + extraRank, secondary: commonSecondary,
            tertiary: isUpper ? upper : lower)
    }

    /// A combining mark with secondary rank `rank`.
    static func mark(rank: UInt16) -> CollationElement {
        CollationElement(primary: 0, secondary: 2 + rank * 2, tertiary: lower)
    }

    /// A secondary weight between two mark ranks, for letters such as `ð` or the `æ` ligature.
    static func secondaryAfter(rank: UInt16) -> CollationElement {
        CollationElement(primary: 0, secondary: 3 + rank * 2, tertiary: lower)
    }
}

/// Produces the collation elements of a string, one scalar at a time, without allocating.
struct ElementIterator {
    private var scalars: String.UnicodeScalarView.Iterator
    private var pending: (CollationElement, CollationElement, CollationElement, CollationElement)
    private var pendingCount = 0
    private var pendingIndex = 0

    init(_ string: String) {
        scalars = string.unicodeScalars.makeIterator()
        pending = (.ignorable, .ignorable, .ignorable, .ignorable)
    }

    /// The next non-zero weight at `level`, or `nil` at the end of the string.
    mutating func nextWeight(at level: JavaScriptCollator.Level) -> UInt32? {
        while let element = nextElement() {
            switch level {
            case .primary: if element.primary != 0 { return element.primary }
            case .secondary: if element.secondary != 0 { return UInt32(element.secondary) }
            case .tertiary: if element.tertiary != 0 { return UInt32(element.tertiary) }
            }
        }
        return nil
    }

    private mutating func nextElement() -> CollationElement? {
        while pendingIndex == pendingCount {
            guard let scalar = scalars.next() else { return nil }
            pendingIndex = 0
            pendingCount = 0
            JavaScriptCollator.appendElements(of: scalar, to: &self)
        }
        defer { pendingIndex += 1 }
        switch pendingIndex {
        case 0: return pending.0
        case 1: return pending.1
        case 2: return pending.2
        default: return pending.3
        }
    }

    /// Queues one element of the current scalar (at most four per scalar).
    mutating func append(_ element: CollationElement) {
        switch pendingCount {
        case 0: pending.0 = element
        case 1: pending.1 = element
        case 2: pending.2 = element
        case 3: pending.3 = element
        default: return
        }
        pendingCount += 1
    }
}

// MARK: - Scalar to elements

extension JavaScriptCollator {
    static func appendElements(of scalar: Unicode.Scalar, to sink: inout ElementIterator) {
        let value = scalar.value
        switch value {
        case 0x61...0x7A:
            sink.append(.latin(value - 0x61, upper: false))
            return
        case 0x41...0x5A:
            sink.append(.latin(value - 0x41, upper: true))
            return
        case 0x30...0x39:
            sink.append(digit(value - 0x30, tertiary: CollationElement.lower))
            return
        case 0x300..<0x370:
            appendMark(value, to: &sink)
            return
        default:
            break
        }
        if appendSpecial(value, to: &sink) { return }
        if let entry = lookup(value, in: punctuationTable, keyShift: 20) {
            let group = UInt32((entry >> 16) & 0xF)
            let rank = UInt32((entry >> 4) & 0xFFF)
            sink.append(
                CollationElement(
                    primary: CollationElement.groupPrimary(group, rank: rank),
                    secondary: CollationElement.commonSecondary, tertiary: UInt8(1 + entry & 0xF)))
            return
        }
        if let entry = lookup(value, in: latinExtraLetters, keyShift: 20) {
            var element = CollationElement.latin(
                UInt32(entry >> 12), upper: false, extraRank: UInt32((entry >> 4) & 0xFF))
            element.tertiary = 1 + 2 * UInt8(entry & 0xF)
            sink.append(element)
            return
        }
        if (0xFF21...0xFF3A).contains(value) || (0xFF41...0xFF5A).contains(value) {
            // Fullwidth letters: the ASCII letter with a tertiary difference.
            let isUpper = value <= 0xFF3A
            var element = CollationElement.latin(value - (isUpper ? 0xFF21 : 0xFF41), upper: isUpper)
            element.tertiary = isUpper ? CollationElement.upperVariant : CollationElement.lowerVariant
            sink.append(element)
            return
        }
        if let entry = lookup(value, in: decompositions, keyShift: 32),
            let letter = Unicode.Scalar(UInt32(entry & 0x7FF))
        {
            appendElements(of: letter, to: &sink)
            var marks = entry >> 11
            while marks & 0x7F != 0 {
                appendMark(0x300 + UInt32(marks & 0x7F) - 1, to: &sink)
                marks >>= 7
            }
            return
        }
        appendByCategory(scalar, to: &sink)
    }

    static func digit(_ value: UInt32, tertiary: UInt8) -> CollationElement {
        CollationElement(
            primary: CollationElement.digitBase + value * 16, secondary: CollationElement.commonSecondary,
            tertiary: tertiary)
    }

    private static func appendMark(_ value: UInt32, to sink: inout ElementIterator) {
        let rank = combiningMarkRanks[Int(value - 0x300)]
        if rank == 255 { return }
        sink.append(.mark(rank: UInt16(rank)))
    }

    /// Binary search in a table sorted by `entry >> keyShift`; returns the entry's payload bits.
    private static func lookup(_ key: UInt32, in table: [UInt64], keyShift: UInt64) -> UInt64? {
        var low = 0
        var high = table.count
        let key = UInt64(key)
        while low < high {
            let mid = (low + high) / 2
            let entryKey = table[mid] >> keyShift
            if entryKey == key { return table[mid] & ((1 << keyShift) - 1) }
            if entryKey < key { low = mid + 1 } else { high = mid }
        }
        return nil
    }

    /// Everything the tables do not cover, by Unicode general category.
    private static func appendByCategory(_ scalar: Unicode.Scalar, to sink: inout ElementIterator) {
        let value = scalar.value
        let properties = scalar.properties
        let unlisted = CollationElement.unlistedOffset + value
        func primary(_ weight: UInt32, tertiary: UInt8 = CollationElement.lower) {
            sink.append(
                CollationElement(primary: weight, secondary: CollationElement.commonSecondary, tertiary: tertiary))
        }
        switch properties.generalCategory {
        case .control, .format, .surrogate:
            if properties.isWhitespace { primary(CollationElement.groupPrimary(1, rank: 0) + unlisted) }
        case .nonspacingMark, .spacingMark, .enclosingMark:
            if (0xFE00...0xFE0F).contains(value) || (0xE0100...0xE01EF).contains(value) { return }
            sink.append(CollationElement(primary: 0, secondary: 0x1000 + UInt16(value & 0x0FFF), tertiary: 1))
        case .spaceSeparator, .lineSeparator, .paragraphSeparator:
            primary(CollationElement.groupPrimary(1, rank: 0) + unlisted)
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation:
            primary(CollationElement.groupPrimary(2, rank: 0) + unlisted)
        case .mathSymbol, .modifierSymbol, .otherSymbol:
            primary(CollationElement.groupPrimary(3, rank: 0) + unlisted)
        case .currencySymbol:
            primary(CollationElement.groupPrimary(4, rank: 0) + unlisted)
        case .decimalNumber, .letterNumber, .otherNumber:
            if let number = properties.numericValue, number >= 0, number <= 9, number == number.rounded() {
                let tertiary =
                    properties.generalCategory == .decimalNumber
                    ? CollationElement.lower : CollationElement.upperVariant
                sink.append(digit(UInt32(number), tertiary: tertiary))
            } else {
                primary(CollationElement.groupPrimary(3, rank: 0) + unlisted)
            }
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
            let lowered = properties.lowercaseMapping.unicodeScalars
            let base = lowered.count == 1 ? lowered.first?.value ?? value : value
            let tertiary = properties.isUppercase ? CollationElement.upper : CollationElement.lower
            primary(CollationElement.otherLetterBase + base, tertiary: tertiary)
        default:
            primary(CollationElement.implicitBase + value)
        }
    }
}
