@testable import Agent
import Testing

@Suite struct SubscriptionTableTests {
    @Test func firstObserverSubscribesAndLastUnsubscribes() {
        var table = SubscriptionTable()
        #expect(table.add("coaty/3/-/ADV:Task/+") == .subscribe("coaty/3/-/ADV:Task/+"))
        #expect(table.add("coaty/3/-/ADV:Task/+") == .none)
        #expect(table.users(of: "coaty/3/-/ADV:Task/+") == 2)
        #expect(table.remove("coaty/3/-/ADV:Task/+") == .none)
        #expect(table.remove("coaty/3/-/ADV:Task/+") == .unsubscribe("coaty/3/-/ADV:Task/+"))
        #expect(table.isEmpty)
    }

    @Test func removingAnUnknownFilterDoesNothing() {
        var table = SubscriptionTable()
        #expect(table.remove("a/b") == .none)
    }

    @Test func filtersKeepTheOrderOfFirstSubscription() {
        var table = SubscriptionTable()
        _ = table.add("b")
        _ = table.add("a")
        _ = table.add("c")
        _ = table.remove("a")
        _ = table.add("a")
        #expect(table.filters == ["b", "c", "a"])
    }
}

@Suite struct OfflineQueueTests {
    @Test func keepsOrder() {
        var queue = OfflineQueue<Int>(limits: .init(maximumCount: 10, maximumBytes: 100), policy: .dropOldest)
        for i in 0..<5 { #expect(queue.enqueue(i, bytes: 1) == .queued(droppedOldest: 0)) }
        #expect(queue.dequeue() == 0)
        #expect(queue.drain() == [1, 2, 3, 4])
        #expect(queue.isEmpty)
        #expect(queue.byteCount == 0)
    }

    @Test func dropOldestMakesRoomAndCounts() {
        var queue = OfflineQueue<Int>(limits: .init(maximumCount: 3, maximumBytes: 100), policy: .dropOldest)
        for i in 0..<3 { _ = queue.enqueue(i, bytes: 1) }
        #expect(queue.enqueue(3, bytes: 1) == .queued(droppedOldest: 1))
        #expect(queue.droppedCount == 1)
        #expect(queue.drain() == [1, 2, 3])
    }

    @Test func dropOldestAlsoHonoursTheByteLimit() {
        var queue = OfflineQueue<Int>(limits: .init(maximumCount: 100, maximumBytes: 10), policy: .dropOldest)
        _ = queue.enqueue(0, bytes: 4)
        _ = queue.enqueue(1, bytes: 4)
        #expect(queue.enqueue(2, bytes: 8) == .queued(droppedOldest: 2))
        #expect(queue.drain() == [2])
    }

    @Test func dropNewestRefusesWhenFull() {
        var queue = OfflineQueue<Int>(limits: .init(maximumCount: 2, maximumBytes: 100), policy: .dropNewest)
        _ = queue.enqueue(0, bytes: 1)
        _ = queue.enqueue(1, bytes: 1)
        #expect(queue.enqueue(2, bytes: 1) == .refused)
        #expect(queue.droppedCount == 1)
        #expect(queue.drain() == [0, 1])
    }

    @Test func aPublicationLargerThanTheByteLimitIsRefused() {
        var queue = OfflineQueue<Int>(limits: .init(maximumCount: 2, maximumBytes: 10), policy: .dropOldest)
        _ = queue.enqueue(0, bytes: 5)
        #expect(queue.enqueue(1, bytes: 11) == .refused)
        #expect(queue.drain() == [0])
    }

    @Test func manyDequeuesCompactTheStorage() {
        var queue = OfflineQueue<Int>(limits: .init(maximumCount: 1000, maximumBytes: 100_000), policy: .dropOldest)
        for i in 0..<500 { _ = queue.enqueue(i, bytes: 1) }
        for i in 0..<400 { #expect(queue.dequeue() == i) }
        #expect(queue.count == 100)
        #expect(queue.drain() == Array(400..<500))
    }
}
