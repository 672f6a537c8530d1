import Agent
import ArgumentParser
import CoreTypes

/// `advertise --object JSON | --file F [--repeat N --interval D]`: publishes Advertise events.
struct AdvertiseCommand: RunnerCommand {
    static let configuration = CommandConfiguration(
        commandName: "advertise",
        abstract: "Publishes Advertise events for one object or an array of objects.",
        discussion: "An object without an objectId gets a fresh one. Prints each event it published.")

    @Option(help: "The object as JSON, or a JSON array of objects.")
    var object: String?

    @Option(help: "A JSON file with the object or array ('-' reads standard input).")
    var file: String?

    @Option(name: .customLong("repeat"), help: "How many times to publish.")
    var repetitions = 1

    @Option(help: "The pause between repetitions, like 500ms, 2s or 1m.")
    var interval = DurationArgument(.seconds(1), text: "1s")

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func validate() throws {
        guard repetitions >= 1 else { throw ValidationError("--repeat: must be 1 or more, not \(repetitions)") }
    }

    func execute(in context: CommandContext) async throws {
        let (json, option) = try Input.objectJSON(object: object, file: file)
        let events = try Input.objects(json, option: option).map { Advertise(object: $0) }
        for event in events { _ = try context.check(option) { () throws(EventError) in try event.publications(in: context.checkScope) } }
        let agent = try context.agent(defaultName: "agent-runner advertise", reconnect: CommandContext.oneShot)
        let (repetitions, interval) = (self.repetitions, self.interval.duration)
        try await context.session().run(agent) { agent in
            for round in 1...repetitions {
                for event in events {
                    try agent.publish(event)
                    try context.printPublished(event, topics: event.publications(in: agent.scope).map(\.topic))
                }
                if round < repetitions, !(await CommandContext.pause(interval)) { return }
            }
        }
    }
}

/// `deadvertise ID…`: publishes one Deadvertise event for the object ids.
struct DeadvertiseCommand: RunnerCommand {
    static let configuration = CommandConfiguration(
        commandName: "deadvertise", abstract: "Publishes a Deadvertise event for object ids.")

    @Argument(help: "The object ids.")
    var ids: [String]

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func validate() throws {
        guard !ids.isEmpty else { throw ValidationError("give at least one object id") }
    }

    func execute(in context: CommandContext) async throws {
        let event = Deadvertise(objectIDs: ids)
        _ = try context.check("ID") { () throws(EventError) in try event.publication(in: context.checkScope) }
        let agent = try context.agent(defaultName: "agent-runner deadvertise", reconnect: CommandContext.oneShot)
        try await context.session().run(agent) { agent in
            try agent.publish(event)
            try context.printPublished(event, topics: [event.publication(in: agent.scope).topic])
        }
    }
}

/// `channel ID --object JSON | --file F`: publishes a Channel event.
struct ChannelCommand: RunnerCommand {
    static let configuration = CommandConfiguration(
        commandName: "channel", abstract: "Publishes a Channel event with one object or an array of objects.")

    @Argument(help: "The channel id.")
    var id: String

    @Option(help: "The object as JSON, or a JSON array of objects.")
    var object: String?

    @Option(help: "A JSON file with the object or array ('-' reads standard input).")
    var file: String?

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func execute(in context: CommandContext) async throws {
        let (json, option) = try Input.objectJSON(object: object, file: file)
        let objects = try Input.objects(json, option: option)
        let event = json.arrayValue == nil && objects.count == 1
            ? Channel(id: id, object: objects[0]) : Channel(id: id, objects: objects)
        _ = try context.check("ID") { () throws(EventError) in try event.publication(in: context.checkScope) }
        let agent = try context.agent(defaultName: "agent-runner channel", reconnect: CommandContext.oneShot)
        try await context.session().run(agent) { agent in
            try agent.publish(event)
            try context.printPublished(event, topics: [event.publication(in: agent.scope).topic])
        }
    }
}

extension CommandContext {
    /// Prints an event this agent published, as the monitor would show it.
    func printPublished(_ event: some CoatyEvent, topics: [String]) throws {
        guard let first = topics.first, let topic = try CoatyTopic(parsing: first) else { return }
        printer.print(topic: topic, json: try event.json(), bytes: [])
    }
}
