import CoreTypes
import Testing

/// String comparisons in filters use the collation of coaty-js's `Intl.Collator()` (en-US, ICU root).
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
