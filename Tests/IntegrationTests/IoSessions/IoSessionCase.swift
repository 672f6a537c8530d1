import CoreTypes
import Foundation
import Testing
import TestSupport

/// One scenario of `io-sessions.json`: its agents as configured in coaty-js, the actions of each
/// step, the messages the capture client saw per step and what the agents' IO observers emitted.
struct IoSessionCase: Sendable, CustomTestStringConvertible {
    typealias MalformedCase = SessionCase.MalformedCase

    /// One agent: its identity, IO nodes by context name, controllers and, for a router, its set-up.
    struct Role: Sendable {
        let label: String
        let id: String
        let name: String
        /// `common.ioContextNodes`: IO context name → `{ioSources, ioActors, characteristics}`.
        let ioContextNodes: [(context: String, node: JSONValue)]
        /// The coaty-js controller classes (`IoSourceController`, `BasicIoRouter`, …).
        let controllers: [String]
        /// `router`: `{type, ioContext, rules?}`.
        let router: JSONValue?
    }

    /// One action of a step, as the generator ran it.
    enum Action: Sendable {
        case start(agent: String)
        case publish(agent: String, source: String, value: IoValue)
        case shutdown(agent: String)
        case kill(agent: String)
        case externalPublish(topic: String, payload: [UInt8])
    }

    /// One step: its actions, and the messages captured while it ran.
    struct Step: Sendable {
        let label: String
        let actions: [Action]
        let messages: [SessionCase.Message]
    }

    /// One emission of an application-facing IO observable.
    struct Observation: Sendable, Hashable, CustomStringConvertible {
        let step: String
        let agent: String
        /// The coaty-js observable (`IoActorController.observeIoValue`, …).
        let via: String
        let ioPoint: String
        /// The value with the vector's sentinels (`{"$undefined": true}`, `{"$bytesHex": …}`).
        let value: JSONValue

        var key: String { "\(agent) \(via) of \(ioPoint)" }
        var description: String { "[\(step)] \(value)" }
    }

    let name: String
    let summary: String
    let roles: [Role]
    let steps: [Step]
    let observed: [Observation]

    var testDescription: String { name }

    /// Every scenario of `io-sessions.json` (in `folder`, default: the vectors the tests read).
    static func all(in folder: URL? = nil) throws -> [IoSessionCase] {
        try VectorFiles.jsonCases("io-sessions.json", in: folder).map(IoSessionCase.init(json:))
    }

    /// The role labelled `label`.
    func role(_ label: String) throws -> Role {
        guard let role = roles.first(where: { $0.label == label }) else {
            throw MalformedCase(description: "\(name): no agent labelled '\(label)'")
        }
        return role
    }

    init(json: JSONValue) throws {
        guard let name = json["name"]?.stringValue, let input = json["input"], let expected = json["expected"] else {
            throw MalformedCase(description: "an io-sessions.json case without name, input or expected: \(json)")
        }
        self.name = name
        self.summary = json["description"]?.stringValue ?? ""
        self.roles = try (json["agents"]?.arrayValue ?? []).map { try Self.role($0, in: name) }
        let inputSteps = input["steps"]?.arrayValue ?? []
        let expectedSteps = expected["steps"]?.arrayValue ?? []
        guard inputSteps.count == expectedSteps.count else {
            throw MalformedCase(
                description: "\(name): \(inputSteps.count) input steps but \(expectedSteps.count) expected steps")
        }
        self.steps = try zip(inputSteps, expectedSteps).map { input, expected in
            guard let label = input["label"]?.stringValue, expected["label"]?.stringValue == label else {
                throw MalformedCase(description: "\(name): a step without label, or labelled apart: \(input)")
            }
            return Step(
                label: label,
                actions: try (input["actions"]?.arrayValue ?? []).map { try Self.action($0, in: name) },
                messages: try (expected["messages"]?.arrayValue ?? []).map { try SessionCase.message($0, in: name) })
        }
        self.observed = try (expected["observed"]?.arrayValue ?? []).map { entry in
            guard let step = entry["step"]?.stringValue, let agent = entry["agent"]?.stringValue,
                let via = entry["via"]?.stringValue, let ioPoint = entry["ioPoint"]?.stringValue,
                let value = entry["value"]
            else {
                throw MalformedCase(description: "\(name): an observed entry without step, agent, via, ioPoint or value")
            }
            return Observation(step: step, agent: agent, via: via, ioPoint: ioPoint, value: value)
        }
    }

    private static func role(_ json: JSONValue, in name: String) throws -> Role {
        guard let label = json["label"]?.stringValue, let id = json["id"]?.stringValue,
            let agentName = json["name"]?.stringValue
        else {
            throw MalformedCase(description: "\(name): an agent without label, id or name: \(json)")
        }
        let nodes = json["ioContextNodes"]?.objectValue.map { object in object.map { ($0.key, $0.value) } } ?? []
        return Role(
            label: label, id: id, name: agentName, ioContextNodes: nodes,
            controllers: (json["controllers"]?.arrayValue ?? []).compactMap(\.stringValue), router: json["router"])
    }

    private static func action(_ json: JSONValue, in name: String) throws -> Action {
        let agent = json["agent"]?.stringValue
        switch (json["action"]?.stringValue, agent) {
        case ("start", let agent?): return .start(agent: agent)
        case ("shutdown", let agent?): return .shutdown(agent: agent)
        case ("kill", let agent?): return .kill(agent: agent)
        case ("publish", let agent?):
            guard let source = json["ioSource"]?.stringValue, let value = json["value"] else {
                throw MalformedCase(description: "\(name): a publish action without ioSource or value: \(json)")
            }
            if let hex = value["$bytesHex"]?.stringValue {
                return .publish(agent: agent, source: source, value: .raw(try SessionCase.bytes(hex: hex, in: name)))
            }
            return .publish(agent: agent, source: source, value: .json(value))
        case ("externalPublish", _):
            guard let topic = json["topic"]?.stringValue, let payload = json["payload"]?.stringValue else {
                throw MalformedCase(description: "\(name): an externalPublish action without topic or payload: \(json)")
            }
            return .externalPublish(topic: topic, payload: Array(payload.utf8))
        default:
            throw MalformedCase(description: "\(name): an action this harness does not know: \(json)")
        }
    }
}
