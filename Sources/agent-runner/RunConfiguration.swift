import Agent
import CoreTypes
import Logging

/// The configuration file of `agent-runner run` (JSON or YAML), checked member by member.
///
/// ```yaml
/// name: Lamp controller
/// identityId: 5c3e1a2b-7d4f-4e6a-9b8c-0d1e2f3a4b5c
/// broker: mqtt://127.0.0.1:1883
/// namespace: building-7
/// objects:
///   - objectType: com.example.Light
///     coreType: CoatyObject
///     name: Desk lamp
/// ioNodes:
///   kitchen:
///     ioSources:
///       - { objectId: 7f1e2d3c-4b5a-4c6d-9e8f-1a2b3c4d5e6f, name: Thermometer, valueType: "number[Celsius]" }
/// operations:
///   com.example.ping: { result: { ok: true } }
///   com.example.reboot: { command: /usr/local/bin/reboot-lamp }
/// controllers:
///   ObjectLifecycleController: { discoverTimeout: 2 }
/// logging:
///   remoteLevel: warning
/// storage:
///   database: sqlite:/var/lib/coaty/recorder.db   # or postgres://user@host:5432/database
///   record: { objectTypes: [com.example.Light], coreTypes: [Task] }
///   answer: true
/// historian:
///   database: sqlite:/var/lib/coaty/historian.db
///   snapshot: { objectTypes: [com.example.Light], tags: [observed] }
///   persistLocal: true
///   answer: true
/// responderGroup: light-service   # replicas of one service: each request reaches one of them
/// ```
///
/// Every agent setting can also come from the command line or the environment, which win.
struct RunConfiguration {
    var name: String?
    var identityID: String?
    var broker: String?
    var namespace: String?
    var isCrossNamespacing: Bool?
    var username: String?
    var password: String?
    var caFile: String?
    var certFile: String?
    var keyFile: String?
    /// The objects the agent holds, as JSON (decoded by the container's object provider).
    var objects: [JSONValue] = []
    /// The agent's IO nodes, one per IO context (coaty-js's `common.ioContextNodes`).
    var ioNodes: [IoNode] = []
    /// Where `/metrics` and `/healthz` are served (`host:port`), if anywhere.
    var metrics: String?
    /// The Calls the agent answers, by operation name.
    var operations: [OperationController.Operation] = []
    /// Built-in controllers by type name, with their options.
    var controllers: [(name: String, options: JSONObject)] = []
    /// The lowest level advertised as Coaty `Log` objects; `nil` advertises none.
    var remoteLogLevel: Logger.Level?
    /// Tags added to every advertised `Log`.
    var logTags: [String] = []
    /// The store the agent records into and answers from, if any.
    var storage: StorageSettings?
    /// The historian that snapshots observed objects into a database, if any.
    var historian: HistorianSettings?
    /// The responder group every request the agent answers is shared in, if any.
    var responderGroup: String?

    static let members: Set<String> = [
        "name", "identityId", "broker", "namespace", "crossNamespace", "username", "password", "passwordFile",
        "caFile", "certFile", "keyFile", "objects", "ioNodes", "operations", "controllers", "logging", "metrics",
        "storage", "historian", "responderGroup",
    ]

    /// Reads and checks the file.
    ///
    /// - Throws: ``RunnerError`` (exit 2) naming the file, the member and what is wrong.
    static func load(_ path: String) throws -> RunConfiguration {
        let json = try ConfigurationFile.load(path)
        do {
            return try RunConfiguration(json: json)
        } catch let error as RunnerError {
            throw RunnerError.usage("--config", "'\(path)': \(error.message)")
        }
    }

    init(json: JSONValue) throws {
        guard let root = json.objectValue else {
            throw Self.invalid("the file", "must be a mapping (an object), found \(json.typeName)")
        }
        for key in root.keys where !Self.members.contains(key) {
            throw Self.invalid(
                key, "is not a configuration member (known: \(Self.members.sorted().joined(separator: ", ")))")
        }
        name = try Self.string(root, "name")
        identityID = try Self.string(root, "identityId")
        broker = try Self.string(root, "broker")
        namespace = try Self.string(root, "namespace")
        if let value = root["crossNamespace"] {
            guard let flag = value.boolValue else { throw Self.invalid("crossNamespace", "must be true or false") }
            isCrossNamespacing = flag
        }
        username = try Self.string(root, "username")
        password = try Self.string(root, "password")
        if let file = try Self.string(root, "passwordFile") {
            guard password == nil else { throw Self.invalid("passwordFile", "give password or passwordFile, not both") }
            let bytes = try Input.read(file, option: "passwordFile")
            password = String(decoding: bytes, as: UTF8.self).trimmingSuffix { $0 == "\n" || $0 == "\r" }
        }
        caFile = try Self.string(root, "caFile")
        certFile = try Self.string(root, "certFile")
        keyFile = try Self.string(root, "keyFile")
        if let value = root["objects"] {
            guard let list = value.arrayValue else { throw Self.invalid("objects", "must be a list of Coaty objects") }
            objects = list
        }
        if let value = root["ioNodes"] {
            guard let map = value.objectValue else {
                throw Self.invalid("ioNodes", "must map IO context names to their ioSources, ioActors and characteristics")
            }
            ioNodes = try map.map { name, node in try Self.ioNode(name, node) }
        }
        metrics = try Self.string(root, "metrics")
        responderGroup = try Self.string(root, "responderGroup")
        if let group = responderGroup, !CoatyTopic.isValidEventFilter(group) {
            throw Self.invalid(
                "responderGroup", "'\(group)' must be one MQTT topic level: not empty, without '/', '+', '#' or NUL")
        }
        if let value = root["operations"] {
            guard let map = value.objectValue else {
                throw Self.invalid("operations", "must map operation names to { result: JSON } or { command: TEXT }")
            }
            operations = try map.map { name, answer in try Self.operation(name, answer) }
        }
        if let value = root["controllers"] {
            guard let map = value.objectValue else {
                throw Self.invalid("controllers", "must map controller names to their options")
            }
            for (name, options) in map {
                guard ControllerComponent.builtIn(name) != nil else {
                    throw Self.invalid(
                        "controllers.\(name)",
                        "is not a built-in controller (one of \(ControllerComponent.builtInNames.joined(separator: ", ")))"
                    )
                }
                switch options {
                case .null: controllers.append((name, JSONObject()))
                case .object(let members): controllers.append((name, members))
                default:
                    throw Self.invalid("controllers.\(name)", "options must be a mapping, found \(options.typeName)")
                }
            }
        }
        if let value = root["storage"] { storage = try StorageSettings(json: value) }
        if let value = root["historian"] { historian = try HistorianSettings(json: value) }
        if let value = root["logging"] {
            guard let logging = value.objectValue else { throw Self.invalid("logging", "must be a mapping") }
            for key in logging.keys where key != "remoteLevel" && key != "tags" {
                throw Self.invalid("logging.\(key)", "is not a logging member (remoteLevel, tags)")
            }
            if let level = try Self.string(logging, "remoteLevel", at: "logging.") {
                guard let parsed = Logger.Level(rawValue: level.lowercased()) else {
                    throw Self.invalid(
                        "logging.remoteLevel", "'\(level)' is not one of trace, debug, info, warning, error")
                }
                remoteLogLevel = parsed
            }
            if let tags = logging["tags"] {
                guard let list = tags.arrayValue?.compactMap(\.stringValue), list.count == tags.arrayValue?.count else {
                    throw Self.invalid("logging.tags", "must be a list of strings")
                }
                logTags = list
            }
        }
    }

    /// One IO node: `{ioSources: [...], ioActors: [...], characteristics: {...}}`; each source and
    /// actor is a Coaty object whose `objectType` and `coreType` may be left out.
    private static func ioNode(_ name: String, _ json: JSONValue) throws -> IoNode {
        let at = "ioNodes.\(name)"
        guard CoatyTopic.isValidEventFilter(name) else {
            throw invalid(at, "is not a usable IO context name (non-empty, without '/', '+', '#' or NUL)")
        }
        guard let members = json.objectValue else {
            throw invalid(at, "must be a mapping with ioSources, ioActors and characteristics")
        }
        for key in members.keys where !["ioSources", "ioActors", "characteristics"].contains(key) {
            throw invalid("\(at).\(key)", "is not an IO node member (ioSources, ioActors, characteristics)")
        }
        func points<Point: JSONObjectDecodable & CoatyObject>(_ key: String, as type: Point.Type) throws -> [Point]? {
            guard let value = members[key] else { return nil }
            guard let list = value.arrayValue else { throw invalid("\(at).\(key)", "must be a list") }
            return try list.enumerated().map { index, element in
                guard var object = element.objectValue else {
                    throw invalid("\(at).\(key)[\(index)]", "must be a mapping (a Coaty object)")
                }
                if object["objectType"] == nil { object["objectType"] = .string(Point.objectType) }
                if object["coreType"] == nil { object["coreType"] = .string(Point.coreType.rawValue) }
                do {
                    return try Point(jsonObject: object)
                } catch {
                    throw invalid("\(at).\(key)[\(index)]", "is not a valid \(Point.coreType.rawValue): \(error)")
                }
            }
        }
        var characteristics: JSONObject?
        if let value = members["characteristics"] {
            guard let object = value.objectValue else { throw invalid("\(at).characteristics", "must be a mapping") }
            characteristics = object
        }
        return IoNode(
            name: name, ioSources: try points("ioSources", as: IoSource.self),
            ioActors: try points("ioActors", as: IoActor.self), characteristics: characteristics)
    }

    private static func string(_ object: JSONObject, _ key: String, at prefix: String = "") throws -> String? {
        guard let value = object[key] else { return nil }
        guard let text = value.stringValue else {
            throw invalid(prefix + key, "must be a string, found \(value.typeName)")
        }
        return text
    }

    static func invalid(_ member: String, _ why: String) -> RunnerError {
        RunnerError(code: .usage, message: "\(member) \(why)")
    }
}

extension String {
    /// The string without the trailing characters that satisfy `isTrimmed`.
    fileprivate func trimmingSuffix(while isTrimmed: (Character) -> Bool) -> String {
        var result = self
        while let last = result.last, isTrimmed(last) { result.removeLast() }
        return result
    }
}

extension RunConfiguration {
    /// One member of `operations`: a fixed `result`, or a `command` that computes it.
    static func operation(_ name: String, _ answer: JSONValue) throws -> OperationController.Operation {
        let path = "operations.\(name)"
        guard CoatyTopic.isValidEventFilter(name) else {
            throw invalid(path, "'\(name)' is not a valid operation name (non-empty, without '/', '+', '#')")
        }
        guard let members = answer.objectValue, members.count == 1 else {
            throw invalid(path, "must be { result: JSON } or { command: TEXT }")
        }
        if let result = members["result"] { return .init(name: name, answer: .result(result)) }
        if let command = members["command"]?.stringValue, !command.isEmpty {
            return .init(name: name, answer: .command(command))
        }
        throw invalid(path, "must be { result: JSON } or { command: TEXT } (a non-empty shell command)")
    }
}
