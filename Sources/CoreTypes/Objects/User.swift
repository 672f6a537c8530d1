/// A user, with SCIM 2 (RFC 7643) flavoured attributes; core type `User`.
///
/// ``name`` carries the SCIM `userName`; ``names`` is required.
public struct User: CoatyObject, ObjectBaseStoring, Hashable {
    /// The core type `User`.
    public static let coreType = CoreType.user

    /// The base fields: ``objectID``, ``objectType``, ``name`` and the optional ones.
    public var base: ObjectBase
    /// The parts of the user's real name (required).
    public var names: ScimUserNames
    /// The name to display.
    public var displayName: String?
    /// A casual name.
    public var nickName: String?
    /// A job title, such as "Vice President".
    public var title: String?
    /// How the user relates to the organisation, such as "Employee".
    public var userType: String?
    /// The preferred language, such as "en-US".
    public var preferredLanguage: String?
    /// The locale for formatting, such as "de-DE".
    public var locale: String?
    /// The time zone, such as "Europe/Berlin".
    public var timezone: String?
    /// Whether the account is active.
    public var active: Bool?
    /// The clear-text password (sent only where the application wants it).
    public var password: String?
    /// E-mail addresses.
    public var emails: [ScimMultiValuedAttribute]?
    /// Phone numbers.
    public var phoneNumbers: [ScimMultiValuedAttribute]?
    /// Instant messaging addresses.
    public var ims: [ScimMultiValuedAttribute]?
    /// Photo URLs.
    public var photos: [ScimMultiValuedAttribute]?
    /// Physical mailing addresses.
    public var addresses: [ScimAddress]?
    /// Groups the user belongs to.
    public var groups: [ScimMultiValuedAttribute]?
    /// Entitlements, any JSON values.
    public var entitlements: [JSONValue]?
    /// Roles, non-empty strings.
    public var roles: [String]?
    /// X.509 certificates, non-empty strings.
    public var x509Certificates: [String]?
    /// Every member this type does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder = WireKeyOrder.none
}

extension User {
    /// Creates a User object.
    public init(
        objectID: String = ObjectID.make(), objectType: String = User.objectType, name: String, names: ScimUserNames,
        displayName: String? = nil, nickName: String? = nil, title: String? = nil, userType: String? = nil,
        preferredLanguage: String? = nil, locale: String? = nil, timezone: String? = nil, active: Bool? = nil,
        password: String? = nil, emails: [ScimMultiValuedAttribute]? = nil,
        phoneNumbers: [ScimMultiValuedAttribute]? = nil, ims: [ScimMultiValuedAttribute]? = nil,
        photos: [ScimMultiValuedAttribute]? = nil, addresses: [ScimAddress]? = nil,
        groups: [ScimMultiValuedAttribute]? = nil, entitlements: [JSONValue]? = nil, roles: [String]? = nil,
        x509Certificates: [String]? = nil, externalID: String? = nil, parentObjectID: String? = nil,
        locationID: String? = nil, isDeactivated: Bool? = nil, custom: JSONObject = [:]
    ) {
        self.init(
            base: ObjectBase(objectID, objectType, name, externalID, parentObjectID, locationID, isDeactivated),
            names: names, displayName: displayName, nickName: nickName, title: title, userType: userType,
            preferredLanguage: preferredLanguage, locale: locale, timezone: timezone, active: active,
            password: password, emails: emails, phoneNumbers: phoneNumbers, ims: ims, photos: photos,
            addresses: addresses, groups: groups, entitlements: entitlements, roles: roles,
            x509Certificates: x509Certificates, custom: custom, wireOrder: .none)
    }
}

extension User: CoreObject, WireDescribed {
    static let wireSchema = WireSchema<User>([
        .required("names", \.names),
        .optional("displayName", \.displayName),
        .optional("nickName", \.nickName),
        .optional("title", \.title),
        .optional("userType", \.userType),
        .optional("preferredLanguage", \.preferredLanguage),
        .optional("locale", \.locale),
        .optional("timezone", \.timezone),
        .optional("active", \.active),
        .optional("password", \.password),
        .optional("emails", \.emails),
        .optional("phoneNumbers", \.phoneNumbers),
        .optional("ims", \.ims),
        .optional("photos", \.photos),
        .optional("addresses", \.addresses),
        .optional("groups", \.groups),
        .optional("entitlements", \.entitlements),
        .optional("roles", \.roles, Wire.nonEmptyStrings),
        .optional("x509Certificates", \.x509Certificates, Wire.nonEmptyStrings),
    ])
    static let wireTemplate = User(name: "", names: ScimUserNames(formatted: ""))
}
