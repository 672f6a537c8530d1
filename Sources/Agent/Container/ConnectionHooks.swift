/// Turns the agent's connection states into the controllers' online/offline hooks: one
/// ``Controller/didGoOnline()`` per connection, one ``Controller/didGoOffline()`` per loss of a
/// connection that had been online, never two in a row of the same kind.
struct ConnectionHooks: Equatable {
    enum Action: Equatable {
        case none, didGoOnline, didGoOffline
    }

    private(set) var isOnline = false

    mutating func next(_ state: ConnectionState) -> Action {
        switch state {
        case .online:
            guard !isOnline else { return .none }
            isOnline = true
            return .didGoOnline
        case .offline, .stopped, .connecting, .idle:
            guard isOnline else { return .none }
            isOnline = false
            return .didGoOffline
        }
    }
}
