@testable import Agent
import Foundation
import Testing

@Suite struct CorrelationIDsTests {
    @Test func idsAreDistinctLowercaseUUIDsAcrossRefills() throws {
        let ids = CorrelationIDs()
        var seen = Set<String>()
        // Each id takes two words: this crosses several refills of the pool.
        let count = RandomPool.blockWords * 3
        for _ in 0..<count {
            let id = ids.make()
            let uuid = try #require(UUID(uuidString: id))
            #expect(uuid.uuidString.lowercased() == id)
            seen.insert(id)
        }
        #expect(seen.count == count)
    }

    @Test func thePoolHandsOutFreshWordsAfterARefill() {
        var pool = RandomPool()
        let words = (0..<(RandomPool.blockWords * 2)).map { _ in pool.next() }
        // 128 random words: a repeat (or a block of zeros) would mean a refill did not happen.
        #expect(Set(words).count == words.count)
    }
}
