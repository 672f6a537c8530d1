import Agent
import CoreTypes
import Logging
import ServiceLifecycle
import ServiceLifecycleTestKit
import Synchronization
import TestSupport

/// The hooks controllers went through, in order, with a way to wait for one.
final class HookRecorder: Sendable {
    private let entries = Mutex<[String]>([])
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Void.self)
    }

    /// Every hook so far, as "Name.hook".
    var all: [String] { entries.withLock { $0 } }

    func record(_ entry: String) {
        entries.withLock { $0.append(entry) }
        continuation.yield()
    }

    /// Returns once `condition` holds for the recorded hooks.
    func wait(until condition: ([String]) -> Bool) async {
        if condition(all) { return }
        for await _ in stream where condition(all) { return }
    }

    /// Returns once `entry` was recorded `count` times.
    func wait(for entry: String, count: Int = 1) async {
        await wait { $0.filter { $0 == entry }.count >= count }
    }
}

/// A controller that records its hooks, and can be told to fail in one or to act in `willStop()`.
struct RecordingController: Controller {
    let name: String
    let recorder: HookRecorder
    var failsIn: String?
    var onWillStop: (@Sendable () throws -> Void)?

    struct Failure: Error, CustomStringConvertible {
        let hook: String
        var description: String { "the lamp broke in \(hook)" }
    }

    private func record(_ hook: String) throws {
        recorder.record("\(name).\(hook)")
        if failsIn == hook { throw Failure(hook: hook) }
    }

    func initialize() async throws { try record("initialize") }
    func didGoOnline() async throws { try record("didGoOnline") }
    func didGoOffline() async throws { try record("didGoOffline") }
    func willStop() async throws {
        try onWillStop?()
        try record("willStop")
    }
    func run() async throws { try record("run") }
}

/// A local log handler that keeps the messages it is given.
struct CollectingLogHandler: LogHandler {
    private let store = PrintedLines()
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    var messages: [String] { store.all }

    /// Returns once `message` was logged.
    func wait(for message: String) async {
        await store.wait(for: [message])
    }

    func log(event: LogEvent) {
        store.append(event.message.description)
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
}
