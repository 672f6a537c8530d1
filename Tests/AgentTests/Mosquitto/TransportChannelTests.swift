import Testing

@testable import Agent

/// `TransportChannel`: the queue between a connection's callbacks and the agent's task.
@Suite(.timeLimit(.minutes(1)))
struct TransportChannelTests {
    static func published(_ ids: Range<Int>) -> [TransportEvent] {
        ids.map { .published(MQTTMessageID(rawValue: Int32($0))) }
    }

    static func ids(_ events: [TransportEvent]) -> [Int] {
        events.compactMap { event in
            if case .published(let id) = event { Int(id.rawValue) } else { nil }
        }
    }

    @Test
    func aReaderTakesEverythingQueuedAtOnceInOrder() async {
        let channel = TransportChannel(capacity: 100)
        #expect(channel.send(Self.published(0..<3)) == 0)
        #expect(channel.send(Self.published(3..<5)) == 0)
        #expect(Self.ids(await channel.nextBatch() ?? []) == [0, 1, 2, 3, 4])
    }

    @Test
    func aWaitingReaderGetsTheNextBatch() async {
        let channel = TransportChannel(capacity: 100)
        let reader = Task { await channel.nextBatch() }
        // Whether the reader waits already or not yet, it gets exactly this batch.
        #expect(channel.send(Self.published(7..<9)) == 0)
        #expect(Self.ids(await reader.value ?? []) == [7, 8])
    }

    @Test
    func eventsBeyondTheCapacityAreDroppedAndCounted() async {
        let channel = TransportChannel(capacity: 4)
        #expect(channel.send(Self.published(0..<3)) == 0)
        #expect(channel.send(Self.published(3..<6)) == 2)
        #expect(Self.ids(await channel.nextBatch() ?? []) == [0, 1, 2, 3])
        #expect(channel.send(Self.published(6..<7)) == 0)  // room again once the reader took them
        #expect(Self.ids(await channel.nextBatch() ?? []) == [6])
    }

    @Test
    func aRecycledBatchHoldsTheNextEvents() async {
        let channel = TransportChannel(capacity: 100)
        _ = channel.send(Self.published(0..<8))
        var batch = await channel.nextBatch() ?? []
        let storage = batch.withUnsafeBufferPointer { $0.baseAddress }
        channel.recycle(&batch)
        #expect(batch.isEmpty)
        _ = channel.send(Self.published(8..<10))
        let next = await channel.nextBatch() ?? []
        #expect(Self.ids(next) == [8, 9])
        #expect(next.withUnsafeBufferPointer { $0.baseAddress } == storage)
    }

    @Test
    func recyclingNeverTouchesEventsQueuedMeanwhileNorKeepsABurstsStorage() async {
        let channel = TransportChannel(capacity: 1000)
        _ = channel.send(Self.published(0..<4))
        var batch = await channel.nextBatch() ?? []
        _ = channel.send(Self.published(4..<6))
        channel.recycle(&batch)
        #expect(Self.ids(await channel.nextBatch() ?? []) == [4, 5])

        _ = channel.send(Self.published(0..<(TransportChannel.largestRecycled + 1)))
        var burst = await channel.nextBatch() ?? []
        let storage = burst.withUnsafeBufferPointer { $0.baseAddress }
        channel.recycle(&burst)
        _ = channel.send(Self.published(0..<1))
        let next = await channel.nextBatch() ?? []
        #expect(Self.ids(next) == [0])
        #expect(next.withUnsafeBufferPointer { $0.baseAddress } != storage)
    }

    @Test
    func finishingHandsOutWhatIsQueuedThenEnds() async {
        let channel = TransportChannel(capacity: 100)
        _ = channel.send(Self.published(0..<2))
        channel.finish()
        #expect(channel.send(Self.published(2..<3)) == 1)
        #expect(Self.ids(await channel.nextBatch() ?? []) == [0, 1])
        #expect(await channel.nextBatch().map(Self.ids) == nil)
    }

    @Test
    func finishingEndsAWaitingReader() async {
        let channel = TransportChannel(capacity: 100)
        let reader = Task { await channel.nextBatch() }
        channel.finish()
        #expect(await reader.value.map(Self.ids) == nil)
    }

    @Test
    func cancellingAWaitingReaderEndsTheChannel() async {
        let channel = TransportChannel(capacity: 100)
        let reader = Task { await channel.nextBatch() }
        reader.cancel()
        #expect(await reader.value.map(Self.ids) == nil)
        #expect(channel.send(Self.published(0..<1)) == 1)
    }

    @Test
    func theIteratorHandsOutEventsOneByOne() async {
        let channel = TransportChannel(capacity: 100)
        _ = channel.send(Self.published(0..<3))
        _ = channel.send(Self.published(3..<4))
        channel.finish()
        var seen: [Int] = []
        for await event in TransportEvents(channel: channel) { seen += Self.ids([event]) }
        #expect(seen == [0, 1, 2, 3])
    }
}
