import CoreTypes
import Testing

@testable import Agent

/// The pacing of an IO source's values by its update strategy and recommended rate, on explicit
/// times (no clock, no sleep), as coaty-js's IoSourceController paces them.
struct IoSourcePacerTests {
    static let associated = IoState(hasAssociations: true)
    static func rate(_ milliseconds: Double) -> IoState { IoState(hasAssociations: true, updateRate: milliseconds) }
    static func at(_ milliseconds: Int) -> Duration { .milliseconds(milliseconds) }

    @Test func valuesAreDroppedWhileNotAssociated() {
        var pacer = IoSourcePacer()
        #expect(pacer.value(.json(1), now: Self.at(0)).isEmpty)
        _ = pacer.update(IoState(hasAssociations: false), strategy: nil, now: Self.at(0))
        #expect(pacer.value(.json(2), now: Self.at(5)).isEmpty)
    }

    @Test(arguments: [nil, IoSourceBackpressureStrategy.default, .noBackpressure, .sample, .throttle])
    func withoutARateEveryValueGoesOutAtOnce(strategy: IoSourceBackpressureStrategy?) {
        var pacer = IoSourcePacer()
        #expect(pacer.update(Self.associated, strategy: strategy, now: Self.at(0)).isEmpty)
        #expect(pacer.value(.json(1), now: Self.at(1)) == [.publish(.json(1))])
        #expect(pacer.value(.json(2), now: Self.at(1)) == [.publish(.json(2))])
    }

    @Test func noBackpressureIgnoresTheRate() {
        var pacer = IoSourcePacer()
        #expect(pacer.update(Self.rate(100), strategy: .noBackpressure, now: Self.at(0)).isEmpty)
        #expect(pacer.value(.json(1), now: Self.at(1)) == [.publish(.json(1))])
    }

    @Test(arguments: [nil, IoSourceBackpressureStrategy.default, .sample])
    func samplingSendsTheLatestValueOfEachPeriod(strategy: IoSourceBackpressureStrategy?) {
        var pacer = IoSourcePacer()
        #expect(pacer.update(Self.rate(100), strategy: strategy, now: Self.at(0)) == [.wake(at: Self.at(100))])
        #expect(pacer.value(.json(1), now: Self.at(10)).isEmpty)
        #expect(pacer.value(.json(2), now: Self.at(60)).isEmpty)
        #expect(pacer.tick(now: Self.at(100)) == [.publish(.json(2)), .wake(at: Self.at(200))])
        // A period without values sends nothing; a late tick catches up with the period.
        #expect(pacer.tick(now: Self.at(200)) == [.wake(at: Self.at(300))])
        #expect(pacer.value(.json(3), now: Self.at(250)).isEmpty)
        #expect(pacer.tick(now: Self.at(420)) == [.publish(.json(3)), .wake(at: Self.at(500))])
        // An early tick changes nothing.
        #expect(pacer.tick(now: Self.at(450)) == [.wake(at: Self.at(500))])
    }

    @Test func throttleSendsAValueOnlyAfterAQuietPeriod() {
        var pacer = IoSourcePacer()
        #expect(pacer.update(Self.rate(100), strategy: .throttle, now: Self.at(0)).isEmpty)
        #expect(pacer.value(.json(1), now: Self.at(0)) == [.wake(at: Self.at(100))])
        #expect(pacer.value(.json(2), now: Self.at(50)) == [.wake(at: Self.at(150))])
        #expect(pacer.tick(now: Self.at(100)) == [.wake(at: Self.at(150))])
        #expect(pacer.tick(now: Self.at(150)) == [.publish(.json(2))])
        #expect(pacer.tick(now: Self.at(300)).isEmpty)
    }

    @Test func aNewStateStartsOverAndDropsTheWaitingValue() {
        var pacer = IoSourcePacer()
        _ = pacer.update(Self.rate(100), strategy: .throttle, now: Self.at(0))
        _ = pacer.value(.json(1), now: Self.at(0))
        #expect(pacer.update(Self.rate(200), strategy: .throttle, now: Self.at(20)).isEmpty)
        #expect(pacer.tick(now: Self.at(100)).isEmpty)
        #expect(pacer.update(IoState(hasAssociations: false), strategy: .sample, now: Self.at(30)).isEmpty)
        #expect(pacer.mode == .unassociated)
    }

    @Test func anUnchangedStateIsNotNewSoTheControllerKeepsThePacing() {
        var pacer = IoSourcePacer()
        #expect(pacer.isNew(Self.rate(100)), "the first state is new")
        _ = pacer.update(Self.rate(100), strategy: .throttle, now: Self.at(0))
        #expect(!pacer.isNew(Self.rate(100)), "a repeated Associate with the same rate")
        #expect(pacer.isNew(Self.rate(200)))
        #expect(pacer.isNew(IoState(hasAssociations: false)))
    }
}
