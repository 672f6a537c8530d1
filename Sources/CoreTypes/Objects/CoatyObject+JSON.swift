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
        if let core = self as? any CoreObject { return try core.wireObject() }
        let strategy = (Self.self as? any WireKeyNaming.Type)?.wireKeyStrategy ?? .useDefaultKeys
        let encoder = JSONValueEncoding(keyStrategy: strategy, keepsBaseFieldNames: true)
        let encoded = try encoder.encodeRoot(self)
        guard case .object(var object) = encoded else {
            throw EncodingError.invalidValue(
                self,
                EncodingError.Context(
                    codingPath: [], debugDescription: "\(Self.self) encodes as \(encoded.typeName), not as an object"))
        }
        if !object.contains(key: "objectType") || !object.contains(key: "coreType") {
            var at = object.position(of: "objectId").map { $0 + 1 } ?? 0
            if !object.contains(key: "objectType") {
                object.insert(.string(objectType), forKey: "objectType", at: at)
                at += 1
            }
            if !object.contains(key: "coreType") {
                object.insert(.string(coreType.rawValue), forKey: "coreType", at: at)
            }
        }
        for (key, value) in custom where !object.contains(key: key) {
            object.appendNew(key, value)
        }
        return object
    }
}
