import Synchronization
import Testing

@testable import Agent

/// `MosquittoEventLoop.afterCurrentJobs`: how the agent batches deliveries to its observers,
/// `afterCurrentJobsWithoutWaking`: how it cleans up after a request, and ``BusyPoll``: how
/// it waits for a response.
@Suite(.timeLimit(.minutes(1)))
struct MosquittoEventLoopTests {
    @Test
    func workDeferredFromAJobOnTheLoopRunsOnceTheJobHasRun() async throws {
        let loop = try MosquittoEventLoop()
        defer { loop.shutdown() }
        let order = Recorder<String>()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Task(executorPreference: loop) {
                loop.afterCurrentJobs {
                    order.append("deferred")
                    done.resume()
                }
                order.append("rest of the job")
            }
        }
        #expect(order.items == ["rest of the job", "deferred"])
    }

    @Test
    func workDeferredFromJobsRunsInTheOrderItWasDeferred() async throws {
        let loop = try MosquittoEventLoop()
        defer { loop.shutdown() }
        let order = Recorder<Int>()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Task(executorPreference: loop) {
                for number in 0..<100 {
                    loop.afterCurrentJobs { order.append(number) }
                    if number.isMultiple(of: 10) { await Task.yield() }  // spread over several jobs
                }
                loop.afterCurrentJobs { done.resume() }
            }
        }
        #expect(order.items == Array(0..<100))
    }

    @Test
    func workDeferredAwayFromTheLoopRunsAtOnce() throws {
        let loop = try MosquittoEventLoop()
        defer { loop.shutdown() }
        let ran = Recorder<Bool>()
        loop.afterCurrentJobs { ran.append(true) }
        #expect(ran.items == [true])
    }

    @Test
    func workDeferredWithoutWakingRunsOnTheLoopWhenItNextWakes() async throws {
        let loop = try MosquittoEventLoop()
        defer { loop.shutdown() }
        // Nothing wakes the loop here but its tick, at least once a second.
        let ranOnTheLoop = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            loop.afterCurrentJobsWithoutWaking { done.resume(returning: loop.isCurrentThread) }
        }
        #expect(ranOnTheLoop)
    }

    @Test
    func workDeferredWithoutWakingRunsBeforeTheJobsOfTheNextPass() async throws {
        let loop = try MosquittoEventLoop()
        defer { loop.shutdown() }
        let order = Recorder<String>()
        loop.afterCurrentJobsWithoutWaking { order.append("deferred") }
        // The job wakes the loop; it yields once, so its rest runs in the pass after the deferred work.
        await withTaskExecutorPreference(loop) {
            await Task.yield()
            order.append("job after a yield")
        }
        #expect(order.items == ["deferred", "job after a yield"])
    }

    @Test
    func workDeferredWithoutWakingAfterShutdownRunsAtOnce() throws {
        let loop = try MosquittoEventLoop()
        loop.shutdown()
        let ran = Recorder<Bool>()
        loop.afterCurrentJobsWithoutWaking { ran.append(true) }
        #expect(ran.items == [true])
    }

    @Test
    func aBusyPollWindowLastsAsLongAsAskedUpToASecond() throws {
        let loop = try MosquittoEventLoop()
        defer { loop.shutdown() }
        let claims = (0..<4).map { _ in BusyPoll(loop: loop) }
        claims[0].start(for: .zero)
        #expect(loop.waiting.pollsUntil == 0)
        #expect(loop.waiting.claimCount == 0)
        var before = WaitingStrategy.monotonicNanoseconds()
        claims[1].start(for: .milliseconds(20))
        var after = WaitingStrategy.monotonicNanoseconds()
        #expect((before + 20_000_000...after + 20_000_000).contains(loop.waiting.pollsUntil))
        before = WaitingStrategy.monotonicNanoseconds()
        claims[2].start(for: .seconds(3600))
        after = WaitingStrategy.monotonicNanoseconds()
        #expect((before + 1_000_000_000...after + 1_000_000_000).contains(loop.waiting.pollsUntil))
        // A shorter window inside the current one leaves it as it is.
        let end = loop.waiting.pollsUntil
        claims[3].start(for: .milliseconds(1))
        #expect(loop.waiting.pollsUntil == end)
        #expect(loop.waiting.claimCount == 3)
        for claim in claims { claim.end() }
        #expect(loop.waiting.claimCount == 0)
    }

    /// A claim opens once and closes once: a response faster than the caller ends it before it
    /// starts, and then it never starts; releasing an open claim closes it.
    @Test
    func aBusyPollClaimOpensAndClosesOnce() throws {
        let loop = try MosquittoEventLoop()
        defer { loop.shutdown() }
        let early = BusyPoll(loop: loop)
        early.end()
        early.start(for: .milliseconds(20))
        #expect(loop.waiting.claimCount == 0)
        #expect(loop.waiting.pollsUntil == 0)
        let twice = BusyPoll(loop: loop)
        twice.start(for: .milliseconds(20))
        twice.start(for: .milliseconds(20))
        #expect(loop.waiting.claimCount == 1)
        twice.end()
        twice.end()
        #expect(loop.waiting.claimCount == 0)
        do {
            let released = BusyPoll(loop: loop)
            released.start(for: .milliseconds(20))
            withExtendedLifetime(released) { #expect(loop.waiting.claimCount == 1) }
        }
        #expect(loop.waiting.claimCount == 0)
    }
}

/// What deferred work recorded, from any thread.
private final class Recorder<Item: Sendable>: Sendable {
    private let storage = Mutex<[Item]>([])

    func append(_ item: Item) { storage.withLock { $0.append(item) } }

    var items: [Item] { storage.withLock { $0 } }
}
