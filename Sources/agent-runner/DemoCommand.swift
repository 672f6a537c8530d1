import Agent
import ArgumentParser
import CoreTypes
import Logging
import ServiceLifecycle
import UnixSignals

/// `demo`: two agents go through every Coaty event pattern, narrated, on a private broker.
struct DemoCommand: RunnerCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Shows every Coaty event pattern between agents, narrated.",
        discussion: """
            Without --broker it starts mosquitto as a child process on a free loopback port and \
            removes it at the end. Exit code 0 when every pattern worked, 4 when a step got no answer.
            """)

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func execute(in context: CommandContext) async throws {
        let narrator = Narrator(output: context.output)
        let broker: DemoBroker?
        let url: String
        if let given = context.settings.broker {
            broker = nil
            url = given
            narrator.title("Coaty demo on the broker at \(url).")
        } else {
            narrator.title("Coaty demo: two agents go through every Coaty event pattern.")
            broker = try DemoBroker.start()
            url = broker?.url ?? Settings.defaultBroker
            narrator.note("Started a private mosquitto broker on 127.0.0.1:\(broker?.port ?? 0).")
        }
        defer {
            if let broker {
                broker.stop()
                narrator.note("Stopped the private broker and removed its files.")
            }
        }
        var settings = context.settings
        settings.broker = url
        let script = DemoScript(settings: settings, narrator: narrator, logger: context.logger)
        let service = DemoService(script: script)
        var group = ServiceGroupConfiguration(
            services: [.init(service: service, successTerminationBehavior: .gracefullyShutdownGroup)],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: context.logger)
        group.maximumGracefulShutdownDuration = .milliseconds(1500)
        try await ServiceGroup(configuration: group).run()
    }
}

/// The demo as a service, so SIGTERM and SIGINT end it (and stop its agents) cleanly.
private struct DemoService: Service {
    let script: DemoScript

    func run() async throws {
        let script = self.script
        try await cancelWhenGracefulShutdown { try await script.run() }
    }
}

/// Tells what the demo does: readable lines on a terminal, JSON lines otherwise.
struct Narrator: Sendable {
    let output: Output

    func title(_ text: String) {
        say("title", text, indent: "")
    }

    func note(_ text: String) {
        say("note", text, indent: "")
    }

    /// A step: the pattern and what is about to happen.
    func step(_ number: Int, _ pattern: String, _ text: String) {
        switch output.mode {
        case .text: output.line("\n\(number). \(pattern): \(text)")
        case .json: output.json(["demo": "step", "step": .int(number), "pattern": .string(pattern), "text": .string(text)])
        }
    }

    /// What an agent saw.
    func saw(_ text: String) {
        say("saw", text, indent: "   ")
    }

    private func say(_ kind: String, _ text: String, indent: String) {
        switch output.mode {
        case .text: output.line(indent + text)
        case .json: output.json(["demo": .string(kind), "text": .string(text)])
        }
    }
}
