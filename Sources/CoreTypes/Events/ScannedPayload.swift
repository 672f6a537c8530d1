/// The members of an incoming event payload that carries objects, read from its bytes without a
/// ``JSONValue`` tree: its objects decoded by ``ObjectTypeRegistry/decodeScanned(_:bytes:)``, its
/// `privateData` parsed, every other member checked and left out (as the tree's readers leave out
/// members they do not know).
///
/// `nil` from ``read(_:registry:member:)`` means "decode the tree": a payload that is not valid
/// JSON, an object not for this path, a member the event reads in another way, a repeated key or a
/// key with an escape.
struct ScannedPayload {
    /// The member that holds the event's objects.
    enum Member {
        /// `object`: one object (Resolve, Complete); a Resolve's `relatedObjects` sends it to the tree.
        case object
        /// `objects`: an array of objects (Retrieve).
        case objects
    }

    var object: (any CoatyObject)?
    var objects: [any CoatyObject]?
    var privateData: JSONObject?

    /// Reads `payload`, whose objects are in `member`.
    static func read(_ payload: [UInt8], registry: ObjectTypeRegistry, member: Member) -> ScannedPayload? {
        guard !registry.scannedEntries.isEmpty else { return nil }
        return payload.withUnsafeBytes { buffer in
            var reader = JSONReader(buffer: buffer, maximumDepth: JSONParser().maximumDepth)
            do throws(JSONParseError) {
                return try read(&reader, payload, registry, member)
            } catch {
                return nil
            }
        }
    }

    private static func read(
        _ reader: inout JSONReader, _ payload: [UInt8], _ registry: ObjectTypeRegistry, _ member: Member
    ) throws(JSONParseError) -> ScannedPayload? {
        var result = ScannedPayload()
        let buffer = reader.bytes
        reader.skipWhitespace()
        guard reader.position < buffer.count, buffer[reader.position] == UInt8(ascii: "{") else { return nil }
        if try reader.enterContainer(closing: UInt8(ascii: "}")) {
            var signatures = KeySignatures()
            while true {
                // A repeated key keeps its last value in the tree: leave such a payload to it.
                guard let key = try reader.scanKey(), signatures.appendIfNew(UnsafeRawBufferPointer(rebasing: buffer[key]))
                else { return nil }
                switch member {
                case .object where ObjectScan.equal(key, "object", in: buffer):
                    guard let object = try registry.decodeScanned(&reader, bytes: payload) else { return nil }
                    result.object = object
                case .object where ObjectScan.equal(key, "relatedObjects", in: buffer):
                    return nil
                case .objects where ObjectScan.equal(key, "objects", in: buffer):
                    guard let objects = try readObjects(&reader, payload, registry) else { return nil }
                    result.objects = objects
                case _ where ObjectScan.equal(key, "privateData", in: buffer):
                    guard case .object(let object) = try reader.readValue() else { return nil }
                    result.privateData = object
                default:
                    try reader.skipValue()
                }
                try reader.skipSeparator(closing: UInt8(ascii: "}"))
                if buffer[reader.position - 1] == UInt8(ascii: "}") { break }
            }
            reader.depth -= 1
        }
        reader.skipWhitespace()
        guard reader.position == buffer.count else { return nil }
        return result
    }

    private static func readObjects(
        _ reader: inout JSONReader, _ payload: [UInt8], _ registry: ObjectTypeRegistry
    ) throws(JSONParseError) -> [any CoatyObject]? {
        let buffer = reader.bytes
        guard reader.position < buffer.count, buffer[reader.position] == UInt8(ascii: "[") else { return nil }
        var objects: [any CoatyObject] = []
        guard try reader.enterContainer(closing: UInt8(ascii: "]")) else { return objects }
        while true {
            reader.skipWhitespace()
            guard let object = try registry.decodeScanned(&reader, bytes: payload) else { return nil }
            objects.append(object)
            try reader.skipSeparator(closing: UInt8(ascii: "]"))
            if buffer[reader.position - 1] == UInt8(ascii: "]") { break }
        }
        reader.depth -= 1
        return objects
    }
}

/// An event that ``ScannedPayload`` can read from its bytes: Advertise, Update, and the responses
/// Resolve, Retrieve and Complete.
protocol ScannableEvent: CoatyEvent {
    /// The event read from `payload` without a tree; `nil` when the scan leaves it to the tree.
    init?(scanning payload: [UInt8], registry: ObjectTypeRegistry)
    /// The event decoded from the parsed payload (the tree), which decides every error.
    init(json: JSONValue, registry: ObjectTypeRegistry) throws(EventError)
}

extension ScannableEvent {
    /// The event from `payload`'s bytes where the scan reads them, else from its tree: always what
    /// the tree decodes, or the tree's error.
    @inline(__always)
    static func decoded(payload: [UInt8], registry: ObjectTypeRegistry) throws(EventError) -> Self {
        if let event = Self(scanning: payload, registry: registry) { return event }
        return try Self(json: parsePayload(payload), registry: registry)
    }
}

extension ScannedPayload {
    /// The object and private data of a payload whose objects are in `object` (Advertise, Update,
    /// Resolve, Complete); with `eventType`, the object type is also checked as a topic level, as
    /// those events' trees check it.
    @inline(__always)
    static func object(
        in payload: [UInt8], registry: ObjectTypeRegistry, checkingTypeFor eventType: EventType? = nil
    ) -> (object: any CoatyObject, privateData: JSONObject?)? {
        guard let scanned = read(payload, registry: registry, member: .object), let object = scanned.object else {
            return nil
        }
        if let eventType, (try? EventObjects.checkObjectType(object, eventType: eventType)) == nil { return nil }
        return (object, scanned.privateData)
    }
}
