import Testing

@testable import Agent

/// `EventStream` over its `DeliveryQueue`: what the observer's iterators see.
@Suite(.timeLimit(.minutes(1)))
struct EventStreamTests {
    /// An iterator that is given up (here by `first(where:)`) takes nothing with it: the next
    /// iterator of the same stream goes on with the next event, as with `AsyncStream`.
    @Test
    func aNewIteratorGoesOnWhereTheLastOneStopped() async throws {
        let queue = DeliveryQueue<Int>(capacity: 10, overflow: .dropNewest)
        let stream = EventStream(queue: queue, pressure: ReadPressure())
        for event in 1...4 { queue.yield(event) }
        let first = try await stream.first { _ in true }
        #expect(first == 1)
        var iterator = stream.makeAsyncIterator()
        let second = try await iterator.next()
        #expect(second == 2)
        queue.finish()
        var rest: [Int] = []
        for try await event in stream { rest.append(event) }
        #expect(rest == [3, 4])
    }

    @Test
    func aCancelledIteratorEndsTheStream() async throws {
        let queue = DeliveryQueue<Int>(capacity: 10, overflow: .dropNewest)
        let stream = EventStream(queue: queue, pressure: ReadPressure())
        queue.yield(1)
        let iterating = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var iterator = stream.makeAsyncIterator()
            return try await iterator.next()
        }
        let value = try await iterating.value
        #expect(value == nil)
        #expect(queue.yield(2) == .finished)
    }

    @Test
    func releasingTheStreamAndItsIteratorsEndsTheQueue() async throws {
        let queue = DeliveryQueue<Int>(capacity: 10, overflow: .dropNewest)
        var stream: EventStream<Int>? = EventStream(queue: queue, pressure: ReadPressure())
        var iterator = stream?.makeAsyncIterator()
        queue.yield(1)
        let first = try await iterator?.next()
        #expect(first == 1)
        stream = nil
        #expect(queue.yield(2) == .enqueued)
        iterator = nil
        #expect(queue.yield(3) == .finished)
    }

    @Test
    func anAbnormalEndIsThrownAfterTheBufferedEvents() async throws {
        let queue = DeliveryQueue<Int>(capacity: 10, overflow: .dropNewest)
        let stream = EventStream(queue: queue, pressure: ReadPressure())
        queue.yield(1)
        queue.finish(failure: AgentError(code: .stopped, detail: "test"))
        var iterator = stream.makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first == 1)
        await #expect(throws: AgentError(code: .stopped, detail: "test")) { _ = try await iterator.next() }
    }
}
