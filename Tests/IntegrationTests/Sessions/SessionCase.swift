import CoreTypes
import Foundation
import Testing
import TestSupport

/// One scenario of `sessions.json`: the agents, the captured wire messages per step and what the
/// agents' observers received.
struct SessionCase: Sendable, CustomTestStringConvertible {
    /// A vector file entry that does not have the shape the README describes.
    struct MalformedCase: Error, CustomStringConvertible {
        let description: String
    }

    /// One agent of the scenario.
    struct Role: Sendable {
        /// The label `observed` uses: `A` for the agent named "Agent A".
        let label: String
        let id: String
        let name: String
        let namespace: String
        let isCrossNamespacing: Bool
    }

    /// One MQTT message as the capture client (or our recorder) saw it.
    struct Message: Sendable, Hashable, CustomStringConvertible {
        let topic: String
        let payload: [UInt8]
        let retain: Bool
        let qos: Int

        /// The identity that published it: the source level of a Coaty topic, else `external`.
        var publisher: String {
            let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
            guard levels.count >= 5, levels[0] == "coaty" else { return "external" }
            return String(levels[4])
        }

        /// The correlation level of a Coaty topic (the sixth), if there is one.
        var correlationID: String? {
            let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
            guard levels.count >= 6, levels[0] == "coaty" else { return nil }
            return String(levels[5])
        }

        var payloadText: String { String(decoding: payload, as: UTF8.self) }

        var description: String {
            "\(topic) \(payloadText)\(retain ? " [retain]" : "")\(qos != 0 ? " [qos \(qos)]" : "")"
        }
    }

    /// One phase of the scenario and the messages captured during it.
    struct Step: Sendable {
        let label: String
        let messages: [Message]
    }

    /// One event an application observer received.
    struct Observation: Sendable, Hashable, CustomStringConvertible {
        let agent: String
        let via: String
        let event: String
        let sourceID: String
        /// The event data as JSON (parsed from its text, so `1.0` and `1` compare as coaty-js prints them).
        let data: JSONValue

        var description: String { "\(agent) \(via): \(event) from \(sourceID) \(data)" }
    }

    let name: String
    let summary: String
    let roles: [Role]
    let steps: [Step]
    let observed: [Observation]
    /// Error lines the coaty-js agents logged (informative only, as the README says).
    let agentLogs: JSONValue?

    var testDescription: String { name }

    /// The role with `label`.
    func role(_ label: String) -> Role? { roles.first { $0.label == label } }

    /// Every scenario of `sessions.json` (in `folder`, default: the vectors the tests read).
    static func all(in folder: URL? = nil) throws -> [SessionCase] {
        try VectorFiles.jsonCases("sessions.json", in: folder).map(SessionCase.init(json:))
    }

    init(json: JSONValue) throws {
        guard let name = json["name"]?.stringValue, let expected = json["expected"] else {
            throw MalformedCase(description: "a sessions.json case without name or expected: \(json)")
        }
        self.name = name
        self.summary = json["description"]?.stringValue ?? ""
        self.roles = try (json["agents"]?.arrayValue ?? []).map { agent in
            guard let id = agent["id"]?.stringValue, let agentName = agent["name"]?.stringValue else {
                throw MalformedCase(description: "\(name): an agent without id or name: \(agent)")
            }
            let label = agentName.hasPrefix("Agent ") ? String(agentName.dropFirst("Agent ".count)) : agentName
            return Role(
                label: label, id: id, name: agentName, namespace: agent["namespace"]?.stringValue ?? "-",
                isCrossNamespacing: agent["crossNamespace"]?.boolValue ?? false)
        }
        self.steps = try (expected["steps"]?.arrayValue ?? []).map { step in
            guard let label = step["label"]?.stringValue else {
                throw MalformedCase(description: "\(name): a step without label: \(step)")
            }
            let messages = try (step["messages"]?.arrayValue ?? []).map { try Self.message($0, in: name) }
            return Step(label: label, messages: messages)
        }
        self.observed = try (expected["observed"]?.arrayValue ?? []).map { entry in
            guard let agent = entry["agent"]?.stringValue, let via = entry["via"]?.stringValue,
                let event = entry["event"]?.stringValue, let sourceID = entry["sourceId"]?.stringValue
            else {
                throw MalformedCase(description: "\(name): an observed entry without agent, via, event or sourceId")
            }
            return Observation(agent: agent, via: via, event: event, sourceID: sourceID, data: entry["data"] ?? .null)
        }
        self.agentLogs = expected["agentLogs"]
    }

    /// One message of `expected.steps[].messages` (`payload` text or `payloadHex` bytes).
    static func message(_ json: JSONValue, in name: String) throws -> Message {
        guard let topic = json["topic"]?.stringValue else {
            throw MalformedCase(description: "\(name): a message without topic: \(json)")
        }
        let payload: [UInt8]
        if let text = json["payload"]?.stringValue {
            payload = Array(text.utf8)
        } else if let hex = json["payloadHex"]?.stringValue {
            payload = try bytes(hex: hex, in: name)
        } else {
            throw MalformedCase(description: "\(name): a message without payload or payloadHex: \(json)")
        }
        return Message(
            topic: topic, payload: payload, retain: json["retain"]?.boolValue ?? false, qos: json["qos"]?.intValue ?? 0)
    }

    /// The bytes that `hex` spells (`payloadHex`, `$bytesHex`).
    static func bytes(hex: String, in name: String) throws -> [UInt8] {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2) else { throw MalformedCase(description: "\(name): odd payloadHex \(hex)") }
        return try stride(from: 0, to: digits.count, by: 2).map { index in
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                throw MalformedCase(description: "\(name): invalid payloadHex \(hex)")
            }
            return byte
        }
    }
}
