import Synchronization

/// The bounded queue between the agent, which hands over a request's responses as they arrive,
/// and the task that iterates them (``Responses``).
///
/// It does what the `AsyncStream` it replaced did for a request (bounded buffer that keeps the
/// oldest, delivery of what is buffered after the end, an end on cancellation or when nobody
/// holds the responses any more, one termination handler), with one object and one lock, and
/// it keeps why the responses ended early. A request's round trip on the agent's executor spent
/// about a fifth of the requester's own CPU time in the stream's yield, storage and teardown.
///
/// The producer (the agent's response sink and its finishers) holds the queue; the consumer's
/// side (``Responses`` and its iterators) holds a ``ResponseQueue/Consumer``, whose release ends
/// the queue.
final class ResponseQueue<Element: Sendable>: Sendable {
    /// What ``yield(_:)`` did with an element.
    enum YieldResult: Equatable {
        case enqueued
        /// The buffer was full: the element was dropped.
        case dropped
        /// The queue has ended: the element was dropped.
        case finished
    }

    private struct State {
        var buffer: [Element] = []
        /// The index of the oldest element not yet taken in `buffer`.
        var head = 0
        var waiter: UnsafeContinuation<Element?, Never>?
        var isFinished = false
        var onTermination: (@Sendable () -> Void)?
        var failure: AgentError?

        var bufferedCount: Int { buffer.count - head }

        mutating func takeFirst() -> Element? {
            guard head < buffer.count else { return nil }
            let element = buffer[head]
            head += 1
            if head == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                head = 0
            }
            return element
        }
    }

    /// How many elements may wait for the consumer; further ones are dropped.
    let capacity: Int
    private let state: Mutex<State>

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        self.state = Mutex(State())
    }

    /// Sets the handler that runs once when the queue ends, however it ends, outside the lock;
    /// runs it at once if the queue has already ended.
    func setOnTermination(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            guard !state.isFinished else { return true }
            state.onTermination = handler
            return false
        }
        if runNow { handler() }
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
            guard state.bufferedCount < capacity else { return (nil, .dropped) }
            state.buffer.append(element)
            return (nil, .enqueued)
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
                    precondition(state.waiter == nil, "two tasks iterate the same responses at once")
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
        let (waiter, handler) = state.withLock { state -> (UnsafeContinuation<Element?, Never>?, (@Sendable () -> Void)?) in
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
        handler?()
    }

    /// The consumer's hold on the queue: ``Responses`` and each of its iterators share one. When
    /// the last of them is released, the queue is cancelled (so the request ends and its response
    /// subscription is released at once, not at the timeout).
    final class Consumer: Sendable {
        let queue: ResponseQueue

        init(_ queue: ResponseQueue) {
            self.queue = queue
        }

        deinit {
            queue.cancel()
        }
    }
}
