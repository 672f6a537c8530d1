@testable import Agent
import Testing

@Suite struct RequestDeadlinesTests {
    let start = ContinuousClock.now

    func at(_ seconds: Int) -> ContinuousClock.Instant { start.advanced(by: .seconds(seconds)) }

    /// Plans a timer the way the agent does.
    func plan(_ deadlines: inout RequestDeadlines, _ id: ObserverID, _ seconds: Int) -> Bool {
        let mustStart = deadlines.add(id, deadline: at(seconds))
        if mustStart { _ = deadlines.planTimer(wakingAt: at(seconds)) }
        return mustStart
    }

    @Test func theFirstRequestStartsTheTimerAndLaterDeadlinesDoNot() {
        var deadlines = RequestDeadlines()
        #expect(plan(&deadlines, 1, 5))
        #expect(!plan(&deadlines, 2, 6))
        #expect(!plan(&deadlines, 3, 5))
        #expect(deadlines.plannedWakeUp == at(5))
    }

    @Test func anEarlierDeadlineRestartsTheTimer() {
        var deadlines = RequestDeadlines()
        #expect(plan(&deadlines, 1, 5))
        let generation = deadlines.generation
        #expect(plan(&deadlines, 2, 1))
        #expect(deadlines.plannedWakeUp == at(1))
        #expect(deadlines.generation == generation + 1)
    }

    @Test func expiryReturnsWhatPassedInDeadlineOrderAndPlansTheNext() {
        var deadlines = RequestDeadlines()
        _ = plan(&deadlines, 1, 3)
        _ = plan(&deadlines, 2, 1)
        _ = plan(&deadlines, 3, 2)
        _ = plan(&deadlines, 4, 9)
        let (expired, next) = deadlines.expire(now: at(2), generation: deadlines.generation)
        #expect(expired == [2, 3])
        #expect(next == at(3))
        #expect(deadlines.count == 2)
    }

    @Test func endedRequestsNeitherExpireNorKeepTheTimerAwake() {
        var deadlines = RequestDeadlines()
        _ = plan(&deadlines, 1, 1)
        _ = plan(&deadlines, 2, 2)
        _ = plan(&deadlines, 3, 7)
        deadlines.remove(1)
        deadlines.remove(2)
        let (expired, next) = deadlines.expire(now: at(1), generation: deadlines.generation)
        #expect(expired.isEmpty)
        #expect(next == at(7))
    }

    @Test func theTimerEndsWhenNothingIsPending() {
        var deadlines = RequestDeadlines()
        _ = plan(&deadlines, 1, 1)
        let (expired, next) = deadlines.expire(now: at(1), generation: deadlines.generation)
        #expect(expired == [1])
        #expect(next == nil)
        #expect(deadlines.plannedWakeUp == nil)
        #expect(plan(&deadlines, 2, 4))
    }

    @Test func aReplacedTimerExpiresNothing() {
        var deadlines = RequestDeadlines()
        _ = plan(&deadlines, 1, 5)
        let old = deadlines.generation
        _ = plan(&deadlines, 2, 1)
        let (expired, next) = deadlines.expire(now: at(10), generation: old)
        #expect(expired.isEmpty)
        #expect(next == nil)
        #expect(deadlines.count == 2)
    }

    @Test func manyEndedRequestsAreCompactedAway() {
        var deadlines = RequestDeadlines()
        _ = plan(&deadlines, 0, 1_000)
        for id in 1...1_000 {
            _ = plan(&deadlines, id, 5)
            deadlines.remove(id)
        }
        #expect(deadlines.count == 1)
        let (expired, next) = deadlines.expire(now: at(999), generation: deadlines.generation)
        #expect(expired.isEmpty)
        #expect(next == at(1_000))
    }
}
