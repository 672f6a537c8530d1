import Synchronization

/// The queue between the agent, which hands over events as they arrive, and the one task that
/// iterates them: behind every ``EventStream`` and ``Responses``.
///
/// Past ``capacity`` its ``Overflow`` decides: hold the connection's reading back (the default), or
/// drop the newest or the oldest element. One object and one lock per queue, specialized where the
/// element type is known (an `AsyncStream` would be generic code across a module boundary). The
/// producer holds the queue; the consumer's side holds a ``Consumer``, whose release ends it.
final class DeliveryQueue<Element: Sendable>: Sendable {
    typealias YieldResult = QueueYieldResult
    typealias Overflow = QueueOverflow

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
        var overflow: Overflow
        /// Whether the queue holds its ``QueueOverflow/backpressure(_:)`` pressure.
        var holdsPressure = false
        /// The most elements buffered at once since the last ``DeliveryQueue/takePeakFill()``.
        var peakFill = 0

        var bufferedCount: Int { buffer.count - head }

        /// Buffers `element` for the consumer.
        mutating func append(_ element: Element) {
            buffer.append(element)
            if bufferedCount > peakFill { peakFill = bufferedCount }
        }

        /// Stops holding the pressure; returns it for the caller to release outside the lock.
        mutating func stopHoldingPressure() -> ReadPressure? {
            guard holdsPressure, case .backpressure(let pressure) = overflow else { return nil }
            holdsPressure = false
            return pressure
        }

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

    /// How many elements may wait for the consumer before ``Overflow`` applies.
    let capacity: Int
    private let state: Mutex<State>

    init(capacity: Int, overflow: Overflow) {
        self.capacity = max(1, capacity)
        self.state = Mutex(State(overflow: overflow))
    }

    /// Changes what a full buffer does from now on (releasing the pressure it may hold).
    func setOverflow(_ overflow: Overflow) {
        let release = state.withLock { state -> ReadPressure? in
            defer { state.overflow = overflow }
            return state.stopHoldingPressure()
        }
        release?.release()
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
        let (waiter, result, hold) = state.withLock { state -> (UnsafeContinuation<Element?, Never>?, YieldResult, ReadPressure?) in
            guard !state.isFinished else { return (nil, .finished, nil) }
            if let waiter = state.waiter {
                state.waiter = nil
                return (waiter, .enqueued, nil)
            }
            guard state.bufferedCount >= capacity else {
                state.append(element)
                return (nil, .enqueued, nil)
            }
            switch state.overflow {
            case .backpressure(let pressure):
                state.append(element)
                guard !state.holdsPressure else { return (nil, .enqueued, nil) }
                state.holdsPressure = true
                return (nil, .heldBack, pressure)
            case .dropNewest:
                return (nil, .dropped, nil)
            case .dropOldest:
                _ = state.takeFirst()
                state.append(element)
                return (nil, .dropped, nil)
            }
        }
        hold?.hold()
        waiter?.resume(returning: element)
        return result
    }

    /// Takes the oldest element; releases the pressure once the buffer is down to half its capacity.
    private static func takeFirst(_ state: inout State, capacity: Int) -> (element: Element?, release: ReadPressure?) {
        let element = state.takeFirst()
        guard state.holdsPressure, state.bufferedCount <= capacity / 2 else { return (element, nil) }
        return (element, state.stopHoldingPressure())
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

    /// The most elements that waited at once since the last call (for the agent's metrics); the
    /// next peak starts from what waits now.
    func takePeakFill() -> Int {
        state.withLock { state in
            defer { state.peakFill = state.bufferedCount }
            return max(state.peakFill, state.bufferedCount)
        }
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
        let capacity = self.capacity
        let (buffered, release) = state.withLock { state -> (Element??, ReadPressure?) in
            let (element, release) = Self.takeFirst(&state, capacity: capacity)
            if let element { return (.some(element), release) }
            return (state.isFinished ? .some(nil) : nil, release)
        }
        release?.release()
        if let buffered { return buffered }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Element?, Never>) in
                let (ready, release) = state.withLock { state -> (Element??, ReadPressure?) in
                    let (element, release) = Self.takeFirst(&state, capacity: capacity)
                    if let element { return (.some(element), release) }
                    if state.isFinished { return (.some(nil), release) }
                    precondition(state.waiter == nil, "two tasks iterate the same events at once")
                    state.waiter = continuation
                    return (nil, release)
                }
                release?.release()
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            cancel()
        }
    }

    private func end(failure error: AgentError?, discardingBuffer: Bool) {
        typealias Ended = (UnsafeContinuation<Element?, Never>?, (@Sendable (Ending) -> Void)?, ReadPressure?)
        let (waiter, handler, release) = state.withLock { state -> Ended in
            if discardingBuffer {
                state.buffer = []
                state.head = 0
            }
            // Nothing more arrives after the end: holding the connection back would gain nothing.
            let release = state.stopHoldingPressure()
            guard !state.isFinished else { return (nil, nil, release) }
            state.isFinished = true
            if state.failure == nil { state.failure = error }
            let handler = state.onTermination
            state.onTermination = nil
            let waiter = state.waiter
            state.waiter = nil
            return (waiter, handler, release)
        }
        release?.release()
        // A consumer waits only while the buffer is empty, so it gets `nil` either way.
        waiter?.resume(returning: nil)
        handler?(discardingBuffer ? .cancelled : .finished)
    }

    /// The consumer's hold on the queue: the stream or the responses and each of their iterators
    /// share one. When the last of them is released, the queue is cancelled (so the observation or
    /// the request ends and its subscription is released at once, not at the timeout).
    ///
    /// The deinitializer of a generic class runs unspecialized, so it calls a closure made by the
    /// initializer, which runs where the element type is known.
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

/// What a full buffer does with the next element.
enum QueueOverflow: Sendable {
    /// Keep it, and hold `pressure` (the connection stops reading) until the consumer has
    /// taken the buffer down to half its capacity.
    case backpressure(ReadPressure)
    /// Drop it: an observer that falls behind loses the newest events.
    case dropNewest
    /// Drop the oldest buffered element: a watcher of states sees the latest ones.
    case dropOldest
}

/// What ``DeliveryQueue/yield(_:)`` did with an element.
enum QueueYieldResult: Equatable {
    case enqueued
    /// Enqueued past the capacity: from now on the queue holds the connection's reading back.
    case heldBack
    /// The buffer was full: the element was dropped (``QueueOverflow/dropNewest``), or the oldest
    /// buffered one was, to make room for it (``QueueOverflow/dropOldest``).
    case dropped
    /// The queue has ended: the element was dropped.
    case finished
}
