import Synchronization

/// The latest value of something about each IO point (its association, its rate, its last IO
/// value) and the watchers of it: a new watcher gets the latest value first, as coaty-js's
/// controllers replay theirs.
final class IoPointWatch<Value: Sendable & Equatable>: Sendable {
    private struct State {
        var latest: [String: Value] = [:]
        var watchers: [String: [Int: AsyncStream<Value>.Continuation]] = [:]
        var nextID = 0
        var isFinished = false
    }

    private let state = Mutex(State())

    init(_ initial: [String: Value] = [:]) {
        state.withLock { $0.latest = initial }
    }

    /// The latest value of a point.
    func latest(of pointID: String) -> Value? {
        state.withLock { $0.latest[pointID] }
    }

    /// Records a value and tells the watchers: always, or only when it differs from the latest.
    func set(_ value: Value, for pointID: String, onlyChanges: Bool) {
        let watchers = state.withLock { state -> [AsyncStream<Value>.Continuation] in
            guard !state.isFinished, !onlyChanges || state.latest[pointID] != value else { return [] }
            state.latest[pointID] = value
            return Array(state.watchers[pointID, default: [:]].values)
        }
        for watcher in watchers { watcher.yield(value) }
    }

    /// Runs `body` with the point's values: the latest first (if there is one and
    /// `replayingLatest`), then each new one.
    func watch<Result>(
        _ pointID: String, replayingLatest: Bool = true, isolation: isolated (any Actor)? = #isolation,
        _ body: (AsyncStream<Value>) async throws -> Result
    ) async rethrows -> Result {
        let (values, continuation) = AsyncStream.makeStream(of: Value.self)
        let id = state.withLock { state -> Int? in
            if replayingLatest, let latest = state.latest[pointID] { continuation.yield(latest) }
            guard !state.isFinished else { return nil }
            state.nextID += 1
            state.watchers[pointID, default: [:]][state.nextID] = continuation
            return state.nextID
        }
        if id == nil { continuation.finish() }
        defer {
            if let id { state.withLock { _ = $0.watchers[pointID]?.removeValue(forKey: id) } }
            continuation.finish()
        }
        return try await body(values)
    }

    /// Ends every watch; later watchers get only the latest values.
    func finish() {
        let watchers = state.withLock { state in
            state.isFinished = true
            defer { state.watchers = [:] }
            return state.watchers.values.flatMap(\.values)
        }
        for watcher in watchers { watcher.finish() }
    }
}
