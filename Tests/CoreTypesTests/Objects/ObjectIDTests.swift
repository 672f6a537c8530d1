import CoreTypes
import Foundation
import Testing

@Suite struct ObjectIDTests {
    /// Hands out fixed words, so that the id they make is known.
    private struct FixedWords: RandomNumberGenerator {
        var words: [UInt64]
        mutating func next() -> UInt64 { words.removeFirst() }
    }

    @Test func idsAreLowercaseVersion4UUIDsBuiltFromTwoWords() {
        var words = FixedWords(words: [0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210])
        // The version nibble becomes 4 and the variant bits 10, the rest is the words in order.
        #expect(ObjectID.make(using: &words) == "01234567-89ab-4def-bedc-ba9876543210")
        var ones = FixedWords(words: [.max, .max])
        #expect(ObjectID.make(using: &ones) == "ffffffff-ffff-4fff-bfff-ffffffffffff")
        var zeros = FixedWords(words: [0, 0])
        #expect(ObjectID.make(using: &zeros) == "00000000-0000-4000-8000-000000000000")
    }

    @Test func randomIDsAreDistinctUUIDsThatFoundationReadsBack() throws {
        var seen = Set<String>()
        for _ in 0..<200 {
            let id = ObjectID.make()
            let uuid = try #require(UUID(uuidString: id))
            #expect(uuid.uuidString.lowercased() == id)
            #expect(id.utf8.count == 36)
            #expect(Array(id.utf8)[14] == UInt8(ascii: "4"))
            #expect("89ab".utf8.contains(Array(id.utf8)[19]))
            seen.insert(id)
        }
        #expect(seen.count == 200)
    }
}
