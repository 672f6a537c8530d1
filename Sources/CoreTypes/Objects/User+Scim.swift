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
    var wireOrder = WireKeyOrder.none

    /// The wire form, in the decoded member order (or the declaration order for values made in Swift).
    public func jsonObject() -> JSONObject { wireObject() }
}

extension ScimUserNames {
    /// Creates a `ScimUserNames`.
    public init(
        formatted: String? = nil, familyName: String? = nil, givenName: String? = nil, middleName: String? = nil,
        honorificPrefix: String? = nil, honorificSuffix: String? = nil, custom: JSONObject = [:]
    ) {
        self.init(
            formatted: formatted, familyName: familyName, givenName: givenName, middleName: middleName,
            honorificPrefix: honorificPrefix, honorificSuffix: honorificSuffix, custom: custom, wireOrder: .none)
    }
}

extension ScimUserNames: WireStructure, WireDescribed {
    static let wireSchema = WireSchema<ScimUserNames>([
        .optional("formatted", \.formatted, Wire.nonEmptyString),
        .optional("familyName", \.familyName),
        .optional("givenName", \.givenName),
        .optional("middleName", \.middleName),
        .optional("honorificPrefix", \.honorificPrefix),
        .optional("honorificSuffix", \.honorificSuffix),
    ])
    static let wireTemplate = ScimUserNames()

    func validateWire(_ context: WireContext) throws(ObjectDecodingError) {
        if (familyName == nil) != (givenName == nil) {
            throw context.error(
                familyName == nil ? "familyName" : "givenName", "familyName and givenName must be present together")
        }
        if formatted == nil && familyName == nil {
            throw context.error(nil, "needs formatted or familyName and givenName")
        }
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
    var wireOrder = WireKeyOrder.none

    /// The wire form, in the decoded member order (or the declaration order for values made in Swift).
    public func jsonObject() -> JSONObject { wireObject() }
}

extension ScimMultiValuedAttribute {
    /// Creates a `ScimMultiValuedAttribute`.
    public init(type: String, value: String, primary: Bool? = nil, display: String? = nil, custom: JSONObject = [:]) {
        self.init(type: type, value: value, primary: primary, display: display, custom: custom, wireOrder: .none)
    }
}

extension ScimMultiValuedAttribute: WireStructure, WireDescribed {
    static let wireSchema = WireSchema<ScimMultiValuedAttribute>([
        .required("type", \.type),
        .required("value", \.value),
        .optional("primary", \.primary),
        .optional("display", \.display),
    ])
    static let wireTemplate = ScimMultiValuedAttribute(type: "", value: "")
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
    var wireOrder = WireKeyOrder.none

    /// The wire form, in the decoded member order (or the declaration order for values made in Swift).
    public func jsonObject() -> JSONObject { wireObject() }
}

extension ScimAddress {
    /// Creates a `ScimAddress`.
    public init(
        type: String, value: String, primary: Bool? = nil, display: String? = nil, formatted: String? = nil,
        streetAddress: String? = nil, locality: String? = nil, region: String? = nil, postalCode: String? = nil,
        country: String? = nil, custom: JSONObject = [:]
    ) {
        self.init(
            type: type, value: value, primary: primary, display: display, formatted: formatted,
            streetAddress: streetAddress, locality: locality, region: region, postalCode: postalCode, country: country,
            custom: custom, wireOrder: .none)
    }
}

extension ScimAddress: WireStructure, WireDescribed {
    static let wireSchema = WireSchema<ScimAddress>([
        .required("type", \.type),
        .required("value", \.value),
        .optional("primary", \.primary),
        .optional("display", \.display),
        .optional("formatted", \.formatted),
        .optional("streetAddress", \.streetAddress),
        .optional("locality", \.locality),
        .optional("region", \.region),
        .optional("postalCode", \.postalCode),
        .optional("country", \.country),
    ])
    static let wireTemplate = ScimAddress(type: "", value: "")
}
