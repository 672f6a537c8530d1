/// The time since a controller was made, on the clock it was given: what its I/O-free timing
/// logic (`IoSourcePacer`, periodic publications) reads and the timers it sleeps on.
struct ElapsedTime: Sendable {
    /// The time elapsed since the start.
    let now: @Sendable () -> Duration
    /// Sleeps until the given time since the start (throws `CancellationError` when cancelled).
    let sleep: @Sendable (_ until: Duration) async throws -> Void

    /// Starts counting now on `clock`.
    init<C: Clock<Duration>>(_ clock: C) {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        sleep = { try await clock.sleep(until: origin.advanced(by: $0), tolerance: nil) }
    }

    func sleep(until time: Duration) async throws {
        try await sleep(time)
    }
}
