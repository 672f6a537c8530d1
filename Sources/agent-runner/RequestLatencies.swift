import CoreTypes

/// How long two-way requests wait for their first response, per pattern (Discover→Resolve,
/// Query→Retrieve, Update→Complete, Call→Return), matched by the correlation id of the topics.
///
/// Bounded: at most `pendingLimit` requests wait for a response (more are counted as untracked),
/// a request without a response after `timeout` is counted as unanswered, and each pattern keeps
/// its last `sampleLimit` latencies. No clock: times are passed in, as seconds.
struct RequestLatencies: Sendable {
    /// One pattern's figures.
    struct Figures: Sendable {
        var requests = 0
        var answered = 0
        var unanswered = 0
        /// When the last responses came (seconds) and how long after their requests.
        var samples: Ring<(time: Double, latency: Double)>

        /// The `percent` percentile of the latencies since `since` (nearest rank), `nil` without any.
        func percentile(_ percent: Double, since: Double) -> Double? {
            let values = samples.elements.filter { $0.time >= since }.map(\.latency).sorted()
            guard !values.isEmpty else { return nil }
            let rank = Int((percent / 100 * Double(values.count)).rounded(.up))
            return values[min(max(rank, 1), values.count) - 1]
        }
    }

    let pendingLimit: Int
    let sampleLimit: Int
    /// How long a request may wait for its first response before it counts as unanswered.
    let timeout: Double
    private(set) var figures: [EventType: Figures] = [:]
    /// Requests that were not timed because `pendingLimit` requests were already waiting.
    private(set) var untracked = 0
    private var pending: [String: (request: EventType, time: Double)] = [:]

    init(pendingLimit: Int = 10_000, sampleLimit: Int = 1000, timeout: Double = 60) {
        self.pendingLimit = pendingLimit
        self.sampleLimit = sampleLimit
        self.timeout = timeout
    }

    /// How many requests wait for their first response.
    var waiting: Int { pending.count }

    /// Notes a request or a response published at `time`; any other event is ignored.
    mutating func record(_ type: EventType, correlationID: String?, time: Double) {
        guard let correlationID else { return }
        let empty = Figures(samples: Ring(capacity: sampleLimit))
        if type.isRequest {
            figures[type, default: empty].requests += 1
            guard pending[correlationID] == nil else { return }  // a second request with one id is timed from the first
            guard pending.count < pendingLimit else {
                untracked += 1
                return
            }
            pending[correlationID] = (type, time)
        } else if type.isResponse, let request = pending.removeValue(forKey: correlationID) {
            figures[request.request, default: empty].answered += 1
            figures[request.request, default: empty].samples.append((time, max(time - request.time, 0)))
        }
    }

    /// Counts the requests that waited longer than `timeout` at `time` as unanswered and stops waiting for them.
    mutating func expire(at time: Double) {
        let expired = pending.filter { time - $0.value.time > timeout }
        let empty = Figures(samples: Ring(capacity: sampleLimit))
        for (id, request) in expired {
            pending[id] = nil
            figures[request.request, default: empty].unanswered += 1
        }
    }
}
