import CoreTypes

/// How many events of each type arrived in each second of the last few minutes: a ring of
/// one-second buckets, so recording an event is an index and an increment.
///
/// No clock: the caller passes the second each event arrived in and the second it asks about.
struct EventRates: Sendable {
    /// How many seconds the ring covers.
    let window: Int
    /// `seconds[i]` is the second whose counts `counts[i]` holds (an old second is reset on reuse).
    private var seconds: [Int]
    private var counts: [[Int]]

    init(window: Int = 300) {
        self.window = max(window, 1)
        seconds = Array(repeating: Int.min, count: self.window)
        counts = Array(repeating: Array(repeating: 0, count: EventType.allCases.count), count: self.window)
    }

    /// Counts one event of `type` in `second` (seconds since the epoch).
    mutating func record(_ type: EventType, second: Int) {
        let slot = Self.slot(second, window)
        if seconds[slot] != second {
            seconds[slot] = second
            for index in counts[slot].indices { counts[slot][index] = 0 }
        }
        counts[slot][Self.index(type)] += 1
    }

    /// The counts of `type` in each of the `window` seconds before `second` (not `second` itself,
    /// which is still going on), oldest first.
    func series(_ type: EventType, before second: Int) -> [Int] {
        let index = Self.index(type)
        return (second - window..<second).map { past in
            let slot = Self.slot(past, window)
            return seconds[slot] == past ? counts[slot][index] : 0
        }
    }

    private static func slot(_ second: Int, _ window: Int) -> Int {
        ((second % window) + window) % window
    }

    private static let indices = Dictionary(uniqueKeysWithValues: EventType.allCases.enumerated().map { ($1, $0) })

    private static func index(_ type: EventType) -> Int {
        indices[type] ?? 0  // every case is in the table
    }
}
