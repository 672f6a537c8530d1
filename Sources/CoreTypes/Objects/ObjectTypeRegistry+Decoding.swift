extension ObjectTypeRegistry {
    /// Decodes a registered application type: validates the object against its core type, decodes
    /// the declared members with `Decodable`, and hands every other member to ``CoatyObject/custom``.
    func decodeRegistered<T: CoatyObject>(
        _ type: T.Type, from json: JSONObject, context: WireContext
    ) throws(ObjectDecodingError) -> T {
        try validateShape(json, as: T.coreType, context: context)
        let strategy = (T.self as? any WireKeyNaming.Type)?.wireKeyStrategy ?? .useDefaultKeys
        let decoder = JSONValueDecoding(value: .object(json), keyStrategy: strategy, keepsBaseFieldNames: true)
        decoder.accessedTopLevelMembers = BitSet(count: json.count)
        var object: T
        do {
            object = try T(from: decoder)
        } catch let error as DecodingError {
            throw Self.objectError(error, context: context, keyStrategy: strategy)
        } catch let error as ObjectDecodingError {
            throw error
        } catch {
            throw context.error(nil, "\(T.self) failed to decode: \(error)")
        }
        guard let accessed = decoder.accessedTopLevelMembers else { return object }
        let custom = json.unreadMembers(accessed)
        if !custom.isEmpty { object.custom = custom }
        return object
    }

    /// Decodes a registered ``WireCodable`` type: validates the object against its core type, lets
    /// the type read its members, and hands every other member to ``CoatyObject/custom``.
    func decodeWire<T: WireCodable>(
        _ type: T.Type, from json: JSONObject, context: WireContext
    ) throws(ObjectDecodingError) -> T {
        try validateShape(json, as: T.coreType, context: context)
        var reader = WireReader(json, context: context)
        var object = try T(wire: &reader)
        let custom = json.unreadMembers(reader.read)
        if !custom.isEmpty { object.custom = custom }
        return object
    }

    /// Checks `json` with coaty-js's rules for `coreType` and that it declares that core type.
    private func validateShape(_ json: JSONObject, as coreType: CoreType, context: WireContext)
        throws(ObjectDecodingError)
    {
        if coreType == .coatyObject {
            // The check in place passes almost every object; the full read explains a failure.
            if BaseFields.isValidCoatyObjectForm(json) { return }
            var base = BaseFields()
            for (key, value) in json { _ = try base.read(key, value, context) }
            _ = try base.required(as: .coatyObject, context)
        } else {
            _ = try Self.coreStruct(for: coreType).init(wire: json, context: context, registry: self)
        }
    }

    /// The ``ObjectDecodingError`` for a `DecodingError`, naming the field by its wire path.
    static func objectError(
        _ error: DecodingError, context: WireContext, keyStrategy: JSONKeyStrategy = .useDefaultKeys
    ) -> ObjectDecodingError {
        let (path, reason): ([any CodingKey], String) =
            switch error {
            case .typeMismatch(_, let c): (c.codingPath, c.debugDescription)
            case .valueNotFound(_, let c): (c.codingPath, c.debugDescription)
            case .keyNotFound(let key, let c): (c.codingPath + [key], "is required but missing")
            case .dataCorrupted(let c): (c.codingPath, c.debugDescription)
            @unknown default: ([], "\(error)")
            }
        let field = path.enumerated().map { level, key in
            if let index = key.intValue { return String(index) }
            if level == 0, let wireName = BaseFields.wireName(ofSwiftName: key.stringValue) { return wireName }
            if keyStrategy.isIdentity || (level == 0 && BaseFields.isBaseField(key.stringValue)) { return key.stringValue }
            return keyStrategy.wireName(for: key.stringValue)
        }.joined(separator: ".")
        return ObjectDecodingError(
            objectType: context.objectType, coreType: context.coreType, field: field.isEmpty ? nil : field,
            reason: reason)
    }
}

extension JSONObject {
    /// The members whose positions `read` does not mark, without `objectType` and `coreType`
    /// (which every type has): a registered type's ``CoatyObject/custom``.
    func unreadMembers(_ read: BitSet) -> JSONObject {
        var custom = JSONObject()
        for i in storage.indices where !read[i] {
            let member = storage[i]
            if let field = BaseFields.Field(member.key), field == .objectType || field == .coreType { continue }
            custom.appendNew(member.key, member.value)
        }
        return custom
    }
}
