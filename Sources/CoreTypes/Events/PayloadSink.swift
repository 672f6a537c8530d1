/// Where an event that carries objects writes its members: a tree (``PayloadWriter``, behind
/// `json()`) or the payload's bytes (``PayloadStream``, behind `payload()`). The event writes its
/// members once, in coaty-js's order, for both.
protocol PayloadSink {
    /// The event whose payload this is (for errors).
    var eventType: EventType { get }

    /// Writes `object` under `key`, or nothing when it is `nil`.
    mutating func set(_ key: String, _ object: JSONObject?)

    /// Writes a Coaty object's wire form under `key`, or nothing when it is `nil`.
    ///
    /// - Throws: ``EventError`` when the object cannot be encoded or is not valid for its core type.
    mutating func setObject(_ key: String, _ object: (any CoatyObject)?) throws(EventError)

    /// Writes an array of Coaty objects under `key`, or nothing when it is `nil`.
    ///
    /// - Throws: ``EventError`` naming the first object that cannot be encoded or is not valid.
    mutating func setObjects(_ key: String, _ objects: [any CoatyObject]?) throws(EventError)
}

extension PayloadSink {
    func error(_ code: EventError.Code, _ field: String?, _ detail: String) -> EventError {
        EventError(code: code, eventType: eventType, field: field, detail: detail)
    }

    /// The error for an object whose own encoding failed.
    func unencodable(_ field: String, _ error: any Error) -> EventError {
        self.error(.unencodableObject, field, "jsonObject() failed: \(error)")
    }

    /// The wire form of `object`, checked against the rules of its core type.
    func wireForm(of object: any CoatyObject, field: String) throws(EventError) -> JSONObject {
        let json: JSONObject
        do {
            json = try object.jsonObject()
        } catch {
            throw unencodable(field, error)
        }
        do {
            try ObjectTypeRegistry.validateCoreForm(json)
        } catch {
            throw self.error(.invalidObject, field, error.description)
        }
        return json
    }
}

/// An event that carries Coaty objects: it writes its members once, to a ``PayloadSink``, and gets
/// its tree (`json()`) and its bytes (`payload()`) from that.
protocol ObjectCarryingEvent: CoatyEvent {
    /// Checks the event and writes its members in coaty-js's order.
    func write(to writer: inout some PayloadSink) throws(EventError)
}

extension ObjectCarryingEvent {
    /// The payload as a JSON value, in coaty-js member order with unset members left out.
    ///
    /// - Throws: ``EventError`` when an object, or another member, is not valid.
    public func json() throws(EventError) -> JSONValue {
        var writer = PayloadWriter(Self.eventType)
        try write(to: &writer)
        return writer.json
    }

    /// The payload bytes, written straight from the objects: ``json()``'s tree, serialized, without
    /// building the tree.
    ///
    /// - Throws: ``EventError`` as ``json()`` throws it.
    public func payload() throws(EventError) -> [UInt8] {
        var stream = PayloadStream(Self.eventType)
        try write(to: &stream)
        return stream.bytes()
    }
}
