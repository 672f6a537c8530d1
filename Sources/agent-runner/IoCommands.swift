import Agent
import ArgumentParser
import CoreTypes
import Foundation
import ServiceLifecycle

/// `io source` and `io actor`: an agent with one IO node, for trying IO routing from a shell.
struct IoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "io", abstract: "Joins with one IO source or IO actor (an IO router associates them).",
        subcommands: [IoSourceCommand.self, IoActorCommand.self])
}

/// `io source --context NAME --source-id ID --value-type T [--update-strategy S --update-rate MS] [--raw]`.
struct IoSourceCommand: RunnerCommand {
    static let configuration = CommandConfiguration(
        commandName: "source",
        abstract: "Publishes each line of standard input as an IO value while a router has associated the source.",
        discussion: """
            Each line is a JSON value (base64 bytes with --raw). A line that is not valid is reported on \
            stderr and the next one still goes. While the source is not associated the command waits \
            (and says so), so no line is lost; at the end of the input it deadvertises and exits.
            """)

    @OptionGroup(title: "IO Point") var point: IoPointOptions

    @Option(name: .customLong("source-id"), help: "The object id of the IO source (default: a new UUID).")
    var sourceID: String?


    @Option(
        name: .customLong("update-strategy"),
        help: "default, none, sample or throttle (how a recommended update rate paces the values).")
    var updateStrategy: String?

    @Option(name: .customLong("update-rate"), help: "The desired interval between values, in milliseconds.")
    var updateRate: Double?

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func execute(in context: CommandContext) async throws {
        let strategy = try updateStrategy.map(Self.strategy)
        if let updateRate, !(updateRate >= 0) { throw RunnerError.usage("--update-rate", "must not be negative") }
        let source = IoSource(
            objectID: sourceID ?? ObjectID.make(), name: "agent-runner io source", valueType: point.valueType,
            updateStrategy: strategy, updateRate: updateRate, useRawIoValues: point.raw ? true : nil)
        let node = try IoCommand.node(point.context, sources: [source])
        let agent = try context.agent(defaultName: "agent-runner io source", reconnect: ReconnectPolicy(), ioNodes: [node])
        let raw = point.raw
        try await context.session().run(agent) { agent in
            let controller = IoSourceController(agent: agent, logger: context.logger)
            try await controller.initialize()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await controller.run() }
                var number = 0
                for await line in IoCommand.standardInputLines() {
                    number += 1
                    guard let value = Self.value(line, raw: raw, number: number, output: context.output) else { continue }
                    if !controller.isAssociated(source.objectID) {
                        context.output.note("waiting for an IO router to associate source \(source.objectID)…")
                        await controller.observeAssociation(of: source.objectID) { states in
                            for await associated in states where associated { break }
                        }
                    }
                    try controller.publish(value, from: source.objectID)
                }
                try await controller.willStop()
                try await group.waitForAll()
            }
        }
    }

    /// The value of one input line, or `nil` after saying on stderr what is wrong with it.
    static func value(_ line: String, raw: Bool, number: Int, output: Output) -> IoValue? {
        if raw {
            guard let data = Data(base64Encoded: line) else {
                output.note("line \(number): not base64; skipped")
                return nil
            }
            return .raw(Array(data))
        }
        do {
            return .json(try JSONValue(parsing: Array(line.utf8)))
        } catch {
            output.note("line \(number): not JSON (\(error)); skipped")
            return nil
        }
    }

    static func strategy(_ name: String) throws -> IoSourceBackpressureStrategy {
        switch name.lowercased() {
        case "default": .default
        case "none": .noBackpressure
        case "sample": .sample
        case "throttle": .throttle
        default: throw RunnerError.usage("--update-strategy", "'\(name)' is not one of default, none, sample, throttle")
        }
    }
}

/// `io actor --context NAME --actor-id ID --value-type T [--raw]`: prints each value until stopped.
struct IoActorCommand: RunnerCommand {
    static let configuration = CommandConfiguration(
        commandName: "actor",
        abstract: "Prints each IO value the actor receives, and its association changes, until stopped (Ctrl-C).",
        discussion: """
            JSON output has one object per line: {"event":"IoValue","actorId":…,"data":…} (raw values \
            as base64 in data, with "raw":true) and {"event":"Association","actorId":…,"associated":…}.
            """)

    @OptionGroup(title: "IO Point") var point: IoPointOptions

    @Option(name: .customLong("actor-id"), help: "The object id of the IO actor (default: a new UUID).")
    var actorID: String?


    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func execute(in context: CommandContext) async throws {
        let actor = IoActor(
            objectID: actorID ?? ObjectID.make(), name: "agent-runner io actor", valueType: point.valueType,
            useRawIoValues: point.raw ? true : nil)
        let node = try IoCommand.node(point.context, actors: [actor])
        let agent = try context.agent(defaultName: "agent-runner io actor", reconnect: ReconnectPolicy(), ioNodes: [node])
        let output = context.output
        try await context.session().run(agent) { agent in
            try await cancelWhenGracefulShutdown {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        try await agent.observeIoState(of: actor.objectID) { states in
                            var last: Bool?
                            for try await state in states where state.hasAssociations != last {
                                last = state.hasAssociations
                                Self.print(association: state.hasAssociations, of: actor.objectID, to: output)
                            }
                        }
                    }
                    group.addTask {
                        try await agent.observeIoValue(ofActor: actor.objectID) { values in
                            for try await value in values { Self.print(value, of: actor.objectID, to: output) }
                        }
                    }
                    try await group.waitForAll()
                }
            }
        }
    }

    static func print(_ value: IoValue, of actorID: String, to output: Output) {
        switch (value, output.mode) {
        case (.json(let json), .json):
            output.json(["event": "IoValue", "actorId": .string(actorID), "data": json])
        case (.raw(let bytes), .json):
            output.json([
                "event": "IoValue", "actorId": .string(actorID), "raw": true,
                "data": .string(Data(bytes).base64EncodedString()),
            ])
        case (.json(let json), .text):
            output.line("IoValue      \(json.serializedString())")
        case (.raw(let bytes), .text):
            output.line("IoValue      \(bytes.count) bytes: \(Data(bytes).base64EncodedString())")
        }
    }

    static func print(association: Bool, of actorID: String, to output: Output) {
        switch output.mode {
        case .json: output.json(["event": "Association", "actorId": .string(actorID), "associated": .bool(association)])
        case .text: output.line(association ? "Associated   \(actorID)" : "Disassociated \(actorID)")
        }
    }
}

/// The options `io source` and `io actor` share.
struct IoPointOptions: ParsableArguments {
    @Option(help: "The IO context name.")
    var context: String

    @Option(name: .customLong("value-type"), help: "The value type, such as 'number[Celsius]'.")
    var valueType: String

    @Flag(help: "Values are raw bytes instead of JSON: base64 lines in and out.")
    var raw = false
}

extension IoCommand {
    /// The agent's one IO node in `context`.
    static func node(_ context: String, sources: [IoSource] = [], actors: [IoActor] = []) throws -> IoNode {
        guard CoatyTopic.isValidEventFilter(context) else {
            throw RunnerError.usage("--context", "'\(context)' must be non-empty without '/', '+', '#' or NUL")
        }
        return IoNode(name: context, ioSources: sources, ioActors: actors)
    }

    /// The lines of standard input, read on a thread of their own (the input may block for ever).
    static func standardInputLines() -> AsyncStream<String> {
        AsyncStream { continuation in
            let reader = Thread {
                while let line = readLine(strippingNewline: true) { continuation.yield(line) }
                continuation.finish()
            }
            reader.start()
        }
    }
}
