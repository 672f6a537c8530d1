import ArgumentParser

/// `run --config FILE`: a long-running agent.
struct RunCommand: RunnerCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Runs a long-lived agent from a configuration file.")

    @Option(help: "The configuration file (JSON or YAML).")
    var config: String

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func execute(in context: CommandContext) async throws {
        throw RunnerError(code: .failure, message: "run: not implemented yet")
    }
}
