import Synchronization
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
        let channel = TransportChannel(capacity: 100, pressure: ReadPressure())
        channel.send(Self.published(0..<3))
        channel.send(Self.published(3..<5))
        #expect(Self.ids(await channel.nextBatch() ?? []) == [0, 1, 2, 3, 4])
    }

    @Test
    func aWaitingReaderGetsTheNextBatch() async {
        let channel = TransportChannel(capacity: 100, pressure: ReadPressure())
        let reader = Task { await channel.nextBatch() }
        // Whether the reader waits already or not yet, it gets exactly this batch.
        channel.send(Self.published(7..<9))
        #expect(Self.ids(await reader.value ?? []) == [7, 8])
    }

    /// Nothing is dropped: a full channel holds the connection's read pressure until the reader
    /// takes what waits, and the last release asks for reading to resume.
    @Test
    func aFullChannelHoldsTheReadPressureUntilTheReaderTakesItsEvents() async {
        let pressure = ReadPressure()
        let reliefs = Counter()
        pressure.onRelief { reliefs.increment() }
        let channel = TransportChannel(capacity: 4, pressure: pressure)
        channel.send(Self.published(0..<3))
        #expect(!pressure.isHeld)
        channel.send(Self.published(3..<6))
        #expect(pressure.isHeld)
        #expect(Self.ids(await channel.nextBatch() ?? []) == [0, 1, 2, 3, 4, 5])
        #expect(!pressure.isHeld)
        #expect(reliefs.value == 1)
        channel.send(Self.published(6..<7))
        #expect(Self.ids(await channel.nextBatch() ?? []) == [6])
        #expect(reliefs.value == 1)
    }

    @Test
    func aRecycledBatchHoldsTheNextEvents() async {
        let channel = TransportChannel(capacity: 100, pressure: ReadPressure())
        channel.send(Self.published(0..<8))
        var batch = await channel.nextBatch() ?? []
        let storage = batch.withUnsafeBufferPointer { $0.baseAddress }
        channel.recycle(&batch)
        #expect(batch.isEmpty)
        channel.send(Self.published(8..<10))
        let next = await channel.nextBatch() ?? []
        #expect(Self.ids(next) == [8, 9])
        #expect(next.withUnsafeBufferPointer { $0.baseAddress } == storage)
    }

    @Test
    func recyclingNeverTouchesEventsQueuedMeanwhileNorKeepsABurstsStorage() async {
        let channel = TransportChannel(capacity: 1000, pressure: ReadPressure())
        channel.send(Self.published(0..<4))
        var batch = await channel.nextBatch() ?? []
        channel.send(Self.published(4..<6))
        channel.recycle(&batch)
        #expect(Self.ids(await channel.nextBatch() ?? []) == [4, 5])

        channel.send(Self.published(0..<(TransportChannel.largestRecycled + 1)))
        var burst = await channel.nextBatch() ?? []
        let storage = burst.withUnsafeBufferPointer { $0.baseAddress }
        channel.recycle(&burst)
        channel.send(Self.published(0..<1))
        let next = await channel.nextBatch() ?? []
        #expect(Self.ids(next) == [0])
        #expect(next.withUnsafeBufferPointer { $0.baseAddress } != storage)
    }

    @Test
    func finishingHandsOutWhatIsQueuedThenEnds() async {
        let channel = TransportChannel(capacity: 100, pressure: ReadPressure())
        channel.send(Self.published(0..<2))
        channel.finish()
        #expect(!channel.enqueue(.published(MQTTMessageID(rawValue: 2))))
        #expect(Self.ids(await channel.nextBatch() ?? []) == [0, 1])
        #expect(await channel.nextBatch().map(Self.ids) == nil)
    }

    @Test
    func finishingEndsAWaitingReader() async {
        let channel = TransportChannel(capacity: 100, pressure: ReadPressure())
        let reader = Task { await channel.nextBatch() }
        channel.finish()
        #expect(await reader.value.map(Self.ids) == nil)
    }

    @Test
    func cancellingAWaitingReaderEndsTheChannel() async {
        let channel = TransportChannel(capacity: 100, pressure: ReadPressure())
        let reader = Task { await channel.nextBatch() }
        reader.cancel()
        #expect(await reader.value.map(Self.ids) == nil)
        #expect(!channel.enqueue(.published(MQTTMessageID(rawValue: 0))))
    }

    @Test
    func theIteratorHandsOutEventsOneByOne() async {
        let channel = TransportChannel(capacity: 100, pressure: ReadPressure())
        channel.send(Self.published(0..<3))
        channel.send(Self.published(3..<4))
        channel.finish()
        var seen: [Int] = []
        for await event in TransportEvents(channel: channel) { seen += Self.ids([event]) }
        #expect(seen == [0, 1, 2, 3])
    }
}

/// Counts calls from any thread.
final class Counter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}
