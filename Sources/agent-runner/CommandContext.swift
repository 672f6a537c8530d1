import Agent
import ArgumentParser
import CoreTypes
import Logging
import ServiceLifecycle

/// A subcommand that runs once its options are parsed.
protocol RunnerCommand: ParsableCommand {
    /// The global options, parsed after the subcommand name.
    var global: GlobalOptions { get }

    /// Does the command's work.
    ///
    /// - Throws: ``RunnerError`` (or an error that ``RunnerError/from(_:broker:)`` maps to an exit code).
    func execute(in context: CommandContext) async throws
}

/// What every command works with: the settings, where it prints, and how it makes its agent.
struct CommandContext: Sendable {
    let settings: Settings
    let output: Output
    let printer: EventPrinter
    let logger: Logger
    /// Where logs go; `run` attaches its container's log publisher to it.
    let logSink: LogSink

    init(settings: Settings, logger: Logger, logSink: LogSink) {
        self.settings = settings
        self.logSink = logSink
        self.output = Output(mode: settings.outputMode)
        self.printer = EventPrinter(output: output)
        self.logger = logger
    }

    /// How a one-shot command reconnects: not at all; the first failure ends it with exit code 3.
    static let oneShot = ReconnectPolicy.never

    /// A scope to check publications against before anything connects (same namespace as the agent).
    var checkScope: AgentScope {
        AgentScope(
            identityID: settings.identityID ?? "00000000-0000-4000-8000-000000000000",
            namespace: settings.namespace ?? "-")
    }

    /// Creates the command's agent.
    ///
    /// - Throws: ``RunnerError`` with exit code 2 when the settings do not make a usable agent.
    func agent(
        defaultName: String, reconnect: ReconnectPolicy, registry: ObjectTypeRegistry = ObjectTypeRegistry(),
        ioNodes: [IoNode] = []
    ) throws -> Agent {
        var configuration = settings.agentConfiguration(defaultName: defaultName, reconnect: reconnect)
        configuration.ioNodes = ioNodes
        printer.remember(identityID: configuration.identity.objectID, name: configuration.identity.name)
        return try Self.makeAgent(configuration, registry: registry, logger: logger)
    }

    /// Creates an agent from a configuration, turning configuration errors into exit code 2.
    static func makeAgent(_ configuration: Agent.Configuration, registry: ObjectTypeRegistry, logger: Logger) throws
        -> Agent
    {
        do {
            return try Agent(configuration: configuration, registry: registry, logger: logger)
        } catch let error as AgentError {
            throw RunnerError(code: .usage, message: error.detail)
        } catch let error as MosquittoError {
            throw RunnerError(code: .usage, message: "broker settings: \(error)")
        }
    }

    /// A session for a command that must be connected within 10 s of starting (exit 3 otherwise).
    func session() -> Session {
        Session(connectTimeout: .seconds(10), logger: logger)
    }

    /// Checks that an event can be published, before anything connects.
    func check<T>(_ option: String, _ body: () throws(EventError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw RunnerError.usage(option, error.description)
        }
    }

    /// Waits `duration` unless a shutdown comes first; returns whether the whole time passed.
    static func pause(_ duration: Duration) async -> Bool {
        do {
            try await cancelWhenGracefulShutdown { try await Task.sleep(for: duration) }
            return !Task.isShuttingDownGracefully
        } catch {
            return false
        }
    }
}
