/// Every pending two-way request of an agent, from its start to its end: its correlation ids,
/// its response subscriptions, the filters whose refusal ends it, and its deadline.
///
/// A request ends by its responses' end (count, consumer gone), its timeout, a refused response
/// subscription, or the agent's stop; whichever comes first. The table only keeps the books: the
/// ``ConnectionStateMachine`` turns its answers into actions.
struct RequestTable {
    /// One pending request.
    struct Request: Equatable {
        /// The correlation ids its responses carry (an Update of a custom type has two).
        var correlationIDs: [String]
        /// Its own response subscriptions (empty when it uses a shared, namespace-wide one).
        var ownFilters: [String]
        /// The filters whose refusal ends it: those of a pipelined request, which learns of a
        /// refusal only from the SUBACK.
        var refusalFilters: [String]
    }

    private var requests: [ObserverID: Request] = [:]
    /// The requests that end when each filter is refused.
    private var byRefusalFilter: [String: Set<ObserverID>] = [:]
    private(set) var deadlines = RequestDeadlines()

    /// How many requests are pending (started, not ended).
    var count: Int { requests.count }

    /// Whether `id` is pending.
    func contains(_ id: ObserverID) -> Bool { requests[id] != nil }

    /// Adds a request. Returns the generation of a new timer to start when the request's deadline
    /// comes before the one the timer is planned for (or none runs), else `nil`.
    mutating func add(_ id: ObserverID, _ request: Request, deadline: ContinuousClock.Instant) -> Int? {
        requests[id] = request
        for filter in request.refusalFilters { byRefusalFilter[filter, default: []].insert(id) }
        guard deadlines.add(id, deadline: deadline) else { return nil }
        return deadlines.planTimer(wakingAt: deadline)
    }

    /// Removes a request that ended, for any reason; returns it (`nil` if it had ended already).
    mutating func remove(_ id: ObserverID) -> Request? {
        guard let request = requests.removeValue(forKey: id) else { return nil }
        deadlines.remove(id)
        for filter in request.refusalFilters {
            guard let index = byRefusalFilter.index(forKey: filter) else { continue }
            byRefusalFilter.values[index].remove(id)
            if byRefusalFilter.values[index].isEmpty { byRefusalFilter.remove(at: index) }
        }
        return request
    }

    /// The requests that a refusal of `filter` ends, oldest first.
    func requests(endedByRefusalOf filter: String) -> [ObserverID] {
        (byRefusalFilter[filter] ?? []).sorted()
    }

    /// For the timer of `generation` after it woke at `now`: the requests whose deadline has
    /// passed (they stay pending until ``remove(_:)``), and when to wake up next.
    mutating func expire(now: ContinuousClock.Instant, generation: Int) -> (expired: [ObserverID], next: ContinuousClock.Instant?) {
        deadlines.expire(now: now, generation: generation)
    }

    /// Removes every request (when the agent stops); returns their ids, oldest first.
    mutating func removeAll() -> [ObserverID] {
        defer {
            requests = [:]
            byRefusalFilter = [:]
            deadlines.removeAll()
        }
        return requests.keys.sorted()
    }
}
