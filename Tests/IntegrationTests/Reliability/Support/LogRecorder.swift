import Logging
import Synchronization

/// Keeps what an agent logs, so that a test can wait for a log line or check that one was written.
///
/// ```swift
/// let log = LogRecorder()
/// let agent = try Agent(configuration: configuration, logger: log.logger)
/// _ = await log.next { $0.message == "Connect failed" }
/// ```
final class LogRecorder: Sendable {
    /// One log line.
    struct Record: Sendable, CustomStringConvertible {
        let level: Logger.Level
        let message: String
        let metadata: [String: String]

        var description: String { "\(level) \(message) \(metadata)" }
    }

    private let records = Mutex<[Record]>([])
    private let stream: AsyncStream<Record>
    private let continuation: AsyncStream<Record>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Record.self)
    }

    /// A logger at trace level that writes here.
    var logger: Logger {
        var logger = Logger(label: "reliability-test") { _ in Handler(recorder: self) }
        logger.logLevel = .trace
        return logger
    }

    /// Everything logged so far.
    var all: [Record] { records.withLock { $0 } }

    /// Waits for the next record (counting from the first one ever logged) that `match` accepts.
    /// Call it from one task at a time.
    func next(where match: (Record) -> Bool) async -> Record? {
        for await record in stream where match(record) { return record }
        return nil
    }

    fileprivate func append(_ record: Record) {
        records.withLock { $0.append(record) }
        continuation.yield(record)
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
            recorder.append(
                Record(level: event.level, message: event.message.description, metadata: all.mapValues { "\($0)" }))
        }
    }
}
