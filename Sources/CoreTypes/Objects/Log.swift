/// A log entry that an agent publishes; core type `Log`.
public struct Log: CoatyObject, ObjectBaseStoring, Hashable {
    /// The core type `Log`.
    public static let coreType = CoreType.log

    /// The base fields: ``objectID``, ``objectType``, ``name`` and the optional ones.
    public var base: ObjectBase
    /// The severity.
    public var logLevel: LogLevel
    /// The message.
    public var logMessage: String
    /// When the entry was made, as an ISO 8601 string (`2021-10-22T11:00:58.018+02:00`); the format is not checked.
    public var logDate: String
    /// Tags for filtering, non-empty strings.
    public var logTags: [String]?
    /// Application-defined labels.
    public var logLabels: JSONObject?
    /// Where the entry comes from.
    public var logHost: LogHost?
    /// Every member this type does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder: WireKeyOrder

    /// Creates a Log object.
    public init(
        objectID: String = ObjectID.make(), objectType: String = Log.objectType, name: String, logLevel: LogLevel,
        logMessage: String, logDate: String, logTags: [String]? = nil, logLabels: JSONObject? = nil,
        logHost: LogHost? = nil, externalID: String? = nil, parentObjectID: String? = nil, locationID: String? = nil,
        isDeactivated: Bool? = nil, custom: JSONObject = [:]
    ) {
        self.base = ObjectBase(
            objectID: objectID, objectType: objectType, name: name, externalID: externalID,
            parentObjectID: parentObjectID, locationID: locationID, isDeactivated: isDeactivated)
        self.logLevel = logLevel
        self.logMessage = logMessage
        self.logDate = logDate
        self.logTags = logTags
        self.logLabels = logLabels
        self.logHost = logHost
        self.custom = custom
        self.wireOrder = .none
    }

    /// Decodes and validates an object of core type `Log`, as coaty-js's
    /// `CoreTypes.isObject(obj, "Log")` does; members this type does not declare go to ``custom``.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the first missing or invalid field.
    public init(jsonObject: JSONObject) throws(ObjectDecodingError) {
        try self.init(wire: jsonObject, context: WireContext(of: jsonObject), registry: ObjectTypeRegistry())
    }
}

extension Log: CoreObject {
    init(wire object: JSONObject, context: WireContext, registry: ObjectTypeRegistry) throws(ObjectDecodingError) {
        var base = BaseFields()
        var custom = JSONObject()
        var logLevel: LogLevel?
        var logMessage: String?
        var logDate: String?
        var logTags: [String]?
        var logLabels: JSONObject?
        var logHost: LogHost?
        for (key, member) in object {
            if try base.read(key, member, context) { continue }
            switch key {
            case "logLevel": logLevel = try Wire.enumeration(member, key, context, LogLevel.self)
            case "logMessage": logMessage = try Wire.string(member, key, context)
            case "logDate": logDate = try Wire.string(member, key, context)
            case "logTags": logTags = try Wire.stringArray(member, key, context)
            case "logLabels": logLabels = try Wire.object(member, key, context)
            case "logHost": logHost = try LogHost.read(member, key, context)
            default: custom.appendNew(key, member)
            }
        }
        let fields = try base.required(as: .log, context)
        guard let logLevel else { throw context.missing("logLevel") }
        guard let logMessage else { throw context.missing("logMessage") }
        guard let logDate else { throw context.missing("logDate") }
        self.base = fields
        self.logLevel = logLevel
        self.logMessage = logMessage
        self.logDate = logDate
        self.logTags = logTags
        self.logLabels = logLabels
        self.logHost = logHost
        self.custom = custom
        self.wireOrder = WireKeyOrder(source: object)
    }

    func wireObject() -> JSONObject {
        var head = baseHead(capacity: 14)
        head.appendNew("logLevel", .int(logLevel.rawValue))
        head.appendNew("logMessage", .string(logMessage))
        head.appendNew("logDate", .string(logDate))
        if let logTags { head.appendNew("logTags", .array(logTags.map(JSONValue.string))) }
        if let logLabels { head.appendNew("logLabels", .object(logLabels)) }
        if let logHost { head.appendNew("logHost", .object(logHost.wireObject())) }
        return wireOrder.merge(head: head, custom: custom)
    }
}

/// The severity of a ``Log`` entry; an integer on the wire.
public enum LogLevel: Int, Sendable, Hashable, CaseIterable, Codable {
    /// Debugging detail.
    case debug = 10
    /// Information.
    case info = 20
    /// A warning.
    case warning = 30
    /// An error.
    case error = 40
    /// A fatal error.
    case fatal = 50
}
