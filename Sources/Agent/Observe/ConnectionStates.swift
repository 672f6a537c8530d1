/// The agent's connection state now and at every change; the states end, normally, when the agent stops.
///
/// A watcher that falls behind sees the latest states (the oldest are dropped).
public struct ConnectionStates: AsyncSequence, Sendable {
    let states: EventStream<ConnectionState>

    /// Makes an iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: states.makeAsyncIterator())
    }

    /// The iterator of the states.
    public struct Iterator: AsyncIteratorProtocol {
        var base: EventStream<ConnectionState>.Iterator

        /// The next state; `nil` after ``ConnectionState/stopped`` or when the task is cancelled.
        public mutating func next() async -> ConnectionState? {
            // A queue of states never ends with a failure.
            try? await base.next()
        }
    }
}
