import CoreTypes

/// Why the agent ends an observation or a request from its side.
enum FinishReason: Equatable, Sendable {
    case agentStopped
    case timedOut
    /// The broker refused the subscription to the request's responses.
    case subscriptionRefused(filter: String, code: Int32)
}

/// The agent's connection and everything that depends on it, without I/O, clocks or tasks.
///
/// Each event is a `mutating` function that returns the actions to carry out, in order; ``Agent``
/// calls them under its lock and carries the actions out after releasing it. The phase is an enum
/// whose cases carry what exists only in them: the acknowledgements of the current connection
/// live in ``Session`` and are gone with it.
struct ConnectionStateMachine {
    enum Phase {
        case idle
        /// Connecting, before the first CONNACK.
        case connecting
        case online(Session)
        /// The connection was lost (or an attempt failed) after the first; retrying.
        case offline
        /// Stopping gracefully: waiting for the acknowledgement of the Deadvertise.
        case stopping(Stopping)
        case stopped
    }

    /// What exists only while connected: the state of each subscription on this connection.
    struct Session {
        /// Filters the broker acknowledged.
        var acknowledged: Set<String> = []
        /// Filters the broker refused, with the SUBACK code.
        var refused: [String: Int32] = [:]
        /// SUBSCRIBEs sent, waiting for their SUBACK, by message id.
        var pending: [MQTTMessageID: (filters: [String], isResubscription: Bool)] = [:]
        /// SUBACKs that arrived before the SUBSCRIBE's message id was known (the network thread
        /// can read the SUBACK before the sending thread reports the id).
        var early: [MQTTMessageID: [Int32]] = [:]
    }

    /// The graceful stop: the Deadvertise's message id once known, and the acknowledgements seen.
    struct Stopping {
        var deadvertiseID: MQTTMessageID?
        var acknowledgedIDs: Set<MQTTMessageID> = []
    }

    /// What the driver does, in this order, after releasing its lock.
    enum Action: Equatable {
        /// SUBSCRIBE (report its message id with ``subscribeSent(_:filters:isResubscription:)``,
        /// or ``subscribeFailed(filters:)``).
        case subscribe([String], isResubscription: Bool)
        case unsubscribe(String)
        /// PUBLISH (on failure, hand it back with ``publishFailed(_:)``).
        case publish(Publication)
        /// The graceful stop's Deadvertise and the UNSUBSCRIBE that confirms it was read (report
        /// that packet's id with ``deadvertiseSent(_:)``).
        case deadvertise
        case disconnect
        /// Close the socket without DISCONNECT.
        case close
        /// Wait out the backoff, then connect again (``nextReconnectDelay(using:)``).
        case scheduleReconnect
        /// Resume these waiters for a SUBACK; each then asks ``refusal(of:)``.
        case resume([ObserverID])
        case finish(ObserverID, FinishReason)
        /// Tell the connection-state observers.
        case announce(ConnectionState)
        /// The broker refused a filter (count it, log it).
        case refused(filter: String, code: Int32, isResubscription: Bool)
        /// The full offline queue dropped publications (count them).
        case droppedOffline(Int)
    }

    /// What became of a publication.
    enum Sending: Equatable {
        /// Online: publish it now.
        case publish
        /// Offline: queued (with older ones dropped to make room), or refused by the full queue.
        case queued(dropped: Int)
    }

    private(set) var phase = Phase.idle
    private(set) var subscriptions = SubscriptionTable()
    private(set) var requests = RequestTable()
    /// The response filters held for good (``Agent/ResponseSubscription/namespaceWide``).
    private(set) var sharedResponseFilters: Set<String> = []
    private(set) var offlineQueue: OfflineQueue<Publication>
    private(set) var backoff: Backoff
    /// Why the agent ended, when it did not end gracefully.
    private(set) var finalError: AgentError?
    /// Whether graceful shutdown or cancellation asked the agent to stop.
    private(set) var isStopRequested = false
    /// Who waits for the SUBACK of each filter.
    private var waiters: [String: Set<ObserverID>] = [:]
    /// The identity's Advertise and the IO nodes', published on every CONNACK.
    let joinPublications: [Publication]

    init(joinPublications: [Publication], offlineQueue: OfflineQueue<Publication>, backoff: Backoff) {
        self.joinPublications = joinPublications
        self.offlineQueue = offlineQueue
        self.backoff = backoff
    }

    // MARK: - Phase

    var connectionState: ConnectionState {
        switch phase {
        case .idle: .idle
        case .connecting: .connecting
        case .online: .online
        case .offline: .offline
        case .stopping, .stopped: .stopped
        }
    }

    var isOnline: Bool {
        if case .online = phase { return true }
        return false
    }

    /// Whether the agent still takes publications, observers and requests.
    var isRunning: Bool {
        switch phase {
        case .stopping, .stopped: false
        default: true
        }
    }

    var isStopped: Bool {
        if case .stopped = phase { return true }
        return false
    }

    // MARK: - Connection events

    /// ``Agent/run()`` began; `false` when it had already.
    mutating func start() -> Bool {
        guard case .idle = phase else { return false }
        phase = .connecting
        return true
    }

    /// A connection attempt failed at once (no socket).
    mutating func connectFailed(_ error: AgentError) {
        if isRunning { finalError = error }
    }

    /// CONNACK accepted: resubscribe everything, advertise the identity, send what was queued.
    mutating func connected() -> [Action] {
        guard isRunning else { return [] }
        finalError = nil
        backoff.reset()
        var actions: [Action] = []
        let filters = subscriptions.filters
        if !filters.isEmpty { actions.append(.subscribe(filters, isResubscription: true)) }
        for publication in joinPublications { actions.append(.publish(publication)) }
        while let publication = offlineQueue.dequeue() { actions.append(.publish(publication)) }
        phase = .online(Session())
        actions.append(.announce(.online))
        return actions
    }

    /// CONNACK refused with `error`; a final refusal (credentials, authorisation) stops the agent.
    mutating func refused(_ error: AgentError, isFinal: Bool) -> [Action] {
        guard isRunning else { return [] }
        finalError = error
        guard isFinal else { return [] }
        phase = .stopped
        return [.close]
    }

    /// The connection is gone (`error` says why, `nil` for a clean disconnect).
    mutating func disconnected(_ error: AgentError?) -> [Action] {
        var actions = resumeAllWaiters()
        guard isRunning else { return actions + [.close] }
        if case .connecting = phase {} else { phase = .offline }
        if let error { finalError = error }
        actions.append(.announce(connectionState))
        actions.append(.scheduleReconnect)
        return actions
    }

    /// How long to wait before the next attempt; `nil` when the agent is stopping or the policy
    /// gave up (then call ``gaveUp(_:)``, unless stopping).
    mutating func nextReconnectDelay(using generator: inout some RandomNumberGenerator) -> Duration? {
        guard isRunning else { return nil }
        return backoff.nextDelay(using: &generator)
    }

    /// The reconnect policy gave up (or the agent was stopping anyway): the agent ends.
    mutating func gaveUp(_ error: AgentError) -> [Action] {
        if isRunning { finalError = error }
        phase = .stopped
        return [.close]
    }

    /// Graceful stop: deadvertise (when online), then disconnect.
    mutating func stop() -> [Action] {
        switch phase {
        case .stopping, .stopped:
            return []
        case .online:
            phase = .stopping(Stopping())
            isStopRequested = true
            return [.announce(.stopped), .deadvertise]
        case .idle, .connecting, .offline:
            // A stop while offline is still graceful: run() returns without an error.
            phase = .stopped
            isStopRequested = true
            finalError = nil
            return [.announce(.stopped), .close]
        }
    }

    /// The Deadvertise went out, confirmed by the packet with message id `id` (`nil`: it could not be sent).
    mutating func deadvertiseSent(_ id: MQTTMessageID?) -> [Action] {
        guard case .stopping(var stopping) = phase else { return [] }
        guard let id else { return [.close] }
        if stopping.acknowledgedIDs.contains(id) { return [.disconnect] }
        stopping.deadvertiseID = id
        phase = .stopping(stopping)
        return []
    }

    /// A packet was acknowledged (reported only while stopping): after the Deadvertise's confirmation, disconnect.
    mutating func acknowledged(_ id: MQTTMessageID) -> [Action] {
        guard case .stopping(var stopping) = phase else { return [] }
        if stopping.deadvertiseID == id { return [.disconnect] }
        stopping.acknowledgedIDs.insert(id)
        phase = .stopping(stopping)
        return []
    }

    /// The agent's task ended: every request ends (their finish actions) and every waiter resumes.
    mutating func finishAll() -> [Action] {
        phase = .stopped
        let ended = requests.removeAll().map { Action.finish($0, .agentStopped) }
        return ended + resumeAllWaiters()
    }

    // MARK: - Publications

    /// Publishes when online, else queues (the driver publishes on `.publish`).
    mutating func send(_ publication: Publication) -> Sending {
        if isOnline { return .publish }
        return queue(publication)
    }

    /// A publication that could not be handed to the transport: it waits for the next CONNACK.
    mutating func publishFailed(_ publication: Publication) -> [Action] {
        guard isRunning, case .queued(let dropped) = queue(publication), dropped > 0 else { return [] }
        return [.droppedOffline(dropped)]
    }

    private mutating func queue(_ publication: Publication) -> Sending {
        switch offlineQueue.enqueue(publication, bytes: publication.payload.count) {
        case .queued(let dropped): return .queued(dropped: dropped)
        case .refused: return .queued(dropped: 1)
        }
    }

    // MARK: - Subscriptions

    /// Adds one user of `filter`. Returns the actions (a SUBSCRIBE for the first user, when
    /// online) and whether to wait for its SUBACK (online and not acknowledged yet).
    mutating func addSubscription(_ filter: String) -> (actions: [Action], mustWait: Bool) {
        guard case .online(let session) = phase else {
            _ = subscriptions.add(filter)
            return ([], false)
        }
        let actions: [Action] = subscriptions.add(filter) == .subscribe(filter) ? [.subscribe([filter], isResubscription: false)] : []
        return (actions, !session.acknowledged.contains(filter))
    }

    /// Removes one user of `filter`; the last one sends UNSUBSCRIBE (when online).
    mutating func removeSubscription(_ filter: String) -> [Action] {
        guard case .unsubscribe = subscriptions.remove(filter) else { return [] }
        guard case .online(var session) = phase else { return [] }
        session.acknowledged.remove(filter)
        session.refused[filter] = nil
        phase = .online(session)
        return [.unsubscribe(filter)]
    }

    /// The SUBSCRIBE for `filters` went out with message id `id`.
    mutating func subscribeSent(_ id: MQTTMessageID, filters: [String], isResubscription: Bool) -> [Action] {
        guard case .online(var session) = phase else { return [] }
        if let granted = session.early.removeValue(forKey: id) {
            return acknowledge(filters, granted: granted, isResubscription: isResubscription, in: &session)
        }
        session.pending[id] = (filters, isResubscription)
        phase = .online(session)
        return []
    }

    /// The SUBSCRIBE for `filters` could not be sent: nobody waits for it (the next CONNACK
    /// resubscribes them).
    mutating func subscribeFailed(filters: [String]) -> [Action] {
        let resumed = filters.flatMap { waiters.removeValue(forKey: $0) ?? [] }
        return resumed.isEmpty ? [] : [.resume(resumed.sorted())]
    }

    /// SUBACK `id`: each filter is acknowledged or refused (0x80 or more). Refusals are reported,
    /// the pipelined requests they concern end, and the filters' waiters resume.
    mutating func subscribed(_ id: MQTTMessageID, granted: [Int32]) -> [Action] {
        guard case .online(var session) = phase else { return [] }
        guard let (filters, isResubscription) = session.pending.removeValue(forKey: id) else {
            session.early[id] = granted
            phase = .online(session)
            return []
        }
        return acknowledge(filters, granted: granted, isResubscription: isResubscription, in: &session)
    }

    private mutating func acknowledge(
        _ filters: [String], granted: [Int32], isResubscription: Bool, in session: inout Session
    ) -> [Action] {
        var resumed: [ObserverID] = []
        var refusals: [Action] = []
        var ended: [Action] = []
        for (index, filter) in filters.enumerated() {
            // Waiters resume also when the last user left meanwhile, so that nobody waits for ever.
            resumed += waiters.removeValue(forKey: filter) ?? []
            guard subscriptions.users(of: filter) > 0 else { continue }
            let code = index < granted.count ? granted[index] : 0
            guard code >= 0x80 else {
                session.acknowledged.insert(filter)
                continue
            }
            session.refused[filter] = code
            refusals.append(.refused(filter: filter, code: code, isResubscription: isResubscription))
            ended += requests.requests(endedByRefusalOf: filter).map {
                .finish($0, .subscriptionRefused(filter: filter, code: code))
            }
        }
        phase = .online(session)
        return refusals + ended + (resumed.isEmpty ? [] : [.resume(resumed.sorted())])
    }

    /// Registers `waiter` for the SUBACK of `filter`; `false` when there is nothing to wait for
    /// (not online, acknowledged or refused already, or nobody uses the filter any more).
    mutating func wait(_ waiter: ObserverID, forAcknowledgementOf filter: String) -> Bool {
        guard case .online(let session) = phase, !session.acknowledged.contains(filter), session.refused[filter] == nil,
            subscriptions.users(of: filter) > 0
        else { return false }
        waiters[filter, default: []].insert(waiter)
        return true
    }

    /// Removes a waiter (its task was cancelled); `true` when it was still waiting.
    mutating func removeWaiter(_ waiter: ObserverID, of filter: String) -> Bool {
        guard let removed = waiters[filter]?.remove(waiter) else { return false }
        if waiters[filter]?.isEmpty == true { waiters[filter] = nil }
        return removed == waiter
    }

    /// The SUBACK code with which the broker refused `filter` on this connection, if it did.
    func refusal(of filter: String) -> Int32? {
        guard case .online(let session) = phase else { return nil }
        return session.refused[filter]
    }

    /// Whether the broker acknowledged `filter` on this connection.
    func isAcknowledged(_ filter: String) -> Bool {
        guard case .online(let session) = phase else { return false }
        return session.acknowledged.contains(filter)
    }

    private mutating func resumeAllWaiters() -> [Action] {
        let all = waiters.values.flatMap { $0 }.sorted()
        waiters = [:]
        return all.isEmpty ? [] : [.resume(all)]
    }

    // MARK: - Requests

    /// How a request starts: what to do, which filters to wait for before publishing (empty when
    /// it was published), and the generation of a timer to start for its deadline, if needed.
    struct RequestStart {
        var actions: [Action] = []
        var mustWait: [String] = []
        var timerGeneration: Int?
    }

    /// Starts request `id`: subscribes to its responses (its own filters, or the shared one) and,
    /// when pipelined or nothing needs waiting for, publishes it right behind the SUBSCRIBE.
    mutating func startRequest(
        _ id: ObserverID, correlationIDs: [String], ownFilters: [String], sharedFilter: String?,
        isPipelined: Bool, publications: [Publication], deadline: ContinuousClock.Instant
    ) -> RequestStart {
        var start = RequestStart()
        if let sharedFilter {
            // Subscribed once, kept for good (and resubscribed on every CONNACK).
            if sharedResponseFilters.insert(sharedFilter).inserted {
                let (actions, mustWait) = addSubscription(sharedFilter)
                start.actions = actions
                if mustWait { start.mustWait = [sharedFilter] }
            } else if isOnline && !isAcknowledged(sharedFilter) {
                start.mustWait = [sharedFilter]
            }
        } else {
            for filter in ownFilters {
                let (actions, mustWait) = addSubscription(filter)
                start.actions += actions
                if mustWait { start.mustWait.append(filter) }
            }
        }
        // The request goes out first: what follows overlaps with its way to the responder and back.
        if isPipelined || start.mustWait.isEmpty {
            for publication in publications { start.actions += sendActions(publication) }
            start.mustWait = []
        }
        let request = RequestTable.Request(
            correlationIDs: correlationIDs, ownFilters: sharedFilter == nil ? ownFilters : [],
            // A pipelined request learns of a refused response subscription only from the SUBACK;
            // one that waits for the SUBACK is told by its wait instead.
            refusalFilters: isPipelined ? sharedFilter.map { [$0] } ?? ownFilters : [])
        start.timerGeneration = requests.add(id, request, deadline: deadline)
        return start
    }

    /// Request `id` ended: releases its own response subscriptions. Returns the request (for its
    /// correlation ids) and the actions; `nil` when it had ended already.
    mutating func endRequest(_ id: ObserverID) -> (request: RequestTable.Request, actions: [Action])? {
        guard let request = requests.remove(id) else { return nil }
        return (request, request.ownFilters.flatMap { removeSubscription($0) })
    }

    /// The request timer of `generation` woke at `now`: the expired requests end (their finish
    /// actions), and when to wake up next.
    mutating func expireRequests(now: ContinuousClock.Instant, generation: Int) -> (actions: [Action], next: ContinuousClock.Instant?) {
        let (expired, next) = requests.expire(now: now, generation: generation)
        return (expired.map { .finish($0, .timedOut) }, next)
    }

    private mutating func sendActions(_ publication: Publication) -> [Action] {
        switch send(publication) {
        case .publish: [.publish(publication)]
        case .queued(let dropped): dropped > 0 ? [.droppedOffline(dropped)] : []
        }
    }
}
