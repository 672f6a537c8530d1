/// Writes the payload of an event that carries objects straight into bytes.
///
/// The bytes are those of ``PayloadWriter``'s tree written with ``JSONWriter``, without the tree:
/// an object of a ``WireCodable`` type with the `coatyObject` core type writes its members into
/// the payload as it goes (its head needs no check; see ``WireWriter/canStream(_:)``). Any other
/// object is written from its ``CoatyObject/jsonObject()`` after the checks of its core type, as
/// in the tree. It saves building, checking and releasing the tree.
struct PayloadStream: PayloadSink {
    let eventType: EventType
    private let stream = WireStream(capacity: 512)
    private var isEmpty = true

    init(_ eventType: EventType) {
        self.eventType = eventType
        stream.output.append(UInt8(ascii: "{"))
    }

    mutating func set(_ key: String, _ object: JSONObject?) {
        guard let object else { return }
        begin(key)
        JSONWriter.writeObject(object, to: &stream.output)
    }

    mutating func setObject(_ key: String, _ object: (any CoatyObject)?) throws(EventError) {
        guard let object else { return }
        begin(key)
        try write(object, field: key)
    }

    mutating func setObjects(_ key: String, _ objects: [any CoatyObject]?) throws(EventError) {
        guard let objects else { return }
        begin(key)
        stream.output.append(UInt8(ascii: "["))
        for (index, object) in objects.enumerated() {
            if index > 0 { stream.output.append(UInt8(ascii: ",")) }
            try write(object, field: "\(key)[\(index)]")
        }
        stream.output.append(UInt8(ascii: "]"))
    }

    /// The payload's bytes, closed.
    func bytes() -> [UInt8] {
        stream.output.append(UInt8(ascii: "}"))
        return stream.output.array()
    }

    private mutating func begin(_ key: String) {
        if !isEmpty { stream.output.append(UInt8(ascii: ",")) }
        isEmpty = false
        JSONWriter.writeString(key, to: &stream.output)
        stream.output.append(UInt8(ascii: ":"))
    }

    private func write(_ object: any CoatyObject, field: @autoclosure () -> String) throws(EventError) {
        // Cast the metatype: casting the value would copy it into a new existential.
        if let type = type(of: object) as? any WireCodable.Type, try streamed(object, as: type, field: field) {
            return
        }
        JSONWriter.writeObject(try wireForm(of: object, field: field()), to: &stream.output)
    }

    /// Writes `object` through a streaming ``WireWriter``; `false` when it cannot be streamed (see
    /// ``WireWriter/canStream(_:)``), or when the writer was copied and wrote twice (the stream is
    /// then back where the object began).
    private func streamed<Object: WireCodable>(
        _ source: any CoatyObject, as type: Object.Type, field: () -> String
    ) throws(EventError) -> Bool {
        guard let object = source as? Object, WireWriter.canStream(object) else { return false }
        var writer = WireWriter(streaming: object, into: stream)
        do {
            try object.write(to: &writer)
        } catch {
            throw unencodable(field(), error)
        }
        do {
            return try writer.finishStream(custom: object.custom)
        } catch {
            throw self.error(.invalidObject, field(), error.description)
        }
    }
}
