import Agent
import ArgumentParser
import CoreTypes
import ServiceLifecycle

/// `raw publish TOPIC PAYLOAD` and `raw observe FILTER`: plain MQTT messages beside Coaty's.
struct RawCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "raw", abstract: "Publishes or observes raw MQTT messages (never on coaty/… topics).",
        subcommands: [RawPublishCommand.self, RawObserveCommand.self])
}

/// `raw publish TOPIC PAYLOAD [--retain]`.
struct RawPublishCommand: RunnerCommand {
    static let configuration = CommandConfiguration(commandName: "publish", abstract: "Publishes one raw MQTT message.")

    @Argument(help: "The MQTT topic (no wildcards, not coaty/…).")
    var topic: String

    @Argument(help: "The payload, sent as UTF-8 text.")
    var payload: String

    @Flag(help: "Ask the broker to retain the message.")
    var retain = false

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func execute(in context: CommandContext) async throws {
        let raw = Raw(topic: topic, text: payload, retain: retain)
        _ = try context.check("TOPIC") { () throws(EventError) in try raw.publication() }
        let agent = try context.agent(defaultName: "agent-runner raw publish", reconnect: CommandContext.oneShot)
        try await context.session().run(agent) { agent in
            try agent.publish(raw)
            context.printer.print(raw)
        }
    }
}

/// `raw observe FILTER`: prints each raw message until SIGTERM/SIGINT.
struct RawObserveCommand: RunnerCommand {
    static let configuration = CommandConfiguration(
        commandName: "observe", abstract: "Prints raw MQTT messages on a topic filter until stopped (Ctrl-C).")

    @Argument(help: "The MQTT topic filter (wildcards + and # allowed; coaty/… topics are never delivered).")
    var filter: String

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func execute(in context: CommandContext) async throws {
        let filter = self.filter
        _ = try context.check("FILTER") { () throws(EventError) in try ObservationPlan.raw(filter) }
        // A filter the broker would refuse makes it drop the connection; say so before connecting.
        guard MQTTTopic.isValidTopicFilter(filter) else {
            throw RunnerError.usage(
                "FILTER",
                "'\(filter)' is not an MQTT topic filter ('#' only as the whole last level, '+' only as a whole level)")
        }
        let agent = try context.agent(defaultName: "agent-runner raw observe", reconnect: ReconnectPolicy())
        try await context.session().run(agent) { agent in
            let messages = try await agent.observeRaw(filter)
            try await cancelWhenGracefulShutdown {
                for try await raw in messages { context.printer.print(raw) }
            }
        }
    }
}
