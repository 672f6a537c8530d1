/// The publication topic of one Coaty event: `coaty/<version>/<namespace>/<event>[:<filter>]/<source>[/<corr>]`.
///
/// A `CoatyTopic` is a plain value. Format it with ``name`` when publishing and read an inbound
/// topic with ``init(parsing:)``. Subscriptions use topic filters, which have wildcards.
///
/// ```swift
/// let topic = CoatyTopic(
///     namespace: "-", eventType: .advertise, eventTypeFilter: "Identity",
///     sourceID: "5c3e1a2b-7d4f-4e6a-9b8c-0d1e2f3a4b5c")
/// topic.name  // "coaty/3/-/ADV:Identity/5c3e1a2b-7d4f-4e6a-9b8c-0d1e2f3a4b5c"
///
/// let light = CoatyTopic(
///     namespace: "-", eventType: .update, eventTypeFilter: CoatyTopic.objectTypeFilter("com.x.Light"),
///     sourceID: agentID, correlationID: correlationID)
/// light.name  // "coaty/3/-/UPD::com.x.Light/<agentID>/<correlationID>"
/// ```
public struct CoatyTopic: Sendable, Hashable, CustomStringConvertible {
    /// The version level: ``CoatyProtocol/topicVersion`` (3) for Coaty 2. Inbound topics are not checked.
    public var version: Int

    /// The namespace level; the default namespace of an agent is `"-"`.
    public var namespace: String

    /// The event named in the event level.
    public var eventType: EventType

    /// The text after the first `:` of the event level, or `nil` if the level has no `:`.
    ///
    /// A core-type filter is the core type name (`"Task"`); an object-type filter is the object type
    /// after a colon (`":com.x.Light"`, see ``objectTypeFilter(_:)``); Channel, Associate and Call
    /// carry the channel id, IO context name and operation name. Parsing keeps an empty filter
    /// (`"ADV:"`) as `""`; formatting writes no `:` for `nil` or `""`.
    public var eventTypeFilter: String?

    /// The source level: the identity id of the publishing agent (for IoValue, the IO source id).
    ///
    /// Any string is accepted, as in coaty-js; ids are not checked to be UUIDs.
    public var sourceID: String

    /// The correlation level of a two-way event, or `nil` if the topic has none (or it is empty).
    public var correlationID: String?

    /// Creates a topic from its levels.
    ///
    /// - Parameters:
    ///   - version: The version level; leave the default for Coaty 2.
    ///   - namespace: The namespace level, `"-"` by default in Coaty agents.
    ///   - eventType: The event.
    ///   - eventTypeFilter: The filter after the event name, without the separating `:`.
    ///   - sourceID: The identity id of the publisher (IO source id for IoValue).
    ///   - correlationID: The correlation id of a two-way event; ignored by ``name`` for one-way events.
    public init(
        version: Int = CoatyProtocol.topicVersion,
        namespace: String,
        eventType: EventType,
        eventTypeFilter: String? = nil,
        sourceID: String,
        correlationID: String? = nil
    ) {
        self.version = version
        self.namespace = namespace
        self.eventType = eventType
        self.eventTypeFilter = eventTypeFilter
        self.sourceID = sourceID
        self.correlationID = correlationID
    }

    /// The MQTT topic name to publish on, formatted exactly as coaty-js `MqttTopic.getTopicName`.
    ///
    /// A non-empty ``eventTypeFilter`` follows the event name after a `:`. One-way events end with
    /// the source level and drop any correlation id. Two-way events add the correlation level; if
    /// ``correlationID`` is `nil`, coaty-js writes the literal text `undefined` there, and so does
    /// this property (coaty-js answers a request that came without a correlation level this way).
    public var name: String {
        CoatyTopic.format(
            version: version, namespaceLevel: namespace, eventType: eventType, eventTypeFilter: eventTypeFilter,
            sourceLevel: sourceID, correlationLevel: eventType.isTwoWay ? (correlationID ?? "undefined") : nil)
    }

    /// The topic name, the same as ``name``.
    public var description: String { name }

    /// The object type named by an object-type filter (`":com.x.Light"` → `"com.x.Light"`), else `nil`.
    ///
    /// Only Advertise and Update use object-type filters; for other events this is `nil`.
    public var filteredObjectType: String? {
        guard eventType == .advertise || eventType == .update,
            let eventTypeFilter, eventTypeFilter.utf8.first == UInt8(ascii: ":")
        else { return nil }
        return String(eventTypeFilter.dropFirst())
    }

    /// The core type named by a core-type filter (`"Task"` → ``CoreType/task``), else `nil`.
    ///
    /// Only Advertise and Update use core-type filters; for other events this is `nil`.
    public var filteredCoreType: CoreType? {
        guard eventType == .advertise || eventType == .update, let eventTypeFilter else { return nil }
        return CoreType(rawValue: eventTypeFilter)
    }

    /// The event filter that selects an object type: the object type after a `:`.
    ///
    /// ```swift
    /// CoatyTopic.objectTypeFilter("com.x.Light")  // ":com.x.Light", written "ADV::com.x.Light"
    /// ```
    public static func objectTypeFilter(_ objectType: String) -> String {
        ":" + objectType
    }

    /// The event filters that an Advertise or Update of one object is published on, in coaty-js order.
    ///
    /// Always the core-type filter; and, only if `objectType` is not the canonical object type of
    /// `coreType`, also the object-type filter. coaty-js publishes an Advertise on the core-type topic
    /// first, and an Update on the object-type topic first (each Update with its own correlation id).
    ///
    /// ```swift
    /// CoatyTopic.eventTypeFilters(publishing: .advertise, coreType: .task, objectType: "coaty.Task")
    /// // ["Task"]
    /// CoatyTopic.eventTypeFilters(publishing: .update, coreType: .coatyObject, objectType: "com.x.Light")
    /// // [":com.x.Light", "CoatyObject"]
    /// ```
    ///
    /// - Parameters:
    ///   - eventType: ``EventType/advertise`` or ``EventType/update``; Update reverses the order.
    ///   - coreType: The `coreType` of the object.
    ///   - objectType: The `objectType` of the object.
    public static func eventTypeFilters(
        publishing eventType: EventType,
        coreType: CoreType,
        objectType: String
    ) -> [String] {
        // (Not `objectType != coreType.canonicalObjectType`: that builds a string per publication.)
        guard CoreType(canonicalObjectType: objectType) != coreType else { return [coreType.rawValue] }
        let filters = [coreType.rawValue, objectTypeFilter(objectType)]
        return eventType == .update ? filters.reversed() : filters
    }

    /// Whether `value` may be used as a namespace, channel id, object type, operation name, IO context
    /// name or other event filter.
    ///
    /// Mirrors coaty-js `CommunicationEvent.isValidEventFilter`, the regular expression
    /// `^[^\u0000+#/]+$`: the value is not empty and has no U+0000, `+`, `#` or `/`. A colon is
    /// allowed although it separates the event name from the filter.
    ///
    /// ```swift
    /// CoatyTopic.isValidEventFilter("com.x.Light")  // true
    /// CoatyTopic.isValidEventFilter("a/b")          // false
    /// ```
    public static func isValidEventFilter(_ value: String) -> Bool {
        guard !value.isEmpty else { return false }
        func isForbidden(_ byte: UInt8) -> Bool {
            byte == 0 || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "#") || byte == UInt8(ascii: "/")
        }
        // Every Advertise and Update checks its object type here: scan the contiguous bytes.
        let isValid = value.utf8.withContiguousStorageIfAvailable { !$0.contains(where: isForbidden) }
        return isValid ?? !value.utf8.contains(where: isForbidden)
    }

    /// Whether `topic` starts with `coaty/`, so coaty-js treats it as a Coaty topic and never as Raw.
    ///
    /// `coatyx/…` and `COATY/…` are not Coaty topics.
    public static func isCoatyTopicLike(_ topic: String) -> Bool {
        var topic = topic
        return topic.withUTF8(hasProtocolPrefix)
    }

    /// Writes `coaty/<version>/<namespace>/<event>[:<filter>]/<source>[/<correlation>]` in one allocation.
    ///
    /// An empty filter is left out with its `:`, as in coaty-js.
    static func format(
        version: Int,
        namespaceLevel: String,
        eventType: EventType,
        eventTypeFilter: String?,
        sourceLevel: String,
        correlationLevel: String?
    ) -> String {
        // Nearly every topic has the current version: reuse its text instead of formatting an Int.
        let versionLevel = version == CoatyProtocol.topicVersion ? currentVersionLevel : String(version)
        let filter = eventTypeFilter.flatMap { $0.isEmpty ? nil : $0 }
        let count =
            protocolPrefix.utf8.count + versionLevel.utf8.count + 1 + namespaceLevel.utf8.count + 1
            + eventType.rawValue.utf8.count + (filter.map { 1 + $0.utf8.count } ?? 0) + 1 + sourceLevel.utf8.count
            + (correlationLevel.map { 1 + $0.utf8.count } ?? 0)
        return String(unsafeUninitializedCapacity: count) { buffer in
            var index = 0
            func write(_ text: String) {
                index = buffer[index...].initialize(fromContentsOf: text.utf8)
            }
            func write(_ byte: UInt8) {
                buffer.initializeElement(at: index, to: byte)
                index += 1
            }
            write(protocolPrefix)
            write(versionLevel)
            write(UInt8(ascii: "/"))
            write(namespaceLevel)
            write(UInt8(ascii: "/"))
            write(eventType.rawValue)
            if let filter {
                write(UInt8(ascii: ":"))
                write(filter)
            }
            write(UInt8(ascii: "/"))
            write(sourceLevel)
            if let correlationLevel {
                write(UInt8(ascii: "/"))
                write(correlationLevel)
            }
            return index
        }
    }

    /// The first level of every Coaty topic.
    static let protocolName = "coaty"

    /// The prefix that makes a topic a Coaty topic.
    static let protocolPrefix = "coaty/"

    /// The version level of ``CoatyProtocol/topicVersion`` as text.
    static let currentVersionLevel = String(CoatyProtocol.topicVersion)
}
