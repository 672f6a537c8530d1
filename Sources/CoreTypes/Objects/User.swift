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
    var wireOrder: WireKeyOrder

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
        self.base = ObjectBase(
            objectID: objectID, objectType: objectType, name: name, externalID: externalID,
            parentObjectID: parentObjectID, locationID: locationID, isDeactivated: isDeactivated)
        self.names = names
        self.displayName = displayName
        self.nickName = nickName
        self.title = title
        self.userType = userType
        self.preferredLanguage = preferredLanguage
        self.locale = locale
        self.timezone = timezone
        self.active = active
        self.password = password
        self.emails = emails
        self.phoneNumbers = phoneNumbers
        self.ims = ims
        self.photos = photos
        self.addresses = addresses
        self.groups = groups
        self.entitlements = entitlements
        self.roles = roles
        self.x509Certificates = x509Certificates
        self.custom = custom
        self.wireOrder = .none
    }

    /// Decodes and validates an object of core type `User`, as coaty-js's
    /// `CoreTypes.isObject(obj, "User")` does; members this type does not declare go to ``custom``.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the first missing or invalid field.
    public init(jsonObject: JSONObject) throws(ObjectDecodingError) {
        try self.init(wire: jsonObject, context: WireContext(of: jsonObject), registry: ObjectTypeRegistry())
    }
}

extension User: CoreObject {
    init(wire object: JSONObject, context: WireContext, registry: ObjectTypeRegistry) throws(ObjectDecodingError) {
        var base = BaseFields()
        var custom = JSONObject()
        var names: ScimUserNames?
        var displayName: String?
        var nickName: String?
        var title: String?
        var userType: String?
        var preferredLanguage: String?
        var locale: String?
        var timezone: String?
        var active: Bool?
        var password: String?
        var emails: [ScimMultiValuedAttribute]?
        var phoneNumbers: [ScimMultiValuedAttribute]?
        var ims: [ScimMultiValuedAttribute]?
        var photos: [ScimMultiValuedAttribute]?
        var addresses: [ScimAddress]?
        var groups: [ScimMultiValuedAttribute]?
        var entitlements: [JSONValue]?
        var roles: [String]?
        var x509Certificates: [String]?
        for (key, member) in object {
            if try base.read(key, member, context) { continue }
            switch key {
            case "names": names = try ScimUserNames.read(member, key, context)
            case "displayName": displayName = try Wire.string(member, key, context)
            case "nickName": nickName = try Wire.string(member, key, context)
            case "title": title = try Wire.string(member, key, context)
            case "userType": userType = try Wire.string(member, key, context)
            case "preferredLanguage": preferredLanguage = try Wire.string(member, key, context)
            case "locale": locale = try Wire.string(member, key, context)
            case "timezone": timezone = try Wire.string(member, key, context)
            case "active": active = try Wire.bool(member, key, context)
            case "password": password = try Wire.string(member, key, context)
            case "emails":
                emails = try Wire.objectArray(member, key, context) { object, context throws(ObjectDecodingError) in
                    try ScimMultiValuedAttribute(wire: object, context: context)
                }
            case "phoneNumbers":
                phoneNumbers = try Wire.objectArray(member, key, context) {
                    object, context throws(ObjectDecodingError) in
                    try ScimMultiValuedAttribute(wire: object, context: context)
                }
            case "ims":
                ims = try Wire.objectArray(member, key, context) { object, context throws(ObjectDecodingError) in
                    try ScimMultiValuedAttribute(wire: object, context: context)
                }
            case "photos":
                photos = try Wire.objectArray(member, key, context) { object, context throws(ObjectDecodingError) in
                    try ScimMultiValuedAttribute(wire: object, context: context)
                }
            case "addresses":
                addresses = try Wire.objectArray(member, key, context) { object, context throws(ObjectDecodingError) in
                    try ScimAddress(wire: object, context: context)
                }
            case "groups":
                groups = try Wire.objectArray(member, key, context) { object, context throws(ObjectDecodingError) in
                    try ScimMultiValuedAttribute(wire: object, context: context)
                }
            case "entitlements": entitlements = try Wire.array(member, key, context)
            case "roles": roles = try Wire.stringArray(member, key, context)
            case "x509Certificates": x509Certificates = try Wire.stringArray(member, key, context)
            default: custom.appendNew(key, member)
            }
        }
        let fields = try base.required(as: .user, context)
        guard let names else { throw context.missing("names") }
        self.base = fields
        self.names = names
        self.displayName = displayName
        self.nickName = nickName
        self.title = title
        self.userType = userType
        self.preferredLanguage = preferredLanguage
        self.locale = locale
        self.timezone = timezone
        self.active = active
        self.password = password
        self.emails = emails
        self.phoneNumbers = phoneNumbers
        self.ims = ims
        self.photos = photos
        self.addresses = addresses
        self.groups = groups
        self.entitlements = entitlements
        self.roles = roles
        self.x509Certificates = x509Certificates
        self.custom = custom
        self.wireOrder = WireKeyOrder(source: object)
    }

    func wireObject() -> JSONObject {
        var head = baseHead(capacity: 27)
        head.appendNew("names", .object(names.wireObject()))
        if let displayName { head.appendNew("displayName", .string(displayName)) }
        if let nickName { head.appendNew("nickName", .string(nickName)) }
        if let title { head.appendNew("title", .string(title)) }
        if let userType { head.appendNew("userType", .string(userType)) }
        if let preferredLanguage { head.appendNew("preferredLanguage", .string(preferredLanguage)) }
        if let locale { head.appendNew("locale", .string(locale)) }
        if let timezone { head.appendNew("timezone", .string(timezone)) }
        if let active { head.appendNew("active", .bool(active)) }
        if let password { head.appendNew("password", .string(password)) }
        if let emails { head.appendNew("emails", .array(emails.map { .object($0.wireObject()) })) }
        if let phoneNumbers { head.appendNew("phoneNumbers", .array(phoneNumbers.map { .object($0.wireObject()) })) }
        if let ims { head.appendNew("ims", .array(ims.map { .object($0.wireObject()) })) }
        if let photos { head.appendNew("photos", .array(photos.map { .object($0.wireObject()) })) }
        if let addresses { head.appendNew("addresses", .array(addresses.map { .object($0.wireObject()) })) }
        if let groups { head.appendNew("groups", .array(groups.map { .object($0.wireObject()) })) }
        if let entitlements { head.appendNew("entitlements", .array(entitlements)) }
        if let roles { head.appendNew("roles", .array(roles.map(JSONValue.string))) }
        if let x509Certificates { head.appendNew("x509Certificates", .array(x509Certificates.map(JSONValue.string))) }
        return wireOrder.merge(head: head, custom: custom)
    }
}
