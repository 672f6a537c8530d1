import Testing

@testable import Agent

/// `EventStream` over its `DeliveryQueue`: what the observer's iterators see.
@Suite(.timeLimit(.minutes(1)))
struct EventStreamTests {
    /// An iterator that is given up (here by `first(where:)`) takes nothing with it: the next
    /// iterator of the same stream goes on with the next event, as with `AsyncStream`.
    @Test
    func aNewIteratorGoesOnWhereTheLastOneStopped() async {
        let queue = DeliveryQueue<Int>(capacity: 10, overflow: .dropNewest)
        let stream = EventStream(queue: queue, pressure: ReadPressure())
        for event in 1...4 { queue.yield(event) }
        #expect(await stream.first { _ in true } == 1)
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == 2)
        queue.finish()
        var rest: [Int] = []
        for await event in stream { rest.append(event) }
        #expect(rest == [3, 4])
    }

    @Test
    func aCancelledIteratorEndsTheStream() async {
        let queue = DeliveryQueue<Int>(capacity: 10, overflow: .dropNewest)
        let stream = EventStream(queue: queue, pressure: ReadPressure())
        queue.yield(1)
        let iterating = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var iterator = stream.makeAsyncIterator()
            return await iterator.next()
        }
        #expect(await iterating.value == nil)
        #expect(queue.yield(2) == .finished)
    }

    @Test
    func releasingTheStreamAndItsIteratorsEndsTheQueue() async {
        let queue = DeliveryQueue<Int>(capacity: 10, overflow: .dropNewest)
        var stream: EventStream<Int>? = EventStream(queue: queue, pressure: ReadPressure())
        var iterator = stream?.makeAsyncIterator()
        queue.yield(1)
        #expect(await iterator?.next() == 1)
        stream = nil
        #expect(queue.yield(2) == .enqueued)
        iterator = nil
        #expect(queue.yield(3) == .finished)
    }
}
