/// Decoding an incoming object from its bytes, without a ``JSONValue`` tree: for the objects of
/// registered ``WireCodable`` types with the `coatyObject` core type, in the events and responses
/// an agent receives (``ScannedPayload``).
///
/// It decides nothing the tree would decide otherwise: where the object is not such an object, or
/// anything fails, it gives up (`nil`), and the caller decodes the tree, which accepts or names the
/// error as always.
extension ObjectTypeRegistry {
    /// Scans the object at the reader's position and decodes it without a tree.
    ///
    /// The base fields are checked on the bytes as they are found (``ScannedBaseFields``), so the
    /// scan stops at the first member that sends the object to the tree: an object type with no
    /// scanned entry, another core type.
    ///
    /// - Parameter bytes: the payload the reader reads (its buffer).
    /// - Returns: `nil` when the object is not for this path or does not decode (the caller then
    ///   decodes the tree).
    /// - Throws: `JSONParseError` when the object is not valid JSON.
    func decodeScanned(_ reader: inout JSONReader, bytes: [UInt8]) throws(JSONParseError) -> (any CoatyObject)? {
        guard !scannedEntries.isEmpty else { return nil }
        var fields = ScannedBaseFields(entries: scannedEntries)
        guard let scan = try reader.scanObject(checking: &fields), fields.isComplete, let index = fields.entryIndex else {
            return nil
        }
        let entry = scannedEntries[index]
        var wire = WireReader(
            WireSource(bytes: bytes, scan: scan),
            context: WireContext(objectType: entry.objectType, coreType: CoreType.coatyObject.rawValue))
        return try? entry.decode(&wire)
    }
}

/// The base fields of an object being scanned, checked on their values' bytes as
/// `BaseFields.isValidCoatyObjectForm` checks a tree: strings (non-empty where required, without
/// escapes for the object type), `"CoatyObject"` exactly, a boolean for `isDeactivated`. The object
/// type must name one of the registry's scanned entries.
struct ScannedBaseFields: ScanMemberCheck {
    let entries: [ObjectTypeRegistry.ScannedEntry]
    /// The position in `entries` of the object type's entry, once read.
    private(set) var entryIndex: Int?
    private var required: UInt8 = 0  // objectId, objectType, coreType, name: one bit each

    init(entries: [ObjectTypeRegistry.ScannedEntry]) {
        self.entries = entries
    }

    /// Whether the four required base fields were all there.
    var isComplete: Bool { required == 0b1111 }

    mutating func accept(key: Range<Int>, value: Range<Int>, in buffer: UnsafeRawBufferPointer) -> Bool {
        guard let field = BaseFields.Field(utf8: UnsafeRawBufferPointer(rebasing: buffer[key])) else { return true }
        switch field {
        case .objectID:
            required |= 1
            return Self.isNonEmptyString(value, buffer)
        case .objectType:
            entryIndex = entryIndex(named: value, in: buffer)
            required |= 2
            return entryIndex != nil
        case .coreType:
            required |= 4
            return ObjectScan.equal(value, #""CoatyObject""#, in: buffer)
        case .name:
            required |= 8
            return buffer[value.lowerBound] == UInt8(ascii: "\"")
        case .externalID, .parentObjectID, .locationID:
            return Self.isNonEmptyString(value, buffer)
        case .isDeactivated:
            return ObjectScan.equal(value, "true", in: buffer) || ObjectScan.equal(value, "false", in: buffer)
        }
    }

    /// The position of the entry whose object type is the string at `value`, written without escapes.
    private func entryIndex(named value: Range<Int>, in buffer: UnsafeRawBufferPointer) -> Int? {
        guard value.count > 2, buffer[value.lowerBound] == UInt8(ascii: "\"") else { return nil }
        let name = (value.lowerBound + 1)..<(value.upperBound - 1)
        return entries.firstIndex { entry in entry.utf8.withUnsafeBytes { ObjectScan.equal(name, $0, in: buffer) } }
    }

    /// Whether the value at `range` is a string of at least one character (an escape stands for one).
    private static func isNonEmptyString(_ range: Range<Int>, _ buffer: UnsafeRawBufferPointer) -> Bool {
        range.count > 2 && buffer[range.lowerBound] == UInt8(ascii: "\"")
    }
}
