import Agent
import CoreTypes
import Foundation
import Synchronization

/// Prints Coaty events: JSON lines (the contract of design.md §5) or aligned text rows with the
/// columns time, event, type, source name and summary.
///
/// It learns agent names from the identities it sees (Advertise and Resolve of core type
/// Identity), so the source column shows names rather than ids where it can.
final class EventPrinter: Sendable {
    let output: Output
    private let names = Mutex<[String: String]>([:])

    init(output: Output) {
        self.output = output
    }

    /// Remembers the name of an agent, to show it as the source of its events.
    func remember(identityID: String, name: String) {
        names.withLock { $0[identityID] = name }
    }

    /// Prints one event from its topic and its payload (`nil` when the payload is not JSON).
    func print(topic: CoatyTopic, payload: [UInt8]) {
        // JSON lines carry the payload as it came: checked, not parsed into a tree and written again.
        if output.mode == .json, let line = Self.jsonLine(topic: topic, payload: payload) { return output.line(line) }
        let json = try? JSONValue(parsing: payload)
        print(topic: topic, json: json, bytes: payload)
    }

    /// The JSON line of an event whose payload is JSON, with the payload's own bytes as `data`
    /// (numbers as written, duplicate keys kept); `nil` for any other payload.
    private static func jsonLine(topic: CoatyTopic, payload: [UInt8]) -> String? {
        guard (try? JSONParser().validate(payload)) != nil else { return nil }
        var head = JSONValue.object(header(of: topic)).serializedString()
        head.removeLast()  // the header's closing brace: data follows
        // Valid JSON is valid UTF-8 (the check reads every string that is not plain ASCII), and a
        // line break in it can only be whitespace between tokens (strings escape theirs): a space
        // keeps the line one line and the JSON the same.
        let data = payload.contains(where: { $0 == 0x0A || $0 == 0x0D })
            ? payload.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 } : payload
        return head + ",\"data\":" + String(decoding: data, as: UTF8.self) + "}"
    }

    /// The members of an event's JSON line before its data.
    private static func header(of topic: CoatyTopic) -> JSONObject {
        var line: JSONObject = [
            "event": .string(topic.eventType.description),
            "topic": .string(topic.name),
            "namespace": .string(topic.namespace),
            "sourceId": .string(topic.sourceID),
        ]
        if topic.eventType.isTwoWay {
            line["correlationId"] = topic.correlationID.map(JSONValue.string) ?? .null
        }
        return line
    }

    /// Prints a received (decoded) event; its payload is written back as JSON.
    func print<Event: CoatyEvent>(_ received: Received<Event>) {
        print(topic: received.topic, json: try? received.event.json(), bytes: [])
    }

    /// Prints one event.
    func print(topic: CoatyTopic, json: JSONValue?, bytes: [UInt8]) {
        learnNames(from: json)
        switch output.mode {
        case .json:
            var line = Self.header(of: topic)
            Self.setData(json, bytes: bytes, in: &line)
            output.json(line)
        case .text:
            let description = EventSummary(eventType: topic.eventType, filter: topic.eventTypeFilter, data: json)
            row(
                event: topic.eventType.description, type: description.type, source: sourceName(topic.sourceID),
                summary: json == nil ? Self.text(of: bytes) : description.summary)
        }
    }

    /// Prints a raw MQTT message.
    func print(_ raw: Raw) {
        switch output.mode {
        case .json:
            var line: JSONObject = ["event": "Raw", "topic": .string(raw.topic)]
            if raw.retain { line["retain"] = true }
            Self.setData(try? JSONValue(parsing: raw.payload), bytes: raw.payload, in: &line)
            output.json(line)
        case .text:
            row(event: "Raw", type: raw.topic, source: "-", summary: Self.text(of: raw.payload))
        }
    }

    /// Prints an aligned text row, cut to the terminal's width.
    func row(event: String, type: String, source: String, summary: String) {
        let time = Self.clock()
        var text = time + "  " + Self.pad(event, 11) + "  " + Self.pad(type, 24) + "  " + Self.pad(source, 18) + "  "
        let room = max(output.width - text.count, 20)
        text += summary.count > room ? String(summary.prefix(room - 1)) + "…" : summary
        output.line(text)
    }

    /// The name learned for the agent with this identity id, if any.
    func knownName(_ id: String) -> String? {
        names.withLock { $0[id] }
    }

    /// The name of the agent with this identity id, or the start of the id.
    func sourceName(_ id: String) -> String {
        names.withLock { $0[id] } ?? Self.shortID(id)
    }

    /// The start of an id, for a column: `5c3e1a2b…`.
    static func shortID(_ id: String) -> String {
        id.count > 8 ? String(id.prefix(8)) + "…" : id
    }

    /// The objects an event payload carries (`object`, `objects`).
    static func objects(in json: JSONValue?) -> [JSONValue] {
        guard let json else { return [] }
        return (json["object"].map { [$0] } ?? []) + (json["objects"]?.arrayValue ?? [])
    }

    /// Learns agent names from the identities in an event payload.
    func learnNames(from json: JSONValue?) {
        for object in Self.objects(in: json) where object["coreType"]?.stringValue == CoreType.identity.rawValue {
            if let id = object["objectId"]?.stringValue, let name = object["name"]?.stringValue {
                remember(identityID: id, name: name)
            }
        }
    }

    /// `data`: the JSON payload; or, when it is not JSON, the text (`dataText`) or base64 bytes (`dataBase64`).
    private static func setData(_ json: JSONValue?, bytes: [UInt8], in line: inout JSONObject) {
        if let json {
            line["data"] = json
        } else if let text = String(validating: bytes, as: UTF8.self) {
            line["dataText"] = .string(text)
        } else {
            line["dataBase64"] = .string(Data(bytes).base64EncodedString())
        }
    }

    private static func text(of bytes: [UInt8]) -> String {
        String(validating: bytes, as: UTF8.self).map { $0.replacing("\n", with: "⏎") }
            ?? "\(bytes.count) bytes (binary)"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        if text.count > width { return String(text.prefix(width - 1)) + "…" }
        return text + String(repeating: " ", count: width - text.count)
    }

    /// The local time of day, `HH:MM:SS.mmm`.
    private static func clock() -> String {
        let now = Date().timeIntervalSince1970
        var seconds = time_t(now.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = min(Int((now - now.rounded(.down)) * 1000), 999)
        let millisText = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(millisText)"
    }
}
