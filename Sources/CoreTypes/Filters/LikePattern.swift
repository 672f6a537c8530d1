/// A compiled SQL `LIKE` pattern with coaty-js's exact rules.
///
/// coaty-js turns the pattern into an anchored JavaScript regular expression without flags, reading
/// it one UTF-16 code unit at a time:
/// - `_` matches one UTF-16 code unit (an emoji needs `__`) and `%` any run of them, but neither
///   matches a line terminator (LF, CR, U+2028, U+2029), just like the regular expression `.`;
/// - a backslash makes the next `_`, `%` or `\` literal; before any other character it is dropped,
///   and a trailing backslash is ignored;
/// - everything else, regular-expression metacharacters included, matches itself, case-sensitively.
struct LikePattern: Hashable, Sendable {
    enum Token: Hashable, Sendable {
        case literal(UInt16)
        case anyUnit
        case anyRun
    }

    let tokens: [Token]
    /// Whether the pattern has no wildcard, so it matches exactly one string.
    let isLiteral: Bool

    init(_ pattern: String) {
        var tokens: [Token] = []
        tokens.reserveCapacity(pattern.utf16.count)
        var isEscaped = false
        for unit in pattern.utf16 {
            switch unit {
            case 0x5C:  // backslash
                if isEscaped {
                    tokens.append(.literal(unit))
                    isEscaped = false
                } else {
                    isEscaped = true
                }
            case 0x5F where !isEscaped:  // _
                tokens.append(.anyUnit)
            case 0x25 where !isEscaped:  // %
                if tokens.last != .anyRun { tokens.append(.anyRun) }
            default:
                tokens.append(.literal(unit))
                isEscaped = false
            }
        }
        self.tokens = tokens
        isLiteral = !tokens.contains { $0 == .anyUnit || $0 == .anyRun }
    }

    /// Whether the whole of `value` matches the pattern.
    func matches(_ value: String) -> Bool {
        if isLiteral { return literalMatches(value) }
        let count = value.utf16.count
        return withUnsafeTemporaryAllocation(of: UInt16.self, capacity: count) { text in
            var i = 0
            for unit in value.utf16 {
                text[i] = unit
                i += 1
            }
            return withUnsafeTemporaryAllocation(of: Bool.self, capacity: count + 1) { row in
                matches(UnsafeBufferPointer(text), row: row)
            }
        }
    }

    private func literalMatches(_ value: String) -> Bool {
        var units = value.utf16.makeIterator()
        for token in tokens {
            guard case .literal(let expected) = token, units.next() == expected else { return false }
        }
        return units.next() == nil
    }

    /// Dynamic programming over the text: after each token, `row[j]` says whether the tokens so far
    /// match the first `j` code units.
    private func matches(_ text: UnsafeBufferPointer<UInt16>, row: UnsafeMutableBufferPointer<Bool>) -> Bool {
        let n = text.count
        row.initialize(repeating: false)
        row[0] = true
        for token in tokens {
            switch token {
            case .literal(let expected):
                var j = n
                while j > 0 {
                    row[j] = row[j - 1] && text[j - 1] == expected
                    j -= 1
                }
                row[0] = false
            case .anyUnit:
                var j = n
                while j > 0 {
                    row[j] = row[j - 1] && !Self.isLineTerminator(text[j - 1])
                    j -= 1
                }
                row[0] = false
            case .anyRun:
                var j = 1
                while j <= n {
                    row[j] = row[j] || (row[j - 1] && !Self.isLineTerminator(text[j - 1]))
                    j += 1
                }
            }
        }
        return row[n]
    }

    private static func isLineTerminator(_ unit: UInt16) -> Bool {
        unit == 0x0A || unit == 0x0D || unit == 0x2028 || unit == 0x2029
    }
}

extension ObjectFilterExpression {
    /// The UTF-16 code units a `Like` pattern starts with before its first wildcard (escapes
    /// resolved): a string that does not start with them cannot match.
    package static func likeLiteralPrefix(of pattern: String) -> [UInt16] {
        var units: [UInt16] = []
        for token in LikePattern(pattern).tokens {
            guard case .literal(let unit) = token else { break }
            units.append(unit)
        }
        return units
    }
}
