import Synchronization
import Testing

@testable import Agent

@Suite(.timeLimit(.minutes(1)))
struct ControllerTasksTests {
    @Test func jobsAddedBeforeRunWaitForIt() async {
        let tasks = ControllerTasks()
        let (done, finished) = AsyncStream.makeStream(of: Int.self)
        #expect(tasks.add { finished.yield(1) })
        #expect(tasks.add { finished.yield(2) })
        await withDiscardingTaskGroup { group in
            group.addTask { await tasks.run() }
            var seen: Set<Int> = []
            for await value in done {
                seen.insert(value)
                if seen == [1, 2] { break }
            }
            tasks.finish()
        }
        #expect(tasks.isFinished)
    }

    @Test func finishingCancelsRunningJobsAndRefusesNewOnes() async {
        let tasks = ControllerTasks()
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let (ended, end) = AsyncStream.makeStream(of: Bool.self)
        tasks.add {
            start.yield()
            let (never, _) = AsyncStream.makeStream(of: Void.self)
            for await _ in never {}
            end.yield(Task.isCancelled)
        }
        await withDiscardingTaskGroup { group in
            group.addTask { await tasks.run() }
            for await _ in started { break }
            tasks.finish()
        }
        var iterator = ended.makeAsyncIterator()
        #expect(await iterator.next() == true, "the job was cancelled")
        #expect(!tasks.add {})
    }

    @Test func aSecondRunReturnsAtOnce() async {
        let tasks = ControllerTasks()
        let (running, isRunning) = AsyncStream.makeStream(of: Void.self)
        tasks.add { isRunning.yield() }
        await withDiscardingTaskGroup { group in
            group.addTask { await tasks.run() }
            for await _ in running { break }  // the first run() is running the job
            await tasks.run()  // so this one returns at once
            tasks.finish()
        }
        #expect(tasks.isFinished)
    }

    @Test func raceEndsTheBodyWhenTheSignalFinishes() async {
        let (signal, stop) = AsyncStream.makeStream(of: Void.self)
        let wasCancelled = Mutex(false)
        stop.finish()
        await race(
            {
                let (never, _) = AsyncStream.makeStream(of: Void.self)
                for await _ in never {}
                wasCancelled.withLock { $0 = Task.isCancelled }
            }, until: signal)
        #expect(wasCancelled.withLock { $0 })
    }
}
