/// When each pending two-way request times out, for the one timer an agent runs for all of them.
///
/// The timer sleeps until the earliest deadline of a request still pending, ends what has expired
/// and sleeps again; it is replaced only when a request needs an earlier wake-up than planned.
/// Ended requests are removed lazily: their heap entries are skipped when they reach the top, and
/// the heap is rebuilt when such entries outnumber the pending requests. No clock, no task: the
/// caller says what time it is and runs the timer.
struct RequestDeadlines {
    private struct Entry {
        var deadline: ContinuousClock.Instant
        var id: ObserverID
    }

    /// A min-heap on `deadline`; may hold entries of requests that have ended.
    private var heap: [Entry] = []
    /// The deadline of every request still pending.
    private var pending: [ObserverID: ContinuousClock.Instant] = [:]
    /// The instant the timer sleeps until, `nil` when no timer runs.
    private(set) var plannedWakeUp: ContinuousClock.Instant?
    /// Increases with every timer, so that a replaced one knows it is no longer wanted.
    private(set) var generation = 0

    /// How many requests are pending.
    var count: Int { pending.count }

    /// Adds a request's deadline. Returns `true` when the timer has to be (re)started to wake up
    /// by `deadline`: then call ``planTimer(wakingAt:)``.
    mutating func add(_ id: ObserverID, deadline: ContinuousClock.Instant) -> Bool {
        pending[id] = deadline
        push(Entry(deadline: deadline, id: id))
        guard let plannedWakeUp else { return true }
        return deadline < plannedWakeUp
    }

    /// Forgets a request that ended (answered, cancelled, or timed out).
    mutating func remove(_ id: ObserverID) {
        guard pending.removeValue(forKey: id) != nil else { return }
        if heap.count > 64 && heap.count > 2 * pending.count { rebuild() }
    }

    /// Plans a new timer that wakes up at `wakeUp`, replacing the one before; returns its generation.
    mutating func planTimer(wakingAt wakeUp: ContinuousClock.Instant) -> Int {
        generation += 1
        plannedWakeUp = wakeUp
        return generation
    }

    /// For the timer of `generation` after it woke at `now`: removes and returns the requests whose
    /// deadline has passed, and plans the next wake-up (`nil`: the timer ends).
    mutating func expire(now: ContinuousClock.Instant, generation: Int) -> (expired: [ObserverID], next: ContinuousClock.Instant?) {
        guard generation == self.generation else { return ([], nil) }
        var expired: [ObserverID] = []
        while let top = heap.first, top.deadline <= now {
            popTop()
            if pending[top.id] == top.deadline {
                pending[top.id] = nil
                expired.append(top.id)
            }
        }
        // Sleep until the earliest request still pending, skipping entries of ended ones.
        while let top = heap.first, pending[top.id] != top.deadline { popTop() }
        plannedWakeUp = heap.first?.deadline
        return (expired, plannedWakeUp)
    }

    /// Forgets everything and retires the timer (when the agent stops).
    mutating func removeAll() {
        generation += 1
        plannedWakeUp = nil
        heap = []
        pending = [:]
    }

    // MARK: - Heap

    private mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func popTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(from: 0)
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count && heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count && heap[right].deadline < heap[smallest].deadline { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }

    /// Drops the entries of ended requests and restores the heap order.
    private mutating func rebuild() {
        heap = pending.map { Entry(deadline: $0.value, id: $0.key) }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(from: index) }
    }
}
