import Synchronization
import Testing

@testable import Agent

/// `DeliveryQueue`: the buffer between the agent and the task iterating an observer's events or a
/// request's responses.
@Suite(.timeLimit(.minutes(1)))
struct DeliveryQueueTests {
    /// Counts how often a termination handler ran, and how the queue ended.
    final class Terminations: Sendable {
        private let endings = Mutex<[DeliveryQueue<Int>.Ending]>([])
        var value: Int { endings.withLock { $0.count } }
        var all: [DeliveryQueue<Int>.Ending] { endings.withLock { $0 } }
        func handler() -> @Sendable (DeliveryQueue<Int>.Ending) -> Void {
            { ending in self.endings.withLock { $0.append(ending) } }
        }
    }

    @Test
    func elementsComeOutInOrderWhetherTheConsumerWaitsOrNot() async {
        let queue = DeliveryQueue<Int>(capacity: 10, overflow: .dropNewest)
        #expect(queue.yield(1) == .enqueued)
        #expect(queue.yield(2) == .enqueued)
        #expect(await queue.next() == 1)
        #expect(await queue.next() == 2)
        let waiting = Task { await queue.next() }
        // Whether the consumer waits already or not yet, it gets exactly this element.
        #expect(queue.yield(3) == .enqueued)
        #expect(await waiting.value == 3)
    }

    @Test
    func thePeakFillIsTheMostBufferedSinceTheLastSampleAndRestartsFromWhatWaits() async {
        let queue = DeliveryQueue<Int>(capacity: 10, overflow: .dropNewest)
        #expect(queue.takePeakFill() == 0)
        for element in 1...3 { queue.yield(element) }
        #expect(queue.takePeakFill() == 3)
        #expect(await queue.next() == 1)
        #expect(await queue.next() == 2)
        #expect(queue.takePeakFill() == 3, "three waited when the last sample was taken")
        #expect(queue.takePeakFill() == 1)
        #expect(await queue.next() == 3)
        #expect(queue.takePeakFill() == 1)
        #expect(queue.takePeakFill() == 0)
    }

    @Test
    func elementsBeyondTheCapacityAreDroppedUntilTheConsumerTakesSome() async {
        let queue = DeliveryQueue<Int>(capacity: 2, overflow: .dropNewest)
        #expect(queue.yield(1) == .enqueued)
        #expect(queue.yield(2) == .enqueued)
        #expect(queue.yield(3) == .dropped)
        #expect(await queue.next() == 1)
        #expect(queue.yield(4) == .enqueued)
        #expect(await queue.next() == 2)
        #expect(await queue.next() == 4)
    }

    @Test
    func finishingHandsOutWhatIsBufferedThenEndsAndKeepsTheFirstFailure() async {
        let terminations = Terminations()
        let queue = DeliveryQueue<Int>(capacity: 10, overflow: .dropNewest)
        queue.setOnTermination(terminations.handler())
        queue.yield(1)
        queue.finish(failure: AgentError(code: .stopped, detail: "first"))
        queue.finish(failure: AgentError(code: .subscribeFailed, detail: "second"))
        #expect(queue.yield(2) == .finished)
        #expect(await queue.next() == 1)
        #expect(await queue.next() == nil)
        #expect(await queue.next() == nil)
        #expect(queue.failure?.code == .stopped)
        #expect(terminations.all == [.finished])
    }

    @Test
    func finishingEndsAWaitingConsumer() async {
        let queue = DeliveryQueue<Int>(capacity: 10, overflow: .dropNewest)
        let waiting = Task { await queue.next() }
        queue.finish()
        #expect(await waiting.value == nil)
        #expect(queue.failure == nil)
    }

    @Test
    func cancellingTheConsumersTaskEndsTheQueueAndDropsWhatIsBuffered() async {
        let terminations = Terminations()
        let queue = DeliveryQueue<Int>(capacity: 10, overflow: .dropNewest)
        queue.setOnTermination(terminations.handler())
        let waiting = Task { await queue.next() }
        waiting.cancel()
        #expect(await waiting.value == nil)
        #expect(queue.yield(1) == .finished)
        #expect(terminations.all == [.cancelled])

        let buffered = DeliveryQueue<Int>(capacity: 10, overflow: .dropNewest)
        buffered.yield(1)
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await buffered.next()
        }
        #expect(await cancelled.value == nil)
        #expect(await buffered.next() == nil)
    }

    @Test
    func releasingTheLastConsumerEndsTheQueueOnce() async {
        let terminations = Terminations()
        let queue = DeliveryQueue<Int>(capacity: 10, overflow: .dropNewest)
        queue.setOnTermination(terminations.handler())
        var consumer: DeliveryQueue<Int>.Consumer? = DeliveryQueue.Consumer(queue)
        var copy = consumer
        consumer = nil
        #expect(terminations.value == 0)
        #expect(copy?.queue.yield(1) == .enqueued)
        copy = nil
        #expect(terminations.all == [.cancelled])
        #expect(queue.yield(2) == .finished)
        #expect(await queue.next() == nil)
    }

    @Test
    func aHandlerSetAfterTheEndRunsAtOnce() {
        let terminations = Terminations()
        let queue = DeliveryQueue<Int>(capacity: 1, overflow: .dropNewest)
        queue.setOnTermination(terminations.handler())
        #expect(terminations.value == 0)
        queue.finish()
        #expect(terminations.value == 1)
        queue.setOnTermination(terminations.handler())
        #expect(terminations.value == 2)
    }

    @Test
    func aKeepNewestQueueDropsItsOldestWhenFull() async {
        let queue = DeliveryQueue<Int>(capacity: 2, overflow: .dropOldest)
        #expect(queue.yield(1) == .enqueued)
        #expect(queue.yield(2) == .enqueued)
        #expect(queue.yield(3) == .dropped)
        #expect(queue.yield(4) == .dropped)
        #expect(await queue.next() == 3)
        #expect(await queue.next() == 4)
        queue.finish()
        #expect(await queue.next() == nil)
    }

    /// A consumer that stays a little behind for a long time: the taken slots are reclaimed along
    /// the way, and nothing is lost or reordered.
    @Test(arguments: [QueueOverflow.dropNewest, .dropOldest, .backpressure(ReadPressure())])
    func aConsumerThatNeverCatchesUpGetsEverythingInOrder(overflow: QueueOverflow) async {
        let queue = DeliveryQueue<Int>(capacity: 10, overflow: overflow)
        var taken: [Int] = []
        queue.yield(0)
        queue.yield(1)
        for next in 2..<1_000 {
            #expect(queue.yield(next) == .enqueued)
            taken.append(await queue.next() ?? -1)
        }
        queue.finish()
        while let element = await queue.next() { taken.append(element) }
        #expect(taken == Array(0..<1_000))
    }

    /// Backpressure: past its capacity the queue keeps every element and holds the pressure once,
    /// until the consumer has taken the buffer down to half its capacity.
    @Test
    func aFullBackpressureQueueKeepsEverythingAndHoldsThePressureUntilHalfEmpty() async {
        let pressure = ReadPressure()
        let queue = DeliveryQueue<Int>(capacity: 4, overflow: .backpressure(pressure))
        for element in 0..<4 { #expect(queue.yield(element) == .enqueued) }
        #expect(!pressure.isHeld)
        #expect(queue.yield(4) == .heldBack)
        #expect(queue.yield(5) == .enqueued)
        #expect(pressure.isHeld)
        var taken: [Int] = []
        for _ in 0..<3 { taken.append(await queue.next() ?? -1) }
        #expect(pressure.isHeld, "three left, more than half of four")
        taken.append(await queue.next() ?? -1)
        #expect(!pressure.isHeld, "two left: half of four")
        #expect(queue.yield(6) == .enqueued)
        queue.finish()
        while let element = await queue.next() { taken.append(element) }
        #expect(taken == Array(0..<7))
    }

    /// A queue that ends, or changes to a dropping overflow, releases the pressure it holds.
    @Test(arguments: [true, false])
    func endingOrDroppingReleasesThePressure(ends: Bool) {
        let pressure = ReadPressure()
        let queue = DeliveryQueue<Int>(capacity: 1, overflow: .backpressure(pressure))
        queue.yield(0)
        #expect(queue.yield(1) == .heldBack)
        if ends {
            queue.cancel()
        } else {
            queue.setOverflow(.dropNewest)
            #expect(queue.yield(2) == .dropped)
        }
        #expect(!pressure.isHeld)
    }
}
