extension BaseObject {
    /// The compact JSON text of ``jsonObject()`` (as `JSONValue.serializedString()` writes it),
    /// written from the fields without building the tree, for an object whose form is valid by
    /// construction: core type `CoatyObject`, non-empty ids and object type, and no custom member
    /// named like a base field. `nil` for any other; encode that one with ``jsonObject()``.
    package func validCompactText() -> String? {
        guard coreType == .coatyObject, !objectID.isEmpty, !objectType.isEmpty, externalID?.isEmpty != true,
            parentObjectID?.isEmpty != true, locationID?.isEmpty != true,
            !custom.storage.contains(where: { BaseFields.Field($0.key) != nil })
        else { return nil }
        var output = JSONOutput(capacity: 256)
        var writer = CompactMembers()
        output.append(UInt8(ascii: "{"))
        var writtenBase: UInt8 = 0  // one bit per field, by raw value
        var writtenCustom = BitSet(count: custom.count)
        // The members in the order they arrived (as `WireKeyOrder.merge` puts them), then the
        // base fields in canonical order, then the custom members that were not in the source.
        if let source = wireOrder.source {
            var hint = 0
            for member in source.storage {
                if let field = BaseFields.Field(member.key) {
                    let bit: UInt8 = 1 << field.rawValue
                    if writtenBase & bit == 0, writeBase(field, writer: &writer, to: &output) { writtenBase |= bit }
                } else if let index = custom.position(of: member.key, hint: hint) {
                    hint = index + 1
                    guard !writtenCustom[index] else { continue }
                    writtenCustom[index] = true
                    writer.member(member.key, custom.storage[index].value, to: &output)
                }
            }
        }
        for field in BaseFields.Field.allCases where writtenBase & (1 << field.rawValue) == 0 {
            _ = writeBase(field, writer: &writer, to: &output)
        }
        for index in custom.indices where !writtenCustom[index] {
            writer.member(custom.storage[index].key, custom.storage[index].value, to: &output)
        }
        output.append(UInt8(ascii: "}"))
        return output.withBytes(from: 0) { String(decoding: $0, as: UTF8.self) }
    }

    /// Writes base field `field` when it is set; whether it was.
    private func writeBase(_ field: BaseFields.Field, writer: inout CompactMembers, to output: inout JSONOutput) -> Bool {
        let value: JSONValue
        switch field {
        case .objectID: value = .string(objectID)
        case .objectType: value = .string(objectType)
        case .coreType: value = .string(CoreType.coatyObject.rawValue)
        case .name: value = .string(name)
        case .externalID: guard let externalID else { return false }; value = .string(externalID)
        case .parentObjectID: guard let parentObjectID else { return false }; value = .string(parentObjectID)
        case .locationID: guard let locationID else { return false }; value = .string(locationID)
        case .isDeactivated: guard let isDeactivated else { return false }; value = .bool(isDeactivated)
        }
        writer.member(field.key, value, to: &output)
        return true
    }
}

/// Writes the members of one object, with commas between them.
private struct CompactMembers {
    private var isFirst = true

    mutating func member(_ key: String, _ value: JSONValue, to output: inout JSONOutput) {
        if !isFirst { output.append(UInt8(ascii: ",")) }
        isFirst = false
        JSONWriter.writeString(key, to: &output)
        output.append(UInt8(ascii: ":"))
        JSONWriter.write(value, to: &output)
    }
}
