/// Decoding an incoming object from its bytes, without a ``JSONValue`` tree: for the objects of
/// registered ``WireCodable`` types with the `coatyObject` core type, in the responses an agent
/// waits for (`docs/profiling.md`, eighteenth round).
///
/// It decides nothing the tree would decide otherwise: where the object is not such an object, or
/// anything fails, it gives up (`nil`), and the caller decodes the tree, which accepts or names the
/// error as always.
extension ObjectTypeRegistry {
    /// Scans the object at the reader's position and decodes it without a tree.
    ///
    /// The base fields are checked as `BaseFields.isValidCoatyObjectForm` checks a tree, on the
    /// values' bytes: a string without escapes where it matters, `"CoatyObject"` exactly.
    ///
    /// - Parameter bytes: the payload the reader reads (its buffer).
    /// - Returns: `nil` when the object is not for this path or does not decode (the caller then
    ///   decodes the tree).
    /// - Throws: `JSONParseError` when the object is not valid JSON.
    func decodeScanned(_ reader: inout JSONReader, bytes: [UInt8]) throws(JSONParseError) -> (any CoatyObject)? {
        guard !scannedEntries.isEmpty, let scan = try reader.scanObject() else { return nil }
        let buffer = reader.bytes
        var entry: ScannedEntry?
        var required: UInt8 = 0  // objectId, objectType, coreType, name: one bit each
        for member in scan.members {
            guard let field = BaseFields.Field(utf8: UnsafeRawBufferPointer(rebasing: buffer[member.key])) else {
                continue
            }
            let value = member.value
            switch field {
            case .objectId:
                guard Self.isNonEmptyString(value, buffer) else { return nil }
                required |= 1
            case .objectType:
                guard let found = scannedEntry(named: value, in: buffer) else { return nil }
                entry = found
                required |= 2
            case .coreType:
                guard ObjectScan.equal(value, #""CoatyObject""#, in: buffer) else { return nil }
                required |= 4
            case .name:
                guard buffer[value.lowerBound] == UInt8(ascii: "\"") else { return nil }
                required |= 8
            case .externalId, .parentObjectId, .locationId:
                guard Self.isNonEmptyString(value, buffer) else { return nil }
            case .isDeactivated:
                guard ObjectScan.equal(value, "true", in: buffer) || ObjectScan.equal(value, "false", in: buffer) else {
                    return nil
                }
            }
        }
        guard required == 0b1111, let entry else { return nil }
        var wire = WireReader(
            WireSource(bytes: bytes, scan: scan),
            context: WireContext(objectType: entry.objectType, coreType: CoreType.coatyObject.rawValue))
        return try? entry.decode(&wire)
    }

    /// The entry whose object type is the string at `value`, written without escapes.
    private func scannedEntry(named value: Range<Int>, in buffer: UnsafeRawBufferPointer) -> ScannedEntry? {
        guard value.count > 2, buffer[value.lowerBound] == UInt8(ascii: "\"") else { return nil }
        let name = (value.lowerBound + 1)..<(value.upperBound - 1)
        for entry in scannedEntries {
            let found = entry.utf8.withUnsafeBytes { ObjectScan.equal(name, $0, in: buffer) }
            if found { return entry }
        }
        return nil
    }

    /// Whether the value at `range` is a string of at least one character (an escape stands for one).
    @inline(__always)
    private static func isNonEmptyString(_ range: Range<Int>, _ buffer: UnsafeRawBufferPointer) -> Bool {
        range.count > 2 && buffer[range.lowerBound] == UInt8(ascii: "\"")
    }
}
