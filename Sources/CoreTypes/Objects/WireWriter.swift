/// The wire form of an outgoing Coaty object, written by a ``WireCodable`` type's `write(to:)`.
///
/// It starts with the object's base fields (`objectId`, `objectType`, `coreType`, `name`, then
/// the optional ones that are set); the type writes its own members after them. Writing a key that
/// is already there replaces its value in place. `encodeIfPresent` leaves `nil` out, as coaty-js
/// leaves out `undefined`: the writer never writes `null` unless given ``JSONValue/null``.
public struct WireWriter {
    /// The members written so far.
    ///
    /// When an event writes the object straight into its payload's bytes (as it does for a type
    /// with the `coatyObject` core type), the members are bytes until the end, and reading this
    /// property parses them: it is there to inspect a writer, not for every member.
    public var object: JSONObject {
        guard mode == .bytes, let stream else { return tree }
        return (try? stream.parseObject(from: start)) ?? tree
    }

    /// Where the members go: a tree (``object``), or the bytes of the payload being written.
    enum Mode { case tree, bytes, copied }

    private var mode: Mode
    /// The members, in tree mode.
    private var tree: JSONObject
    /// How many base fields the object starts with.
    private var headCount: Int
    /// The payload's bytes, in byte mode (and after a fallback to a tree, where the object goes at the end).
    private let stream: WireStream?
    /// Where the object's `{` is in the stream.
    private let start: Int
    /// The stream's length after this writer's last member: another length means that a copy of
    /// the writer has written too, and the object is written again from a tree.
    private var expectedCount: Int
    /// The keys written after the base fields, as signatures: a key seen again (or a signature seen
    /// again) moves the object to a tree, which replaces values in place.
    private var signatures = KeySignatures()
    private var moreSignatures: [UInt64] = []
    /// The optional base fields in the head (``headBit(_:)``).
    private var optionalHead: UInt8 = 0

    init(_ source: some CoatyObject) {
        mode = .tree
        tree = source.baseHead(capacity: 16)
        headCount = tree.count
        stream = nil
        start = 0
        expectedCount = 0
    }

    /// A writer that writes `source`'s base fields and then its members into `stream`.
    ///
    /// Only for an object that ``canStream(_:)`` accepts: its head is valid as written.
    init(streaming source: some CoatyObject, into stream: WireStream) {
        mode = .bytes
        tree = JSONObject()
        self.stream = stream
        start = stream.output.count
        optionalHead = Self.writeHead(of: source, to: &stream.output)
        headCount = 4 + optionalHead.nonzeroBitCount
        expectedCount = stream.output.count
    }

    /// Whether `source` can be written as bytes: a `coatyObject` whose base fields are valid, so
    /// that its head needs none of the checks of ``ObjectTypeRegistry/validateCoreForm(_:)``.
    static func canStream(_ source: some CoatyObject) -> Bool {
        source.coreType == .coatyObject && !source.objectID.isEmpty && !source.objectType.isEmpty
            && source.externalID?.isEmpty != true && source.parentObjectID?.isEmpty != true
            && source.locationID?.isEmpty != true
    }

    /// Writes the head and returns which optional base fields it holds (``headBit(_:)``).
    private static func writeHead(of source: some CoatyObject, to output: inout JSONOutput) -> UInt8 {
        var optional: UInt8 = 0
        output.append(#"{"objectId":"#)
        JSONWriter.writeString(source.objectID, to: &output)
        output.append(#","objectType":"#)
        JSONWriter.writeString(source.objectType, to: &output)
        output.append(#","coreType":"CoatyObject","name":"#)
        JSONWriter.writeString(source.name, to: &output)
        func writeOptional(_ key: StaticString, _ value: String?, _ field: BaseFields.Field) {
            guard let value else { return }
            output.append(key)
            JSONWriter.writeString(value, to: &output)
            optional |= headBit(field)
        }
        writeOptional(#","externalId":"#, source.externalID, .externalID)
        writeOptional(#","parentObjectId":"#, source.parentObjectID, .parentObjectID)
        writeOptional(#","locationId":"#, source.locationID, .locationID)
        if let isDeactivated = source.isDeactivated {
            output.append(isDeactivated ? #","isDeactivated":true"# : #","isDeactivated":false"#)
            optional |= headBit(.isDeactivated)
        }
        return optional
    }

    /// The bit of an optional base field in ``optionalHead``; 0 for the four every head holds.
    @inline(__always) private static func headBit(_ field: BaseFields.Field) -> UInt8 {
        switch field {
        case .objectID, .objectType, .coreType, .name: 0
        case .externalID: 1
        case .parentObjectID: 2
        case .locationID: 4
        case .isDeactivated: 8
        }
    }

    /// Writes a string member.
    public mutating func encode(_ value: String, forKey key: String) {
        put(key, .string(value)) { JSONWriter.writeString(value, to: &$0) }
    }

    /// Writes a boolean member.
    public mutating func encode(_ value: Bool, forKey key: String) {
        put(key, .bool(value)) { $0.append(value ? "true" : "false") }
    }

    /// Writes an integer member.
    public mutating func encode(_ value: Int, forKey key: String) {
        put(key, .int(value)) { JSONWriter.writeInteger(value, to: &$0) }
    }

    /// Writes a number member.
    ///
    /// - Throws: `EncodingError.invalidValue` when `value` is not finite: JSON has no NaN or infinity.
    public mutating func encode(_ value: Double, forKey key: String) throws(EncodingError) {
        guard value.isFinite else { throw Self.notFinite(value, key) }
        put(key, .double(value)) { JSONWriter.writeDouble(value, to: &$0) }
    }

    /// Writes an array of strings.
    public mutating func encode(_ value: [String], forKey key: String) {
        put(key, .array(value.map(JSONValue.string))) { output in
            output.append(UInt8(ascii: "["))
            for (i, string) in value.enumerated() {
                if i > 0 { output.append(UInt8(ascii: ",")) }
                JSONWriter.writeString(string, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        }
    }

    /// Writes a member as it is.
    public mutating func encode(_ value: JSONValue, forKey key: String) {
        put(key, value) { JSONWriter.write(value, to: &$0) }
    }

    /// Writes an object member as it is.
    public mutating func encode(_ value: JSONObject, forKey key: String) {
        put(key, .object(value)) { JSONWriter.writeObject(value, to: &$0) }
    }

    /// Writes a member of any `Encodable` type with ``JSONValueEncoder``: for the members that
    /// have no method of their own (a nested struct, an enumeration, `[Int]`).
    ///
    /// - Throws: `EncodingError` when the value does not encode.
    public mutating func encode<T: Encodable>(_ value: T, forKey key: String) throws {
        encode(try JSONValueEncoder().encode(value), forKey: key)
    }

    /// Writes a string member, or nothing when `value` is `nil`.
    public mutating func encodeIfPresent(_ value: String?, forKey key: String) {
        if let value { encode(value, forKey: key) }
    }

    /// Writes a boolean member, or nothing when `value` is `nil`.
    public mutating func encodeIfPresent(_ value: Bool?, forKey key: String) {
        if let value { encode(value, forKey: key) }
    }

    /// Writes an integer member, or nothing when `value` is `nil`.
    public mutating func encodeIfPresent(_ value: Int?, forKey key: String) {
        if let value { encode(value, forKey: key) }
    }

    /// Writes a number member, or nothing when `value` is `nil`.
    ///
    /// - Throws: `EncodingError.invalidValue` when `value` is not finite.
    public mutating func encodeIfPresent(_ value: Double?, forKey key: String) throws(EncodingError) {
        if let value { try encode(value, forKey: key) }
    }

    /// Writes an array of strings, or nothing when `value` is `nil`.
    public mutating func encodeIfPresent(_ value: [String]?, forKey key: String) {
        if let value { encode(value, forKey: key) }
    }

    /// Writes an object member, or nothing when `value` is `nil`.
    public mutating func encodeIfPresent(_ value: JSONObject?, forKey key: String) {
        if let value { encode(value, forKey: key) }
    }

    /// Writes a member of any `Encodable` type, or nothing when `value` is `nil`.
    ///
    /// - Throws: `EncodingError` when the value does not encode.
    public mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: String) throws {
        if let value { try encode(value, forKey: key) }
    }

    /// The object with `custom`'s members appended, those whose keys were not written.
    consuming func finish(custom: JSONObject) -> JSONObject {
        for member in custom.storage where !tree.contains(key: member.key) {
            tree.appendNew(member.key, member.value)
        }
        return tree
    }

    /// Ends an object written into its stream: appends `custom`'s members whose keys were not
    /// written, and the closing brace. An object that moved to a tree is checked as
    /// ``ObjectTypeRegistry/validateCoreForm(_:)`` checks it, and written then.
    ///
    /// - Returns: `false` when a copy of this writer wrote into the stream too; the stream is
    ///   back where the object began, for the caller to write it another way.
    /// - Throws: ``ObjectDecodingError`` when an object that moved to a tree breaks its core type's rules.
    consuming func finishStream(custom: JSONObject) throws(ObjectDecodingError) -> Bool {
        guard let stream else { return false }
        if mode == .bytes {
            guard stream.output.count == expectedCount else { return abandon(stream) }
            for member in custom.storage {
                let written = isWritten(member.key)
                if written == .maybe {
                    moveToTree(stream)
                    break
                }
                if written == .no {
                    Self.writeMember(member.key, to: &stream.output) { JSONWriter.write(member.value, to: &$0) }
                }
            }
        }
        switch mode {
        case .bytes:
            stream.output.append(UInt8(ascii: "}"))
        case .tree:
            let object = finish(custom: custom)
            try ObjectTypeRegistry.validateCoreForm(object)
            JSONWriter.writeObject(object, to: &stream.output)
        case .copied:
            return abandon(stream)
        }
        return true
    }

    private func abandon(_ stream: WireStream) -> Bool {
        stream.output.truncate(to: start)
        return false
    }

    /// Appends `key` with `value` (written by `write` in byte mode), or replaces the value of a key
    /// already written.
    @inline(__always)
    private mutating func put(_ key: String, _ value: @autoclosure () -> JSONValue, _ write: (inout JSONOutput) -> Void) {
        if mode == .bytes, let stream {
            guard stream.output.count == expectedCount else {
                mode = .copied
                return
            }
            if BaseFields.Field(key) == nil, record(key) {
                Self.writeMember(key, to: &stream.output, write)
                expectedCount = stream.output.count
                return
            }
            moveToTree(stream)
        }
        guard mode == .tree else { return }
        set(key, value())
    }

    @inline(__always)
    private static func writeMember(_ key: String, to output: inout JSONOutput, _ write: (inout JSONOutput) -> Void) {
        output.append(UInt8(ascii: ","))
        JSONWriter.writeString(key, to: &output)
        output.append(UInt8(ascii: ":"))
        write(&output)
    }

    /// Notes `key` as written after the base fields; `false` when its signature was seen before
    /// (the same key, or rarely another one of the same signature).
    private mutating func record(_ key: String) -> Bool {
        let signature = KeySignatures.signature(of: key)
        if hasSeen(signature) { return false }
        if signatures.count < KeySignatures.capacity {
            signatures.append(signature)
        } else {
            moreSignatures.append(signature)
        }
        return true
    }

    private enum Written { case no, yes, maybe }

    /// Whether a custom member's key is among those written: a base field in the head is; a base
    /// field that is not, or a key of a signature seen, needs the tree to tell.
    private func isWritten(_ key: String) -> Written {
        if let field = BaseFields.Field(key) {
            let bit = Self.headBit(field)
            return bit == 0 || optionalHead & bit != 0 ? .yes : .maybe
        }
        return hasSeen(KeySignatures.signature(of: key)) ? .maybe : .no
    }

    /// Inlined: a call would copy the 128 bytes of ``signatures`` each time.
    @inline(__always) private func hasSeen(_ signature: UInt64) -> Bool {
        signatures.firstIndex(of: signature, from: 0) != nil || moreSignatures.contains(signature)
    }

    /// Moves the members written so far from the stream to a tree, which then takes the rest
    /// (a key written twice, a base field written by the type: what a tree decides by key).
    private mutating func moveToTree(_ stream: WireStream) {
        do {
            tree = try stream.parseObject(from: start)
        } catch {
            // The stream holds what this writer wrote, which parses; keep the base fields at least.
            assertionFailure("the object's bytes do not parse: \(error)")
            tree = JSONObject()
        }
        stream.output.truncate(to: start)
        mode = .tree
    }

    /// Appends `key` with `value`, or replaces the value of a key already written. A key that is
    /// not a base field can only be among those written after the base fields, so a small object
    /// compares it with those alone; a large one has an index to look it up.
    private mutating func set(_ key: String, _ value: JSONValue) {
        guard BaseFields.Field(key) == nil, tree.count <= JSONObject.indexThreshold else {
            tree.updateValue(value, forKey: key)
            return
        }
        for i in headCount..<tree.storage.count where tree.storage[i].key.hasSameUTF8(as: key) {
            tree.storage[i].value = value
            return
        }
        tree.appendNew(key, value)
    }

    private static func notFinite(_ value: Double, _ key: String) -> EncodingError {
        EncodingError.invalidValue(
            value,
            EncodingError.Context(
                codingPath: [AnyCodingKey(key)], debugDescription: "\(value) at '\(key)' cannot be written as a JSON number"))
    }
}
