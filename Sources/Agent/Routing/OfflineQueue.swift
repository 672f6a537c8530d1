/// What an agent does with a publication when its offline queue is full.
public struct OfflineDropPolicy: Sendable, Hashable, CustomStringConvertible {
    private enum Base: Hashable, Sendable { case dropOldest, dropNewest }
    private let base: Base

    /// Make room by dropping the oldest queued publication (the default: fresh data wins).
    public static let dropOldest = OfflineDropPolicy(base: .dropOldest)
    /// Refuse the new publication; what is queued is kept.
    public static let dropNewest = OfflineDropPolicy(base: .dropNewest)

    /// The policy's name.
    public var description: String { "\(base)" }
}

/// Publications made while the agent is offline, kept in order until the next CONNACK.
///
/// Bounded by a number of publications and a number of payload bytes; what does not fit is
/// dropped according to the ``OfflineDropPolicy`` and counted.
struct OfflineQueue<Element> {
    struct Limits: Equatable {
        var maximumCount: Int
        var maximumBytes: Int
    }

    enum EnqueueResult: Equatable {
        /// Queued; `droppedOldest` older publications were dropped to make room.
        case queued(droppedOldest: Int)
        /// The new publication was refused (``OfflineDropPolicy/dropNewest`` or larger than the limit).
        case refused
    }

    let limits: Limits
    let policy: OfflineDropPolicy
    private var elements: [(element: Element, bytes: Int)] = []
    private var head = 0
    private(set) var byteCount = 0
    private(set) var droppedCount = 0

    init(limits: Limits, policy: OfflineDropPolicy) {
        self.limits = limits
        self.policy = policy
    }

    var count: Int { elements.count - head }
    var isEmpty: Bool { count == 0 }

    /// Queues `element` of `bytes` payload bytes.
    mutating func enqueue(_ element: Element, bytes: Int) -> EnqueueResult {
        guard limits.maximumCount > 0, bytes <= limits.maximumBytes else {
            droppedCount += 1
            return .refused
        }
        var dropped = 0
        while count >= limits.maximumCount || byteCount + bytes > limits.maximumBytes {
            guard policy == .dropOldest, dequeue() != nil else {
                droppedCount += 1
                return .refused
            }
            dropped += 1
        }
        droppedCount += dropped
        elements.append((element, bytes))
        byteCount += bytes
        return .queued(droppedOldest: dropped)
    }

    /// Removes and returns the oldest queued element.
    mutating func dequeue() -> Element? {
        guard head < elements.count else { return nil }
        let (element, bytes) = elements[head]
        head += 1
        byteCount -= bytes
        if head > 64 && head * 2 > elements.count {
            elements.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Removes and returns everything, oldest first.
    mutating func drain() -> [Element] {
        let all = elements[head...].map(\.element)
        elements.removeAll(keepingCapacity: true)
        head = 0
        byteCount = 0
        return all
    }
}
