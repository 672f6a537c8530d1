import Agent
import CoreTypes
import Foundation
import Testing
import TestSupport

/// Slow observers: with the default backpressure nothing is lost and the agent waits for them; an
/// observer that opts into dropping holds up nobody, and what it misses is counted. Observers whose
/// task fails are removed.
@Suite(.timeLimit(.minutes(2)))
struct SlowConsumerTests {
    /// Two observers of one channel, each with a buffer of 8 events: one never reads and drops the
    /// newest events when full. The publisher sends each event only after the reading observer got
    /// the previous one, so the reader is never behind. It gets all 200 in order; the other keeps
    /// the first 8 and the other 192 are dropped and counted. Its buffer, not the agent's memory, is
    /// what fills up.
    @Test func anObserverThatDropsDoesNotDelayTheOthers() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: Reliability.configuration("A", broker: broker))
            var configuration = Reliability.configuration("B", broker: broker)
            configuration.observerBufferSize = 8
            let b = try Agent(configuration: configuration)
            try await RunningAgents.run([a, b]) {
                let stalled = try await b.observeChannel("load").overflowPolicy(.dropNewest)
                let reading = try await b.observeChannel("load")
                var iterator = reading.makeAsyncIterator()
                for number in 0..<200 {
                    try a.publish(Reliability.numbered(number, on: "load"))
                    #expect(try Reliability.number(of: try #require(await iterator.next())) == number)
                }
                #expect(b.statistics.droppedObserverEvents == 192)
                var stalledIterator = stalled.makeAsyncIterator()
                var kept: [Int] = []
                for _ in 0..<8 { kept.append(try Reliability.number(of: try #require(await stalledIterator.next()))) }
                #expect(kept == Array(0..<8), "a full buffer keeps the oldest events and drops the new ones")
                // Once it reads again, it gets new events.
                try a.publish(Reliability.numbered(200, on: "load"))
                #expect(try Reliability.number(of: try #require(await stalledIterator.next())) == 200)
                #expect(try Reliability.number(of: try #require(await iterator.next())) == 200)
            }
        }
    }

    /// With the default backpressure, two observers with a buffer of 8 that do not read while 300
    /// events arrive lose none: the agent stops reading its connection once a buffer is full (it
    /// logs so), the broker holds the rest, and when the observers read again each gets all 300 in
    /// order.
    @Test func aSlowObserverWithBackpressureLosesNothing() async throws {
        try await TestBroker.withBroker { broker in
            let log = LogRecorder()
            let a = try Agent(configuration: Reliability.configuration("A", broker: broker))
            var configuration = Reliability.configuration("B", broker: broker)
            configuration.observerBufferSize = 8
            let b = try Agent(configuration: configuration, logger: log.logger)
            try await RunningAgents.run([a, b]) {
                let slow = try await b.observeChannel("load")
                let other = try await b.observeChannel("load")
                for number in 0..<300 { try a.publish(Reliability.numbered(number, on: "load")) }
                let full = await log.next { $0.message.hasPrefix("Observer buffer full") }
                #expect(full?.metadata["mqtt.filter"] == "coaty/3/-/CHN:load/+")
                // Both buffers are full now; each observer must read for the agent to go on.
                async let slowReceived = Self.numbers(300, from: slow)
                async let otherReceived = Self.numbers(300, from: other)
                #expect(try await slowReceived == Array(0..<300))
                #expect(try await otherReceived == Array(0..<300))
                #expect(b.statistics.droppedObserverEvents == 0)
                #expect(b.statistics.heldBackObservers >= 1)
            }
        }
    }

    static func numbers(_ count: Int, from events: EventStream<Received<Channel>>) async throws -> [Int] {
        var numbers: [Int] = []
        for try await event in events {
            numbers.append(try Reliability.number(of: event))
            if numbers.count == count { break }
        }
        return numbers
    }

    /// An observing task that throws ends its observation: the agent logs it, removes the observer,
    /// and, as it was the last one of its filter, unsubscribes. A second observer of another
    /// filter is not affected.
    @Test func anObserverWhoseTaskThrowsIsRemovedAndItsSubscriptionReleased() async throws {
        struct ObserverFailure: Error {}
        try await TestBroker.withBroker { broker in
            let log = LogRecorder()
            let a = try Agent(configuration: Reliability.configuration("A", broker: broker))
            let b = try Agent(configuration: Reliability.configuration("B", broker: broker), logger: log.logger)
            try await RunningAgents.run([a, b]) {
                let steady = try await b.observeChannel("steady")
                // The stream lives only in the task, as in an application: when the task ends, so does the observation.
                let (ready, isReady) = AsyncStream.makeStream(of: Void.self)
                let task = Task {
                    let failing = try await b.observeChannel("fragile")
                    isReady.yield()
                    for try await _ in failing { throw ObserverFailure() }
                }
                for await _ in ready { break }
                try a.publish(Reliability.numbered(1, on: "fragile"))
                await #expect(throws: ObserverFailure.self) { try await task.value }
                let removal = await log.next { $0.message == "Observer removed" }
                #expect(removal?.metadata["mqtt.filter"] == "coaty/3/-/CHN:fragile/+")

                // The UNSUBSCRIBE went out before this probe's SUBSCRIBE, so the broker no longer sends "fragile" to B.
                try await Reliability.waitUntilSubscribed(b)
                let unroutedBefore = b.statistics.unroutedMessages
                try a.publish(Reliability.numbered(2, on: "fragile"))
                try a.publish(Reliability.numbered(3, on: "steady"))
                var iterator = steady.makeAsyncIterator()
                #expect(try Reliability.number(of: try #require(await iterator.next())) == 3)
                #expect(b.statistics.unroutedMessages == unroutedBefore, "B did not even receive the 'fragile' event")
            }
        }
    }

    /// When one of two observers of a filter goes away, the subscription stays for the other.
    @Test func aSharedSubscriptionOutlivesOneOfItsObservers() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: Reliability.configuration("A", broker: broker))
            let b = try Agent(configuration: Reliability.configuration("B", broker: broker))
            try await RunningAgents.run([a, b]) {
                let staying = try await b.observeChannel("shared")
                let (ready, isReady) = AsyncStream.makeStream(of: Void.self)
                let leaving = Task {
                    let events = try await b.observeChannel("shared")
                    isReady.yield()
                    for try await _ in events { return }
                }
                for await _ in ready { break }
                try a.publish(Reliability.numbered(1, on: "shared"))
                try await leaving.value
                try await Reliability.waitUntilSubscribed(b)
                try a.publish(Reliability.numbered(2, on: "shared"))
                var iterator = staying.makeAsyncIterator()
                #expect(try Reliability.number(of: try #require(await iterator.next())) == 1)
                #expect(try Reliability.number(of: try #require(await iterator.next())) == 2)
                #expect(b.statistics.droppedObserverEvents == 0)
            }
        }
    }
}
