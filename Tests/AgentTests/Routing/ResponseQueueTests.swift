import Synchronization
import Testing

@testable import Agent

/// `ResponseQueue`: the buffer between the agent and the task iterating a request's responses.
@Suite(.timeLimit(.minutes(1)))
struct ResponseQueueTests {
    /// Counts how often a termination handler ran.
    final class Terminations: Sendable {
        private let count = Atomic(0)
        var value: Int { count.load(ordering: .relaxed) }
        func handler() -> @Sendable () -> Void { { self.count.add(1, ordering: .relaxed) } }
    }

    @Test
    func elementsComeOutInOrderWhetherTheConsumerWaitsOrNot() async {
        let queue = ResponseQueue<Int>(capacity: 10)
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
    func elementsBeyondTheCapacityAreDroppedUntilTheConsumerTakesSome() async {
        let queue = ResponseQueue<Int>(capacity: 2)
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
        let queue = ResponseQueue<Int>(capacity: 10)
        queue.setOnTermination(terminations.handler())
        queue.yield(1)
        queue.finish(failure: AgentError(code: .stopped, detail: "first"))
        queue.finish(failure: AgentError(code: .subscribeFailed, detail: "second"))
        #expect(queue.yield(2) == .finished)
        #expect(await queue.next() == 1)
        #expect(await queue.next() == nil)
        #expect(await queue.next() == nil)
        #expect(queue.failure?.code == .stopped)
        #expect(terminations.value == 1)
    }

    @Test
    func finishingEndsAWaitingConsumer() async {
        let queue = ResponseQueue<Int>(capacity: 10)
        let waiting = Task { await queue.next() }
        queue.finish()
        #expect(await waiting.value == nil)
        #expect(queue.failure == nil)
    }

    @Test
    func cancellingTheConsumersTaskEndsTheQueueAndDropsWhatIsBuffered() async {
        let terminations = Terminations()
        let queue = ResponseQueue<Int>(capacity: 10)
        queue.setOnTermination(terminations.handler())
        let waiting = Task { await queue.next() }
        waiting.cancel()
        #expect(await waiting.value == nil)
        #expect(queue.yield(1) == .finished)
        #expect(terminations.value == 1)

        let buffered = ResponseQueue<Int>(capacity: 10)
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
        let queue = ResponseQueue<Int>(capacity: 10)
        queue.setOnTermination(terminations.handler())
        var consumer: ResponseQueue<Int>.Consumer? = ResponseQueue.Consumer(queue)
        var copy = consumer
        consumer = nil
        #expect(terminations.value == 0)
        #expect(copy?.queue.yield(1) == .enqueued)
        copy = nil
        #expect(terminations.value == 1)
        #expect(queue.yield(2) == .finished)
        #expect(await queue.next() == nil)
    }

    @Test
    func aHandlerSetAfterTheEndRunsAtOnce() {
        let terminations = Terminations()
        let queue = ResponseQueue<Int>(capacity: 1)
        queue.setOnTermination(terminations.handler())
        #expect(terminations.value == 0)
        queue.finish()
        #expect(terminations.value == 1)
        queue.setOnTermination(terminations.handler())
        #expect(terminations.value == 2)
    }
}
