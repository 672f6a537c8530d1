/// A core type's hand-written wire form: decoding from and encoding to a ``JSONObject`` without
/// `Codable`, with coaty-js's validation and the wire key order kept.
protocol CoreObject: CoatyObject, JSONObjectDecodable {
    /// Decodes and validates `object` as this core type; `registry` decodes nested Coaty objects
    /// (``Snapshot/object``) through the chain.
    init(wire object: JSONObject, context: WireContext, registry: ObjectTypeRegistry) throws(ObjectDecodingError)
    /// The wire form: own members in the decoded (or canonical) order, custom members included.
    /// Only ``Snapshot`` can fail, when its captured object fails to encode.
    func wireObject() throws -> JSONObject
}

extension CoreObject {
    /// Decodes and validates an object of this core type, as coaty-js's `CoreTypes.isObject` does
    /// (``JSONObjectDecodable``'s requirement for every core type).
    public init(jsonObject: JSONObject) throws(ObjectDecodingError) {
        try self.init(wire: jsonObject, context: WireContext(of: jsonObject), registry: ObjectTypeRegistry())
    }

    /// The wire form, written by the core type itself (this is the witness of
    /// ``CoatyObject/jsonObject()`` for every core type, so no cast picks it at run time).
    public func jsonObject() throws -> JSONObject {
        try wireObject()
    }
}

extension CoatyObject {
    /// A new object holding the base fields in the canonical order (`objectId`, `objectType`,
    /// `coreType`, `name`, then the optional ones that are set), with room for `capacity` members:
    /// how the core types and ``WireWriter`` begin an object.
    func baseHead(capacity: Int) -> JSONObject {
        var head = JSONObject(capacity: capacity)
        head.appendNew("objectId", .string(objectID))
        head.appendNew("objectType", .string(objectType))
        head.appendNew("coreType", .string(coreType.rawValue))
        head.appendNew("name", .string(name))
        BaseFields.appendOptional(
            externalID: externalID, parentObjectID: parentObjectID, locationID: locationID,
            isDeactivated: isDeactivated, to: &head)
        return head
    }
}

extension CoreObject {
    /// Decodes any decoder holding a JSON object as this core type, with the rules of its `init(jsonObject:)`
    /// (every core type's `Decodable` conformance).
    public init(from decoder: any Decoder) throws {
        self = try decoder.decodeWireObject { object throws(ObjectDecodingError) in
            try Self(wire: object, context: WireContext(of: object), registry: ObjectTypeRegistry())
        }
    }

    /// Encodes the wire form (every core type's `Encodable` conformance).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(try wireObject())
    }
}

/// A nested structure of a core type (``GeoLocation``, ``ScimUserNames``, …) with a hand-written wire form.
protocol WireStructure: WireValue, JSONObjectDecodable {
    init(wire object: JSONObject, context: WireContext) throws(ObjectDecodingError)
    func wireObject() -> JSONObject
}

extension WireStructure {
    /// Decodes and validates the structure with coaty-js's rules (``JSONObjectDecodable``'s
    /// requirement for every nested structure).
    public init(jsonObject: JSONObject) throws(ObjectDecodingError) {
        try self.init(wire: jsonObject, context: WireContext(objectType: nil, coreType: nil))
    }

    static func read(_ value: JSONValue, _ key: String, _ context: WireContext) throws(ObjectDecodingError) -> Self {
        try Self(wire: Wire.object(value, key, context), context: context.nested(key))
    }

    var wireValue: JSONValue { .object(wireObject()) }

    /// Decodes any decoder holding a JSON object, with the rules of the structure's `init(jsonObject:)`
    /// (every nested structure's `Decodable` conformance).
    public init(from decoder: any Decoder) throws {
        self = try decoder.decodeWireObject { object throws(ObjectDecodingError) in
            try Self(wire: object, context: WireContext(objectType: nil, coreType: nil))
        }
    }

    /// Encodes the wire form (every nested structure's `Encodable` conformance).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wireObject())
    }
}

extension Decoder {
    /// The JSON object this decoder holds, read by `read`; an ``ObjectDecodingError`` becomes a
    /// `DecodingError.dataCorrupted` at this decoder's coding path.
    func decodeWireObject<T>(_ read: (JSONObject) throws(ObjectDecodingError) -> T) throws -> T {
        let object = try singleValueContainer().decode(JSONObject.self)
        do {
            return try read(object)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: codingPath, debugDescription: error.description, underlyingError: error))
        }
    }
}
