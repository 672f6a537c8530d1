@testable import Agent
import TestSupport
import Testing

@Suite struct BackoffTests {
    @Test func delaysGrowExponentiallyUpToTheMaximum() {
        var backoff = Backoff(policy: ReconnectPolicy(initialDelay: .milliseconds(100), maximumDelay: .seconds(1), multiplier: 2, jitter: 0))
        var generator = SeededGenerator(seed: 0)
        let delays = (0..<6).compactMap { _ in backoff.nextDelay(using: &generator) }
        #expect(delays == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1), .seconds(1)])
    }

    @Test func resetStartsOver() {
        var backoff = Backoff(policy: ReconnectPolicy(initialDelay: .milliseconds(100), jitter: 0))
        var generator = SeededGenerator(seed: 0)
        _ = backoff.nextDelay(using: &generator)
        _ = backoff.nextDelay(using: &generator)
        backoff.reset()
        #expect(backoff.nextDelay(using: &generator) == .milliseconds(100))
    }

    @Test func boundedAttemptsEnd() {
        var backoff = Backoff(policy: ReconnectPolicy(jitter: 0, maximumAttempts: 2))
        var generator = SeededGenerator(seed: 0)
        #expect(backoff.nextDelay(using: &generator) != nil)
        #expect(backoff.nextDelay(using: &generator) != nil)
        #expect(backoff.nextDelay(using: &generator) == nil)
        #expect(ReconnectPolicy.never.maximumAttempts == 0)
    }

    @Test(arguments: [UInt64.min, UInt64.max / 2, UInt64.max])
    func jitterStaysWithinItsBounds(word: UInt64) throws {
        var backoff = Backoff(policy: ReconnectPolicy(initialDelay: .seconds(1), jitter: 0.2))
        var generator = SeededGenerator(seed: word)
        let next = backoff.nextDelay(using: &generator)
        let delay = try #require(next)
        #expect(delay >= .milliseconds(800))
        #expect(delay <= .milliseconds(1200))
    }

    @Test func policyClampsOutOfRangeValues() {
        let policy = ReconnectPolicy(initialDelay: .seconds(-1), maximumDelay: .seconds(-5), multiplier: 0.5, jitter: 3, maximumAttempts: -2)
        #expect(policy.initialDelay == .zero)
        #expect(policy.maximumDelay == .zero)
        #expect(policy.multiplier == 1)
        #expect(policy.jitter == 1)
        #expect(policy.maximumAttempts == 0)
    }
}
