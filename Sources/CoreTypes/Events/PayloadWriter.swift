/// Builds an outbound event payload member by member, in the order coaty-js writes them.
///
/// coaty-js builds payloads from object literals whose unset members are `undefined`, which
/// `JSON.stringify` leaves out; so an unset member here is simply not written, never `null`.
/// Objects are written in their wire form (``CoatyObject/jsonObject()``) after checking that the
/// wire form is a valid object of its core type, as coaty-js's event data constructors do.
struct PayloadWriter: PayloadSink {
    let eventType: EventType
    private(set) var members = JSONObject()

    init(_ eventType: EventType) {
        self.eventType = eventType
    }

    /// Writes `value` under `key`, or nothing when `value` is `nil`.
    mutating func set(_ key: String, _ value: JSONValue?) {
        guard let value else { return }
        members[key] = value
    }

    mutating func set(_ key: String, _ strings: [String]?) {
        guard let strings else { return }
        members[key] = .array(strings.map(JSONValue.string))
    }

    mutating func set(_ key: String, _ object: JSONObject?) {
        guard let object else { return }
        members[key] = .object(object)
    }

    mutating func setObject(_ key: String, _ object: (any CoatyObject)?) throws(EventError) {
        guard let object else { return }
        members[key] = .object(try wireForm(of: object, field: key))
    }

    mutating func setObjects(_ key: String, _ objects: [any CoatyObject]?) throws(EventError) {
        guard let objects else { return }
        var elements: [JSONValue] = []
        elements.reserveCapacity(objects.count)
        for (index, object) in objects.enumerated() {
            elements.append(.object(try wireForm(of: object, field: "\(key)[\(index)]")))
        }
        members[key] = .array(elements)
    }

    var json: JSONValue { .object(members) }
}

/// Shared helpers for the objects inside events.
enum EventObjects {
    /// coaty-js's event constructors of Advertise and Update: the object type must be usable as a
    /// topic level.
    static func checkObjectType(
        _ object: any CoatyObject, eventType: EventType, field: String = "object.objectType"
    ) throws(EventError) {
        guard CoatyTopic.isValidEventFilter(object.objectType) else {
            throw EventError(
                code: .invalidEventFilter, eventType: eventType, field: field,
                detail: "object type '\(object.objectType)' cannot be a topic level: it must be non-empty "
                    + "and contain no '/', '+', '#' or U+0000")
        }
    }
}
