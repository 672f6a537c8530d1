import ArgumentParser

/// `demo`: every event pattern on an embedded broker, narrated.
struct DemoCommand: RunnerCommand {
    static let configuration = CommandConfiguration(commandName: "demo", abstract: "Shows every Coaty event pattern, narrated.")

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func execute(in context: CommandContext) async throws {
        throw RunnerError(code: .failure, message: "demo: not implemented yet")
    }
}
