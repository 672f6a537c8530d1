/// Reads the members of an inbound event payload the way coaty-js's `XxxEventData.createFrom` does.
///
/// coaty-js reads `eventData.member` from whatever `JSON.parse` returned: a missing key is
/// `undefined` (absent) and `null` is a present value, so the two stay apart here. A payload that
/// is `null` makes coaty-js throw; any other non-object payload (an array, a number, a string)
/// simply has no members.
struct PayloadReader {
    let members: JSONObject
    let eventType: EventType

    init(_ json: JSONValue, _ eventType: EventType) throws(EventError) {
        self.eventType = eventType
        switch json {
        case .object(let object): members = object
        case .null:
            throw EventError(
                code: .notAnObject, eventType: eventType, field: nil,
                detail: "the payload is null; send a JSON object")
        default: members = [:]
        }
    }

    /// The member's value, or `nil` when the key is missing (a `null` value is returned as `.null`).
    subscript(key: String) -> JSONValue? { members[key] }

    func error(_ code: EventError.Code, _ field: String?, _ detail: String) -> EventError {
        EventError(code: code, eventType: eventType, field: field, detail: detail)
    }

    /// `privateData`: absent, or a plain JSON object (coaty-js `isPlainObject`).
    func privateData() throws(EventError) -> JSONObject? {
        guard let value = self["privateData"] else { return nil }
        guard case .object(let object) = value else {
            throw error(.invalidMember, "privateData", "must be a JSON object when present, found \(value.typeName)")
        }
        return object
    }

    /// A string member: absent, or a string (possibly empty).
    func string(_ key: String) throws(EventError) -> String? {
        guard let value = self[key] else { return nil }
        guard case .string(let text) = value else {
            throw error(.invalidMember, key, "must be a string when present, found \(value.typeName)")
        }
        return text
    }

    /// A non-empty string member: absent, or a string that is not empty.
    func nonEmptyString(_ key: String) throws(EventError) -> String? {
        guard let text = try string(key) else { return nil }
        guard !text.isEmpty else { throw error(.invalidMember, key, "must not be empty") }
        return text
    }

    /// coaty-js `CoreTypes.isStringArray`: an array of non-empty strings (the array may be empty).
    func stringArray(_ key: String) throws(EventError) -> [String]? {
        guard let value = self[key] else { return nil }
        guard case .array(let elements) = value else {
            throw error(.invalidMember, key, "must be an array of non-empty strings, found \(value.typeName)")
        }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element else {
                throw error(.invalidMember, "\(key)[\(index)]", "must be a non-empty string, found \(element.typeName)")
            }
            guard !text.isEmpty else { throw error(.invalidMember, "\(key)[\(index)]", "must not be empty") }
            strings.append(text)
        }
        return strings
    }

    /// coaty-js `CoreTypes.isCoreTypeArray`: an array of core type names.
    func coreTypeArray(_ key: String) throws(EventError) -> [CoreType]? {
        guard let strings = try stringArray(key) else { return nil }
        var coreTypes: [CoreType] = []
        coreTypes.reserveCapacity(strings.count)
        for (index, name) in strings.enumerated() {
            guard let coreType = CoreType(rawValue: name) else {
                throw error(.invalidMember, "\(key)[\(index)]", "'\(name)' is not a core type")
            }
            coreTypes.append(coreType)
        }
        return coreTypes
    }

    /// A Coaty object member (coaty-js `CoreTypes.isObject`), decoded through `registry`.
    func object(_ key: String, registry: ObjectTypeRegistry) throws(EventError) -> (any CoatyObject)? {
        guard let value = self[key] else { return nil }
        return try decode(value, field: key, registry: registry)
    }

    /// An array of Coaty objects (coaty-js `CoreTypes.isObjectArray`); the array may be empty.
    func objects(_ key: String, registry: ObjectTypeRegistry) throws(EventError) -> [any CoatyObject]? {
        guard let value = self[key] else { return nil }
        guard case .array(let elements) = value else {
            throw error(.invalidMember, key, "must be an array of Coaty objects, found \(value.typeName)")
        }
        var objects: [any CoatyObject] = []
        objects.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            objects.append(try decode(element, field: "\(key)[\(index)]", registry: registry))
        }
        return objects
    }

    private func decode(
        _ value: JSONValue, field: String, registry: ObjectTypeRegistry
    ) throws(EventError) -> any CoatyObject {
        guard case .object(let object) = value else {
            throw error(.invalidObject, field, "must be a Coaty object, found \(value.typeName)")
        }
        do {
            return try registry.decodeObject(object)
        } catch {
            throw self.error(.invalidObject, field, error.description)
        }
    }
}
