/// Why an agent operation failed.
public struct AgentError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: Hashable, Sendable {
            case invalidConfiguration, invalidEvent, alreadyRunning, stopped, connectionFailed
            case subscribeFailed, responseTimedOut
        }
        private let base: Base
        /// A configuration value is not usable (bad broker URL, invalid namespace, …).
        public static let invalidConfiguration = Code(base: .invalidConfiguration)
        /// The event cannot be published (invalid object, topic, filter, …).
        public static let invalidEvent = Code(base: .invalidEvent)
        /// ``Agent/run()`` was called a second time; an agent runs once (make a new one to run again).
        public static let alreadyRunning = Code(base: .alreadyRunning)
        /// The agent has stopped.
        public static let stopped = Code(base: .stopped)
        /// The broker could not be reached or refused the agent, and the reconnect policy gave up.
        public static let connectionFailed = Code(base: .connectionFailed)
        /// libmosquitto refused a subscription.
        public static let subscribeFailed = Code(base: .subscribeFailed)
        /// A two-way request got no response in time.
        public static let responseTimedOut = Code(base: .responseTimedOut)
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
