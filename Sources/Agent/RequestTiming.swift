import Synchronization

/// Times one request for the metrics: from when it was made to its first fitting response and
/// to its end. Called from the network thread (responses) and wherever the request ends.
final class RequestTiming: Sendable {
    private let kind: Int
    private let metrics: AgentMetrics
    private let start = ContinuousClock.now
    private let hasResponse = Atomic<Bool>(false)

    /// A timing for a request of metric index `kind`; `nil` when the event type is not a request.
    init?(kind: Int?, metrics: AgentMetrics) {
        guard let kind else { return nil }
        self.kind = kind
        self.metrics = metrics
    }

    /// A fitting response arrived; only the first is timed.
    func responded() {
        guard !hasResponse.exchange(true, ordering: .relaxed) else { return }
        metrics.firstResponse(kind: kind, after: ContinuousClock.now - start)
    }

    /// The request ended at its timeout.
    func timedOut() { metrics.requestTimedOut(kind: kind) }

    /// The request ended (its responses are no longer read).
    func ended() { metrics.requestEnded(kind: kind, after: ContinuousClock.now - start) }
}
