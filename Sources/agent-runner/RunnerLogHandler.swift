import Agent
import Logging
import Synchronization

/// Where the runner's logs go: standard error, and also Coaty `Log` objects once `run` attached
/// its container's log publisher.
///
/// Logging is bootstrapped once, before the container exists, so the handlers look the publisher
/// up when they log.
final class LogSink: Sendable {
    private struct Remote: Sendable {
        let publisher: LogPublisher
        let level: Logger.Level
    }

    /// The lowest level printed on standard error.
    let localLevel: Logger.Level
    private let remote = Mutex<Remote?>(nil)

    init(localLevel: Logger.Level) {
        self.localLevel = localLevel
    }

    /// From now on, also advertises entries at or above `level` through `publisher`.
    func attach(_ publisher: LogPublisher, level: Logger.Level) {
        remote.withLock { $0 = Remote(publisher: publisher, level: level) }
    }

    fileprivate var remoteHandler: (publisher: LogPublisher, level: Logger.Level)? {
        remote.withLock { $0.map { ($0.publisher, $0.level) } }
    }

    /// The handler for a logger with this label.
    func handler(label: String) -> RunnerLogHandler {
        var local = StreamLogHandler.standardError(label: label)
        local.logLevel = localLevel
        return RunnerLogHandler(label: label, local: local, sink: self)
    }
}

/// A standard-error handler that also hands entries to a ``CoatyLogHandler`` when the sink has one.
struct RunnerLogHandler: LogHandler {
    let label: String
    var local: StreamLogHandler
    let sink: LogSink

    var metadata: Logger.Metadata {
        get { local.metadata }
        set { local.metadata = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { local.metadataProvider }
        set { local.metadataProvider = newValue }
    }

    /// The lower of the local level and the remote one (when remote logging is on).
    var logLevel: Logger.Level {
        get { min(local.logLevel, sink.remoteHandler?.level ?? local.logLevel) }
        set { local.logLevel = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { local[metadataKey: key] }
        set { local[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        if event.level >= local.logLevel { local.log(event: event) }
        guard let remote = sink.remoteHandler else { return }
        var coaty = CoatyLogHandler(label: label, publisher: remote.publisher, remoteLogLevel: remote.level)
        coaty.metadata = local.metadata
        coaty.metadataProvider = local.metadataProvider
        coaty.log(event: event)
    }
}
