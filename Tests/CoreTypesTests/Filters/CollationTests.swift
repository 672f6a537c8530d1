import CoreTypes
import Testing

/// String comparisons in filters use the collation of coaty-js's `Intl.Collator()` (en-US, ICU root),
/// which CoreTypes gets from the toolchain's ICU.
@Suite struct CollationTests {
    /// The expected signs were computed with `new Intl.Collator().compare(a, b)` in Node.js 20.20.2
    /// (ICU 78.2), the environment the vectors were generated in.
    @Test(arguments: [
        ("Alpha", "alpha", 1),
        ("Alpha", "beta", -1),
        ("alpha", "ALPHA", -1),
        ("10", "9", -1),
        ("", "a", -1),
        ("hello world", "Hello World", -1),
        ("hello world", "hello_world", -1),
        ("hello world", "helloworld", -1),
        ("hello-world", "hello world", 1),
        ("hello-world", "hello_world", 1),
        ("a.b", "a,b", 1),
        ("a!", "a?", -1),
        ("(x)", "[x]", -1),
        ("@home", "#home", -1),
        ("$5", "5", -1),
        ("+1", "-1", 1),
        ("~", "$", -1),
        ("9", "a", -1),
        ("Z", "a", 1),
        ("resume", "résumé", -1),
        ("résumé", "Résumé", -1),
        ("resumé", "résume", -1),
        ("cote", "côte", -1),
        ("côte", "coté", 1),
        ("Grüße", "Grüsse", 1),
        ("Grüße", "GRÜSSE", 1),
        ("straße", "strasse", 1),
        ("straße", "strast", -1),
        ("Ærø", "aero", 1),
        ("æ", "af", -1),
        ("œuvre", "oeuvre", 1),
        ("Øre", "ore", 1),
        ("Øre", "orf", -1),
        ("Łódź", "Lodz", 1),
        ("naïve", "naive", 1),
        ("façade", "facade", 1),
        ("ñandu", "nandu", 1),
        ("ñandu", "nbndu", -1),
        ("þorn", "zorn", 1),
        ("ĳs", "ijs", 1),
        ("Ĳs", "IJs", 1),
        ("x\u{301}", "\u{1E8B}", -1),
        ("e\u{301}", "\u{E9}", 0),
        ("tab\there", "tab here", -1),
        ("line\nbreak", "line break", -1),
        ("a\u{0}b", "ab", 0),
        ("soft\u{AD}hyphen", "softhyphen", 0),
        ("😀", "a", -1),
        ("😀", "$", -1),
        ("😀", "~", 1),
        ("α", "z", 1),
        ("Ω", "ω", 1),
        ("я", "z", 1),
        ("一", "я", 1),
        ("٣", "3", 0),
        ("¹", "1", 1),
        ("½", "12", -1),
        ("…", "...", 1),
        ("2020-01-01T00:00:00Z", "2020-01-01T00:00:01Z", -1),
        ("2020-01-01", "2020/01/01", -1),
        ("Room 1", "Room 10", -1),
        ("Room 2", "Room 10", 1),
        ("item_2", "item-2", -1),
        ("a_b%c\\d", "a_b%c/d", 1),
        ("[x](y)$^{z}|+?", "[x](y)", 1),
        ("Hello", "hello", 1),
        ("HELLO", "Hello", 1),
        ("hello", "help", -1),
        ("Desk lamp", "desk lamp", 1),
        ("Desk lamp", "Desklamp", -1),
        ("ID-7", "id_7", 1),
        // Compatibility characters compare as the letters they stand for, then as variants.
        ("ﬀ", "ff", 1),
        ("ﬀ", "fg", -1),
        ("ﬁle", "file", 1),
        ("ﬁle", "filf", -1),
        ("№ 5", "No 5", 1),
        ("№ 5", "No 6", -1),
        ("ⓐ", "b", -1),
        ("Ⅳ", "IV", 1),
        ("Ⅳ", "IW", -1),
        ("한국어", "中文", -1),
        ("한국어", "日本語", -1),
    ])
    func stringsCompareLikeIntlCollator(a: String, b: String, sign: Int) throws {
        #expect(try collationSign(a, b) == sign)
        #expect(try collationSign(b, a) == -sign)
    }

    @Test func comparisonIsPrimaryThenAccentsThenCase() throws {
        // Letters first (case-insensitively), then accents, then lowercase before uppercase.
        let sorted = ["b", "Á", "a", "á", "A", "B", "ab"]
            .sorted { (try? collationSign($0, $1)) == -1 }
        #expect(sorted == ["a", "A", "á", "Á", "ab", "b", "B"])
    }

    /// Every pair of the ICU-generated table (scripts/generate-collation-table.py), both ways, through
    /// the matcher's `LessThan`/`GreaterThan`; this runs on the toolchain's ICU, not the generator's.
    @Test func everyPairOfTheTableComparesAsInICU() throws {
        let table = CollationTable.ranked
        var wrong: [String] = []
        for x in table {
            for y in table where try collationSign(x.string, y.string) != (x.rank - y.rank).signum() {
                wrong.append("\(x.string.debugDescription) vs \(y.string.debugDescription)")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) pairs differ from ICU \(CollationTable.icuVersion): \(wrong.prefix(20))")
    }

    /// `Between` and `NotBetween` take their bounds in either order and agree with the table.
    @Test func betweenFollowsTheTable() throws {
        let table = CollationTable.ranked
        func between(_ value: String, _ first: String, _ second: String) throws -> (Bool, Bool) {
            let object: JSONValue = ["v": .string(value)]
            let (x, y) = (JSONValue.string(first), JSONValue.string(second))
            return (
                try ObjectMatcher.matches(object, condition: ObjectFilterCondition("v", .between(x, y))),
                try ObjectMatcher.matches(object, condition: ObjectFilterCondition("v", .notBetween(x, y)))
            )
        }
        for i in stride(from: 1, to: table.count - 3, by: 3) {
            let (low, high) = (table[i], table[i + 2])
            for (first, second) in [(low.string, high.string), (high.string, low.string)] {
                for candidate in table[(i - 1)...(i + 3)] {
                    let expected = candidate.rank >= low.rank && candidate.rank <= high.rank
                    let (inside, outside) = try between(candidate.string, first, second)
                    #expect(
                        inside == expected && outside == !expected,
                        "\(candidate.string.debugDescription) between \(first.debugDescription), \(second.debugDescription)"
                    )
                }
            }
        }
    }

    /// Ordering a Query result (`orderBy`) sorts the table back into ICU's order from any input
    /// order, and strings that compare equal keep their input order.
    @Test(arguments: [OrderByProperty.Order.ascending, .descending])
    func orderingSortsTheTableAsICU(order: OrderByProperty.Order) throws {
        let table = CollationTable.ranked
        // A fixed shuffle: position i takes entry n - 1 - (i * 97) mod n (97 and n share no factor).
        #expect(table.count % 97 != 0)
        let input = (0..<table.count).map { (table.count - 1 - ($0 * 97) % table.count) }
        let objects = input.map { JSONObject([("name", .string(table[$0].string)), ("index", .int($0))]) }
        let sorted = try ObjectFilter.all.orderBy("name", order).apply(to: objects)
            .map { $0["index"]?.intValue ?? -1 }
        let inputPosition = Dictionary(uniqueKeysWithValues: input.enumerated().map { ($1, $0) })
        for (x, y) in zip(sorted, sorted.dropFirst()) {
            let (rankX, rankY) = (table[x].rank, table[y].rank)
            let inOrder = order == .ascending ? rankX < rankY : rankX > rankY
            let stableTie = rankX == rankY && (inputPosition[x] ?? 0) < (inputPosition[y] ?? 0)
            #expect(
                inOrder || stableTie, "\(table[x].string.debugDescription) before \(table[y].string.debugDescription)")
        }
        #expect(sorted.count == table.count)
    }

    /// The shared ICU collator gives the same answers from many tasks at once.
    @Test func concurrentComparisonsAgree() async throws {
        let table = CollationTable.ranked
        let failures = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var failures = 0
                    for x in table.indices where (x + worker) % 2 == 0 {
                        for y in table.indices
                        where try collationSign(table[x].string, table[y].string)
                            != (table[x].rank - table[y].rank).signum()
                        {
                            failures += 1
                        }
                    }
                    return failures
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(failures == 0)
    }

    /// `a < b` through the matcher's `LessThan`/`GreaterThan`, which collate when both are strings.
    private func collationSign(_ a: String, _ b: String) throws -> Int {
        let object: JSONValue = ["v": .string(a)]
        if try ObjectMatcher.matches(object, condition: ObjectFilterCondition("v", .lessThan(.string(b)))) {
            return -1
        }
        if try ObjectMatcher.matches(object, condition: ObjectFilterCondition("v", .greaterThan(.string(b)))) {
            return 1
        }
        return 0
    }
}
