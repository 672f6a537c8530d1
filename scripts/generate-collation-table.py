#!/usr/bin/python3
# Writes Tests/CoreTypesTests/Filters/CollationTable.swift: strings in the order of ICU's root
# collation at tertiary strength with normalization on, which is what coaty-js's `Intl.Collator()`
# uses in V8 (en-US resolves to root; V8 turns normalization on). Each string gets a rank, and equal
# ranks compare equal, so the table gives the expected sign of every pair and every order.
#
#   scripts/generate-collation-table.py            needs Debian's python3-icu (installed if missing)
#
# Three ICU versions meet here: Debian 12's python3-icu links ICU 72.1 (Unicode 15.0), the Swift
# 6.3.1 toolchain's _FoundationICU is ICU 76.1 (Unicode 16.0), and Node.js 20.20.2, where the
# vectors were made, has ICU 78.2 (Unicode 17). The strings below use only characters assigned by
# Unicode 6.1, long settled in CLDR's root order, so that all three agree on every pair: when `node`
# is on PATH the script compares every pair with `new Intl.Collator().compare` too and stops on any
# difference, and the Swift test checks ICU 76.1. If a new ICU disagrees, drop the string, not the check.
# Run it with /usr/bin/python3: that is the interpreter python3-icu is installed for.
import json
import os
import shutil
import subprocess
import sys
import unicodedata

try:
    import icu
except ImportError:
    if os.environ.get("COLLATION_TABLE_INSTALLED"):
        sys.exit("generate-collation-table: python3-icu is still missing after apt-get install")
    print("generate-collation-table: installing python3-icu", file=sys.stderr)
    subprocess.run(["apt-get", "install", "-y", "python3-icu"], check=True, stdout=subprocess.DEVNULL)
    os.environ["COLLATION_TABLE_INSTALLED"] = "1"
    os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(ROOT, "Tests/CoreTypesTests/Filters/CollationTable.swift")

STRINGS = [
    # Empty, whitespace and control characters (controls are ignorable).
    "", " ", "\t", "\n", "a b", "a\tb", "a\u00A0b", "a\u3000b", "ab", "a\u0000b", "soft\u00ADhyphen",
    "softhyphen",
    # Punctuation.
    "_", "-", "\u2013", "\u2014", ",", ";", ":", "!", "\u00A1", "?", "\u00BF", ".", "\u2026", "...", "'",
    '"', "\u00AB", "\u00BB", "(", ")", "[", "]", "{", "}", "@", "*", "/", "\\", "&", "#", "%",
    # Symbols and currency.
    "`", "^", "+", "<", "=", ">", "|", "~", "\u00A9", "\u00AE", "\u00B0", "\u00B1", "\u00D7", "\u00F7",
    "$", "\u00A3", "\u00A5", "\u20AC", "\U0001F600", "\U0001F44D",
    # Digits: by digit, not by value; other digits as variants.
    "0", "1", "1.5", "1,5", "2", "9", "10", "\u00B9", "\u00B2", "\u00BD", "1\u20442", "\u2460", "\u0663",
    "\uFF13", "3",
    # Case.
    "a", "A", "b", "B", "hello", "Hello", "HELLO", "hELLO", "help",
    # Latin with diacritics, and letters that sort as other letters.
    "\u00E1", "\u00C1", "\u00E0", "\u00E2", "\u00E4", "\u00E5", "\u00C5", "\u212B", "a\u030A",
    "\u00E6", "\u00C6", "ae", "af", "c", "\u00E7", "C", "e", "\u00E9", "e\u0301", "\u00E8", "\u00EA",
    "\u00EB", "E", "\u00C9", "\u1EC7", "e\u0323\u0302", "e\u0302\u0323", "i", "\u0131", "\u0130", "n",
    "\u00F1", "o", "\u00F6", "\u00F8", "\u00D8", "\u0153", "oe", "s", "\u00DF", "ss", "SS", "st", "z",
    "\u017E", "\u00F0", "\u0111", "\u0142", "L", "\u00FE", "\u0133", "ij", "IJ", "resume",
    "r\u00E9sum\u00E9", "R\u00E9sum\u00E9", "resum\u00E9", "cote", "c\u00F4te", "cot\u00E9", "c\u00F4t\u00E9",
    # Compatibility characters: the letters they stand for, with a tertiary difference.
    "\uFB00", "ff", "Ff", "FF", "fg", "\uFB01", "fi", "\uFB02", "fl", "\u2116", "No", "NO", "no",
    "\u24D0", "\u24B6", "\u2163", "IV", "iv", "\u2173", "IW", "\u2122", "TM", "\u338F", "kg",
    "\uFF4B\uFF47", "\uFF21", "\uFF41", "\u01C6", "d\u017E", "\u01C4", "\u01C5", "\u00B5", "\u03BC",
    "\u212A", "K", "\u00BC", "1\u20444",
    # Greek and Cyrillic.
    "\u03B1", "\u0391", "\u03AC", "\u03B2", "\u03C9", "\u03A9", "\u03C2", "\u03C3", "\u03A3",
    "\u0430", "\u0410", "\u0431", "\u0435", "\u0451", "\u044F", "\u042F", "\u0457",
    # Other scripts: Hebrew, Arabic, Devanagari, Hangul, kana, Han.
    "\u05D0", "\u0639", "\u0915", "\uD55C\uAD6D\uC5B4", "\uD55C", "\uAC00", "\u1100\u1161", "\uAC01",
    "\u3042", "\u30A2", "\u304B", "\u304C", "\u30AB", "\uFF76", "\u4E2D\u6587", "\u4E2D", "\u65E5\u672C",
    "\u4E00", "\u4E8C", "\u6F22\u5B57", "\u6C49\u5B57",
    # What filters compare in practice.
    "Room 1", "Room 10", "Room 2", "room 1", "2020-01-01", "2020/01/01", "2020-01-01T00:00:00Z",
    "item_2", "item-2", "Desk lamp", "desk lamp", "Desklamp", "Stra\u00DFe", "Strasse", "Grüße", "Grüsse",
]


def collator():
    result = icu.Collator.createInstance(icu.Locale.getRoot())
    result.setStrength(icu.Collator.TERTIARY)
    result.setAttribute(icu.UCollAttribute.NORMALIZATION_MODE, icu.UCollAttributeValue.ON)
    return result


def ranks(strings, coll):
    """Ranks in collation order; strings that compare equal share a rank."""
    ordered = sorted(strings, key=coll.getSortKey)
    result, rank = [], 0
    for i, s in enumerate(ordered):
        if i > 0 and coll.compare(ordered[i - 1], s) != 0:
            rank += 1
        result.append((s, rank))
    return result


def check_pairs(ranked, coll):
    for s, r in ranked:
        for t, q in ranked:
            sign = (r > q) - (r < q)
            if coll.compare(s, t) != sign:
                sys.exit(f"generate-collation-table: ICU compare({s!r}, {t!r}) disagrees with the order")


def check_with_node(ranked):
    """Every pair's sign under Node's Intl.Collator; returns Node's and its ICU's versions."""
    node = shutil.which("node")
    if node is None:
        print("generate-collation-table: node not found, the table is not checked against V8", file=sys.stderr)
        return None
    script = (
        "const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "const c = new Intl.Collator();"
        "const signs = input.map(a => input.map(b => Math.sign(c.compare(a, b))));"
        "console.log(JSON.stringify({node: process.version, icu: process.versions.icu,"
        " locale: c.resolvedOptions().locale, signs}));"
    )
    strings = [s for s, _ in ranked]
    output = subprocess.run([node, "-e", script], input=json.dumps(strings), capture_output=True,
                            text=True, check=True).stdout
    answer = json.loads(output)
    bad = []
    for i, (s, r) in enumerate(ranked):
        for j, (t, q) in enumerate(ranked):
            if answer["signs"][i][j] != (r > q) - (r < q):
                bad.append((s, t))
    if bad:
        sys.exit(f"generate-collation-table: Node {answer['node']} (ICU {answer['icu']}) differs on {bad[:10]}")
    return answer


def swift_literal(s):
    """Escapes controls, marks, spaces other than U+0020 and characters that NFC would change."""
    out = []
    for ch in s:
        category = unicodedata.category(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == " " or (category[0] not in "CMZ" and unicodedata.normalize("NFC", ch) == ch):
            out.append(ch)
        else:
            out.append("\\u{%X}" % ord(ch))
    return '"' + "".join(out) + '"'


def main():
    if len(set(STRINGS)) != len(STRINGS):
        sys.exit("generate-collation-table: a string is listed twice")
    coll = collator()
    ranked = ranks(STRINGS, coll)
    check_pairs(ranked, coll)
    node = check_with_node(ranked)
    checked = (
        f"every pair checked against Node.js {node['node']} (ICU {node['icu']}, locale {node['locale']})"
        if node else "not checked against Node.js"
    )
    lines = [
        "// Generated by scripts/generate-collation-table.py; do not edit.",
        f"// ICU {icu.ICU_VERSION} (Unicode {icu.UNICODE_VERSION}, PyICU {icu.VERSION}), root collation,",
        f"// tertiary strength, normalization on; {checked}.",
        "",
        "/// Strings in collation order with their rank: equal ranks compare equal.",
        "enum CollationTable {",
        f'    static let icuVersion = "{icu.ICU_VERSION}"',
        "",
        "    static let ranked: [(string: String, rank: Int)] = [",
    ]
    lines += [f"        ({swift_literal(s)}, {r})," for s, r in ranked]
    lines += ["    ]", "}", ""]
    with open(OUTPUT, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    print(f"generate-collation-table: {len(ranked)} strings, {ranked[-1][1] + 1} ranks -> {OUTPUT}")


main()
