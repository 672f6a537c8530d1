import CoreTypes

/// Test-only Coaty objects whose wire form breaks a core type rule, to check that events refuse
/// to publish invalid objects (coaty-js: "arguments not valid"). No well-formed Swift object type
/// can produce these; an application type with a buggy `encode(to:)` could.
struct NamelessObject: CoatyObject {
    static let coreType = CoreType.coatyObject
    let wire: JSONObject

    /// `base`'s wire form without `name`.
    init(base: any CoatyObject) throws {
        var wire = try base.jsonObject()
        wire["name"] = nil
        self.wire = wire
    }

    var objectId: String { wire["objectId"]?.stringValue ?? "" }
    var objectType: String { wire["objectType"]?.stringValue ?? "" }
    var name: String { "" }

    init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "test-only type"))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(JSONValue.object(wire))
    }
}

/// `base` with another object id (for example the empty string, which no core type accepts).
struct ObjectWithID: CoatyObject {
    static let coreType = CoreType.coatyObject
    let wire: JSONObject

    init(base: any CoatyObject, objectId: String) throws {
        var wire = try base.jsonObject()
        wire["objectId"] = .string(objectId)
        self.wire = wire
    }

    var objectId: String { wire["objectId"]?.stringValue ?? "" }
    var objectType: String { wire["objectType"]?.stringValue ?? "" }
    var name: String { wire["name"]?.stringValue ?? "" }

    init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "test-only type"))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(JSONValue.object(wire))
    }
}
