import Agent
import CoreTypes

/// What the dashboard shows, kept from every message of the namespace: the agents online, the
/// objects by type with their latest state, event rates, request latencies and an event log.
///
/// A value without I/O or a clock: ``record(_:at:)`` takes each message with the time it arrived
/// (seconds since the epoch) and does little work, since thousands arrive each second; the costly
/// part, ``snapshot(at:sequence:drops:ownID:logFilter:)``, runs a few times a second.
/// Everything it keeps is bounded (``Limits``), and what it had to leave out is counted.
struct DashboardModel: Sendable {
    /// The bounds of what the model keeps.
    struct Limits: Sendable {
        /// Objects kept (the least recently updated one goes first; counted in ``DashboardModel/evictedObjects``).
        var objects = 1000
        /// Log entries kept per event type, so a flood of one type does not push the others out.
        var logEntriesPerType = 50
        /// Log entries in a snapshot.
        var logEntriesShown = 200
        /// How many seconds the event rates cover.
        var rateWindow = 300
        /// How long a request waits for its first response before it counts as unanswered, in seconds.
        var requestTimeout: Double = 60
    }

    /// An object and what last told about it.
    struct ObjectEntry: Sendable {
        var object: JSONValue
        var objectType: String
        var sourceID: String
        var event: EventType
        var updated: Double
    }

    /// One received event, as the log keeps it (summarised only when shown).
    struct LogEntry: Sendable {
        var sequence: Int
        var time: Double
        var topic: CoatyTopic
        var payload: [UInt8]
    }

    let limits: Limits
    /// Every message recorded, echoes of an Advertise included.
    private(set) var received = 0
    /// Payloads that were not JSON, and objects that did not decode, where the model had to read them.
    private(set) var invalidPayloads = 0
    /// Objects left out because ``Limits/objects`` were kept already.
    private(set) var evictedObjects = 0
    private(set) var agents = ObjectLifecycleTracker()
    /// When each agent online joined and when its last event came.
    private(set) var joined: [String: (since: Double, lastSeen: Double)] = [:]
    private(set) var objects: [String: ObjectEntry] = [:]
    private(set) var rates: EventRates
    private(set) var latencies: RequestLatencies
    private(set) var log: [EventType: Ring<LogEntry>] = [:]
    private var echo = AdvertiseEcho()
    private let registry = ObjectTypeRegistry()

    init(limits: Limits = Limits()) {
        self.limits = limits
        rates = EventRates(window: limits.rateWindow)
        latencies = RequestLatencies(timeout: limits.requestTimeout)
    }

    /// Takes one message that arrived at `time`.
    mutating func record(_ message: CoatyMessage, at time: Double) {
        received += 1
        // coaty-js sends some Advertises twice (see AdvertiseEcho): count and show them once.
        guard !echo.isEcho(message) else { return }
        let topic = message.topic
        rates.record(topic.eventType, second: Int(time.rounded(.down)))
        latencies.record(topic.eventType, correlationID: topic.correlationID, time: time)
        joined[topic.sourceID]?.lastSeen = time
        log[topic.eventType, default: Ring(capacity: limits.logEntriesPerType)].append(
            LogEntry(sequence: received, time: time, topic: topic, payload: message.payload))
        switch topic.eventType {
        case .advertise, .resolve, .retrieve, .complete:
            guard let json = parse(message.payload) else { return }
            for object in EventPrinter.objects(in: json) {
                learn(object, from: topic, at: time)
            }
        case .deadvertise:
            guard let json = parse(message.payload) else { return }
            deadvertise(json["objectIds"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        default:
            break
        }
    }

    /// Counts requests that waited too long for a response as unanswered; call it now and then.
    mutating func expireRequests(at time: Double) {
        latencies.expire(at: time)
    }

    private mutating func parse(_ payload: [UInt8]) -> JSONValue? {
        do {
            return try JSONValue(parsing: payload)
        } catch {
            invalidPayloads += 1
            return nil
        }
    }

    /// An identity goes to the agents online, any other object to the objects.
    private mutating func learn(_ object: JSONValue, from topic: CoatyTopic, at time: Double) {
        guard let id = object["objectId"]?.stringValue, let objectType = object["objectType"]?.stringValue else {
            invalidPayloads += 1
            return
        }
        if object["coreType"]?.stringValue == CoreType.identity.rawValue {
            do {
                if case .added = agents.saw(try registry.decodeObject(object)) { joined[id] = (time, time) }
            } catch {
                invalidPayloads += 1
            }
            return
        }
        if objects[id] == nil, objects.count >= limits.objects,
            let oldest = objects.min(by: { $0.value.updated < $1.value.updated })
        {
            objects[oldest.key] = nil
            evictedObjects += 1
        }
        objects[id] = ObjectEntry(
            object: object, objectType: objectType, sourceID: topic.sourceID, event: topic.eventType, updated: time)
    }

    /// Removes the deadvertised agents and objects, and those that belong to them (`parentObjectId`).
    private mutating func deadvertise(_ ids: [String]) {
        for event in agents.deadvertised(ids) {
            joined[event.object.objectID] = nil
        }
        let gone = ObjectLifecycleTracker.cascade(ids, known: Array(objects.keys)) {
            objects[$0]?.object["parentObjectId"]?.stringValue
        }
        for id in gone { objects[id] = nil }
    }
}
