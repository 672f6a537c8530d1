import Synchronization

/// The bounded queue between the agent, which hands over events as they arrive, and the task that
/// iterates them: behind every ``EventStream`` and ``Responses``.
///
/// It does what the `AsyncStream`s it replaced did (a bounded buffer, delivery of what is buffered
/// after the end, an end on cancellation or when nobody holds the consumer's side any more, one
/// termination handler), with one object and one lock, and it keeps why a request's responses
/// ended early. `AsyncStream` is generic code in the concurrency library that this module cannot
/// specialize: each yield and each `next` looked up the metadata of its storage, deque and
/// continuation types at run time (about 5,000 instructions per event routed to an observer), and
/// each yield allocated.
///
/// The producer (the agent's sinks and finishers) holds the queue; the consumer's side (the
/// stream, the responses and their iterators) holds a ``DeliveryQueue/Consumer``, whose release
/// ends the queue.
final class DeliveryQueue<Element: Sendable>: Sendable {
    /// What ``yield(_:)`` did with an element.
    enum YieldResult: Equatable {
        case enqueued
        /// The buffer was full: the element was dropped (``Policy/keepOldest``), or the oldest
        /// buffered one was, to make room for it (``Policy/keepNewest``).
        case dropped
        /// The queue has ended: the element was dropped.
        case finished
    }

    /// Which elements a full buffer keeps.
    enum Policy {
        /// Drop the element being yielded: an observer that falls behind loses the newest events.
        case keepOldest
        /// Drop the oldest buffered element: a watcher of states sees the latest ones.
        case keepNewest
    }

    /// How the queue ended.
    enum Ending: Sendable, CustomStringConvertible {
        /// The producer finished it (the agent stopped, a request timed out, a subscription was refused).
        case finished
        /// The consumer went away: its task was cancelled, or it let go of the queue.
        case cancelled

        var description: String { self == .finished ? "finished" : "cancelled" }
    }

    private struct State {
        var buffer: [Element] = []
        /// The index of the oldest element not yet taken in `buffer`.
        var head = 0
        var waiter: UnsafeContinuation<Element?, Never>?
        var isFinished = false
        var onTermination: (@Sendable (Ending) -> Void)?
        var failure: AgentError?

        var bufferedCount: Int { buffer.count - head }

        mutating func takeFirst() -> Element? {
            guard head < buffer.count else { return nil }
            let element = buffer[head]
            head += 1
            if head == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64 && head * 2 >= buffer.count {
                // A consumer that never quite catches up: drop the taken slots, or the buffer grows for good.
                buffer.removeFirst(head)
                head = 0
            }
            return element
        }
    }

    /// How many elements may wait for the consumer; further ones are dropped.
    let capacity: Int
    /// Which elements a full buffer keeps.
    let policy: Policy
    private let state: Mutex<State>

    init(capacity: Int, policy: Policy = .keepOldest) {
        self.capacity = max(1, capacity)
        self.policy = policy
        self.state = Mutex(State())
    }

    /// Sets the handler that runs once when the queue ends, however it ends, outside the lock;
    /// runs it at once (with ``Ending/finished``) if the queue has already ended.
    func setOnTermination(_ handler: @escaping @Sendable (Ending) -> Void) {
        let runNow = state.withLock { state -> Bool in
            guard !state.isFinished else { return true }
            state.onTermination = handler
            return false
        }
        if runNow { handler(.finished) }
    }

    /// Hands `element` to a waiting consumer, or buffers it. Call it without holding a lock the
    /// consumer's task might need.
    @discardableResult
    func yield(_ element: Element) -> YieldResult {
        let (waiter, result) = state.withLock { state -> (UnsafeContinuation<Element?, Never>?, YieldResult) in
            guard !state.isFinished else { return (nil, .finished) }
            if let waiter = state.waiter {
                state.waiter = nil
                return (waiter, .enqueued)
            }
            guard state.bufferedCount >= capacity else {
                state.buffer.append(element)
                return (nil, .enqueued)
            }
            guard policy == .keepNewest else { return (nil, .dropped) }
            _ = state.takeFirst()
            state.buffer.append(element)
            return (nil, .dropped)
        }
        waiter?.resume(returning: element)
        return result
    }

    /// Ends the queue: the consumer gets what is buffered, then `nil`. The first `error` given is
    /// kept as ``failure``. Runs the termination handler unless the queue had ended already.
    func finish(failure error: AgentError? = nil) {
        end(failure: error, discardingBuffer: false)
    }

    /// Ends the queue for the consumer (its task was cancelled, or it let go of the responses):
    /// what is buffered is dropped and a waiting ``next()`` returns `nil`.
    func cancel() {
        end(failure: nil, discardingBuffer: true)
    }

    /// Why the queue ended early, if a reason was given.
    var failure: AgentError? { state.withLock { $0.failure } }

    /// The oldest element, waiting for one if none is buffered; `nil` once the queue has ended and
    /// its buffer is empty, or when the calling task is cancelled (which ends the queue).
    func next() async -> Element? {
        if Task.isCancelled {
            cancel()
            return nil
        }
        // Most calls of a one-shot request find the response waiting or wait exactly once.
        let buffered = state.withLock { state -> Element?? in
            if let element = state.takeFirst() { return .some(element) }
            return state.isFinished ? .some(nil) : nil
        }
        if let buffered { return buffered }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Element?, Never>) in
                let ready = state.withLock { state -> Element?? in
                    if let element = state.takeFirst() { return .some(element) }
                    if state.isFinished { return .some(nil) }
                    precondition(state.waiter == nil, "two tasks iterate the same events at once")
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            cancel()
        }
    }

    private func end(failure error: AgentError?, discardingBuffer: Bool) {
        let (waiter, handler) = state.withLock { state -> (UnsafeContinuation<Element?, Never>?, (@Sendable (Ending) -> Void)?) in
            if discardingBuffer {
                state.buffer = []
                state.head = 0
            }
            guard !state.isFinished else { return (nil, nil) }
            state.isFinished = true
            if state.failure == nil { state.failure = error }
            let handler = state.onTermination
            state.onTermination = nil
            let waiter = state.waiter
            state.waiter = nil
            return (waiter, handler)
        }
        // A consumer waits only while the buffer is empty, so it gets `nil` either way.
        waiter?.resume(returning: nil)
        handler?(discardingBuffer ? .cancelled : .finished)
    }

    /// The consumer's hold on the queue: the stream or the responses and each of their iterators
    /// share one. When the last of them is released, the queue is cancelled (so the observation or
    /// the request ends and its subscription is released at once, not at the timeout).
    ///
    /// The deinitializer of a generic class runs unspecialized; calling the queue from it looked up
    /// the metadata of its state, continuations and `Optional`s at run time (about 3,000
    /// instructions a request). It calls a closure made by the initializer instead, which runs
    /// where the element type is known.
    final class Consumer: Sendable {
        let queue: DeliveryQueue
        private let cancelQueue: @Sendable () -> Void

        init(_ queue: DeliveryQueue) {
            self.queue = queue
            cancelQueue = { queue.cancel() }
        }

        deinit {
            cancelQueue()
        }
    }
}
