import Testing

@testable import CoreTypes

@Suite struct TopicLevelCacheTests {
    private static let source = "5c3e1a2b-7d4f-4e6a-9b8c-0d1e2f3a4b5c"
    private static let otherSource = "0f9e8d7c-6b5a-4c3d-a2e1-f0e9d8c7b6a5"

    /// Where a string's bytes live: equal addresses mean the same storage.
    private func storage(_ string: String) -> UnsafeRawPointer? {
        string.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }

    @Test func aRepeatedLongLevelIsTheStringReadBefore() throws {
        var cache = TopicLevelCache()
        let name = "coaty/3/-/ADV::com.example.Light/\(Self.source)"
        let first = try #require(try CoatyTopic(parsing: name, levels: &cache))
        let second = try #require(try CoatyTopic(parsing: name, levels: &cache))
        #expect(first == second)
        #expect(storage(first.sourceID) != nil)
        #expect(storage(first.sourceID) == storage(second.sourceID))
        #expect(storage(first.eventTypeFilter ?? "") == storage(second.eventTypeFilter ?? ""))
    }

    @Test func correlationIDsAreNeverTakenFromTheCache() throws {
        var cache = TopicLevelCache()
        let name = "coaty/3/-/RSV/\(Self.source)/\(Self.otherSource)"
        let first = try #require(try CoatyTopic(parsing: name, levels: &cache))
        let second = try #require(try CoatyTopic(parsing: name, levels: &cache))
        #expect(first.correlationID == Self.otherSource)
        #expect(storage(first.correlationID ?? "") != storage(second.correlationID ?? ""))
    }

    /// A small cache that evicts all the time reads every topic as the cache-less parser does.
    @Test(arguments: [0, 1, 2, 8])
    func withAnyCapacityTopicsReadAsWithoutACache(capacity: Int) throws {
        let names = [
            "coaty/3/-/ADV::com.example.Light/\(Self.source)",
            "coaty/3/-/ADV::com.example.Light/\(Self.otherSource)",
            "coaty/3/namespace-of-some-length/DSC/\(Self.source)/\(Self.otherSource)",
            "coaty/3/-/CLL:com.example.lamp.toggle/\(Self.otherSource)/abc",
            "coaty/3/-/ADV::com.example.Light/\(Self.source)",
            "coaty/3/-/CHN:ünïcödé-channel-id-0123/\(Self.source)",
            "coaty/3/-/CHN:ünïcödé-channel-id-0124/\(Self.source)",
            "coaty/3/-/CHN:ünïcödé-channel-id-0123/\(Self.source)",
            "coaty/3/-/DAD/0123456789abcdef",
            "coaty/3/-/DAD/0123456789abcdeF",
        ]
        var cache = TopicLevelCache(capacity: capacity)
        for round in 0..<3 {
            for name in round == 1 ? names.reversed() : names {
                let cached = try CoatyTopic(parsing: name, levels: &cache)
                #expect(cached == (try CoatyTopic(parsing: name)), "\(name)")
            }
        }
    }
}
