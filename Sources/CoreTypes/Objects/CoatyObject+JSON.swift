extension CoatyObject {
    /// The wire form of this object: its fields, `coreType`, `objectType`, and ``custom`` at the top level.
    ///
    /// Core types write their members in the order they arrived (or, when created in Swift, in a
    /// fixed order: `objectId`, `objectType`, `coreType`, `name`, …; identities as coaty-js writes
    /// them). Application types are encoded with ``JSONValueEncoder`` in the order the type encodes
    /// its members (using its ``WireKeyNaming`` strategy); `objectType` and `coreType` are added
    /// after `objectId` when the type does not encode them, and ``custom`` members follow.
    /// Unset optionals are left out, never written as `null`.
    ///
    /// - Throws: `EncodingError` when an application type fails to encode (for example a NaN).
    public func jsonObject() throws -> JSONObject {
        let strategy = (Self.self as? any WireKeyNaming.Type)?.wireKeyStrategy ?? .useDefaultKeys
        let encoder = JSONValueEncoding(keyStrategy: strategy, keepsBaseFieldNames: true)
        let encoded = try encoder.encodeRoot(self)
        var object: JSONObject
        // Consumed, so that `object` holds the only reference to its members and the insertions
        // below do not copy them.
        switch consume encoded {
        case .object(let members): object = members
        case let other:
            throw EncodingError.invalidValue(
                self,
                EncodingError.Context(
                    codingPath: [], debugDescription: "\(Self.self) encodes as \(other.typeName), not as an object"))
        }
        let found = object.basePositions()
        if found.objectType == nil || found.coreType == nil {
            var at = found.objectID.map { $0 + 1 } ?? 0
            if found.objectType == nil {
                object.insertNew("objectType", .string(objectType), at: at)
                at += 1
            }
            if found.coreType == nil {
                object.insertNew("coreType", .string(coreType.rawValue), at: at)
            }
        }
        for (key, value) in custom where !object.contains(key: key) {
            object.appendNew(key, value)
        }
        return object
    }
}

extension JSONObject {
    /// The positions of `objectId`, `objectType` and `coreType`, found in one pass over the keys
    /// (three lookups scanned the object up to five times).
    func basePositions() -> (objectID: Int?, objectType: Int?, coreType: Int?) {
        var result: (objectID: Int?, objectType: Int?, coreType: Int?) = (nil, nil, nil)
        for i in storage.indices {
            switch BaseFields.Field(storage[i].key) {
            case .objectID?: result.objectID = i
            case .objectType?: result.objectType = i
            case .coreType?: result.coreType = i
            default: continue
            }
        }
        return result
    }
}
