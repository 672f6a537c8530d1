import Agent
import CoreTypes

/// Why a command failed, with the process exit code that says so (design.md §5).
///
/// Every failure ends the process with one line on stderr: `agent-runner: <message>`.
struct RunnerError: Error, CustomStringConvertible {
    /// The exit code and its meaning.
    struct Code: Hashable, Sendable {
        let exitCode: Int32
        /// Something failed that is neither bad input nor the broker (exit 1).
        static let failure = Code(exitCode: 1)
        /// Bad usage or bad input: the message names the option and why (exit 2).
        static let usage = Code(exitCode: 2)
        /// Cannot connect to or authenticate with the broker (exit 3).
        static let connection = Code(exitCode: 3)
        /// A request timed out with no response (exit 4).
        static let timeout = Code(exitCode: 4)
        /// Every response to a Call was an error Return (exit 5).
        static let allErrors = Code(exitCode: 5)
    }

    let code: Code
    let message: String

    var description: String { message }

    /// Bad input for `option`: `--object: not JSON: …`.
    static func usage(_ option: String, _ why: String) -> RunnerError {
        RunnerError(code: .usage, message: "\(option): \(why)")
    }

    /// The broker at `broker` could not be reached or refused us.
    static func connection(_ broker: String, _ why: String) -> RunnerError {
        // The agent's reasons usually name the broker already ("connect to mqtt://… failed: …").
        RunnerError(code: .connection, message: why.contains(broker) ? why : "cannot connect to \(broker): \(why)")
    }

    /// No response arrived in time.
    static func timeout(_ what: String) -> RunnerError {
        RunnerError(code: .timeout, message: what)
    }

    /// Turns any error of a command into the runner's error and exit code.
    static func from(_ error: any Error, broker: String) -> RunnerError {
        if let error = error as? RunnerError { return error }
        if let error = error as? AgentError {
            switch error.code {
            case .connectionFailed: return .connection(broker, error.detail)
            case .invalidConfiguration, .invalidEvent: return RunnerError(code: .usage, message: error.detail)
            case .responseTimedOut: return .timeout(error.detail)
            default: return RunnerError(code: .failure, message: "\(error)")
            }
        }
        return RunnerError(code: .failure, message: "\(error)")
    }
}
