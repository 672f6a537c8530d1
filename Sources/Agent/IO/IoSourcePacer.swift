import CoreTypes

/// When an IO source's values go out, without I/O or a clock: its update strategy applied to the
/// rate its router recommends, as coaty-js's `IoSourceController` applies it. Time is given as a
/// `Duration` since any fixed origin; the driver wakes the pacer when an action asks for it.
///
/// - Not associated: values are dropped.
/// - No rate (or 0), or strategy ``IoSourceBackpressureStrategy/noBackpressure``: every value goes
///   out at once.
/// - ``IoSourceBackpressureStrategy/default`` and ``IoSourceBackpressureStrategy/sample``: every
///   `rate` milliseconds the latest value since the last tick goes out, if there is one.
/// - ``IoSourceBackpressureStrategy/throttle``: a value goes out once `rate` milliseconds pass
///   without a newer one (coaty-js's throttle is RxJS `debounceTime`).
///
/// A change of association or rate starts over: a value waiting to go out is dropped.
struct IoSourcePacer: Equatable {
    enum Mode: Equatable {
        case unassociated
        case immediate
        case sample(period: Duration)
        case debounce(quiet: Duration)
    }

    enum Action: Equatable {
        case publish(IoValue)
        /// Call ``tick(now:)`` at this time (it replaces any earlier request).
        case wake(at: Duration)
    }

    private(set) var mode = Mode.unassociated
    /// The state the pacing follows, once one was applied.
    private(set) var state: IoState?
    private var latest: IoValue?
    /// The next sampling tick, or the end of the quiet period.
    private var deadline: Duration?

    /// The source's state changed (an Associate event): the pacing starts over. An Associate that
    /// changes neither the association nor the rate changes nothing (coaty-js rebuilds its
    /// pipeline only when one of them changes), so a pending value stays pending; see ``isNew(_:)``.
    mutating func update(_ state: IoState, strategy: IoSourceBackpressureStrategy?, now: Duration) -> [Action] {
        self.state = state
        latest = nil
        deadline = nil
        guard state.hasAssociations else {
            mode = .unassociated
            return []
        }
        guard let rate = state.updateRate, rate > 0, strategy != .noBackpressure else {
            mode = .immediate
            return []
        }
        let interval = Duration.milliseconds(rate)
        if strategy == .throttle {
            mode = .debounce(quiet: interval)
            return []
        }
        mode = .sample(period: interval)
        deadline = now + interval
        return [.wake(at: now + interval)]
    }

    /// Whether `state` differs from the one the pacing follows (the first state always does).
    func isNew(_ state: IoState) -> Bool {
        self.state != state
    }

    /// The application published a value.
    mutating func value(_ value: IoValue, now: Duration) -> [Action] {
        switch mode {
        case .unassociated:
            return []
        case .immediate:
            return [.publish(value)]
        case .sample:
            latest = value
            return []
        case .debounce(let quiet):
            latest = value
            deadline = now + quiet
            return [.wake(at: now + quiet)]
        }
    }

    /// The time asked for by the last ``Action/wake(at:)`` has come (or passed).
    mutating func tick(now: Duration) -> [Action] {
        guard let due = deadline, now >= due else { return deadline.map { [.wake(at: $0)] } ?? [] }
        switch mode {
        case .sample(let period):
            var next = due + period
            while next <= now { next += period }
            deadline = next
            defer { latest = nil }
            return (latest.map { [.publish($0)] } ?? []) + [.wake(at: next)]
        case .debounce:
            deadline = nil
            defer { latest = nil }
            return latest.map { [.publish($0)] } ?? []
        case .unassociated, .immediate:
            deadline = nil
            return []
        }
    }
}
