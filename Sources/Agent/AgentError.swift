/// Why an agent operation failed.
public struct AgentError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: Hashable, Sendable {
            case invalidConfiguration, invalidEvent, notRunning, stopped, connectionFailed, publishFailed
            case subscribeFailed, responseTimedOut, offlineQueueFull
        }
        private let base: Base
        /// A configuration value is not usable (bad broker URL, invalid namespace, …).
        public static let invalidConfiguration = Code(base: .invalidConfiguration)
        /// The event cannot be published (invalid object, topic, filter, …).
        public static let invalidEvent = Code(base: .invalidEvent)
        /// The agent is not running (call ``Agent/run()`` first, or add it to a ServiceGroup).
        public static let notRunning = Code(base: .notRunning)
        /// The agent has stopped.
        public static let stopped = Code(base: .stopped)
        /// The broker could not be reached or refused the agent, and the reconnect policy gave up.
        public static let connectionFailed = Code(base: .connectionFailed)
        /// libmosquitto refused a publication.
        public static let publishFailed = Code(base: .publishFailed)
        /// libmosquitto refused a subscription.
        public static let subscribeFailed = Code(base: .subscribeFailed)
        /// A two-way request got no response in time.
        public static let responseTimedOut = Code(base: .responseTimedOut)
        /// The agent is offline and its offline queue refused the publication.
        public static let offlineQueueFull = Code(base: .offlineQueueFull)
        /// The code's name.
        public var description: String { "\(base)" }
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong and what to do, in words.
    public let detail: String

    /// Creates an error.
    public init(code: Code, detail: String) {
        self.code = code
        self.detail = detail
    }

    /// "code: detail".
    public var description: String { "\(code): \(detail)" }
}
