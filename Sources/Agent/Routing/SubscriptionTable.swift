/// Reference counts of the MQTT subscriptions an agent holds, one entry per topic filter.
///
/// Many local observers share one MQTT subscription: the first observer of a filter causes a
/// SUBSCRIBE, the last one to leave an UNSUBSCRIBE. The table remembers the order in which filters
/// were first subscribed, so that a reconnect resubscribes them in the same order. It does no I/O:
/// the caller carries out the returned actions.
struct SubscriptionTable {
    enum AddAction: Equatable {
        /// The filter is new: send SUBSCRIBE.
        case subscribe(String)
        /// The filter is already subscribed (or requested): nothing to send.
        case none
    }

    enum RemoveAction: Equatable {
        /// The last user left: send UNSUBSCRIBE.
        case unsubscribe(String)
        /// Others still use the filter (or it was unknown): nothing to send.
        case none
    }

    private var counts: [String: Int] = [:]
    private var order: [String] = []

    /// Adds one user of `filter`.
    mutating func add(_ filter: String) -> AddAction {
        let count = counts[filter, default: 0]
        counts[filter] = count + 1
        guard count == 0 else { return .none }
        order.append(filter)
        return .subscribe(filter)
    }

    /// Removes one user of `filter`.
    mutating func remove(_ filter: String) -> RemoveAction {
        guard let count = counts[filter] else { return .none }
        guard count == 1 else {
            counts[filter] = count - 1
            return .none
        }
        counts[filter] = nil
        if let position = order.firstIndex(of: filter) { order.remove(at: position) }
        return .unsubscribe(filter)
    }

    /// How many users `filter` has.
    func users(of filter: String) -> Int { counts[filter, default: 0] }

    /// Every subscribed filter, in the order it was first subscribed (for resubscribing after CONNACK).
    var filters: [String] { order }

    /// Whether no filter is subscribed.
    var isEmpty: Bool { order.isEmpty }
}
