import ArgumentParser
import Foundation
import Logging

/// The `agent-runner` command: the subcommands of design.md §5.
struct AgentRunner: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agent-runner",
        abstract: "Runs a Coaty agent, or talks to a Coaty network from the command line.",
        discussion: """
            Every option of a subcommand can also come from the environment: COATY_BROKER, \
            COATY_NAMESPACE, COATY_CROSS_NAMESPACE, COATY_NAME, COATY_IDENTITY_ID, COATY_USERNAME, \
            COATY_PASSWORD, COATY_CA_FILE, COATY_CERT_FILE, COATY_KEY_FILE, COATY_LOG_LEVEL, \
            COATY_OUTPUT. The command line wins.

            Exit codes: 0 success; 2 bad usage or bad input; 3 cannot connect to or authenticate \
            with the broker; 4 a request timed out with no response; 1 anything else.
            """,
        version: "0.1.0",
        subcommands: [
            RunCommand.self, MonitorCommand.self, AdvertiseCommand.self, DeadvertiseCommand.self,
            ChannelCommand.self, DiscoverCommand.self, QueryCommand.self, UpdateCommand.self, CallCommand.self,
            RawCommand.self, IoCommand.self, ReplayCommand.self, StoreCommand.self, DashboardCommand.self,
            DemoCommand.self,
        ])
}

/// The process entry point: parses, sets up logging, runs the command, and maps every failure to
/// one line on stderr and an exit code.
@main
enum EntryPoint {
    static func main() async {
        exit(await run(Array(CommandLine.arguments.dropFirst())))
    }

    /// Runs `agent-runner` with `arguments`; returns the exit code.
    static func run(_ arguments: [String]) async -> Int32 {
        let parsed: any ParsableCommand
        do {
            parsed = try AgentRunner.parseAsRoot(GlobalOptions.movingLeadingOptions(arguments))
        } catch {
            if AgentRunner.exitCode(for: error) == .success {
                print(AgentRunner.fullMessage(for: error))
                return 0
            }
            let message = AgentRunner.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            Output.error("agent-runner: \(message) (see agent-runner --help)")
            return RunnerError.Code.usage.exitCode
        }
        guard let command = parsed as? any RunnerCommand else {
            // `help`, `--help`, or a command group without its subcommand: ArgumentParser prints help.
            do {
                var parsed = parsed
                try parsed.run()
                return 0
            } catch {
                print(AgentRunner.fullMessage(for: error))
                return AgentRunner.exitCode(for: error) == .success ? 0 : RunnerError.Code.usage.exitCode
            }
        }
        let settings: Settings
        do {
            settings = try command.global.resolved()
        } catch {
            Output.error("agent-runner: \(error)")
            return RunnerError.Code.usage.exitCode
        }
        let sink = LogSink(localLevel: settings.logLevel ?? .info)
        LoggingSystem.bootstrap { label in sink.handler(label: label) }
        let context = CommandContext(settings: settings, logger: Logger(label: "agent-runner"), logSink: sink)
        do {
            try await command.execute(in: context)
            return 0
        } catch {
            let failure = RunnerError.from(error, broker: settings.brokerURL)
            context.output.note("agent-runner: \(failure.message)")
            return failure.code.exitCode
        }
    }
}
