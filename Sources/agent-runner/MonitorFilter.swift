import CoreTypes

/// Which events `monitor` shows: by event type, by the object type or core type of the objects
/// they carry, by source (identity id or a name the monitor learned), and by an `ObjectFilter`
/// on those objects. Criteria combine with "and"; the values of one option with "or".
struct MonitorFilter: Sendable {
    var eventTypes: Set<EventType> = []
    var objectTypes: Set<String> = []
    var coreTypes: Set<String> = []
    var sources: Set<String> = []
    var objectFilter: ObjectFilter?

    /// Whether nothing is filtered.
    var isEmpty: Bool {
        eventTypes.isEmpty && objectTypes.isEmpty && coreTypes.isEmpty && sources.isEmpty && objectFilter == nil
    }

    /// Reads the options; names the one that is wrong.
    init(events: [String], objectTypes: [String], coreTypes: [String], sources: [String], where filter: String?) throws {
        for name in events {
            guard let type = EventType.allCases.first(where: { $0.description.lowercased() == name.lowercased() }) else {
                throw RunnerError.usage(
                    "--event", "'\(name)' is not an event type (one of \(EventType.allCases.map(\.description).joined(separator: ", ")))")
            }
            eventTypes.insert(type)
        }
        for name in coreTypes {
            guard CoreType(rawValue: name) != nil else {
                throw RunnerError.usage(
                    "--core-type", "'\(name)' is not a core type (one of \(CoreType.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
        }
        self.objectTypes = Set(objectTypes)
        self.coreTypes = Set(coreTypes)
        self.sources = Set(sources)
        if let filter {
            do {
                objectFilter = try ObjectFilter(json: Input.json(filter, option: "--where"))
            } catch let error as RunnerError {
                throw error
            } catch {
                throw RunnerError.usage("--where", "not a valid object filter: \(error)")
            }
        }
    }

    /// Whether to show the event with `topic` and `payload` (`json`: the payload parsed, if it is
    /// JSON); `sourceName` is the name the monitor knows for the source, if any.
    func admits(topic: CoatyTopic, json: JSONValue?, sourceName: String?) -> Bool {
        if !eventTypes.isEmpty, !eventTypes.contains(topic.eventType) { return false }
        if !sources.isEmpty, !sources.contains(topic.sourceID), !(sourceName.map(sources.contains) ?? false) {
            return false
        }
        guard !objectTypes.isEmpty || !coreTypes.isEmpty || objectFilter != nil else { return true }
        return EventPrinter.objects(in: json).contains { object in
            (objectTypes.isEmpty || object["objectType"]?.stringValue.map(objectTypes.contains) == true)
                && (coreTypes.isEmpty || object["coreType"]?.stringValue.map(coreTypes.contains) == true)
                && (objectFilter.map { (try? ObjectMatcher.matches(object, filter: $0)) == true } ?? true)
        }
    }
}
