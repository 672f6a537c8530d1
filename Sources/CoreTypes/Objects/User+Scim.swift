/// The parts of a ``User``'s real name (SCIM `name`).
///
/// coaty-js requires ``formatted`` to be non-empty when present, ``familyName`` and ``givenName``
/// to come together, and at least one of ``formatted`` and ``familyName``.
public struct ScimUserNames: Hashable, Sendable, Codable {
    /// The full name, formatted for display.
    public var formatted: String?
    /// The family name (comes with ``givenName``).
    public var familyName: String?
    /// The given name (comes with ``familyName``).
    public var givenName: String?
    /// The middle name(s).
    public var middleName: String?
    /// A title before the name, such as "Ms.".
    public var honorificPrefix: String?
    /// A suffix after the name, such as "III".
    public var honorificSuffix: String?
    /// Members this structure does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder: WireKeyOrder

    /// Creates a `ScimUserNames`.
    public init(
        formatted: String? = nil, familyName: String? = nil, givenName: String? = nil, middleName: String? = nil,
        honorificPrefix: String? = nil, honorificSuffix: String? = nil, custom: JSONObject = [:]
    ) {
        self.formatted = formatted
        self.familyName = familyName
        self.givenName = givenName
        self.middleName = middleName
        self.honorificPrefix = honorificPrefix
        self.honorificSuffix = honorificSuffix
        self.custom = custom
        self.wireOrder = .none
    }

    /// Decodes and validates the structure with coaty-js's rules; undeclared members go to ``custom``.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the first missing or invalid field.
    public init(jsonObject: JSONObject) throws(ObjectDecodingError) {
        try self.init(wire: jsonObject, context: WireContext(objectType: nil, coreType: nil))
    }

    /// The wire form, in the decoded member order (or the declaration order for values made in Swift).
    public func jsonObject() -> JSONObject { wireObject() }
}

extension ScimUserNames: WireStructure {
    init(wire object: JSONObject, context: WireContext) throws(ObjectDecodingError) {
        var custom = JSONObject()
        var formatted: String?
        var familyName: String?
        var givenName: String?
        var middleName: String?
        var honorificPrefix: String?
        var honorificSuffix: String?
        for (key, member) in object {
            switch key {
            case "formatted": formatted = try Wire.nonEmptyString(member, key, context)
            case "familyName": familyName = try Wire.string(member, key, context)
            case "givenName": givenName = try Wire.string(member, key, context)
            case "middleName": middleName = try Wire.string(member, key, context)
            case "honorificPrefix": honorificPrefix = try Wire.string(member, key, context)
            case "honorificSuffix": honorificSuffix = try Wire.string(member, key, context)
            default: custom.appendNew(key, member)
            }
        }
        if (familyName == nil) != (givenName == nil) {
            throw context.error(
                familyName == nil ? "familyName" : "givenName", "familyName and givenName must be present together")
        }
        if formatted == nil && familyName == nil {
            throw context.error(nil, "needs formatted or familyName and givenName")
        }
        self.formatted = formatted
        self.familyName = familyName
        self.givenName = givenName
        self.middleName = middleName
        self.honorificPrefix = honorificPrefix
        self.honorificSuffix = honorificSuffix
        self.custom = custom
        self.wireOrder = WireKeyOrder(source: object)
    }

    func wireObject() -> JSONObject {
        var head = JSONObject(capacity: 6)
        if let formatted { head.appendNew("formatted", .string(formatted)) }
        if let familyName { head.appendNew("familyName", .string(familyName)) }
        if let givenName { head.appendNew("givenName", .string(givenName)) }
        if let middleName { head.appendNew("middleName", .string(middleName)) }
        if let honorificPrefix { head.appendNew("honorificPrefix", .string(honorificPrefix)) }
        if let honorificSuffix { head.appendNew("honorificSuffix", .string(honorificSuffix)) }
        return wireOrder.merge(head: head, custom: custom)
    }
}

/// One value of a multi-valued SCIM attribute of a ``User`` (an e-mail address, a phone number, a group).
public struct ScimMultiValuedAttribute: Hashable, Sendable, Codable {
    /// The kind of value, such as "work" or "home".
    public var type: String
    /// The value itself.
    public var value: String
    /// Whether this is the preferred value.
    public var primary: Bool?
    /// A name to display for the value.
    public var display: String?
    /// Members this structure does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder: WireKeyOrder

    /// Creates a `ScimMultiValuedAttribute`.
    public init(type: String, value: String, primary: Bool? = nil, display: String? = nil, custom: JSONObject = [:]) {
        self.type = type
        self.value = value
        self.primary = primary
        self.display = display
        self.custom = custom
        self.wireOrder = .none
    }

    /// Decodes and validates the structure with coaty-js's rules; undeclared members go to ``custom``.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the first missing or invalid field.
    public init(jsonObject: JSONObject) throws(ObjectDecodingError) {
        try self.init(wire: jsonObject, context: WireContext(objectType: nil, coreType: nil))
    }

    /// The wire form, in the decoded member order (or the declaration order for values made in Swift).
    public func jsonObject() -> JSONObject { wireObject() }
}

extension ScimMultiValuedAttribute: WireStructure {
    init(wire object: JSONObject, context: WireContext) throws(ObjectDecodingError) {
        var custom = JSONObject()
        var type: String?
        var value: String?
        var primary: Bool?
        var display: String?
        for (key, member) in object {
            switch key {
            case "type": type = try Wire.string(member, key, context)
            case "value": value = try Wire.string(member, key, context)
            case "primary": primary = try Wire.bool(member, key, context)
            case "display": display = try Wire.string(member, key, context)
            default: custom.appendNew(key, member)
            }
        }
        guard let type else { throw context.missing("type") }
        guard let value else { throw context.missing("value") }
        self.type = type
        self.value = value
        self.primary = primary
        self.display = display
        self.custom = custom
        self.wireOrder = WireKeyOrder(source: object)
    }

    func wireObject() -> JSONObject {
        var head = JSONObject(capacity: 4)
        head.appendNew("type", .string(type))
        head.appendNew("value", .string(value))
        if let primary { head.appendNew("primary", .bool(primary)) }
        if let display { head.appendNew("display", .string(display)) }
        return wireOrder.merge(head: head, custom: custom)
    }
}

/// A physical mailing address of a ``User`` (a SCIM multi-valued attribute with address parts).
public struct ScimAddress: Hashable, Sendable, Codable {
    /// The kind of address, such as "work" or "home".
    public var type: String
    /// The value itself.
    public var value: String
    /// Whether this is the preferred address.
    public var primary: Bool?
    /// A name to display for the address.
    public var display: String?
    /// The full address, formatted for display.
    public var formatted: String?
    /// The street address.
    public var streetAddress: String?
    /// The city or locality.
    public var locality: String?
    /// The state or region.
    public var region: String?
    /// The postal code.
    public var postalCode: String?
    /// The country.
    public var country: String?
    /// Members this structure does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder: WireKeyOrder

    /// Creates a `ScimAddress`.
    public init(
        type: String, value: String, primary: Bool? = nil, display: String? = nil, formatted: String? = nil,
        streetAddress: String? = nil, locality: String? = nil, region: String? = nil, postalCode: String? = nil,
        country: String? = nil, custom: JSONObject = [:]
    ) {
        self.type = type
        self.value = value
        self.primary = primary
        self.display = display
        self.formatted = formatted
        self.streetAddress = streetAddress
        self.locality = locality
        self.region = region
        self.postalCode = postalCode
        self.country = country
        self.custom = custom
        self.wireOrder = .none
    }

    /// Decodes and validates the structure with coaty-js's rules; undeclared members go to ``custom``.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the first missing or invalid field.
    public init(jsonObject: JSONObject) throws(ObjectDecodingError) {
        try self.init(wire: jsonObject, context: WireContext(objectType: nil, coreType: nil))
    }

    /// The wire form, in the decoded member order (or the declaration order for values made in Swift).
    public func jsonObject() -> JSONObject { wireObject() }
}

extension ScimAddress: WireStructure {
    init(wire object: JSONObject, context: WireContext) throws(ObjectDecodingError) {
        var custom = JSONObject()
        var type: String?
        var value: String?
        var primary: Bool?
        var display: String?
        var formatted: String?
        var streetAddress: String?
        var locality: String?
        var region: String?
        var postalCode: String?
        var country: String?
        for (key, member) in object {
            switch key {
            case "type": type = try Wire.string(member, key, context)
            case "value": value = try Wire.string(member, key, context)
            case "primary": primary = try Wire.bool(member, key, context)
            case "display": display = try Wire.string(member, key, context)
            case "formatted": formatted = try Wire.string(member, key, context)
            case "streetAddress": streetAddress = try Wire.string(member, key, context)
            case "locality": locality = try Wire.string(member, key, context)
            case "region": region = try Wire.string(member, key, context)
            case "postalCode": postalCode = try Wire.string(member, key, context)
            case "country": country = try Wire.string(member, key, context)
            default: custom.appendNew(key, member)
            }
        }
        guard let type else { throw context.missing("type") }
        guard let value else { throw context.missing("value") }
        self.type = type
        self.value = value
        self.primary = primary
        self.display = display
        self.formatted = formatted
        self.streetAddress = streetAddress
        self.locality = locality
        self.region = region
        self.postalCode = postalCode
        self.country = country
        self.custom = custom
        self.wireOrder = WireKeyOrder(source: object)
    }

    func wireObject() -> JSONObject {
        var head = JSONObject(capacity: 10)
        head.appendNew("type", .string(type))
        head.appendNew("value", .string(value))
        if let primary { head.appendNew("primary", .bool(primary)) }
        if let display { head.appendNew("display", .string(display)) }
        if let formatted { head.appendNew("formatted", .string(formatted)) }
        if let streetAddress { head.appendNew("streetAddress", .string(streetAddress)) }
        if let locality { head.appendNew("locality", .string(locality)) }
        if let region { head.appendNew("region", .string(region)) }
        if let postalCode { head.appendNew("postalCode", .string(postalCode)) }
        if let country { head.appendNew("country", .string(country)) }
        return wireOrder.merge(head: head, custom: custom)
    }
}
