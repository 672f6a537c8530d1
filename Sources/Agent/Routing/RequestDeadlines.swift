/// When each pending two-way request times out, for the one timer task an agent runs for all of them.
///
/// A request used to start a task of its own that slept until its timeout and was cancelled when
/// the request ended early, which is most of the time: two wake-ups of a worker thread per
/// request. Now a request only adds its deadline here. The agent's timer task sleeps until the
/// earliest deadline of a request still pending, finishes what has expired and sleeps again; it
/// is restarted only when a request needs an earlier wake-up than the one planned (a shorter
/// timeout than the requests before it).
///
/// Ended requests are removed lazily: their heap entries are skipped when they reach the top, and
/// the heap is rebuilt when such entries outnumber the pending requests.
struct RequestDeadlines {
    private struct Entry {
        var deadline: ContinuousClock.Instant
        var id: ObserverID
    }

    /// A min-heap on `deadline`; may hold entries of requests that have ended.
    private var heap: [Entry] = []
    /// The deadline of every request still pending.
    private var pending: [ObserverID: ContinuousClock.Instant] = [:]
    /// The instant the timer task sleeps until, `nil` when no timer task runs.
    private(set) var plannedWakeUp: ContinuousClock.Instant?
    /// The running timer task.
    private var timer: Task<Void, Never>?
    /// Increases with every timer task, so that a replaced one knows it is no longer wanted.
    private(set) var generation = 0

    /// How many requests are pending.
    var count: Int { pending.count }

    /// Adds a request's deadline. Returns `true` when the timer task has to be (re)started to
    /// wake up by `deadline`: then call ``replaceTimer(wakingAt:with:)``.
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

    /// Cancels the running timer task (if any) and records `task`, made for `generation`
    /// (``generation`` + 1), as the one that wakes up at `wakeUp`.
    mutating func replaceTimer(wakingAt wakeUp: ContinuousClock.Instant, with task: (_ generation: Int) -> Task<Void, Never>) {
        timer?.cancel()
        generation += 1
        plannedWakeUp = wakeUp
        timer = task(generation)
    }

    /// For the timer task of `generation` after it woke at `now`: removes and returns the requests
    /// whose deadline has passed, and plans the next wake-up (`nil`: the timer task ends).
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
        if plannedWakeUp == nil { timer = nil }
        return (expired, plannedWakeUp)
    }

    /// Stops the timer task and forgets everything (when the agent stops).
    mutating func removeAll() {
        timer?.cancel()
        timer = nil
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
