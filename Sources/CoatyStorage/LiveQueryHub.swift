import Synchronization

/// The live queries of one ``ObjectStore`` (shared by its copies): each registers the collections
/// it reads, and every committed write signals the queries of the collections it changed.
///
/// A query's signal stream buffers at most one signal: writes that come while the query is busy
/// (or not asked for its next result) coalesce into one re-evaluation.
final class LiveQueryHub: Sendable {
    private struct Observer {
        let collections: Set<String>
        let signal: AsyncStream<Void>.Continuation
    }

    private struct State {
        var nextID = 0
        var observers: [Int: Observer] = [:]
    }

    private let state = Mutex(State())

    /// Registers a query of `collections`; returns its id and its signals.
    func register(_ collections: Set<String>) -> (id: Int, signals: AsyncStream<Void>) {
        let (signals, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.observers[state.nextID] = Observer(collections: collections, signal: continuation)
            return state.nextID
        }
        return (id, signals)
    }

    /// Ends the query `id`: its signal stream finishes.
    func unregister(_ id: Int) {
        state.withLock { $0.observers.removeValue(forKey: id) }?.signal.finish()
    }

    /// Signals every query that reads one of `collections`.
    func notify(_ collections: Set<String>) {
        guard !collections.isEmpty else { return }
        let signals = state.withLock { state in
            state.observers.values.filter { !$0.collections.isDisjoint(with: collections) }.map(\.signal)
        }
        for signal in signals { signal.yield() }
    }
}
