/// How an agent retries after it lost, or could not get, its broker connection.
///
/// Delays grow exponentially from ``initialDelay`` by ``multiplier`` up to ``maximumDelay``, and
/// each is spread by ±``jitter`` so that many agents restarted together do not hit the broker in
/// step. The defaults retry quickly at first (200 ms) and then every 10 s at the most, forever.
public struct ReconnectPolicy: Sendable, Hashable {
    /// The delay before the first retry.
    public var initialDelay: Duration
    /// The longest delay between two attempts.
    public var maximumDelay: Duration
    /// The factor by which the delay grows after each failed attempt (at least 1).
    public var multiplier: Double
    /// The fraction (0...1) by which each delay is randomly shortened or lengthened.
    public var jitter: Double
    /// How many attempts to make in a row before giving up, or `nil` to retry forever.
    public var maximumAttempts: Int?

    /// Creates a policy; out-of-range values are clamped (delays ≥ 0, multiplier ≥ 1, jitter 0...1).
    public init(
        initialDelay: Duration = .milliseconds(200),
        maximumDelay: Duration = .seconds(10),
        multiplier: Double = 2,
        jitter: Double = 0.2,
        maximumAttempts: Int? = nil
    ) {
        self.initialDelay = max(initialDelay, .zero)
        self.maximumDelay = max(maximumDelay, self.initialDelay)
        self.multiplier = max(multiplier, 1)
        self.jitter = min(max(jitter, 0), 1)
        self.maximumAttempts = maximumAttempts.map { max($0, 0) }
    }

    /// Never reconnect: the first failure is final.
    public static let never = ReconnectPolicy(maximumAttempts: 0)
}

/// The retry schedule of one connection: a plain state machine over a ``ReconnectPolicy``.
struct Backoff {
    let policy: ReconnectPolicy
    private(set) var failedAttempts = 0

    init(policy: ReconnectPolicy) {
        self.policy = policy
    }

    /// The delay before the next attempt, or `nil` when the policy allows no more attempts.
    mutating func nextDelay(using generator: inout some RandomNumberGenerator) -> Duration? {
        if let limit = policy.maximumAttempts, failedAttempts >= limit { return nil }
        var delay = policy.initialDelay
        for _ in 0..<min(failedAttempts, 64) {
            delay = delay * policy.multiplier
            if delay >= policy.maximumDelay { break }
        }
        delay = min(delay, policy.maximumDelay)
        failedAttempts += 1
        guard policy.jitter > 0 else { return delay }
        let factor = 1 + Double.random(in: -policy.jitter...policy.jitter, using: &generator)
        return max(delay * factor, .zero)
    }

    /// Starts over after a successful connection.
    mutating func reset() {
        failedAttempts = 0
    }
}
