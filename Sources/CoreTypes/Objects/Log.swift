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
    var wireOrder = WireKeyOrder.none
}

extension Log {
    /// Creates a Log object.
    public init(
        objectID: String = ObjectID.make(), objectType: String = Log.objectType, name: String, logLevel: LogLevel,
        logMessage: String, logDate: String, logTags: [String]? = nil, logLabels: JSONObject? = nil,
        logHost: LogHost? = nil, externalID: String? = nil, parentObjectID: String? = nil, locationID: String? = nil,
        isDeactivated: Bool? = nil, custom: JSONObject = [:]
    ) {
        self.init(
            base: ObjectBase(objectID, objectType, name, externalID, parentObjectID, locationID, isDeactivated),
            logLevel: logLevel, logMessage: logMessage, logDate: logDate, logTags: logTags, logLabels: logLabels,
            logHost: logHost, custom: custom, wireOrder: .none)
    }
}

extension Log: CoreObject, WireDescribed {
    static let wireSchema = WireSchema<Log>([
        .required("logLevel", \.logLevel),
        .required("logMessage", \.logMessage),
        .required("logDate", \.logDate),
        .optional("logTags", \.logTags, Wire.nonEmptyStrings),
        .optional("logLabels", \.logLabels),
        .optional("logHost", \.logHost),
    ])
    static let wireTemplate = Log(name: "", logLevel: .debug, logMessage: "", logDate: "")
}

extension LogLevel: WireEnumeration {}

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
