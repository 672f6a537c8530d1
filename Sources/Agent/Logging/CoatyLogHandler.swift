import CoreTypes
public import Logging

/// A swift-log `LogHandler` that advertises log entries as Coaty `Log` objects, and optionally also
/// hands them to a local handler; each side has its own level.
///
/// The local level is the local handler's; the remote level decides which entries become `Log`
/// objects. Setting ``logLevel`` (what `logger.logLevel = …` does) sets both. Entries are queued in
/// a ``LogPublisher``, which advertises them on its own task, so logging never blocks.
///
/// Only the program bootstraps logging, never the library:
///
/// ```swift
/// LoggingSystem.bootstrap { label in
///     container.logHandler(label: label, local: StreamLogHandler.standardError(label: label))
/// }
/// ```
///
/// Each `Log` has a fresh object id; its `name` is the `controller.name` metadata if there is one,
/// else the logger's label; `logLevel` maps trace and debug to 10, info and notice to 20, warning to
/// 30, error to 40 and critical to 50; `logTags` are the publisher's tags and those in the
/// ``tagsMetadataKey`` metadata; every other metadata entry goes to `logLabels`.
public struct CoatyLogHandler: LogHandler {
    /// The metadata key whose value (a string or an array of strings) becomes `logTags`.
    public static let tagsMetadataKey = "log.tags"

    /// The logger's label.
    public let label: String
    /// Where the `Log` objects go.
    public let publisher: LogPublisher
    /// The handler that also gets each entry at or above its own level, if any.
    public var local: (any LogHandler)?
    /// The lowest level advertised as a `Log` object.
    public var remoteLogLevel: Logger.Level
    /// Metadata added to every entry (set on the local handler too).
    public var metadata: Logger.Metadata {
        didSet { local?.metadata = metadata }
    }
    /// Adds contextual metadata to every entry (set on the local handler too).
    public var metadataProvider: Logger.MetadataProvider? {
        didSet { local?.metadataProvider = metadataProvider }
    }

    /// Creates a handler.
    ///
    /// - Parameters:
    ///   - label: the logger's label.
    ///   - publisher: the publisher that advertises the `Log` objects.
    ///   - local: a handler for local output (its metadata is replaced by this handler's).
    ///   - remoteLogLevel: the lowest level that is advertised.
    public init(
        label: String, publisher: LogPublisher, local: (any LogHandler)? = nil, remoteLogLevel: Logger.Level = .info
    ) {
        self.label = label
        self.publisher = publisher
        self.local = local
        self.remoteLogLevel = remoteLogLevel
        self.metadata = local?.metadata ?? [:]
        self.metadataProvider = local?.metadataProvider
    }

    /// The lowest level the local handler prints (`.critical` without one).
    public var localLogLevel: Logger.Level {
        get { local?.logLevel ?? .critical }
        set { local?.logLevel = newValue }
    }

    /// The lower of the local and remote levels; setting it sets both.
    public var logLevel: Logger.Level {
        get { local.map { min($0.logLevel, remoteLogLevel) } ?? remoteLogLevel }
        set {
            local?.logLevel = newValue
            remoteLogLevel = newValue
        }
    }

    /// Gets or sets one metadata entry.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Hands the entry to the local handler and queues it as a `Log` object, each if its level allows.
    public func log(event: LogEvent) {
        if let local, event.level >= local.logLevel { local.log(event: event) }
        guard event.level >= remoteLogLevel, !LogPublisher.isPublishing else { return }
        if publisher.configuration.silencesFrameworkLogs, LogPublisher.frameworkSources.contains(event.source) {
            return
        }
        publisher.enqueue(makeLog(event))
    }

    /// The `Log` object for an entry.
    func makeLog(_ event: LogEvent) -> Log {
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { _, new in new } }
        if let explicit = event.metadata { all.merge(explicit) { _, new in new } }
        var tags = publisher.configuration.tags
        if let value = all.removeValue(forKey: Self.tagsMetadataKey) { tags += Self.tags(from: value) }
        var name = label
        if case .string(let controller) = all["controller.name"] { name = controller }
        if let error = event.error { all["error"] = "\(error)" }
        var labels = JSONObject()
        for key in all.keys.sorted() {
            if let value = all[key] { labels[key] = Self.json(value) }
        }
        return Log(
            name: name, logLevel: Self.coatyLevel(event.level), logMessage: event.message.description,
            logDate: LogDate.now(), logTags: tags.isEmpty ? nil : tags, logLabels: labels.isEmpty ? nil : labels,
            logHost: publisher.configuration.host)
    }

    /// The Coaty level of a swift-log level.
    static func coatyLevel(_ level: Logger.Level) -> LogLevel {
        switch level {
        case .trace, .debug: return .debug
        case .info, .notice: return .info
        case .warning: return .warning
        case .error: return .error
        case .critical: return .fatal
        }
    }

    /// A metadata value as JSON: strings stay strings, arrays and dictionaries keep their shape.
    static func json(_ value: Logger.Metadata.Value) -> JSONValue {
        switch value {
        case .string(let text): return .string(text)
        case .stringConvertible(let convertible): return .string(convertible.description)
        case .array(let values): return .array(values.map(json))
        case .dictionary(let dictionary):
            var object = JSONObject()
            for key in dictionary.keys.sorted() {
                if let member = dictionary[key] { object[key] = json(member) }
            }
            return .object(object)
        }
    }

    private static func tags(from value: Logger.Metadata.Value) -> [String] {
        switch value {
        case .string(let tag): return tag.isEmpty ? [] : [tag]
        case .stringConvertible(let tag): return ["\(tag)"].filter { !$0.isEmpty }
        case .array(let values): return values.flatMap(tags)
        case .dictionary: return []
        }
    }
}
