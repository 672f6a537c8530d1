import CoreTypes
import Testing

@testable import Agent

/// The connection's state machine, driven event by event: no broker, no clock, no task.
@Suite struct ConnectionStateMachineTests {
    typealias Action = ConnectionStateMachine.Action

    static let join = Publication(topic: "coaty/3/-/ADV:Identity/me", payload: Array("{}".utf8))
    static let start = ContinuousClock.now

    static func machine(
        maximumQueued: Int = 10, reconnect: ReconnectPolicy = ReconnectPolicy(jitter: 0, maximumAttempts: 2)
    ) -> ConnectionStateMachine {
        ConnectionStateMachine(
            joinPublications: [join],
            offlineQueue: OfflineQueue(limits: .init(maximumCount: maximumQueued, maximumBytes: 1 << 20), policy: .dropOldest),
            backoff: Backoff(policy: reconnect))
    }

    static func publication(_ number: Int) -> Publication {
        Publication(topic: "coaty/3/-/CHN:n/me", payload: Array("\(number)".utf8))
    }

    static func at(_ seconds: Int) -> ContinuousClock.Instant { start.advanced(by: .seconds(seconds)) }

    static func error(_ text: String) -> AgentError { AgentError(code: .connectionFailed, detail: text) }

    /// A machine that is online, with `filters` subscribed and acknowledged.
    static func online(with filters: [String] = []) -> ConnectionStateMachine {
        var machine = machine()
        let r1 = machine.start()
        #expect(r1)
        for filter in filters { _ = machine.addSubscription(filter) }
        _ = machine.connected()
        if !filters.isEmpty {
            _ = machine.subscribeSent(MQTTMessageID(rawValue: 1), filters: filters, isResubscription: true)
            _ = machine.subscribed(MQTTMessageID(rawValue: 1), granted: filters.map { _ in 0 })
        }
        return machine
    }

    // MARK: - Connecting

    @Test func theFirstCONNACKSubscribesAdvertisesAndSendsWhatWasQueuedInOrder() {
        var machine = Self.machine()
        let r2 = machine.start()
        #expect(r2)
        let r3 = machine.start()
        #expect(!r3, "run() once only")
        #expect(machine.connectionState == .connecting)
        _ = machine.addSubscription("a/#")
        let r4 = machine.send(Self.publication(1))
        #expect(r4 == .queued(dropped: 0))
        let r5 = machine.send(Self.publication(2))
        #expect(r5 == .queued(dropped: 0))
        let actions = machine.connected()
        #expect(
            actions == [
                .subscribe(["a/#"], isResubscription: true), .publish(Self.join), .publish(Self.publication(1)),
                .publish(Self.publication(2)), .announce(.online),
            ])
        #expect(machine.connectionState == .online)
        let r6 = machine.send(Self.publication(3))
        #expect(r6 == .publish)
    }

    @Test func refusedCredentialsStopTheAgentWithTheError() {
        var machine = Self.machine()
        _ = machine.start()
        let r7 = machine.refused(Self.error("bad password"), isFinal: true)
        #expect(r7 == [.close])
        #expect(machine.isStopped)
        #expect(machine.finalError?.detail == "bad password")
        #expect(!machine.isStopRequested)
    }

    @Test func aRefusalThatIsNotFinalKeepsRetrying() {
        var machine = Self.machine()
        _ = machine.start()
        let r8 = machine.refused(Self.error("server unavailable"), isFinal: false)
        #expect(r8.isEmpty)
        let r9 = machine.disconnected(nil)
        #expect(r9 == [.announce(.connecting), .scheduleReconnect])
        var generator = SystemRandomNumberGenerator()
        let r10 = machine.nextReconnectDelay(using: &generator)
        #expect(r10 != nil)
        let r11 = machine.nextReconnectDelay(using: &generator)
        #expect(r11 != nil)
        let r12 = machine.nextReconnectDelay(using: &generator)
        #expect(r12 == nil, "the policy allows two attempts")
        let r13 = machine.gaveUp(Self.error("gave up"))
        #expect(r13 == [.close])
        #expect(machine.finalError?.detail == "gave up")
    }

    @Test func aFailedConnectRecordsItsErrorUntilTheNextCONNACK() {
        var machine = Self.machine()
        _ = machine.start()
        machine.connectFailed(Self.error("no route"))
        #expect(machine.finalError?.detail == "no route")
        _ = machine.connected()
        #expect(machine.finalError == nil)
    }

    // MARK: - Subscriptions

    @Test func anObserverOnlineSubscribesOnceAndWaitsForTheSUBACK() {
        var machine = Self.online()
        let first = machine.addSubscription("a/+")
        #expect(first.actions == [.subscribe(["a/+"], isResubscription: false)])
        #expect(first.mustWait)
        let second = machine.addSubscription("a/+")
        #expect(second.actions.isEmpty, "one SUBSCRIBE per filter")
        let r14 = machine.wait(7, forAcknowledgementOf: "a/+")
        #expect(r14)
        let r15 = machine.subscribeSent(MQTTMessageID(rawValue: 5), filters: ["a/+"], isResubscription: false)
        #expect(r15.isEmpty)
        let r16 = machine.subscribed(MQTTMessageID(rawValue: 5), granted: [0])
        #expect(r16 == [.resume([7])])
        #expect(machine.isAcknowledged("a/+"))
        let r17 = machine.wait(8, forAcknowledgementOf: "a/+")
        #expect(!r17, "nothing to wait for once acknowledged")
        let r18 = machine.removeSubscription("a/+")
        #expect(r18.isEmpty, "one user left")
        let r19 = machine.removeSubscription("a/+")
        #expect(r19 == [.unsubscribe("a/+")])
    }

    /// The network thread may read the SUBACK before the sending thread reports the SUBSCRIBE's id.
    @Test func aSUBACKBeforeItsMessageIdIsKnownIsMatchedLater() {
        var machine = Self.online()
        _ = machine.addSubscription("early/#")
        let r20 = machine.wait(3, forAcknowledgementOf: "early/#")
        #expect(r20)
        let r21 = machine.subscribed(MQTTMessageID(rawValue: 9), granted: [1])
        #expect(r21.isEmpty)
        let r22 = machine.subscribeSent(MQTTMessageID(rawValue: 9), filters: ["early/#"], isResubscription: false)
        #expect(r22 == [.resume([3])])
        #expect(machine.isAcknowledged("early/#"))
    }

    @Test func aRefusedSubscriptionIsReportedAndItsWaitersLearnTheCode() {
        var machine = Self.online()
        _ = machine.addSubscription("denied/#")
        let r23 = machine.wait(4, forAcknowledgementOf: "denied/#")
        #expect(r23)
        _ = machine.subscribeSent(MQTTMessageID(rawValue: 2), filters: ["denied/#"], isResubscription: false)
        let actions = machine.subscribed(MQTTMessageID(rawValue: 2), granted: [0x80])
        #expect(actions == [.refused(filter: "denied/#", code: 0x80, isResubscription: false), .resume([4])])
        #expect(machine.refusal(of: "denied/#") == 0x80)
        let r24 = machine.wait(5, forAcknowledgementOf: "denied/#")
        #expect(!r24, "a refused filter has nothing more to wait for")
    }

    @Test func aCancelledWaiterIsRemovedAndNotResumedAgain() {
        var machine = Self.online()
        _ = machine.addSubscription("slow/#")
        let r25 = machine.wait(6, forAcknowledgementOf: "slow/#")
        #expect(r25)
        let r26 = machine.removeWaiter(6, of: "slow/#")
        #expect(r26)
        let r27 = machine.removeWaiter(6, of: "slow/#")
        #expect(!r27)
        _ = machine.subscribeSent(MQTTMessageID(rawValue: 3), filters: ["slow/#"], isResubscription: false)
        let r28 = machine.subscribed(MQTTMessageID(rawValue: 3), granted: [0])
        #expect(r28.isEmpty)
    }

    @Test func aFailedSUBSCRIBEReleasesItsWaiters() {
        var machine = Self.online()
        _ = machine.addSubscription("x/#")
        let r29 = machine.wait(2, forAcknowledgementOf: "x/#")
        #expect(r29)
        let r30 = machine.subscribeFailed(filters: ["x/#"])
        #expect(r30 == [.resume([2])])
        #expect(machine.refusal(of: "x/#") == nil)
    }

    /// Observers and requests survive a lost connection: waiters resume at once, the next CONNACK
    /// resubscribes every filter (acknowledgements of the old connection are gone), and what was
    /// published meanwhile goes out after the identity.
    @Test func aReconnectResubscribesEverythingWithObserversAndRequestsPending() {
        var machine = Self.online(with: ["a/#"])
        _ = machine.addSubscription("b/#")
        let r31 = machine.wait(1, forAcknowledgementOf: "b/#")
        #expect(r31)
        let request = machine.startRequest(
            10, correlationIDs: ["c1"], ownFilters: ["r/c1"], sharedFilter: nil, isPipelined: true,
            publications: [Self.publication(0)], deadline: Self.at(5))
        #expect(request.actions == [.subscribe(["r/c1"], isResubscription: false), .publish(Self.publication(0))])
        let r32 = machine.disconnected(Self.error("connection lost"))
        #expect(r32 == [.resume([1]), .announce(.offline), .scheduleReconnect])
        #expect(machine.connectionState == .offline)
        #expect(!machine.isAcknowledged("a/#"))
        let r33 = machine.send(Self.publication(1))
        #expect(r33 == .queued(dropped: 0))
        let actions = machine.connected()
        #expect(
            actions == [
                .subscribe(["a/#", "b/#", "r/c1"], isResubscription: true), .publish(Self.join), .publish(Self.publication(1)),
                .announce(.online),
            ])
        #expect(machine.requests.contains(10), "the request goes on")
    }

    @Test func aFullOfflineQueueDropsTheOldestAndSaysHowMany() {
        var machine = Self.machine(maximumQueued: 2)
        _ = machine.start()
        let r34 = machine.send(Self.publication(1))
        #expect(r34 == .queued(dropped: 0))
        let r35 = machine.send(Self.publication(2))
        #expect(r35 == .queued(dropped: 0))
        let r36 = machine.send(Self.publication(3))
        #expect(r36 == .queued(dropped: 1))
        let actions = machine.connected()
        #expect(actions.filter { if case .publish = $0 { true } else { false } }.count == 3, "the identity and two")
    }

    // MARK: - Requests

    @Test func aRequestThatWaitsForItsSUBACKIsPublishedOnlyAfterIt() {
        var machine = Self.online()
        let start = machine.startRequest(
            1, correlationIDs: ["c"], ownFilters: ["r/c"], sharedFilter: nil, isPipelined: false,
            publications: [Self.publication(1)], deadline: Self.at(5))
        #expect(start.actions == [.subscribe(["r/c"], isResubscription: false)])
        #expect(start.mustWait == ["r/c"])
        #expect(start.timerGeneration != nil)
        // The driver publishes it once the SUBACK came, as any publication.
        let r37 = machine.send(Self.publication(1))
        #expect(r37 == .publish)
    }

    /// A pipelined request goes out right behind its SUBSCRIBE; a refusal of its response
    /// subscription, known only from the SUBACK, ends it.
    @Test func aRefusedResponseSubscriptionEndsAPipelinedRequest() {
        var machine = Self.online()
        let start = machine.startRequest(
            1, correlationIDs: ["c"], ownFilters: ["r/c"], sharedFilter: nil, isPipelined: true,
            publications: [Self.publication(1)], deadline: Self.at(5))
        #expect(start.actions == [.subscribe(["r/c"], isResubscription: false), .publish(Self.publication(1))])
        #expect(start.mustWait.isEmpty)
        _ = machine.subscribeSent(MQTTMessageID(rawValue: 4), filters: ["r/c"], isResubscription: false)
        #expect(
            machine.subscribed(MQTTMessageID(rawValue: 4), granted: [0x87]) == [
                .refused(filter: "r/c", code: 0x87, isResubscription: false),
                .finish(1, .subscriptionRefused(filter: "r/c", code: 0x87)),
            ])
        let ended = machine.endRequest(1)
        #expect(ended?.request.correlationIDs == ["c"])
        #expect(ended?.actions == [.unsubscribe("r/c")])
    }

    @Test func requestsTimeOutInDeadlineOrderAndEndOnce() {
        var machine = Self.online()
        let first = machine.startRequest(
            1, correlationIDs: ["a"], ownFilters: ["r/a"], sharedFilter: nil, isPipelined: true, publications: [],
            deadline: Self.at(3))
        let second = machine.startRequest(
            2, correlationIDs: ["b"], ownFilters: ["r/b"], sharedFilter: nil, isPipelined: true, publications: [],
            deadline: Self.at(1))
        let generation = second.timerGeneration ?? first.timerGeneration ?? 0
        #expect(second.timerGeneration != nil, "an earlier deadline replaces the timer")
        let (expired, next) = machine.expireRequests(now: Self.at(2), generation: generation)
        #expect(expired == [.finish(2, .timedOut)])
        #expect(next == Self.at(3))
        // A response after the timeout finds the request still routed until its clean-up; then it is gone.
        #expect(machine.requests.contains(2))
        let r38 = machine.endRequest(2)
        #expect(r38?.actions == [.unsubscribe("r/b")])
        let r39 = machine.endRequest(2)
        #expect(r39 == nil, "ended once")
        let r40 = machine.expireRequests(now: Self.at(9), generation: generation)
        #expect(r40.actions == [.finish(1, .timedOut)])
    }

    @Test func aSharedResponseFilterIsSubscribedOnceAndKept() {
        var machine = Self.online()
        let first = machine.startRequest(
            1, correlationIDs: ["a"], ownFilters: ["r/a"], sharedFilter: "r/+", isPipelined: true, publications: [],
            deadline: Self.at(3))
        #expect(first.actions == [.subscribe(["r/+"], isResubscription: false)])
        let second = machine.startRequest(
            2, correlationIDs: ["b"], ownFilters: ["r/b"], sharedFilter: "r/+", isPipelined: true, publications: [],
            deadline: Self.at(3))
        #expect(second.actions.isEmpty)
        let r41 = machine.endRequest(1)
        #expect(r41?.actions == [])
        let r42 = machine.endRequest(2)
        #expect(r42?.actions == [])
        #expect(machine.subscriptions.filters == ["r/+"])
    }

    // MARK: - Stopping

    @Test func stoppingOnlineDeadvertisesThenDisconnectsAfterItsPUBACK() {
        var machine = Self.online()
        let r43 = machine.stop()
        #expect(r43 == [.announce(.stopped), .deadvertise])
        #expect(!machine.isRunning)
        let r44 = machine.stop()
        #expect(r44.isEmpty, "once")
        let r45 = machine.acknowledged(MQTTMessageID(rawValue: 40))
        #expect(r45.isEmpty, "another PUBACK")
        let r46 = machine.deadvertiseSent(MQTTMessageID(rawValue: 41))
        #expect(r46.isEmpty)
        let r47 = machine.acknowledged(MQTTMessageID(rawValue: 41))
        #expect(r47 == [.disconnect])
        #expect(machine.isStopRequested)
    }

    @Test func aPUBACKBeforeTheDeadvertisesIdIsKnownStillDisconnects() {
        var machine = Self.online()
        _ = machine.stop()
        let r48 = machine.acknowledged(MQTTMessageID(rawValue: 8))
        #expect(r48.isEmpty)
        let r49 = machine.deadvertiseSent(MQTTMessageID(rawValue: 8))
        #expect(r49 == [.disconnect])
    }

    @Test func aDeadvertiseThatCannotBeSentCloses() {
        var machine = Self.online()
        _ = machine.stop()
        let r50 = machine.deadvertiseSent(nil)
        #expect(r50 == [.close])
    }

    /// Stopping in any phase but online closes at once and is graceful: no error is left.
    @Test(arguments: ["idle", "connecting", "offline"])
    func stoppingWhileNotOnlineClosesGracefully(phase: String) {
        var machine = Self.machine()
        if phase != "idle" { _ = machine.start() }
        if phase == "offline" {
            _ = machine.connected()
            _ = machine.disconnected(Self.error("lost"))
            #expect(machine.finalError != nil)
        }
        let r51 = machine.stop()
        #expect(r51 == [.announce(.stopped), .close])
        #expect(machine.isStopped)
        #expect(machine.finalError == nil)
        #expect(machine.isStopRequested)
        let r52 = machine.disconnected(nil)
        #expect(r52 == [.close], "a late disconnect does not reconnect")
    }

    @Test func theEndFinishesEveryRequestAndResumesEveryWaiter() {
        var machine = Self.online()
        _ = machine.addSubscription("w/#")
        let r53 = machine.wait(3, forAcknowledgementOf: "w/#")
        #expect(r53)
        _ = machine.startRequest(
            1, correlationIDs: ["a"], ownFilters: ["r/a"], sharedFilter: nil, isPipelined: true, publications: [],
            deadline: Self.at(3))
        let r54 = machine.finishAll()
        #expect(r54 == [.finish(1, .agentStopped), .resume([3])])
        #expect(machine.requests.count == 0)
        let r55 = machine.connected()
        #expect(r55.isEmpty, "nothing happens after the end")
    }
}
