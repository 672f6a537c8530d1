import Agent
import ArgumentParser
import CoreTypes
import Foundation

/// `replay FILE [--speed X] [--namespace NS]`: publishes a `monitor --record` file again (the
/// global `--namespace`, or `COATY_NAMESPACE`, moves Coaty topics to that namespace).
struct ReplayCommand: RunnerCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay", abstract: "Publishes the events of a monitor --record file again, with their timing.",
        discussion: """
            Each line is published on its original topic with its payload byte for byte, after the \
            time that separated it from the line before (divided by --speed; --speed 0 publishes as \
            fast as possible). --namespace (or COATY_NAMESPACE) moves Coaty topics to that namespace. \
            The whole file is \
            checked first: bad lines are reported with their line number and nothing is published (exit 2).
            """)

    @Argument(help: "The recording: JSON lines written by monitor --record.")
    var file: String

    @Option(help: "Replay this many times faster (0: as fast as possible).")
    var speed: Double = 1

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    /// One recorded message.
    struct Entry: Sendable {
        let receivedAt: Double
        let topic: String
        let payload: [UInt8]
        let retain: Bool
    }

    func validate() throws {
        guard speed >= 0, speed.isFinite else { throw ValidationError("--speed: must be 0 or more, not \(speed)") }
    }

    func execute(in context: CommandContext) async throws {
        let entries = try Self.entries(Input.read(file, option: "FILE"), file: file, namespace: context.settings.namespace)
        let agent = try context.agent(defaultName: "agent-runner replay", reconnect: CommandContext.oneShot)
        let speed = self.speed
        try await context.session().run(agent) { agent in
            let start = ContinuousClock.now
            for entry in entries {
                if speed > 0, let first = entries.first {
                    let due = start + .milliseconds((entry.receivedAt - first.receivedAt) / speed)
                    try await Task.sleep(until: due, clock: .continuous)
                }
                try agent.publishRecorded(topic: entry.topic, payload: entry.payload, retain: entry.retain)
            }
            context.output.note("replay: published \(entries.count) message\(entries.count == 1 ? "" : "s")")
        }
    }

    /// The entries of a recording; every bad line is reported (`FILE:LINE: why`) before it throws.
    static func entries(_ bytes: [UInt8], file: String, namespace: String?) throws -> [Entry] {
        try Input.jsonLines(bytes, source: file, unlessBad: "nothing was published") { json in
            try entry(json, namespace: namespace)
        }
    }

    private static func entry(_ json: JSONValue, namespace: String?) throws -> Entry {
        guard let topic = json["topic"]?.stringValue, let receivedAt = json["receivedAt"]?.doubleValue else {
            throw RunnerError(code: .usage, message: "needs topic (text) and receivedAt (milliseconds)")
        }
        let payload: [UInt8]
        if let text = json["payload"]?.stringValue {
            payload = Array(text.utf8)
        } else if let base64 = json["payloadBase64"]?.stringValue, let data = Data(base64Encoded: base64) {
            payload = Array(data)
        } else {
            throw RunnerError(code: .usage, message: "needs payload (text) or payloadBase64")
        }
        var levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        if let namespace, levels.count > 3, levels[0] == "coaty" { levels[2] = Substring(namespace) }
        let moved = levels.joined(separator: "/")
        guard MQTTTopic.isValidTopic(moved) else { throw RunnerError(code: .usage, message: "'\(moved)' is not a valid topic") }
        return Entry(receivedAt: receivedAt, topic: moved, payload: payload, retain: json["retain"]?.boolValue ?? false)
    }
}
