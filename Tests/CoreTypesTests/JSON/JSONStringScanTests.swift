@testable import CoreTypes
import Testing

/// The reader and writer test strings eight bytes at a time and objects tell keys apart by
/// signatures first: every byte in every position must still be seen, and every duplicate found.
@Suite struct JSONStringScanTests {
    /// The bytes JSON text must escape inside a string.
    static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    @Test func aWordWithAByteToEscapeInAnyPositionIsNoticed() {
        for byte in UInt8.min...UInt8.max {
            for position in 0..<8 {
                for filler in [UInt8(ascii: "a"), 0x7F, 0x80, 0xFF, 0x20, 0x21, 0x23, 0x5B, 0x5D] {
                    var word = [UInt8](repeating: filler, count: 8)
                    word[position] = byte
                    let loaded = word.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                    if word.contains(where: Self.needsEscape) {
                        #expect(JSONBytes.mayNeedEscape(loaded), "byte \(byte) at \(position) among \(filler)")
                    }
                }
            }
        }
        let plain = Array("abcdefgh".utf8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        #expect(!JSONBytes.mayNeedEscape(plain))
    }

    @Test func theLowestSpecialBitMarksTheFirstByteToEscape() {
        let normal: [UInt8] = [UInt8(ascii: "a"), 0x7F, 0x80, 0xFF, 0x20, 0x21, 0x23, 0x5B, 0x5D]
        let special: [UInt8] = [0x00, 0x01, 0x1F, UInt8(ascii: "\""), UInt8(ascii: "\\")]
        for first in special {
            for position in 0..<8 {
                for filler in normal {
                    for later in special + [filler] {
                        var word = [UInt8](repeating: filler, count: 8)
                        word[position] = first
                        if position < 7 { word[7] = later }
                        let loaded = word.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                        let bits = JSONBytes.specialBytes(loaded)
                        #expect(bits.trailingZeroBitCount / 8 == position, "\(word)")
                    }
                }
            }
        }
        for filler in normal {
            let word = [UInt8](repeating: filler, count: 8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            #expect(JSONBytes.specialBytes(word) == 0)
        }
        #expect(JSONBytes.lowBytes(0) == 0)
        #expect(JSONBytes.lowBytes(3) == 0xFF_FFFF)
        #expect(JSONBytes.lowBytes(7) == 0x00FF_FFFF_FFFF_FFFF)
    }

    /// The writer's escaping, one byte at a time, as the reference.
    static func reference(_ string: String) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += Array(#"\""#.utf8)
            case UInt8(ascii: "\\"): out += Array(#"\\"#.utf8)
            case 0x08: out += Array(#"\b"#.utf8)
            case 0x0C: out += Array(#"\f"#.utf8)
            case 0x0A: out += Array(#"\n"#.utf8)
            case 0x0D: out += Array(#"\r"#.utf8)
            case 0x09: out += Array(#"\t"#.utf8)
            case ..<0x20: out += Array("\\u00".utf8) + [byte >> 4, byte & 0xF].map { Array("0123456789abcdef".utf8)[Int($0)] }
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
        return out
    }

    @Test func stringsWithSpecialBytesInEveryPositionAreWrittenAndReadBack() throws {
        let specials = ["\"", "\\", "\n", "\u{1}", "\u{1F}", "é", "😀", "/", "\u{7F}", " "]
        for length in 0..<26 {
            for special in specials {
                for position in 0...length {
                    var characters = Array(repeating: "x", count: length)
                    characters.insert(special, at: position)
                    let string = characters.joined()
                    var written: [UInt8] = []
                    JSONWriter.writeString(string, into: &written)
                    #expect(written == Self.reference(string), "\(string.debugDescription)")
                    #expect(try JSONValue(parsing: written) == .string(string), "\(string.debugDescription)")
                }
            }
        }
    }

    @Test func aRawControlCharacterOrBadUTF8AfterALongRunIsStillRejected() {
        for length in 0..<20 {
            let run = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            let control = #expect(throws: JSONParseError.self) { try JSONValue(parsing: [0x22] + run + [0x0A, 0x22]) }
            #expect(control?.code == .invalidString)
            let invalid = #expect(throws: JSONParseError.self) { try JSONValue(parsing: [0x22] + run + [0xFF, 0x22]) }
            #expect(invalid?.code == .invalidUTF8)
        }
    }

    @Test func keysWithEqualSignaturesAreStillComparedByTheirBytes() throws {
        // Same length, same first and last eight bytes: equal signatures, different keys.
        let a = "abcdefgh-1-ijklmnop"
        let b = "abcdefgh-2-ijklmnop"
        let signature = { (key: String) in KeySignatures.signature(of: key) }
        #expect(signature(a) == signature(b))
        let object = try #require(try JSONValue(parsing: #"{"\#(a)":1,"\#(b)":2,"\#(a)":3}"#).objectValue)
        #expect(object.keys == [a, b])
        #expect(object[a] == 3)
        #expect(object[b] == 2)
    }

    @Test func anEscapedKeyIsTheSameKeyAsItsPlainSpelling() throws {
        let object = try #require(try JSONValue(parsing: #"{"name":1,"n\u0061me":2,"na\/me":3,"na/me":4}"#).objectValue)
        #expect(object.keys == ["name", "na/me"])
        #expect(object["name"] == 2)
        #expect(object["na/me"] == 4)
    }

    @Test func signaturesCoverEveryObjectSearchedLinearly() throws {
        #expect(KeySignatures.capacity == JSONObject.indexThreshold)
        // The member after the last linearly searched one goes to the index, duplicates included.
        let keys = (0..<(JSONObject.indexThreshold + 2)).map { "key\($0)" }
        let text = "{" + (keys + ["key0", "key\(JSONObject.indexThreshold)"]).enumerated()
            .map { "\"\($0.element)\":\($0.offset)" }.joined(separator: ",") + "}"
        let object = try #require(try JSONValue(parsing: text).objectValue)
        #expect(object.keys == keys)
        #expect(object["key0"] == .int(keys.count))
        #expect(object["key\(JSONObject.indexThreshold)"] == .int(keys.count + 1))
    }

    @Test func shortKeysDifferingInOneByteAreKeptApart() throws {
        let keys = (0..<15).map { String(repeating: "k", count: $0 % 8) + String($0) }
        let text = "{" + keys.map { "\"\($0)\":0" }.joined(separator: ",") + "}"
        let object = try #require(try JSONValue(parsing: text).objectValue)
        #expect(object.keys == keys)
    }
}
