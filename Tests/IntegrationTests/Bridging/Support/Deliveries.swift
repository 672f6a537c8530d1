import Synchronization
import TestSupport
import Testing

/// What one stream delivered, gathered by a task of its own, so that a test can wait for the first
/// delivery and check later that no second one came.
final class Deliveries<Element: Sendable>: Sendable {
    private struct Gathered {
        var elements: [Element] = []
        var failure: (any Error)?
    }

    private let gathered = Mutex(Gathered())
    private let consumer = Mutex<Task<Void, Never>?>(nil)
    /// What the deliveries are, for failure messages ("the Resolve at leaf A").
    let name: String

    private init(name: String) {
        self.name = name
    }

    deinit {
        consumer.withLock { $0?.cancel() }
    }

    /// Starts gathering the elements of `stream` that match `isWanted`.
    static func gather<Stream: AsyncSequence & Sendable>(
        _ name: String, _ stream: Stream, where isWanted: @escaping @Sendable (Element) -> Bool = { _ in true }
    ) -> Deliveries where Stream.Element == Element {
        gather(name, stream, where: isWanted, onEach: { _ in })
    }

    /// Starts gathering the elements of `stream` that match `isWanted`, running `onEach` for each of them
    /// (a responder answers there); a thrown error ends the gathering and is kept for the failure message.
    static func gather<Stream: AsyncSequence & Sendable>(
        _ name: String,
        _ stream: Stream,
        where isWanted: @escaping @Sendable (Element) -> Bool = { _ in true },
        onEach: @escaping @Sendable (Element) throws -> Void
    ) -> Deliveries where Stream.Element == Element {
        let deliveries = Deliveries(name: name)
        // Weak, so that releasing the deliveries cancels the task (in `deinit`).
        let task = Task { [weak deliveries] in
            do {
                for try await element in stream where isWanted(element) {
                    guard let deliveries else { return }
                    deliveries.gathered.withLock { $0.elements.append(element) }
                    try onEach(element)
                }
            } catch {
                deliveries?.gathered.withLock { $0.failure = error }
            }
        }
        deliveries.consumer.withLock { $0 = task }
        return deliveries
    }

    /// Everything gathered so far, in arrival order.
    var elements: [Element] { gathered.withLock { $0.elements } }

    /// How many elements arrived so far.
    var count: Int { gathered.withLock { $0.elements.count } }

    /// Waits until at least `count` elements arrived and returns the last of those.
    ///
    /// - Throws: The error that ended the stream, if it ended before; `CancellationError` at the time limit.
    @discardableResult
    func wait(forCount count: Int = 1) async throws -> Element {
        try await yieldUntil { gathered.withLock { $0.elements.count >= count || $0.failure != nil } }
        let state = gathered.withLock { $0 }
        guard state.elements.count >= count else {
            throw DeliveryFailure(
                description: "\(name): the stream failed after \(state.elements.count) of \(count) deliveries: "
                    + "\(state.failure.map { "\($0)" } ?? "?")")
        }
        return state.elements[count - 1]
    }

    /// Records an issue unless exactly `expected` elements arrived.
    func expectCount(_ expected: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let state = gathered.withLock { $0 }
        #expect(
            state.elements.count == expected,
            "\(name) arrived \(state.elements.count) times, not \(expected)\(state.failure.map { " (ended by \($0))" } ?? "")",
            sourceLocation: sourceLocation)
    }

    /// Stops gathering.
    func stop() {
        consumer.withLock { $0?.cancel() }
    }
}

/// A stream of ``Deliveries`` ended before the deliveries a test waited for.
struct DeliveryFailure: Error, CustomStringConvertible {
    let description: String
}
