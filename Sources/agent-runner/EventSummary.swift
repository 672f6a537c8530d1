import CoreTypes

/// The "type" and "summary" columns of an event in text output, read from its JSON payload.
///
/// Only for people: it never fails; a payload that does not have the expected shape shows what it has.
struct EventSummary {
    var type = "-"
    var summary = ""

    init(eventType: EventType, filter: String?, data: JSONValue?) {
        guard let data else { return }
        switch eventType {
        case .advertise, .update, .complete:
            type = Self.objectType(data["object"]) ?? filter ?? "-"
            summary = Self.describe(data["object"])
        case .resolve:
            type = Self.objectType(data["object"]) ?? "-"
            summary = data["object"].map { Self.describe($0) } ?? Self.describe(list: data["relatedObjects"])
        case .deadvertise:
            let ids = data["objectIds"]?.arrayValue?.compactMap(\.stringValue) ?? []
            summary = ids.joined(separator: ", ")
        case .channel:
            type = filter ?? "-"
            summary = data["object"].map { Self.describe($0) } ?? Self.describe(list: data["objects"])
        case .retrieve:
            let objects = data["objects"]?.arrayValue ?? []
            type = Set(objects.compactMap { Self.objectType($0) }).sorted().joined(separator: ",")
            summary = Self.describe(list: data["objects"])
        case .discover:
            type = Self.types(data) ?? "-"
            summary = [("objectId", data["objectId"]), ("externalId", data["externalId"])]
                .compactMap { key, value in value?.stringValue.map { "\(key) \($0)" } }
                .joined(separator: ", ")
        case .query:
            type = Self.types(data) ?? "-"
            summary = data["objectFilter"].map { "filter \($0)" } ?? ""
        case .call:
            type = filter ?? "-"
            summary = [data["parameters"].map { "parameters \($0)" }, data["filter"].map { "context \($0)" }]
                .compactMap { $0 }.joined(separator: ", ")
        case .return:
            if let error = data["error"] {
                type = "error"
                summary = "\(error["code"] ?? .null): \(error["message"]?.stringValue ?? "\(error["message"] ?? .null)")"
            } else {
                type = "result"
                summary = "\(data["result"] ?? .null)"
            }
        case .associate:
            type = filter ?? "-"
            let route = data["associatingRoute"]?.stringValue
            summary = "source \(data["ioSourceId"]?.stringValue ?? "?") → actor \(data["ioActorId"]?.stringValue ?? "?")"
                + (route.map { " on \($0)" } ?? " dissociated")
        case .ioValue:
            summary = "\(data)"
        }
    }

    private static func objectType(_ object: JSONValue?) -> String? {
        object?["objectType"]?.stringValue
    }

    private static func types(_ data: JSONValue) -> String? {
        let list = data["objectTypes"]?.arrayValue ?? data["coreTypes"]?.arrayValue
        return list?.compactMap(\.stringValue).joined(separator: ",")
    }

    /// `"Desk lamp" 5c3e1a2b…`.
    private static func describe(_ object: JSONValue?) -> String {
        guard let object else { return "" }
        let name = object["name"]?.stringValue.map { "\"\($0)\"" } ?? "(no name)"
        let id = object["objectId"]?.stringValue ?? "?"
        return "\(name) \(id)"
    }

    /// `2 objects: "A", "B"`.
    private static func describe(list: JSONValue?) -> String {
        let objects = list?.arrayValue ?? []
        let names = objects.map { $0["name"]?.stringValue.map { "\"\($0)\"" } ?? "(no name)" }
        return "\(objects.count) object\(objects.count == 1 ? "" : "s")" + (names.isEmpty ? "" : ": " + names.joined(separator: ", "))
    }
}
